"""The greedy player: wins a trick as cheaply as it can, never overtakes a partner, throws its least useful
cards, and bids from a hand evaluation made with the variant's own rank tables (`bots.estimate`)."""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine import State
from ..engine.phases import DONE, EXCHANGE, PLAY
from ..engine.view import partner_known, same_side, seat_facts, seats_in_play, seen_cards, shown_cards
from .estimate import (
    Tables,
    best_trump,
    contract_reaches,
    estimate,
    exchange_limit,
    low_estimate,
    played_tables,
    tables,
    tricks_allowed,
    tricks_asked,
)
from .seat import Seat, from_view

# A bid needs this share of the tricks above an equal share (a declarer must beat each opponent).
BID_MARGIN = 0.08
# How much more each rung up the contract ladder asks for.
LEVEL_STEP = 0.15
# How many tricks above those a low contract allows a hand may be estimated to take and still bid it.
LOW_SLACK = 0.0
# How many tricks below the fewest a contract was ever won with (its winning condition's ask, `tricks_asked`)
# a hand may be estimated to bring, with a partner's share, and still bid it.
ASK_SLACK = 1.0
# a defender plays on (rather than lay his hand down) when his hand should take this share of the tricks
DEFEND_SHARE = 0.2
# What greedy learns from its own play, once per variant (`learn`): a contract it bids of its own choice and
# makes clearly less than the share that pays (its break-even share: the mean loss over the mean gain and loss
# of its own deals of it, and at least MIN_SUCCESS) in LEARN_DEALS deals of greedy at every seat asks
# LEARN_STEP tricks more of a hand (a contract won by taking few: allows LEARN_STEP fewer), again, for up to
# LEARN_ROUNDS rounds of deals; a contract it is forced into is not its choice.
MIN_SUCCESS = 0.4
LEARN_DEALS = 200
LEARN_Z = 1.645  # "clearly": a one-sided binomial test against the share at 5% (normal approximation)
LEARN_STEP = 0.5
LEARN_ROUNDS = 6


_LADDERS: dict = {}  # per ruleset


def _ladder(rules) -> tuple[list[int], str | None, bool]:
    """The levels of the biddable contracts, in order; the ranking of the lowest (the ladder's kind of play);
    whether the declarer has partners (fixed teams, or some contract's called card: then sides play for a
    majority of the tricks, even a declarer alone; elsewhere the declarer plays to beat each opponent)."""
    out = _LADDERS.get(rules)
    if out is None:
        biddable = [c for c in rules.contracts if c.biddable]
        kind = min(biddable, key=lambda c: c.level).ranking if biddable else None
        teams = rules.teams is not None or any(c.call is not None and not c.call.demand for c in rules.contracts)
        out = _LADDERS[rules] = (sorted({c.level for c in biddable}), kind, teams)
    return out


def _need(r, c, tricks_total, active: int) -> float:
    """The tricks a hand should bring to bid `c`: the side's goal with a margin, less what a called partner
    brings on average, and more for each rung of the ladder above the first, but no fewer than ASK_SLACK
    below what the contract's winning condition asks, less a partner's share (a vole asks every trick); and
    what greedy learnt to ask more of it (`learn`)."""
    ladder, _kind, teams = _ladder(r)
    share = tricks_total / max(active, 2)
    acc = r.auction.accept
    side = 2 if c.call is not None and not c.call.demand or acc is not None and c in acc.bids else 1
    if r.teams is not None:  # fixed partnerships: the declarer's team plays with him
        side = r.players // len(r.teams)
    goal = 0.5 if teams else side / max(active, 2)
    base = tricks_total * (goal + BID_MARGIN) - (side - 1) * share
    rung = ladder.index(c.level) if c.level in ladder else 0
    asked = tricks_asked(r, c)
    floor = asked - ASK_SLACK - (side - 1) * share if asked is not None else 0.0
    return max(base * (1 + LEVEL_STEP * rung), floor) + learnt(r).extra.get(c.index, 0.0)


_PLANS: dict = {}  # (rules, legal bids, tricks, seats in play) -> the bids in the order greedy tries them


