"""Greedy's hand evaluation, made with the variant's own rank tables: the tricks a hand should take with a
trump (`estimate`), what an exchange or a demand may bring (`exchange_value`), whether a contract's need is
reached (`contract_reaches`), and what a contract asks of its declarer (`tricks_allowed`). Each trump context
works out its tables once (`Tables`); estimates are remembered per holding."""
from __future__ import annotations

import random
import sys
from array import array
from collections.abc import Hashable
from itertools import pairwise
from math import ceil, log

from ..cards import Suit
from ..cards import mask as mask_of_ids
from ..checks import as_count
from ..engine.view import rank_context
from ..envs import DealEnv
from ..errors import OmbreError
from ..solve.aim import contract_aim

# Draws of the stock averaged to value an exchange.
EXCHANGE_DRAWS = 4


# Exchange values a trump context remembers before it forgets them all (a seat values one hand many times).
MEMO_SIZE = 4096


class Tables:
    """Per trump context, what the greedy player asks of every card, worked out once: the cards that beat it
    when it leads its own suit, its order of keeping, and the cards in the orders the estimates walk them."""

    __slots__ = ("ctx", "width", "full", "bits", "rows", "beats", "keep", "median", "power", "tm", "tdesc", "plain",
                 "ordered", "pasc", "place", "adesc", "aasc", "memo", "tshares", "lead_high", "lead_low", "team_of")

    def __init__(self, ctx) -> None:
        deck = ctx.rules.deck
        n = deck.size
        power = self.power = ctx.power
        tm = self.tm = ctx.trump_mask
        self.ctx = ctx
        self.team_of = ctx.rules.team_of  # the fixed partnerships: every seat's team (None: none)
        self.width = n
        self.full = deck.full_mask
        self.bits = deck.bits
        self.rows = [ctx.key[ctx.eff[c]] for c in range(n)]  # the rank row of the suit each card leads
        self.beats = []
        for c in range(n):
            row = self.rows[c]
            m = 0
            for u in range(n):
                if row[u] > row[c]:
                    m |= 1 << u
            self.beats.append(m)
        # order of keeping: plain before trump, few points before many, low before high
        self.keep = _ranks([(tm >> c & 1, deck.cards[c].points, power[c]) for c in range(n)])
        # a lead: the master to lead (trump before plain, then the highest), the card to lead without one
        self.lead_high = _ranks([(tm >> c & 1, power[c]) for c in range(n)])
        self.lead_low = _ranks([(deck.cards[c].points, power[c]) for c in range(n)])
        ps = sorted(p for p in power if p < 1000)
        self.median = ps[len(ps) // 2] if ps else 0
        # every list below is in the order a stable sort of the cards (lowest id first) by power gives
        self.adesc = sorted(range(n), key=lambda c: -power[c])
        self.aasc = sorted(range(n), key=power.__getitem__)
        self.tdesc = [c for c in self.adesc if tm >> c & 1]
        self.pasc = [c for c in self.aasc if not tm >> c & 1]
        self.place = [0] * n  # each plain card's place in pasc
        for i, c in enumerate(self.pasc):
            self.place[c] = i
        # per plain suit that has cards: its mask, its cards strongest first, and the tricks its holdings bring
        # (shared by every context that orders the suit's cards so)
        self.plain = []
        for s in range(len(deck.suits)):
            cards = [c for c in self.adesc if not tm >> c & 1 and ctx.eff[c] == s]
            if cards:
                self.plain.append((mask_of_ids(cards), cards, _SHARES.setdefault(("plain", n, *cards), {})))
        # whether every plain suit's cards come before the next suit's (then the suits of any hand are in the
        # order of their lowest cards already)
        self.ordered = all(a[0].bit_length() < (b[0] & -b[0]).bit_length() for a, b in pairwise(self.plain))
        self.memo: dict = {}  # (hand, unseen, can, demands) -> exchange value
        self.tshares = _SHARES.setdefault(("trumps", n, *self.tdesc), {})


def _ranks(keys: list) -> list[int]:
    """Each key's place among the distinct keys, lowest first: ints that order (and tie) the cards as the keys
    do, and compare faster than tuples."""
    place = {k: i for i, k in enumerate(sorted(set(keys)))}
    return [place[k] for k in keys]


_TABLES: dict = {}  # per context (contexts live as long as their ruleset, which caches them)
# per size of the deck and order of a plain suit's cards (or of the trumps): the hand's cards there and the
# unseen ones there (one int: the hand's shifted by the deck's size above the unseen) -> the tricks they bring,
# one share per card that brings one
_SHARES: dict[tuple, dict] = {}


def tables(ctx) -> Tables:
    t = _TABLES.get(ctx)
    if t is None:
        t = _TABLES[ctx] = Tables(ctx)
    return t


# per ruleset, contract and trump, by identity (the value keeps them, so that their ids stay theirs): the tables
# of the rank context they play with (`engine.view.rank_context`)
_PLAYED: dict[tuple[int, int, int], tuple] = {}


def played_tables(rules, contract, trump) -> Tables:
    """The tables of the rank context of a contract and trump (before a contract: of the first contract)."""
    key = (id(rules), id(contract), id(trump))
    got = _PLAYED.get(key)
    if got is None:
        got = _PLAYED[key] = (rules, contract, trump, tables(rank_context(rules, contract, trump)))
    return got[3]


def estimate(t: Tables, hand: int, unseen: int) -> float:
    """Tricks a hand should take with the trump context of `t`: trumps that can draw the higher ones still out,
    top plain cards, and seconds guarded by length. Each suit's shares are worked out once per holding and
    remembered; they are added in the order the cards were always counted (trumps, then the plain suits by
    the hand's lowest card in each), so the sum is the same to the last bit."""
    return estimates_total(t, hand, unseen, _NOTHING)


_NOTHING = (0,)  # no card drawn


def estimates_total(t: Tables, keep: int, unseen: int, draws: tuple[int, ...]) -> float:
    """The sum of the estimates of `keep` with each of `draws` (masks of unseen cards) added to it, in order:
    `estimate(t, keep | got, unseen & ~got)` for each `got`, added one after the other."""
    width = t.width
    tm = t.tm
    tshares, plain = t.tshares, t.plain
    total = 0.0
    for got in draws:
        hand = keep | got
        out = unseen & ~got
        tricks = 0.0
        mine = hand & tm
        if mine:
            key = mine << width | out & tm
            shares = tshares.get(key)
            if shares is None:
                shares = _remember(tshares, key, _trump_shares(t.tdesc, t.beats, mine, out & tm))
            for x in shares:
                tricks += x
        for sm, cards, memo in plain if t.ordered else sorted(plain, key=lambda p: (m := hand & p[0]) & -m):
            m = hand & sm
            if m:
                key = m << width | out & sm
                shares = memo.get(key)
                if shares is None:
                    shares = _remember(memo, key, _plain_shares(cards, t.beats, m, out & sm))
                for x in shares:
                    tricks += x
        total += tricks
    return total


def _remember(memo: dict, key: Hashable, value):
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[key] = value
    return value


def _trump_shares(tdesc: list[int], beats: list[int], mine: int, out: int) -> tuple[float, ...]:
    """The tricks a hand's trumps `mine` bring with the trumps `out` unseen: a whole trick for each that can
    draw the higher ones still out, half for one a trump short, half for holding more trumps than are out."""
    shares = []
    i = 0  # trumps of the hand above this one
    for c in tdesc:
        if mine >> c & 1:
            h = (out & beats[c]).bit_count()
            if h <= i:
                shares.append(1.0)
            elif h <= i + 1:
                shares.append(0.5)
            i += 1
    if i > out.bit_count():
        shares.append(0.5)
    return tuple(shares)


def _plain_shares(cards: list[int], beats: list[int], mine: int, out: int) -> tuple[float, ...]:
    """The tricks a hand's cards `mine` of one plain suit (`cards`, strongest first) bring with that suit's
    cards `out` unseen: the top card that is master, and each lower one guarded by as many cards above it as
    unseen cards beat it."""
    shares = []
    j = 0
    for c in cards:
        if mine >> c & 1:
            if (out & beats[c]).bit_count() <= j:
                shares.append(0.8 if j == 0 else 0.4)
            j += 1
    return tuple(shares)


def junk(t: Tables, hand: int, unseen: int) -> list[int]:
    """Plain cards that are not masters, weakest first: what an exchange throws."""
    beats = t.beats
    return sorted([c for c in t.bits(hand & ~t.tm) if unseen & beats[c]], key=t.place.__getitem__)


def best_trump(rules, contract, hand: int, unseen: int, suits) -> tuple[float, Suit]:
    """The trump (of `suits`, not empty) that makes the hand strongest, with its estimate."""
    best = None
    for s in suits:
        e = estimate(tables(rules.context(contract.ranking, s)), hand, unseen)
        if best is None or e > best[0]:
            best = (e, s)
    assert best is not None  # suits is not empty
    return best


def exchange_value(t: Tables, hand: int, unseen: int, can: int, demands: int) -> float:
    """The hand's estimate once it has thrown its junk (up to `can` cards) for as many unseen cards, averaged
    over a few draws, and (for `demands` > 0) its weakest cards for the strongest unseen ones. The draws are
    seeded by the hand, so one hand always gets one value (remembered: a seat values its hand at every bid)."""
    key = (hand, unseen, can, demands)
    memo = t.memo
    v = memo.get(key)
    if v is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        v = memo[key] = _exchange_value(t, hand, unseen, can, demands)
    return v


def _exchange_value(t: Tables, hand: int, unseen: int, can: int, demands: int) -> float:
    est = t.memo.get((hand, unseen, 0, 0))  # the hand's estimate, when valued for a contract without exchange
    if est is None:
        est = estimate(t, hand, unseen)
    if demands:
        top = _first(t.adesc, unseen, demands)
        low = _first(t.aasc, hand, len(top))
        got = mask_of_ids(top)
        hand, unseen = (hand & ~mask_of_ids(low)) | got, unseen & ~got
        est = max(est, estimate(t, hand, unseen))
    if can == 0:  # nothing to exchange
        return est
    beats = t.beats
    thrown = k = 0  # its junk (as `junk` lists it), when it may throw all of it
    for c in t.bits(hand & ~t.tm):
        if unseen & beats[c]:
            thrown |= 1 << c
            k += 1
    if not k:
        return est
    if k > can:  # its weakest junk
        thrown = mask_of_ids(junk(t, hand, unseen)[:can])
        k = can
    if unseen.bit_count() < k:
        return est
    return max(est, estimates_total(t, hand & ~thrown, unseen, _draws(t, hand, unseen, k)) / EXCHANGE_DRAWS)


_DRAWS: dict = {}  # (hand, unseen, cards drawn) -> the draws: the same for every trump a hand is valued with
_DRAW_RNG = random.Random()  # seeded anew by each hand: as random.Random(hand) would be
_WORDS: dict[int, list[int]] = {}  # per hand, the first words its generator gives (every draw of it starts there)
WORDS = 64  # words drawn at first: enough for EXCHANGE_DRAWS samples of a hand's junk nearly always


def _draws(t: Tables, hand: int, unseen: int, k: int) -> tuple[int, ...]:
    """EXCHANGE_DRAWS draws of `k` cards of `unseen` (lowest first, drawn from as a list) as masks, seeded by
    the hand: each draws from the start of the words of `random.Random(hand)`, which is seeded once per
    hand, and again with twice as many words for the rare draw that needs more."""
    key = (hand, unseen, k)
    got = _DRAWS.get(key)
    if got is None:
        words = _WORDS.get(hand)
        if words is None:
            _DRAW_RNG.seed(hand)
            words = _remember(_WORDS, hand, stream_words(_DRAW_RNG, WORDS))
        pool = t.bits(unseen)
        while True:
            try:
                got = _remember(_DRAWS, key, samples(words, pool, k))
                break
            except IndexError:  # the words ran out: the same words and as many again
                _DRAW_RNG.seed(hand)
                words = _remember(_WORDS, hand, stream_words(_DRAW_RNG, 2 * len(words)))
    return got


_LITTLE = sys.byteorder == "little"


def stream_words(rng: random.Random, n: int) -> list[int]:
    """The next `n` 32-bit words of a Mersenne-Twister generator, in the order it makes them: the numbers
    `getrandbits(b)` gives for b <= 32 are each the next word shifted right by 32 - b."""
    words = array("I", rng.getrandbits(32 * n).to_bytes(4 * n, "little"))  # the first word the lowest
    if not _LITTLE:
        words.byteswap()
    return words.tolist()


def samples(words: list[int], pool: list[int], k: int) -> tuple[int, ...]:
    """EXCHANGE_DRAWS samples of `k` cards of `pool`, one after the other from one generator, as masks: the
    cards `random.Random.sample(pool, k)` takes, drawn as it draws them (each index below a size by
    `getrandbits` of the size's bit length, again while too large; from a shrinking copy of a small pool,
    else again while already taken), without building its lists (tests/test_bots.py compares the two), from
    the generator's `words` (`stream_words`); IndexError when they run out."""
    n = len(pool)
    setsize = 21
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    out = []
    i = 0
    if n <= setsize:
        for _ in range(EXCHANGE_DRAWS):
            p = pool[:]
            m = 0
            for size in range(n, n - k, -1):
                shift = 32 - size.bit_length()
                j = words[i] >> shift
                i += 1
                while j >= size:
                    j = words[i] >> shift
                    i += 1
                m |= 1 << p[j]
                p[j] = p[size - 1]
            out.append(m)
        return tuple(out)
    shift = 32 - n.bit_length()
    for _ in range(EXCHANGE_DRAWS):
        m = taken = 0
        for _i in range(k):
            j = words[i] >> shift
            i += 1
            while j >= n or taken >> j & 1:
                j = words[i] >> shift
                i += 1
            taken |= 1 << j
            m |= 1 << pool[j]
        out.append(m)
    return tuple(out)


def contract_reaches(rules, contract, hand: int, unseen: int, can: int, need: float, turn_up: int = -1,
                     first_draw: int = -1) -> bool:
    """Whether the tricks the hand should take as declarer of `contract`, counting what an exchange of up to
    `can` cards (`exchange_limit`) or a demand may bring, reach `need`: with the best trump the declarer may
    name (the first that reaches it will do), on average over the trumps that may be turned, or with the suit
    of the deal's turned card (`turn_up`, -1: none) for a contract played in it. `first_draw` is the card the
    exchange's first draw takes when every seat knows it (the turned card on the talon's top; -1: none): the
    hand takes it for the card it least wants to keep."""
    ts = trump_tables(rules, contract)
    if contract.trump_mode == "turn_up" and turn_up >= 0:
        suit = rules.deck.cards[turn_up].suit
        ts = [tables(rules.context(contract.ranking, suit))]
    demands = contract.demands
    if first_draw >= 0 and can > 0:
        can -= 1
        took = hand | 1 << first_draw
        hands = [took & ~(1 << min(t.bits(took), key=t.keep.__getitem__)) for t in ts]
    else:
        hands = [hand] * len(ts)
    if contract.trump_mode == "turned":
        # the average over the trumps that may be turned; given up as soon as the trumps left cannot lift it
        # to `need` even at the most a hand can be worth (a trick a card, half a trick for trump length)
        most = hand.bit_count() + demands + 0.5
        short = need * len(ts) - 1e-6  # far above the rounding of the sums
        vals = []
        total = 0.0
        for i, (t, h) in enumerate(zip(ts, hands, strict=True), 1):
            v = exchange_value(t, h, unseen, can, demands)
            vals.append(v)
            total += v
            if total + (len(ts) - i) * most < short:
                return False
        return sum(vals) / len(vals) >= need
    return any(exchange_value(t, h, unseen, can, demands) >= need for t, h in zip(ts, hands, strict=True))


class _Bidder:
    """A deal as an exchange limit reads it while the contract is still being valued: `to_move` exchanging,
    `declarer` declaring `contract`, `dealer` dealing (the fields `envs.DealEnv` reads for those names);
    reading any other field of the deal fails."""

    __slots__ = ("contract", "dealer", "declarer", "rules", "to_move")

    def __init__(self, rules, contract, seat: int, declarer: int, dealer: int) -> None:
        self.rules, self.contract, self.dealer = rules, contract, dealer
        self.to_move, self.declarer = seat, declarer


_LIMITS: dict[tuple[int, int, int, int], tuple] = {}  # (contract's id, seat, declarer, dealer) -> (contract, limit)


def exchange_limit(rules, contract, seat: int, dealer: int, talon: int, declarer: int = -1) -> int:
    """The most cards `seat` may exchange with `talon` cards in the stock when `declarer` (-1: `seat` itself)
    declares `contract`: the limit of its part (the declarer's, else the first defender's) when it is a
    number; else the limit's expression read for those seats and the deal's `dealer` (when known); the whole
    stock when the expression reads more of the deal than that."""
    ex = contract.exchange
    if ex is None:
        return 0
    if declarer < 0:
        declarer = seat
    part = ex.declarer if seat == declarer else ex.first
    lim = part.max_const
    if lim is None and dealer >= 0:
        key = (id(contract), seat, declarer, dealer)
        got = _LIMITS.get(key)
        if got is None:
            try:
                value = part.max.fn(DealEnv(_Bidder(rules, contract, seat, declarer, dealer)))
            except (OmbreError, AttributeError, TypeError, ValueError, LookupError):  # it reads more of the deal
                value = None
            got = _remember(_LIMITS, key, (contract, None if value is None else as_count(value)))
        lim = got[1]
    return talon if lim is None else min(lim, talon)


# per contract, by identity (a suit bid compares equal to the contract it is a bid of): the contract (kept, so
# that its id stays its own) and its tables
_TRUMP_TABLES: dict[int, tuple] = {}


def trump_tables(rules, contract) -> list[Tables]:
    """The tables of each trump the declarer of `contract` may play with (no trump where it has none)."""
    got = _TRUMP_TABLES.get(id(contract))
    if got is None:
        choices = rules.trump_choices(contract) or [None]
        got = _TRUMP_TABLES[id(contract)] = (contract, [tables(rules.context(contract.ranking, s)) for s in choices])
    return got[1]


def tricks_allowed(rules, contract) -> int | None:
    """None when the contract is won by taking tricks (the usual aim, and what greedy plays for when the aim is
    not known); else, for a contract won by taking few, the most tricks its declarer's side took in a play-out
    it won: both learnt once per contract from its settlement on random deals (`solve.aim.contract_aim`)."""
    aim = contract_aim(rules, contract, "tricks")
    return aim.most_paid if aim.sign == -1 else None


def tricks_asked(rules, contract) -> int | None:
    """For a contract won by taking tricks, the fewest its declarer's side took in a play-out it won (None when
    it is won by taking few, or not known): what its winning condition asks (`solve.aim.contract_aim`)."""
    aim = contract_aim(rules, contract, "tricks")
    return aim.least_won if aim.sign == 1 else None


def low_estimate(rules, contract, hand: int, unseen: int) -> float:
    """Tricks a hand is likely to be unable to lose as declarer of `contract`: its trick estimate with the
    trump that makes it weakest (or on average over the trumps that may be turned)."""
    vals = [estimate(t, hand, unseen) for t in trump_tables(rules, contract)]
    return sum(vals) / len(vals) if contract.trump_mode == "turned" else min(vals)


def _first(order: list[int], mask: int, k: int) -> list[int]:
    """The first `k` cards of `order` that are in `mask` (fewer if it has fewer)."""
    out: list[int] = []
    if k > 0:
        for c in order:
            if mask >> c & 1:
                out.append(c)
                if len(out) == k:
                    break
    return out
