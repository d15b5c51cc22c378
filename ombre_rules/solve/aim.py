"""What a contract's declarer plays for: more of the measure (tricks, or card points) or fewer, as the
contract's own outcomes settle it (`contract_aim`).

The engine settles a deal from its end, whatever the rules of the file say; so the aim is read off the
settlement: deals of the contract (bid wherever it may be, all-pass rules included) are played out several
ways each from their first card, leaning one way (the side plays high and the others low) or the other, so
that both ends of a deal are reached; a stop is taken when offered and a concession never made
(`play_out`). Within a deal, two play-outs that lean opposite ways, of which the side won one (a net gain)
and not the other, with different amounts taken, are compared: did the side win with more, or with fewer?
When that gives no clear answer (a contract won only by taking every trick, seldom won at random), two
play-outs paid differently are compared: was the side paid more with more, or with fewer? The aim is known
when one answer clearly outweighs the other; otherwise it is not known (`sign` None), and a caller asks for
it rather than guess."""
from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import pairwise

from ..engine import DONE, State
from ..engine.phases import PLAY, XPLAY
from ..engine.piles import piles
from ..envs import side_of as envs_side_of

AIM_DEALS = 24  # deals of the contract, each played out AIM_PLAYOUTS ways, or more while the answer is unclear
MOST_DEALS = 96
LEANS = (1.0, -1.0, 0.75, -0.75)  # how each play-out of a deal leans (see `play_out`)
AIM_PLAYOUTS = len(LEANS)
AIM_TRIES = 400  # deals dealt at most to find them
CLEAR = 4  # an answer is clear when it is borne out this many times as often as the other one
LEAST = 4  # and at least this many times


@dataclass(frozen=True)
class Aim:
    """A contract's aim: `sign` +1 (more), -1 (fewer) or None (not known), the comparisons that gave it, and
    what its winning condition asks: for a side that wants fewer, the most it took in a play-out it won
    (`most_paid`); for one that wants more, the least (`least_won`)."""

    sign: int | None
    deals: int
    more: int  # comparisons (see `by`) in which the side did better with more of the measure
    fewer: int  # and with fewer
    measure: str
    contract: str
    by: str  # "won": comparisons of a play-out the side won with one it lost; "paid": of two paid differently
    most_paid: int | None = None
    least_won: int | None = None  # for a side that wants more, the least it took in a play-out it won
    # the side's mean payment by the amount it took, over the play-outs (made monotone in the aim's direction:
    # pooled where more was paid for less): (amount, payment) rising by amount; empty when the aim is not known
    paid_by: tuple[tuple[int, float], ...] = ()
    # whether the seats against the side were paid differently by two play-outs of one deal in which the side
    # took as much: what each of them is paid then depends on more than the side's amount (on which of them
    # took the most, say), and the side's payment by amount does not tell one of them what he plays for
    split: bool = False

    def worth(self, got: int) -> float | None:
        """The side's expected payment when it ends with `got` of the measure: the mean of the nearest amount
        seen at or below it (at or above it when none is below); None without a table."""
        if not self.paid_by:
            return None
        below = [p for g, p in self.paid_by if g <= got]
        return below[-1] if below else self.paid_by[0][1]

    def thresholds(self, share: float = 0.05) -> tuple[int, ...]:
        """The amounts at which the expected payment steps (by at least `share` of its whole range: smaller
        steps, the noise of few play-outs, are left out), rising; empty without a table."""
        pays = [p for _g, p in self.paid_by]
        span = max(pays) - min(pays) if pays else 0.0
        return tuple(g1 for (_g0, p0), (g1, p1) in pairwise(self.paid_by)
                     if span and abs(p1 - p0) >= share * span)

    @property
    def word(self) -> str:
        return {1: "more", -1: "fewer", None: "unknown"}[self.sign]

    def basis(self) -> str:
        """The aim and where it comes from, in words."""
        what = "tricks" if self.measure == "tricks" else "card points"
        if not self.deals:
            return f"no random deal of {self.contract} reached its play"
        pairs = self.more + self.fewer
        if self.by == "won":
            seen = (f"of {pairs} pairs of play-outs of one deal, one won by the declarer's side and one lost, the "
                    f"won one took more {what} in {self.more} and fewer in {self.fewer}")
        elif pairs:
            seen = (f"of {pairs} pairs of play-outs of one deal paid differently, the better paid one took more "
                    f"{what} in {self.more} and fewer in {self.fewer} (pairs won and lost gave no clear answer)")
        else:
            seen = "the declarer's side was paid the same however much it took (payments that do not follow the play)"
        learnt = f"{self.deals} random deals of {self.contract}, each played out {AIM_PLAYOUTS} ways: {seen}"
        if self.sign is None:
            return f"not clear from {learnt}"
        return f"{self.word} {what}, learnt from the contract's settlement ({learnt})"


