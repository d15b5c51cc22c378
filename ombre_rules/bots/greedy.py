"""The greedy player: wins a trick as cheaply as it can, never overtakes a partner, throws its least useful
cards, and bids from a hand evaluation made with the variant's own rank tables."""
from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from itertools import pairwise
from math import ceil, log

from ..engine.phases import DONE
from ..engine.view import leftover_shown, partner_known, rank_context
from .seat import Seat, from_view, same_side

# A bid needs this share of the tricks above an equal share (a declarer must beat each opponent).
BID_MARGIN = 0.08
# How much more each rung up the contract ladder asks for.
LEVEL_STEP = 0.15
# How many tricks above those a low contract allows a hand may be estimated to take and still bid it.
LOW_SLACK = 0.0
# a defender plays on (rather than lay his hand down) when his hand should take this share of the tricks
DEFEND_SHARE = 0.2
# Draws of the stock averaged to value an exchange.
EXCHANGE_DRAWS = 4


# Exchange values a trump context remembers before it forgets them all (a seat values one hand many times).
MEMO_SIZE = 4096


class Tables:
    """Per trump context, what the greedy player asks of every card, worked out once: the cards that beat it
    when it leads its own suit, its order of keeping, and the cards in the orders the estimates walk them."""

    __slots__ = ("ctx", "width", "full", "bits", "rows", "beats", "keep", "median", "power", "tm", "tdesc", "plain",
                 "ordered", "pasc", "place", "adesc", "aasc", "memo", "tshares", "lead_high", "lead_low")

    def __init__(self, ctx) -> None:
        deck = ctx.rules.deck
        n = deck.size
        power = self.power = ctx.power
        tm = self.tm = ctx.trump_mask
        self.ctx = ctx
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
        self.keep = [(tm >> c & 1, deck.cards[c].points, power[c]) for c in range(n)]
        # a lead: the master to lead (trump before plain, then the highest), the card to lead without one
        self.lead_high = [(tm >> c & 1, power[c]) for c in range(n)]
        self.lead_low = [(deck.cards[c].points, power[c]) for c in range(n)]
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
                self.plain.append((_mask(cards), cards, _SHARES.setdefault(("plain", n, *cards), {})))
        # whether every plain suit's cards come before the next suit's (then the suits of any hand are in the
        # order of their lowest cards already)
        self.ordered = all(a[0].bit_length() < (b[0] & -b[0]).bit_length() for a, b in pairwise(self.plain))
        self.memo: dict = {}  # (hand, unseen, can, demands) -> exchange value
        self.tshares = _SHARES.setdefault(("trumps", n, *self.tdesc), {})


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
    tricks = 0.0
    width = t.width
    tm = t.tm
    mine = hand & tm
    if mine:
        key = mine << width | unseen & tm
        memo = t.tshares
        shares = memo.get(key)
        if shares is None:
            shares = _remember(memo, key, _trump_shares(t.tdesc, t.beats, mine, unseen & tm))
        for x in shares:
            tricks += x
    plain = t.plain if t.ordered else sorted(t.plain, key=lambda p: (m := hand & p[0]) & -m)
    for sm, cards, memo in plain:
        m = hand & sm
        if m:
            shares = memo.get(m << width | unseen & sm)
            if shares is None:
                shares = _remember(memo, m << width | unseen & sm, _plain_shares(cards, t.beats, m, unseen & sm))
            for x in shares:
                tricks += x
    return tricks


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


def best_trump(rules, contract, hand: int, unseen: int, suits) -> tuple[float, object]:
    """The trump (of `suits`) that makes the hand strongest, with its estimate."""
    best = None
    for s in suits:
        e = estimate(tables(rules.context(contract.ranking, s)), hand, unseen)
        if best is None or e > best[0]:
            best = (e, s)
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
        got = _mask(top)
        hand, unseen = (hand & ~_mask(low)) | got, unseen & ~got
        est = max(est, estimate(t, hand, unseen))
    if can == 0:  # nothing to exchange
        return est
    throw = junk(t, hand, unseen)[:can]
    if not throw:
        return est
    keep = hand & ~_mask(throw)
    if unseen.bit_count() < len(throw):
        return est
    total = 0.0
    for got in _draws(t, hand, unseen, len(throw)):
        total += estimate(t, keep | got, unseen & ~got)
    return max(est, total / EXCHANGE_DRAWS)