def _bid_plan(r, legal: tuple[int, ...], tricks_total, active: int) -> list[tuple]:
    """The contracts bid by `legal`, in the order greedy tries them (the ladder's kind by worth, then the
    lowest first; then the others, lowest first), each with its need and, for a contract played to lose
    tricks, the most tricks its declarer may take (else None)."""
    key = (r, legal, tricks_total, active)
    plan = _PLANS.get(key)
    if plan is None:
        kind = _ladder(r)[1]
        bids = sorted((r.contracts[a - r.A_BID] for a in legal if r.A_BID <= a < r.A_TRUMP), key=lambda c: c.level)
        same = sorted((c for c in bids if c.ranking == kind), key=lambda c: (-c.value, c.level))
        if len(_PLANS) >= 4096:
            _PLANS.clear()
        plan = _PLANS[key] = [(c, _need(r, c, tricks_total, active), tricks_allowed(r, c))
                              for c in same + [c for c in bids if c.ranking != kind]]
    return plan


def _supports(r, c, need: float, allowed: int | None, s: Seat, unseen: int) -> bool:
    """Whether the hand of the seat `s` supports a bid of `c`: its tricks reach `need`, with what the exchange
    it would make as declarer may bring (`exchange_limit`), or for a contract played to lose tricks (`allowed`:
    the most its declarer may take), it can keep to them. The turned card lying on the talon's top is known:
    an exchange of the bidder takes it first; taken by another seat's, it asks the bidder the tricks it
    brings there more (an opponent's) or fewer (a partner's)."""
    if allowed is not None:
        return low_estimate(r, c, s.hand, unseen) <= allowed + LOW_SLACK - learnt(r).extra.get(c.index, 0.0)
    can = exchange_limit(r, c, s.seat, s.dealer, s.talon)
    up = s.turn_up
    if up < 0 or r.turn_up_from != "talon_top" or not s.seen >> up & 1 or s.hand >> up & 1:
        return contract_reaches(r, c, s.hand, unseen, can, need, up)
    if not can:
        need += _drawn_by_another(r, c, s, up, unseen)
    return contract_reaches(r, c, s.hand, unseen, can, need, up, up)