# (id of the contract, measure) -> (the contract, kept so that its id stays its own; its Aim)
_AIMS: dict[tuple[int, str], tuple] = {}


def contract_aim(rules, contract, measure: str = "tricks") -> Aim:
    """The aim of the declarer's side of `contract` in `measure` (learnt once per contract and measure)."""
    key = (id(contract), measure)
    got = _AIMS.get(key)
    if got is None:
        got = _AIMS[key] = (contract, _learn(rules, contract, measure))
    return got[1]


def side_of(state) -> tuple[int, ...]:
    """The declarer's side: the declarer and a partner (known to the solver even while hidden), or his team."""
    return tuple(envs_side_of(state))


def measured(state, side: tuple[int, ...], measure: str) -> int:
    """What `side` has taken in `measure`: its tricks, or the card points of its piles."""
    if measure == "tricks":
        return sum(state.tricks[p] for p in side)
    pts = [c.points for c in state.rules.deck.cards]
    won = piles(state)
    return sum(pts[c] for p in side for c in state.rules.deck.bits(won[p]))


def first_card(rules, contract, rng: random.Random, dealer: int) -> State | None:
    """A deal in which `contract` is bid whenever it may be (else the seat passes, else takes its last
    action), the rest chosen at random, up to its first card; None when another contract is played or no
    card is."""
    bid, want = rules.A_BID + contract.index, rules.A_PASS
    s = State(rules, seed=rng.getrandbits(32), dealer=dealer)
    while s.contract is None and s.phase != DONE:
        legal = s.legal_actions()
        s.apply(bid if bid in legal else want if want in legal else legal[-1])
    if s.contract is not contract:
        return None
    while s.phase not in (PLAY, XPLAY, DONE):
        s.apply(rng.choice(s.legal_actions()))
    # an announcement after the exchange (or a raise) may have put another contract in its place
    return s if s.phase != DONE and s.contract is contract else None


def play_out(start: State, rng: random.Random, lean: float) -> State:
    """The deal from its first card to its end: random cards (`lean` 0), or with odds |lean| the card that
    leans (`lean` > 0: the declarer's side plays to take the trick, the others to keep out of it; < 0 the
    reverse) and otherwise a random one: a seat that plays to take leads its strongest card and follows with
    its highest, one that keeps out leads its weakest and follows with its highest card under the trick's
    best, else its lowest. Of the other choices, a stop is taken (the game as it stands: no play on into
    a vole or a slam) and a concession is refused."""
    s = start.clone()
    r = s.rules
    side = side_of(s)
    assert s.ctx is not None  # the contract's trumps are fixed: its first card is due
    key, eff = s.ctx.key, s.ctx.eff
    on = (r.A_STOP, r.A_CONTINUE, r.A_REFUSE)

    def choose(seat: int, cards: list[int], trick: list[int]) -> int:
        if not lean or rng.random() >= abs(lean):
            return rng.choice(cards)
        if not trick:  # a lead: the strongest card, or the weakest
            strength = [key[eff[c]][c] for c in cards]
            pick = max if (seat in side) == (lean > 0) else min
            return cards[strength.index(pick(strength))]
        row = key[eff[trick[0]]]
        if (seat in side) == (lean > 0):
            return max(cards, key=row.__getitem__)
        top = max(row[c] for c in trick)  # the highest card that does not take the trick, else the lowest
        under = [c for c in cards if row[c] < top]
        return max(under, key=row.__getitem__) if under else min(cards, key=row.__getitem__)

    def pick(seat: int, cards: list[int], trick: list[tuple[int, int]], _played: int) -> int:
        return choose(seat, cards, [c for _s, c in trick])

    while s.phase != DONE:
        if s.phase == PLAY:
            s.play_tricks(pick)
            if s.phase == DONE:
                break
        legal = s.legal_actions()
        cards = [a for a in legal if a < s.nc]
        if r.A_STOP in legal or not cards:
            s.apply(next((a for a in on if a in legal), legal[0]))
        else:
            s.apply(choose(s.to_move, cards, s.trick))
    return s