_DRAWS: dict = {}  # (hand, unseen, cards drawn) -> the draws: the same for every trump a hand is valued with
_DRAW_RNG = random.Random()  # seeded anew by each hand: as random.Random(hand) would be


def _draws(t: Tables, hand: int, unseen: int, k: int) -> tuple[int, ...]:
    """EXCHANGE_DRAWS draws of `k` cards of `unseen` (lowest first, drawn from as a list) as masks, seeded by
    the hand."""
    key = (hand, unseen, k)
    got = _DRAWS.get(key)
    if got is None:
        _DRAW_RNG.seed(hand)
        got = _remember(_DRAWS, key, samples(_DRAW_RNG.getrandbits, t.bits(unseen), k))
    return got


def samples(getrandbits: Callable[[int], int], pool: list[int], k: int) -> tuple[int, ...]:
    """EXCHANGE_DRAWS samples of `k` cards of `pool`, one after the other from one generator, as masks: the
    cards `random.Random.sample(pool, k)` takes, drawn as it draws them (each index below a size by
    `getrandbits` of the size's bit length, again while too large; from a shrinking copy of a small pool,
    else again while already taken), without building its lists (tests/test_bots.py compares the two)."""
    n = len(pool)
    setsize = 21
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    out = []
    if n <= setsize:
        for _ in range(EXCHANGE_DRAWS):
            p = pool[:]
            m = 0
            for size in range(n, n - k, -1):
                b = size.bit_length()
                j = getrandbits(b)
                while j >= size:
                    j = getrandbits(b)
                m |= 1 << p[j]
                p[j] = p[size - 1]
            out.append(m)
        return tuple(out)
    b = n.bit_length()
    for _ in range(EXCHANGE_DRAWS):
        m = taken = 0
        for _i in range(k):
            j = getrandbits(b)
            while j >= n or taken >> j & 1:
                j = getrandbits(b)
            taken |= 1 << j
            m |= 1 << pool[j]
        out.append(m)
    return tuple(out)


def contract_reaches(rules, contract, hand: int, unseen: int, talon: int, need: float) -> bool:
    """Whether the tricks the hand should take as declarer of `contract`, counting what an exchange or a demand
    may bring, reach `need`: with the best trump the declarer may name (the first that reaches it will do), or
    on average over the trumps that may be turned."""
    ts = trump_tables(rules, contract)
    lim = contract.exchange.declarer.max_const if contract.exchange is not None else 0
    can = talon if lim is None else min(lim, talon)
    demands = contract.demands
    if contract.trump_mode == "turned":
        # the average over the trumps that may be turned; given up as soon as the trumps left cannot lift it
        # to `need` even at the most a hand can be worth (a trick a card, half a trick for trump length)
        most = hand.bit_count() + demands + 0.5
        short = need * len(ts) - 1e-6  # far above the rounding of the sums
        vals = []
        total = 0.0
        for i, t in enumerate(ts, 1):
            v = exchange_value(t, hand, unseen, can, demands)
            vals.append(v)
            total += v
            if total + (len(ts) - i) * most < short:
                return False
        return sum(vals) / len(ts) >= need
    return any(exchange_value(t, hand, unseen, can, demands) >= need for t in ts)


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


# Random deals played to learn what a contract asks of its declarer.
AIM_PROBES = 40
_AIMS: dict = {}  # per contract (contracts live as long as their ruleset; a suit bid is its base's)
_AIM_OF: dict[int, tuple] = {}  # the same by the contract's identity (no hash of its own to work out): (it, aim)


def tricks_allowed(rules, contract) -> int | None:
    """None when the contract is won by taking tricks (the usual aim); else the most tricks its declarer took
    in a deal he won, when its declarer wins by taking few (a contract played to lose tricks). Learnt once per contract
    from random deals in which it is bid (all-pass fallbacks included) and played out at random: the contract
    aims low when the deals its declarer won gave him fewer tricks on average than those he lost."""
    got = _AIM_OF.get(id(contract))
    if got is not None:
        return got[1]
    if contract not in _AIMS:
        _AIMS[contract] = _probe_aim(rules, contract)
    _AIM_OF[id(contract)] = (contract, _AIMS[contract])
    return _AIMS[contract]