def _drawn_by_another(r, c, s: Seat, up: int, unseen: int) -> float:
    """For a contract played in the suit of the turned card `up`, which lies on the talon's top: the tricks it
    should bring alone (as `estimate` counts them) when the first other seat whose exchange may draw, with
    `s`'s seat declaring, is an opponent; less those when it is a partner of a fixed team; else 0."""
    if c.trump_mode != "turn_up":
        return 0.0
    team_of = r.team_of
    for q in range(r.players):
        if q != s.seat and exchange_limit(r, c, q, s.dealer, s.talon, s.seat) > 0:
            v = estimate(tables(r.context(c.ranking, r.deck.cards[up].suit)), 1 << up, unseen)
            return -v if team_of is not None and team_of[q] == team_of[s.seat] else v
    return 0.0


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
        if r.A_TAKE_OVER in legal:
            return self.take_over(s)
        if any(r.A_BID <= a < r.A_TRUMP for a in legal) or r.A_HOLD in legal or \
                (r.A_ACCEPT in legal and s.contract is None):  # a bid, or accepting one (auction.accept)
            return self.bid(s, legal)
        if r.A_TRUMP <= a0 < r.A_PASS:
            suits = [r.deck.suits[a - r.A_TRUMP] for a in legal]
            unseen = r.deck.full_mask & ~s.seen
            c = s.contract
            if c is not None and tricks_allowed(r, c) is not None:
                return r.A_TRUMP + min(suits, key=lambda t: estimate(tables(r.context(c.ranking, t)),
                                                                     s.hand, unseen)).index
            return r.A_TRUMP + best_trump(r, s.contract, s.hand, unseen, suits)[1].index
        if r.A_FOLLOW in legal:
            return self.defend(s, legal)
        if r.A_ALONE in legal:  # alone with a hand that should take every trick but one
            unseen = r.deck.full_mask & ~s.seen
            est = estimate(tables(r.context(s.contract.ranking, s.trump)), s.hand, unseen) if s.contract else 0
            return r.A_ALONE if est >= s.tricks_total - 1 else r.A_PASS
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
        # the most valuable supported bid of the ladder's kind (the lowest of equal worth), else the lowest
        # supported one of another kind: each tried in that order until one is supported
        for c, need, allowed in _bid_plan(r, tuple(legal), s.tricks_total, s.active):
            if _supports(r, c, need, allowed, s, unseen):
                return r.A_BID + c.index
        high = s.high_bid
        if r.A_ACCEPT in legal:  # the bidder's partner, if the hand supports the bid as he would bid it
            acc = r.auction.accept
            assert acc is not None  # `accept` is legal in an auction only by auction.accept
            bid = high if high is not None else next(iter(acc.bids)) if len(acc.bids) == 1 else None
            if bid is not None and _supports(r, bid, _need(r, bid, s.tricks_total, s.active), tricks_allowed(r, bid),
                                             s, unseen):
                return r.A_ACCEPT
        if r.A_HOLD in legal and high is not None and _supports(
                r, high, _need(r, high, s.tricks_total, s.active), tricks_allowed(r, high), s, unseen):
            return r.A_HOLD
        return r.A_PASS if r.A_PASS in legal else self.rng.choice(legal)

    def take_over(self, s: Seat) -> int:
        """Take over the game given up (the contract in play) when the hand, with a new exchange from the talon
        left, supports it as it would support a bid of it; pass otherwise."""
        r = s.rules
        c = s.contract
        unseen = r.deck.full_mask & ~s.seen
        if c is not None and _supports(r, c, _need(r, c, s.tricks_total, s.active), tricks_allowed(r, c), s, unseen):
            return r.A_TAKE_OVER
        return r.A_PASS

    # -- exchange --------------------------------------------------------------------------------------
    def exchange(self, s: Seat, legal: list[int]) -> int:
        return discard(s.rules, s.seat, s.declarer, s.contract, s.trump, s.hand, s.rules.deck.full_mask & ~s.seen,
                       legal)

    # -- play ------------------------------------------------------------------------------------------
    def play(self, s: Seat, legal: list[int]) -> int:
        r = s.rules
        nc = r.A_DISCARD
        cards = legal if max(legal) < nc else [a for a in legal if a < nc]
        t = played_tables(r, s.contract, s.trump)
        if s.declarer is not None and tricks_allowed(r, s.contract) is not None:
            return low_card(t, s.seat, s.declarer, s.partner, s.hidden_partner, t.full & ~s.seen, s.trick, cards)
        return card(t, s.seat, s.declarer, s.partner, s.hidden_partner, t.full & ~s.seen, s.trick, s.active, cards)


def is_exchange(r, legal: list[int]) -> bool:
    """Whether a choice with no claim and no card to play in `legal` (of more than one action) is an exchange's:
    discards, or a draw beside them."""
    return legal[0] < r.A_BID or r.A_DRAW in legal and any(a < r.A_BID for a in legal)


def discard(r, seat: int, declarer: int | None, contract, trump, hand: int, unseen: int, legal: list[int]) -> int:
    """The exchange's choice of `seat` of its legal actions: its weakest junk card that it may throw (a
    defender: only one below the median), else a draw, else the card it least wants to keep; with the trump it
    would name when trumps are still to be named."""
    nd, nb = r.A_DISCARD, r.A_BID
    may = 0  # the cards it may discard
    for a in legal:
        if nd <= a < nb:
            may |= 1 << (a - nd)
    c = discard_card(r, seat, declarer, contract, trump, hand, unseen, may, r.A_DRAW in legal)
    return r.A_DRAW if c < 0 else nd + c


def discard_card(r, seat: int, declarer: int | None, contract, trump, hand: int, unseen: int, may: int,
                 draw: bool) -> int:
    """`discard` from the mask of the cards `seat` may discard and whether it may draw: the card to discard,
    or -1 to draw."""
    if trump is None and contract is not None and contract.trump_mode == "named":
        suit = best_trump(r, contract, hand, unseen, r.deck.suits)[1]
        t = tables(r.context(contract.ranking, suit))
    else:
        t = played_tables(r, contract, trump)
    beats, power, median = t.beats, t.power, t.median
    declares = seat == declarer
    mine = may & hand
    for c in t.pasc:  # its junk (as `junk` lists it), weakest first
        if mine >> c & 1 and unseen & beats[c] and (declares or power[c] < median):
            return c
    if draw:
        return -1
    return min(set(t.bits(may)), key=t.keep.__getitem__)  # of a set built in the order ties always fell in