def _decided(more: int, fewer: int) -> int | None:
    """+1, -1, or None while neither answer clearly outweighs the other."""
    return 1 if more >= max(LEAST, CLEAR * fewer) else -1 if fewer >= max(LEAST, CLEAR * more) else None


def _learn(rules, contract, measure: str) -> Aim:
    rng = random.Random(contract.index)
    deals = 0
    won = [0, 0]  # comparisons of a won and a lost play-out: the won one took more, fewer
    paid = [0, 0]  # comparisons of two paid differently: the better paid took more, fewer
    most_paid: int | None = None
    least_won: int | None = None
    seen: dict[int, list[int]] = {}  # amount taken -> the side's payments in the play-outs that took it
    split = False
    for i in range(AIM_TRIES):
        if deals >= MOST_DEALS or deals >= AIM_DEALS and (_decided(*won) or _decided(*paid)):
            break
        start = first_card(rules, contract, rng, i % rules.players)
        if start is None:
            continue
        deals += 1
        side = side_of(start)
        ends = []
        against: list[tuple[int, tuple[int, ...]]] = []  # per play-out: the side's amount, the others' payments
        for lean in LEANS:
            end = play_out(start, rng, lean)
            got = measured(end, side, measure)
            res = end.result
            assert res is not None  # played to its end
            pay = sum(res.payments[p] for p in side)
            ends.append((lean > 0, got, pay))
            others = tuple(x for p, x in enumerate(res.payments) if p not in side)
            split = split or any(g == got and o != others for g, o in against)
            against.append((got, others))
            seen.setdefault(got, []).append(pay)
            if pay > 0:
                most_paid = got if most_paid is None else max(most_paid, got)
                least_won = got if least_won is None else min(least_won, got)
        for a, (ua, ga, pa) in enumerate(ends):
            for ub, gb, pb in ends[a + 1:]:
                if ua == ub or ga == gb or pa == pb:  # the same lean, the same amount or the same pay
                    continue
                up = (ga > gb) == (pa > pb)
                paid[not up] += 1
                if (pa > 0) != (pb > 0):
                    won[not up] += 1
    sign, basis, counts = _decided(*won), "won", won
    if sign is None:
        sign, basis, counts = _decided(*paid), "paid", paid
    return Aim(sign, deals, counts[0], counts[1], measure, contract.name, basis, most_paid if sign == -1 else None,
               least_won if sign == 1 else None, monotone(seen, sign) if sign is not None else (), split)


def monotone(seen: dict[int, list[int]], sign: int) -> tuple[tuple[int, float], ...]:
    """The mean payment by amount, made to rise with the amount (`sign` +1) or to fall (-1) by pooling
    neighbouring amounts whose means go the wrong way, each weighted by its play-outs (pool adjacent
    violators): the least-squares monotone fit."""
    blocks: list[list] = []  # [total, count, first amount, last amount]
    for g in sorted(seen):
        blocks.append([sign * sum(seen[g]), len(seen[g]), g, g])
        while len(blocks) > 1 and blocks[-2][0] * blocks[-1][1] > blocks[-1][0] * blocks[-2][1]:
            tot, n, _a, last = blocks.pop()
            blocks[-1][0] += tot
            blocks[-1][1] += n
            blocks[-1][3] = last
    out = []
    for tot, n, first, last in blocks:
        out += [(g, sign * tot / n) for g in sorted(seen) if first <= g <= last]
    return tuple(out)