def _probe_aim(rules, contract) -> int | None:
    """What `tricks_allowed` learns of a contract from its random deals."""
    from ..engine import State

    rng = random.Random(contract.index)
    won: list[int] = []
    lost: list[int] = []
    bid, want = rules.A_BID + contract.index, rules.A_PASS
    for i in range(AIM_PROBES):
        s = State(rules, seed=rng.getrandbits(32), dealer=i % rules.players)
        while s.contract is None and s.phase != DONE:
            legal = s.legal_actions()
            s.apply(bid if bid in legal else want if want in legal else legal[-1])
        if s.contract is not contract:
            continue
        s.random_playout(rng.random)
        if not s.trick_log:  # settled without play (every defender passed): it tells nothing of the aim
            continue
        d = s.result.declarer
        (won if s.result.payments[d] > 0 else lost).append(s.result.tricks[d])
    low = bool(won and lost) and sum(won) / len(won) < sum(lost) / len(lost)
    return max(won) if low else None


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


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_LADDERS: dict = {}  # per ruleset


def _ladder(rules) -> tuple[list[int], str | None, bool]:
    """The levels of the biddable contracts, in order; the ranking of the lowest (the ladder's kind of play);
    whether some contract gives the declarer a partner (then sides play for a majority of the tricks, even a
    declarer alone; elsewhere the declarer plays to beat each opponent)."""
    out = _LADDERS.get(rules)
    if out is None:
        biddable = [c for c in rules.contracts if c.biddable]
        kind = min(biddable, key=lambda c: c.level).ranking if biddable else None
        teams = any(c.call is not None and not c.call.demand for c in rules.contracts)
        out = _LADDERS[rules] = (sorted({c.level for c in biddable}), kind, teams)
    return out