def card(t: Tables, seat: int, declarer: int | None, partner: int | None, hidden: bool, unseen: int,
         trick: list[tuple[int, int]], active: int, cards: list[int]) -> int:
    """The card to play of `cards` for `seat` (in a contract won by taking tricks: `low_card` plays the others)
    with the rank tables of `t`, the cards `unseen` whose places it does not know, `trick` (seat,
    card) in play, `active` seats playing, and the declarer and his partner as it knows them (`same_side`)."""
    beats = t.beats
    if not trick:
        lh, ll, tm = t.lead_high, t.lead_low, t.tm
        best = low = -1
        # a lead: the master to lead (trump before plain, then the highest), else the plain card to lead, else
        # any (each the first of equal rank)
        for c in cards:
            if not unseen & beats[c]:
                if best < 0 or lh[c] > lh[best]:
                    best = c
            elif best < 0 and not tm >> c & 1 and (low < 0 or ll[c] < ll[low]):
                low = c
        if best >= 0:
            return best
        if low >= 0:
            return low
        return min(cards, key=ll.__getitem__)
    best_seat, c = trick[0]
    row = t.rows[c]
    top = row[c]
    for other, x in trick:  # the first of the highest
        k = row[x]
        if k > top:
            best_seat, top = other, k
    if not same_side(seat, best_seat, declarer, partner, hidden, t.team_of):
        # the cheapest winner, and the cheapest no unseen card can overtake in this trick (the first of equal
        # rank): the one to play last to the trick or when no safe one is held, else the safe one
        cheap = safe = -1
        for c in cards:
            k = row[c]
            if k > top:
                if cheap < 0 or k < row[cheap]:
                    cheap = c
                if not unseen & beats[c] and (safe < 0 or k < row[safe]):
                    safe = c
        if cheap >= 0:
            return cheap if safe < 0 or len(trick) == active - 1 else safe
    keep = t.keep
    low = cards[0]
    for c in cards:  # the first the seat least wants to keep
        if keep[c] < keep[low]:
            low = c
    return low


def low_card(t: Tables, seat: int, declarer: int, partner: int | None, hidden: bool, unseen: int,
             trick: list[tuple[int, int]], cards: list[int]) -> int:
    """The card to play of `cards` for `seat` in a contract won by taking few tricks (`tricks_allowed`): the
    declarer and a partner it knows duck (`duck`), a defender makes them take a trick (`undercut`)."""
    if same_side(seat, declarer, declarer, partner, hidden, t.team_of):
        return duck(t.ctx, trick, cards)
    return undercut(t, declarer, partner, unseen, trick, cards)


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


def undercut(t: Tables, declarer: int, partner: int | None, unseen: int, trick: list[tuple[int, int]],
             cards: list[int]) -> int:
    """A defender against a low contract, who wants the declarer's side (the declarer, and the partner it
    knows) to take a trick. A lead: a low card of a suit someone unseen holds higher cards of, fewest unseen
    cards of its suit going under it (the declarer, if he holds it, may have to take the trick), then the
    lowest. Before the declarer has played to the trick: its lowest card of the suit led, so that his card
    tops it (when it cannot follow, its highest card that does not win the trick). After: when his side is
    winning, the highest card under the top one (shedding a high card), else (or when each card would win)
    its highest card. Ties fall to the first card."""
    power = t.power
    if not trick:
        rows = t.rows

        def lead(c: int) -> tuple[bool, int, int]:
            row, k = rows[c], rows[c][c]
            below = sum(1 for u in t.bits(unseen & ~t.beats[c]) if 0 <= row[u] < k)
            return not unseen & t.beats[c], below, power[c]

        return min(cards, key=lead)
    row = t.rows[trick[0][1]]
    best_seat, top = trick[0][0], row[trick[0][1]]
    for other, x in trick:  # the first of the highest
        if row[x] > top:
            best_seat, top = other, row[x]
    if all(other != declarer for other, _x in trick):
        return min(cards, key=lambda c: (row[c], -power[c]))
    under = [c for c in cards if row[c] < top]
    if under and same_side(declarer, best_seat, declarer, partner, False, t.team_of):
        return max(under, key=power.__getitem__)
    return max(cards, key=power.__getitem__)


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
    full = t.full
    active = seats_in_play(state)
    shown = [shown_cards(state, seat) for seat in range(state.n)]
    low = declarer is not None and tricks_allowed(r, contract) is not None
    hands, discards = state.hands, state.discards
    called = state.partner >= 0
    hidden = state.called >= 0

    def pick(seat: int, cards: list[int], trick: list[tuple[int, int]], played: int) -> int:
        unseen = full & ~(hands[seat] | discards[seat] | played | shown[seat])
        partner, unknown = (state.partner, False) if called and partner_known(state, seat) else (None, hidden)
        if low and declarer is not None:
            return low_card(t, seat, declarer, partner, unknown, unseen, trick, cards)
        return card(t, seat, declarer, partner, unknown, unseen, trick, active, cards)

    return pick


