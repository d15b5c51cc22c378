"""The greedy player: wins a trick as cheaply as it can, never overtakes a partner, throws its least useful
cards, and bids from a hand evaluation made with the variant's own rank tables."""
from __future__ import annotations

import random

from ..cards import bits
from ..engine.phases import DONE
from .seat import Seat, from_state, from_view

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


class Tables:
    """Per trump context, what the greedy player asks of every card, worked out once: the cards that beat it
    when it leads its own suit, and its order of keeping."""

    __slots__ = ("beats", "keep", "median")

    def __init__(self, ctx, deck) -> None:
        n = deck.size
        self.beats = []
        for c in range(n):
            row = ctx.key[ctx.eff[c]]
            m = 0
            for u in range(n):
                if row[u] > row[c]:
                    m |= 1 << u
            self.beats.append(m)
        # order of keeping: plain before trump, few points before many, low before high
        self.keep = [(ctx.trump_mask >> c & 1, deck.cards[c].points, ctx.power[c]) for c in range(n)]
        ps = sorted(p for p in ctx.power if p < 1000)
        self.median = ps[len(ps) // 2] if ps else 0


_TABLES: dict = {}  # per context (contexts live as long as their ruleset, which caches them)


def tables(ctx, deck) -> Tables:
    t = _TABLES.get(ctx)
    if t is None:
        t = _TABLES[ctx] = Tables(ctx, deck)
    return t


def higher_count(ctx, c: int, others: int) -> int:
    """How many cards of `others` beat `c` when `c` leads its own suit."""
    return (others & tables(ctx, ctx.rules.deck).beats[c]).bit_count()


def is_master(ctx, c: int, unseen: int) -> bool:
    """No card still unseen beats `c` when it leads."""
    return not unseen & tables(ctx, ctx.rules.deck).beats[c]


def estimate(ctx, hand: int, unseen: int) -> float:
    """Tricks a hand should take with this trump context: trumps that can draw the higher ones still out,
    top plain cards, and seconds guarded by length."""
    power = ctx.power
    tm = ctx.trump_mask
    tricks = 0.0
    mine = sorted(bits(hand & tm), key=lambda c: -power[c])
    out = unseen & tm
    for i, c in enumerate(mine):
        h = higher_count(ctx, c, out)
        if h <= i:
            tricks += 1.0
        elif h <= i + 1:
            tricks += 0.5
    if len(mine) > out.bit_count():
        tricks += 0.5
    by_suit: dict[int, list[int]] = {}
    for c in bits(hand & ~tm):
        by_suit.setdefault(ctx.eff[c], []).append(c)
    for cards in by_suit.values():
        cards.sort(key=lambda c: -power[c])
        for j, c in enumerate(cards):
            h = higher_count(ctx, c, unseen & ~tm)
            if h <= j:
                tricks += 0.8 if j == 0 else 0.4
    return tricks


def junk(ctx, hand: int, unseen: int) -> list[int]:
    """Plain cards that are not masters, weakest first: what an exchange throws."""
    power = ctx.power
    out = [c for c in bits(hand & ~ctx.trump_mask) if not is_master(ctx, c, unseen)]
    out.sort(key=lambda c: power[c])
    return out


def usefulness(ctx, deck, c: int) -> tuple:
    """Order of keeping: plain before trump, few points before many, low before high."""
    return tables(ctx, deck).keep[c]


def best_trump(rules, contract, hand: int, unseen: int, suits) -> tuple[float, object]:
    """The trump (of `suits`) that makes the hand strongest, with its estimate."""
    best = None
    for s in suits:
        ctx = rules.context(contract.ranking, s)
        e = estimate(ctx, hand, unseen)
        if best is None or e > best[0]:
            best = (e, s)
    return best


def exchange_value(ctx, hand: int, unseen: int, can: int, demands: int) -> float:
    """The hand's estimate once it has thrown its junk (up to `can` cards) for as many unseen cards, averaged
    over a few draws, and (for `demands` > 0) its weakest cards for the strongest unseen ones. The draws are
    seeded by the hand, so one hand always gets one value."""
    est = estimate(ctx, hand, unseen)
    if demands:
        power = ctx.power
        top = sorted(bits(unseen), key=lambda c: -power[c])[:demands]
        low = sorted(bits(hand), key=lambda c: power[c])[:len(top)]
        got = _mask(top)
        hand, unseen = (hand & ~_mask(low)) | got, unseen & ~got
        est = max(est, estimate(ctx, hand, unseen))
    throw = junk(ctx, hand, unseen)[:can]
    if not throw:
        return est
    keep = hand & ~_mask(throw)
    pool = bits(unseen)
    if len(pool) < len(throw):
        return est
    rng = random.Random(hand)
    total = 0.0
    for _ in range(EXCHANGE_DRAWS):
        got = _mask(rng.sample(pool, len(throw)))
        total += estimate(ctx, keep | got, unseen & ~got)
    return max(est, total / EXCHANGE_DRAWS)


def contract_value(rules, contract, hand: int, unseen: int, talon: int) -> float:
    """Tricks the hand should take as declarer of `contract`, counting what an exchange or a demand may bring:
    with the best trump the declarer may name, or on average over the trumps that may be turned."""
    choices = rules.trump_choices(contract) or [None]
    lim = contract.exchange.declarer.max_const if contract.exchange is not None else 0
    can = talon if lim is None else min(lim, talon)
    vals = [exchange_value(rules.context(contract.ranking, s), hand, unseen, can, contract.demands)
            for s in choices]
    if contract.trump_mode == "turned":
        return sum(vals) / len(vals)
    return max(vals)


# Random deals played to learn what a contract asks of its declarer.
AIM_PROBES = 40
_AIMS: dict = {}  # per contract (contracts live as long as their ruleset)


def tricks_allowed(rules, contract) -> int | None:
    """None when the contract is won by taking tricks (the usual aim); else the most tricks its declarer took
    in a deal he won, when its declarer wins by taking few (a contract played to lose tricks). Learnt once per contract
    from random deals in which it is bid (all-pass fallbacks included) and played out at random: the contract
    aims low when the deals its declarer won gave him fewer tricks on average than those he lost."""
    if contract in _AIMS:
        return _AIMS[contract]
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
    _AIMS[contract] = max(won) if low else None
    return _AIMS[contract]


def low_estimate(rules, contract, hand: int, unseen: int) -> float:
    """Tricks a hand is likely to be unable to lose as declarer of `contract`: its trick estimate with the
    trump that makes it weakest (or on average over the trumps that may be turned)."""
    choices = rules.trump_choices(contract) or [None]
    vals = [estimate(rules.context(contract.ranking, t), hand, unseen) for t in choices]
    return sum(vals) / len(vals) if contract.trump_mode == "turned" else min(vals)


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class GreedyPolicy:
    """Greedy decisions over a seat's situation (`Seat`)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, s: Seat, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        r = s.rules
        a0 = legal[0]
        if r.A_STOP in legal:  # take the game now rather than risk it
            return r.A_STOP
        if a0 < r.A_DISCARD:
            return self.play(s, legal)
        if a0 < r.A_BID or r.A_DRAW in legal and any(a < r.A_BID for a in legal):
            return self.exchange(s, legal)
        if any(r.A_BID <= a < r.A_TRUMP for a in legal) or r.A_HOLD in legal:
            return self.bid(s, legal)
        if r.A_TRUMP <= a0 < r.A_PASS:
            suits = [r.deck.suits[a - r.A_TRUMP] for a in legal]
            unseen = r.deck.full_mask & ~s.seen
            if s.contract is not None and tricks_allowed(r, s.contract) is not None:
                return r.A_TRUMP + min(suits, key=lambda t: estimate(r.context(s.contract.ranking, t), s.hand,
                                                                     unseen)).index
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
        est = estimate(r.context(s.contract.ranking, s.trump), s.hand, unseen)
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
        biddable = [c for c in r.contracts if c.biddable]
        ladder = sorted({c.level for c in biddable})
        kind = min(biddable, key=lambda c: c.level).ranking if biddable else None
        bids = sorted((r.contracts[a - r.A_BID] for a in legal if r.A_BID <= a < r.A_TRUMP), key=lambda c: c.level)

        # where some contract gives the declarer a partner, sides play for a majority of the tricks, even a
        # declarer alone; elsewhere the declarer plays to beat each opponent
        teams = any(c.call is not None and not c.call.demand for c in r.contracts)

        def need(c) -> float:
            side = 2 if c.call is not None and not c.call.demand else 1
            goal = 0.5 if teams else side / max(s.active, 2)
            base = s.tricks_total * (goal + BID_MARGIN) - (side - 1) * share
            rung = ladder.index(c.level) if c.level in ladder else 0
            return base * (1 + LEVEL_STEP * rung)

        def supports(c) -> bool:
            allowed = tricks_allowed(r, c)
            if allowed is None:
                return contract_value(r, c, s.hand, unseen, s.talon) >= need(c)
            return low_estimate(r, c, s.hand, unseen) <= allowed + LOW_SLACK

        ok = [c for c in bids if supports(c)]
        if ok:
            same = [c for c in ok if c.ranking == kind]
            c = max(same, key=lambda c: (c.value, -c.level)) if same else ok[0]
            return r.A_BID + c.index
        if r.A_HOLD in legal and s.high_bid is not None and supports(s.high_bid):
            return r.A_HOLD
        return r.A_PASS if r.A_PASS in legal else self.rng.choice(legal)

    # -- exchange --------------------------------------------------------------------------------------
    def exchange(self, s: Seat, legal: list[int]) -> int:
        r = s.rules
        unseen = r.deck.full_mask & ~s.seen
        if s.trump is None and s.contract is not None and s.contract.trump_mode == "named":
            suit = best_trump(r, s.contract, s.hand, unseen, r.deck.suits)[1]
            ctx = r.context(s.contract.ranking, suit)
        else:
            ctx = s.ctx
        may = {a - r.A_DISCARD for a in legal if r.A_DISCARD <= a < r.A_BID}
        for c in junk(ctx, s.hand, unseen):
            if c in may and (s.seat == s.declarer or ctx.power[c] < tables(ctx, r.deck).median):
                return r.A_DISCARD + c
        if r.A_DRAW in legal:
            return r.A_DRAW
        c = min(may, key=lambda c: usefulness(ctx, r.deck, c))
        return r.A_DISCARD + c

    # -- play ------------------------------------------------------------------------------------------
    def play(self, s: Seat, legal: list[int]) -> int:
        r = s.rules
        ctx = s.ctx
        deck = r.deck
        t = tables(ctx, deck)
        beats = t.beats
        keep = t.keep.__getitem__
        unseen = deck.full_mask & ~s.seen
        nc = r.A_DISCARD
        cards = [a for a in legal if a < nc]
        if s.seat == s.declarer and tricks_allowed(r, s.contract) is not None:
            return self.duck(s, cards)
        if not s.trick:
            masters = [c for c in cards if not unseen & beats[c]]
            if masters:
                return max(masters, key=lambda c: (ctx.trump_mask >> c & 1, ctx.power[c]))
            plain = [c for c in cards if not ctx.trump_mask >> c & 1]
            return min(plain or cards, key=lambda c: (deck.cards[c].points, ctx.power[c]))
        row = ctx.key[ctx.eff[s.trick[0][1]]]
        best_seat, best = max(s.trick, key=lambda sc: row[sc[1]])
        if best_seat in s.partners():
            return min(cards, key=keep)
        top = row[best]
        winners = sorted((c for c in cards if row[c] > top), key=row.__getitem__)
        if not winners:
            return min(cards, key=keep)
        if len(s.trick) == s.active - 1:
            return winners[0]
        for c in winners:  # the cheapest card no unseen card can overtake in this trick
            if not unseen & beats[c]:
                return c
        return winners[0]


    def duck(self, s: Seat, cards: list[int]) -> int:
        """The declarer of a low contract: lead his lowest card; follow with the highest card that does not take
        the trick, or, when each would, the lowest."""
        ctx = s.ctx
        if not s.trick:
            return min(cards, key=lambda c: ctx.power[c])
        row = ctx.key[ctx.eff[s.trick[0][1]]]
        top = max(row[c] for _seat, c in s.trick)
        under = [c for c in cards if row[c] < top]
        if under:
            return max(under, key=lambda c: ctx.power[c])
        return min(cards, key=lambda c: row[c])


class GreedyPlayer:
    """The greedy player seeing only its seat's view."""

    name = "greedy"
    view_actions = False  # the action list is not needed: hand, tricks and the trick in play suffice

    def __init__(self, seed: int | None = None, rules=None) -> None:
        self.rules = rules
        self.policy = GreedyPolicy(random.Random(seed))

    def act(self, view: dict, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        return self.policy.choose(from_view(self.rules, view), legal)


def greedy_action(policy: GreedyPolicy, state, legal: list[int]) -> int:
    """The greedy choice of the seat to move in a (sampled) world."""
    if len(legal) == 1:
        return legal[0]
    return policy.choose(from_state(state, state.to_move), legal)