class GreedyPolicy:
    """Greedy decisions over a seat's situation (`Seat`)."""

    def __init__(self, rng: random.Random | None = None, seed: int | None = None) -> None:
        self._rng = rng
        self._seed = seed

    @property
    def rng(self) -> random.Random:
        """The generator of its random choices (made from `seed` when first needed: most deals need none)."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    def choose(self, s: Seat, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        r = s.rules
        a0 = legal[0]
        if r.A_STOP in legal:  # take the game now rather than risk it
            return r.A_STOP
        if a0 < r.A_DISCARD:
            return self.play(s, legal)
        if is_exchange(r, legal):
            return self.exchange(s, legal)
        if any(r.A_BID <= a < r.A_TRUMP for a in legal) or r.A_HOLD in legal:
            return self.bid(s, legal)
        if r.A_TRUMP <= a0 < r.A_PASS:
            suits = [r.deck.suits[a - r.A_TRUMP] for a in legal]
            unseen = r.deck.full_mask & ~s.seen
            if s.contract is not None and tricks_allowed(r, s.contract) is not None:
                return r.A_TRUMP + min(suits, key=lambda t: estimate(tables(r.context(s.contract.ranking, t)),
                                                                     s.hand, unseen)).index
            return r.A_TRUMP + best_trump(r, s.contract, s.hand, unseen, suits)[1].index
        if r.A_FOLLOW in legal:
            return self.defend(s, legal)
        for a in (r.A_STOP, r.A_ACCEPT, r.A_DRAW, r.A_PASS):
            if a in legal:
                return a
        known = set(range(r.A_PASS, r.A_REFUSE + 1))
        pick = [a for a in legal if a not in known] or legal
        return pick[0] if len(pick) == 1 else self.rng.choice(pick)

    def defend(self, s: Seat, legal: list[int]) -> int:
        """Play against a contract won by taking few tricks; else play when the hand should take its share of
        the tricks, invite a partner who passed with half of it, and pass otherwise."""
        r = s.rules
        if s.contract is None or tricks_allowed(r, s.contract) is not None:
            return r.A_FOLLOW
        unseen = r.deck.full_mask & ~s.seen
        est = estimate(tables(r.context(s.contract.ranking, s.trump)), s.hand, unseen)
        want = s.tricks_total * DEFEND_SHARE
        if est >= want:
            return r.A_FOLLOW
        if r.A_INVITE in legal and est >= want / 2:
            return r.A_INVITE
        return r.A_PASS

    # -- auction ---------------------------------------------------------------------------------------
    def bid(self, s: Seat, legal: list[int]) -> int:
        """Of the bids the hand supports, the one worth most (the lowest of equal worth); each contract up the
        ladder asks for more (LEVEL_STEP a rung); a contract with a called partner asks the side's goal less
        what a partner brings on average. A contract ranked otherwise than the ladder's first (its play is
        of another kind) is bid only as the lowest the hand supports."""
        r = s.rules
        unseen = r.deck.full_mask & ~s.seen
        share = s.tricks_total / max(s.active, 2)
        ladder, kind, teams = _ladder(r)
        bids = sorted((r.contracts[a - r.A_BID] for a in legal if r.A_BID <= a < r.A_TRUMP), key=lambda c: c.level)

        def need(c) -> float:
            side = 2 if c.call is not None and not c.call.demand else 1
            goal = 0.5 if teams else side / max(s.active, 2)
            base = s.tricks_total * (goal + BID_MARGIN) - (side - 1) * share
            rung = ladder.index(c.level) if c.level in ladder else 0
            return base * (1 + LEVEL_STEP * rung)

        def supports(c) -> bool:
            allowed = tricks_allowed(r, c)
            if allowed is None:
                return contract_reaches(r, c, s.hand, unseen, s.talon, need(c))
            return low_estimate(r, c, s.hand, unseen) <= allowed + LOW_SLACK

        # the most valuable supported bid of the ladder's kind (the lowest of equal worth), else the lowest
        # supported one of another kind: each tried in that order until one is supported
        same = sorted((c for c in bids if c.ranking == kind), key=lambda c: (-c.value, c.level))
        for c in same + [c for c in bids if c.ranking != kind]:
            if supports(c):
                return r.A_BID + c.index
        if r.A_HOLD in legal and s.high_bid is not None and supports(s.high_bid):
            return r.A_HOLD
        return r.A_PASS if r.A_PASS in legal else self.rng.choice(legal)

    # -- exchange --------------------------------------------------------------------------------------
    def exchange(self, s: Seat, legal: list[int]) -> int:
        return discard(s.rules, s.seat, s.declarer, s.contract, s.trump, s.hand, s.rules.deck.full_mask & ~s.seen,
                       legal)

    # -- play ------------------------------------------------------------------------------------------
    def play(self, s: Seat, legal: list[int]) -> int:
        r = s.rules
        nc = r.A_DISCARD
        cards = legal if max(legal) < nc else [a for a in legal if a < nc]
        if s.seat == s.declarer and tricks_allowed(r, s.contract) is not None:
            return duck(s.ctx, s.trick, cards)
        t = played_tables(r, s.contract, s.trump)
        return card(t, s.seat, s.declarer, s.partner, s.hidden_partner, t.full & ~s.seen, s.trick, s.active, cards)


def is_exchange(r, legal: list[int]) -> bool:
    """Whether a choice with no claim and no card to play in `legal` (of more than one action) is an exchange's:
    discards, or a draw beside them."""
    return legal[0] < r.A_BID or r.A_DRAW in legal and any(a < r.A_BID for a in legal)


def discard(r, seat: int, declarer: int | None, contract, trump, hand: int, unseen: int, legal: list[int]) -> int:
    """The exchange's choice of `seat`: its weakest junk card that it may throw (a defender: only one below the
    median), else a draw, else the card it least wants to keep; with the trump it would name when trumps are
    still to be named."""
    if trump is None and contract is not None and contract.trump_mode == "named":
        suit = best_trump(r, contract, hand, unseen, r.deck.suits)[1]
        t = tables(r.context(contract.ranking, suit))
    else:
        t = played_tables(r, contract, trump)
    nd, nb = r.A_DISCARD, r.A_BID
    may = 0  # the hand's cards it may discard
    for a in legal:
        if nd <= a < nb:
            may |= 1 << (a - nd)
    may &= hand
    beats, power, median = t.beats, t.power, t.median
    declares = seat == declarer
    for c in t.pasc:  # its junk (as `junk` lists it), weakest first
        if may >> c & 1 and unseen & beats[c] and (declares or power[c] < median):
            return nd + c
    if r.A_DRAW in legal:
        return r.A_DRAW
    c = min({a - nd for a in legal if nd <= a < nb}, key=t.keep.__getitem__)  # of a set, as ties always fell
    return nd + c


def card(t: Tables, seat: int, declarer: int | None, partner: int | None, hidden: bool, unseen: int,
         trick: list[tuple[int, int]], active: int, cards: list[int]) -> int:
    """The card to play of `cards` for `seat` (not the declarer of a contract won by taking few tricks: he
    ducks) with the rank tables of `t`, the cards `unseen` whose places it does not know, `trick` (seat,
    card) in play, `active` seats playing, and the declarer and his partner as it knows them (`same_side`)."""
    beats = t.beats
    if not trick:
        masters = [c for c in cards if not unseen & beats[c]]
        if masters:
            return max(masters, key=t.lead_high.__getitem__)
        tm = t.tm
        plain = [c for c in cards if not tm >> c & 1]
        return min(plain or cards, key=t.lead_low.__getitem__)
    best_seat, c = trick[0]
    row = t.rows[c]
    top = row[c]
    for sc in trick:  # the first of the highest
        k = row[sc[1]]
        if k > top:
            best_seat, top = sc[0], k
    if same_side(seat, best_seat, declarer, partner, hidden):
        return min(cards, key=t.keep.__getitem__)
    winners = [c for c in cards if row[c] > top]
    if not winners:
        return min(cards, key=t.keep.__getitem__)
    if len(trick) == active - 1 or len(winners) == 1:  # the cheapest winner (the first of equal rank, as sorted)
        return min(winners, key=row.__getitem__)
    winners.sort(key=row.__getitem__)
    for c in winners:  # the cheapest card no unseen card can overtake in this trick
        if not unseen & beats[c]:
            return c
    return winners[0]


def duck(ctx, trick: list[tuple[int, int]], cards: list[int]) -> int:
    """The declarer of a low contract: lead his lowest card; follow with the highest card that does not take
    the trick, or, when each would, the lowest."""
    power = ctx.power
    if not trick:
        return min(cards, key=power.__getitem__)
    row = ctx.key[ctx.eff[trick[0][1]]]
    top = max(row[c] for _seat, c in trick)
    under = [c for c in cards if row[c] < top]
    if under:
        return max(under, key=power.__getitem__)
    return min(cards, key=row.__getitem__)


def trick_picker(state) -> Callable[[int, list[int], list[tuple[int, int]], int], int]:
    """Greedy's card for each seat of `state` while plain play goes on, as `State.play_tricks` asks for it: the
    card `GreedyPlayer.act` chooses from the seat's facts (`engine.view.seat_facts`), read from the state's
    masks. What stays fixed through the call is worked out once: the rank tables (trumps are known), the seats
    in play, the stock and turned card each seat was shown, the declarer's aim, and the sides when no card
    calls a partner; a called partner becomes known when his card is played, so that is asked at each card."""
    r = state.rules
    contract, trump = state.contract, state.trump
    declarer = state.declarer if state.declarer >= 0 else None
    t = played_tables(r, contract, trump)
    ctx, full = t.ctx, t.full
    sitters = r.sitters[state.dealer]
    active = state.n - len(sitters) + sitters.count(state.declarer) - state.def_out.bit_count()
    shown = [0] * state.n  # what a seat was shown besides its hand, its discards and the cards played
    for seat in range(state.n):
        if state.talon:
            shown[seat] = leftover_shown(state, seat)
        if state.turned >= 0:
            shown[seat] |= 1 << state.turned
    low = declarer is not None and tricks_allowed(r, contract) is not None
    hands, discards = state.hands, state.discards
    called = state.partner >= 0
    hidden = state.called >= 0

    def pick(seat: int, cards: list[int], trick: list[tuple[int, int]], played: int) -> int:
        if low and seat == declarer:
            return duck(ctx, trick, cards)
        unseen = full & ~(hands[seat] | discards[seat] | played | shown[seat])
        if called and partner_known(state, seat):
            return card(t, seat, declarer, state.partner, False, unseen, trick, active, cards)
        return card(t, seat, declarer, None, hidden, unseen, trick, active, cards)

    return pick


class GreedyPlayer:
    """The greedy player seeing only its seat's view."""

    name = "greedy"
    view_actions = "facts"  # its view's facts as masks (`engine.view.seat_facts`): no names to build and read
    forced_unseen = True  # one legal action is taken without a view

    def __init__(self, seed: int | None = None, rules=None) -> None:
        self.rules = rules
        self.policy = GreedyPolicy(seed=seed)

    # a table of greedy players plays its plain tricks in the engine's loop (`State.play_tricks`) with this
    trick_picker = staticmethod(trick_picker)

    def act(self, view: dict | Seat, legal: list[int]) -> int:
        """The greedy choice from the seat's view (a dict) or from its facts (`Seat`)."""
        if len(legal) == 1:
            return legal[0]
        return self.policy.choose(view if type(view) is Seat else from_view(self.rules, view), legal)