def exchange_picker(state, unseen: Callable[[int], int] | None = None) -> Callable[[int, int, bool, bool], int]:
    """Greedy's choice in an exchange for `state.play_exchange(pick)`: from the cards the exchanger may discard
    and whether he may draw, the card to discard or the draw that `GreedyPlayer.act` takes from the seat's
    facts (`engine.view.seat_facts`), read from the state's masks (greedy never cedes its turn). `unseen(seat)`
    gives the cards whose places the seat does not know (by default all but those its view shows)."""
    r = state.rules
    full, draw_a = r.deck.full_mask, r.A_DRAW
    if unseen is None:
        def unseen(seat: int) -> int:
            return full & ~seen_cards(state, seat)

    def pick(seat: int, may: int, draw: bool, cede: bool) -> int:
        declarer = state.declarer
        c = discard_card(r, seat, declarer if declarer >= 0 else None, state.contract, state.trump,
                         state.hands[seat], unseen(seat), may, draw)
        return draw_a if c < 0 else c

    return pick


@dataclass
class Learnt:
    """What greedy learnt from its own play in a variant (`learn`): per contract index, the tricks more it asks
    of a hand (`extra`) and the share of its bids it must make (`needed`, where it was bid); per contract name,
    its bids of its own choice that were played and those it made in the first round of deals, before it learnt
    anything (`before`); the rounds it took."""

    extra: dict[int, float] = field(default_factory=dict)
    needed: dict[int, float] = field(default_factory=dict)
    before: tuple[Counter, Counter] = (Counter(), Counter())
    rounds: int = 0


_LEARNT: dict = {}  # per ruleset


def learnt(rules) -> Learnt:
    """What greedy has learnt of `rules` (learnt now, the first time)."""
    got = _LEARNT.get(rules)
    if got is None:
        got = _LEARNT[rules] = Learnt()  # what the deals below bid with, as it is learnt
        learn(rules, got)
    return got


def learn(rules, into: Learnt) -> None:
    """Rounds of LEARN_DEALS deals of greedy at every seat. A contract greedy bid of its own choice and made
    clearly less than the share that pays of the times since it last changed (a one-sided binomial test at 5%:
    z below -LEARN_Z) asks LEARN_STEP tricks more from the next round on (a contract won by taking few allows
    LEARN_STEP fewer). The share that pays is its break-even against passing: the declarer's mean loss over his
    mean gain and loss in all its deals so far (once it has been both made and lost), and at least
    MIN_SUCCESS. After the first round the deals of a contract found made often enough (at least its share of
    the times since it last changed) stop at their first card; the others are played out (a contract in
    question, just changed, or not bid before: a change may move the bids to it). Rounds go on while a
    contract changed or one not found made often enough was bid, for LEARN_ROUNDS rounds at most."""
    names = {c.index: c.name for c in rules.contracts}
    bids: Counter[int] = Counter()  # since each contract last changed
    made: Counter[int] = Counter()
    # in all its deals: the declarer's payments when made and when lost (negated), and how many of each
    won: Counter[int] = Counter()
    lost: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    losses: Counter[int] = Counter()
    p = into.needed
    settled: set[int] = set()  # the contracts found made often enough
    for rnd in range(LEARN_ROUNDS):
        _PLANS.clear()  # the plans hold the needs of the round before
        now_bids: Counter[int] = Counter()
        now_made: Counter[int] = Counter()
        for i in range(LEARN_DEALS):
            s, chose = _self_play(rules, rnd * LEARN_DEALS + i, i % rules.players, settled)
            c = s.contract
            res = s.result
            if res is not None and c is not None and s.declarer in chose:
                pay = res.payments[s.declarer]
                now_bids[c.index] += 1
                now_made[c.index] += pay > 0
                if pay > 0:
                    won[c.index] += pay
                else:
                    lost[c.index] -= pay
        if not rnd:
            into.before = (Counter({names[k]: v for k, v in now_bids.items()}),
                           Counter({names[k]: v for k, v in now_made.items()}))
        into.rounds = rnd + 1
        bids += now_bids
        made += now_made
        wins += now_made
        losses += now_bids - now_made
        for k in now_bids:
            gain, loss = won[k] / wins[k] if wins[k] else 0.0, lost[k] / losses[k] if losses[k] else 0.0
            p[k] = max(MIN_SUCCESS, loss / (gain + loss)) if gain and loss else MIN_SUCCESS
        weak = {k for k, n in bids.items() if made[k] - p[k] * n < -LEARN_Z * math.sqrt(n * p[k] * (1 - p[k]))}
        for k in weak:
            into.extra[k] = into.extra.get(k, 0.0) + LEARN_STEP
            bids[k] = made[k] = 0
        settled = {k for k, n in bids.items() if n and made[k] >= p[k] * n}
        if not weak and settled.issuperset(now_bids):
            break
    _PLANS.clear()


def _self_play(rules, seed: int, dealer: int, settled: frozenset[int] | set[int] = frozenset()
               ) -> tuple[State, set[int]]:
    """A deal of greedy at every seat, played as a run plays it (tricks and exchanges by the pickers), or only
    up to its first card when its contract is of `settled`; with the seats that bid or held of their own
    choice (with another action legal)."""
    s = State(rules, seed=seed, dealer=dealer)
    policy = GreedyPolicy(seed=seed)
    xpick = exchange_picker(s)
    chose: set[int] = set()
    r = rules
    while s.phase != DONE:
        if s.phase == PLAY:
            assert s.contract is not None  # cards are played under a contract
            if s.contract.index in settled:
                break
            s.play_tricks(trick_picker(s))
            if s.phase == DONE:
                break
        if s.phase == EXCHANGE:
            s.play_exchange(xpick)
            continue
        seat = s.to_move
        legal = s.legal_actions()
        a = legal[0] if len(legal) == 1 else policy.choose(seat_facts(s, seat), legal)
        if len(legal) > 1 and (r.A_BID <= a < r.A_TRUMP or a == r.A_HOLD):
            chose.add(seat)
        s.apply(a)
    return s, chose


class GreedyPlayer:
    """The greedy player seeing only its seat's view."""

    name = "greedy"
    view_actions = "facts"  # its view's facts as masks (`engine.view.seat_facts`): no names to build and read
    forced_unseen = True  # one legal action is taken without a view

    def __init__(self, seed: int | None = None, rules=None) -> None:
        self.rules = rules
        self.policy = GreedyPolicy(seed=seed)

    @staticmethod
    def prepare(rules) -> None:
        """Learn at once what greedy learns once per variant (each contract's aim, `tricks_allowed`, from random
        deals; which contracts it makes, `learnt`, from its own), so that it is not paid in a deal; the
        decisions are the same as when it is learnt on the way."""
        for c in rules.contracts:
            tricks_allowed(rules, c)
        learnt(rules)

    # a table of greedy players plays its plain tricks in the engine's loop (`State.play_tricks`) with this,
    # and takes its exchanges' choices from the state's masks with the other
    trick_picker = staticmethod(trick_picker)
    exchange_picker = staticmethod(exchange_picker)

    def act(self, view: dict | Seat, legal: list[int]) -> int:
        """The greedy choice from the seat's view (a dict) or from its facts (`Seat`)."""
        if len(legal) == 1:
            return legal[0]
        return self.policy.choose(view if isinstance(view, Seat) else from_view(self.rules, view), legal)
