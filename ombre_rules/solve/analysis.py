"""Double-dummy answers for a position of the play: the side's best value (`Analyst.value`), the principal
variation played out through the engine to its settlement, and per card of an actual deal what it cost
against the double-dummy best (`explain`).

Choices in the play that are not cards (stopping after a claim, conceding, accepting or refusing a
concession) are taken by their owner: each choice is played out (cards double-dummy, later choices the same
way) and the one that pays the owner's side most is taken; on a tie, play goes on. The search itself plays
every deal to its end (or to the variant's early end, `play.end_when`): the value is what the cards are
worth, not what a stop would make of them."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from .. import kernel
from ..engine import State
from ..engine.phases import DONE, PLAY, XPLAY
from ..errors import OmbreError
from .aim import contract_aim, side_of
from .fast import keeping, solver
from .search import SearchLimit, Solver, Unsearchable, searchable

INF = 1 << 30
# the nodes a whole deal's judging may search (every card's position), by whether the kernel is on: in C a
# million nodes take a fraction of a second, in Python several seconds
DEAL_LOSS_NODES = {True: 3_000_000, False: 1_000_000}
# a deal of more cards in the hands than this is judged from the first trick at which no more are left: a full
# deal of 52 cards (13 tricks of four) passes any such budget, its last 8 tricks stay within it
JUDGED_CARDS = 32


def auto_measure(rules) -> str:
    """Card points when the deck gives any card points, else tricks."""
    return "points" if any(c.points for c in rules.deck.cards) else "tricks"


def side_payment(state, seats) -> int:
    return sum(state.result.payments[s] for s in seats)


def play_start(state):
    """The deal of `state` replayed from its cards dealt to the point where its first card is due (or to its
    end, if none is); with how many of its actions that took."""
    s = State(state.rules, seed=state.seed, dealer=state.dealer, pool=state.pool_before,
              hands=list(state.deal_hands), talon=list(state.deal_talon), turn_up=state.turn_up)
    hist = state.history
    i = 0
    while i < len(hist) and s.phase not in (PLAY, XPLAY):
        s.apply(hist[i])
        i += 1
    return s, i


class AimUnknown(OmbreError):
    """The contract's aim could not be learnt from its settlement (`solve.aim`): it must be given."""


def exact(search: Callable[[int, int], int], guess: int = 0) -> int:
    """The exact value of a fail-soft search `search(alpha, beta)` by null-window searches (MTD(f))."""
    lo, hi, g = -INF, INF, guess
    while lo < hi:
        beta = max(g, lo + 1)
        try:
            g = search(beta - 1, beta)
        except SearchLimit as e:
            e.bounds = (lo if lo > -INF else None, hi if hi < INF else None)
            raise
        if g < beta:
            hi = g
        else:
            lo = g
    return g


def card_values(solver: Solver) -> dict[int, int]:
    """The exact value (aim applied) of the rest after each legal card of the seat to move at the root."""
    out: dict[int, int] = {}
    guess = 0
    for c in solver.root_cards():
        out[c] = guess = exact(partial(solver.after, c), guess)
    return out


@dataclass
class Limits:
    """How far a search may go: nodes, and seconds over the whole analysis."""

    max_nodes: int | None = None
    seconds: float | None = None
    started: float = field(default_factory=time.perf_counter)

    def left(self) -> float | None:
        return None if self.seconds is None else max(0.0, self.seconds - (time.perf_counter() - self.started))


class Analyst:
    """Solvers for the positions of one deal, with one measure and aim. The aim is the contract's
    (`solve.aim.contract_aim`) unless one is given (`basis` says which); the side is the declarer's at each
    position (a defender who takes over a conceded game becomes the declarer), and solvers of positions with
    the same side share their tables."""

    def __init__(self, state, measure: str | None = None, aim: int | None = None,
                 limits: Limits | None = None) -> None:
        searchable(state)
        self.measure = measure or auto_measure(state.rules)
        if aim is None:
            learnt = contract_aim(state.rules, state.contract, self.measure)
            if learnt.sign is None:
                raise AimUnknown(f"the aim of {state.contract.name} is not known ({learnt.basis()}): give --aim "
                                 "more or --aim fewer")
            self.aim, self.basis = learnt.sign, learnt.basis()
        else:
            self.aim, self.basis = aim, "given (--aim)"
        self.limits = limits or Limits()
        self.side = side_of(state)
        self.nodes = 0
        self._last: dict[tuple[int, ...], Solver] = {}  # per side, the last solver of a position with it

    def solver(self, state) -> Solver:
        """A solver at `state`, with the tables of the previous one for the same side (the same deal, so its
        entries hold)."""
        lim = self.limits
        left = None if lim.max_nodes is None else max(0, lim.max_nodes - self.nodes)
        side = side_of(state)
        s = self._last[side] = solver(state, self.measure, self.aim, left, lim.left(), self._last.get(side))
        return s

    def _count(self, s: Solver) -> None:
        self.nodes += s.nodes
        s.nodes = 0

    def value(self, state) -> int:
        """The side's total (tricks or points so far, plus the rest with best play) at `state`."""
        s = self.solver(state)
        base = s.so_far()
        try:
            return base + self.aim * exact(s.value)
        except SearchLimit as e:
            assert e.bounds is not None  # set by exact
            lo, hi = e.bounds  # of the rest, aim applied; None: not known
            if s.measure == "tricks":  # the rest is worth no more than the tricks left
                left = max(h.bit_count() for h in state.hands)
                floor, ceil = (0, left) if self.aim > 0 else (-left, 0)
                lo = floor if lo is None else max(lo, floor)
                hi = ceil if hi is None else min(hi, ceil)
            e.bounds = None if lo is None or hi is None else \
                tuple(sorted((base + self.aim * lo, base + self.aim * hi)))
            raise
        finally:
            self._count(s)

    def values(self, state) -> dict[int, int]:
        """The side's total after each legal card of the seat to move."""
        s = self.solver(state)
        try:
            base = s.so_far()
            return {c: base + self.aim * v for c, v in card_values(s).items()}
        finally:
            self._count(s)

    def best_card(self, state) -> int:
        """The first card (in the engine's order) that keeps the double-dummy value for the seat to move: one
        null-window search per card tried."""
        s = self.solver(state)
        try:
            rest = exact(s.value)
            c = keeping(s, rest, s.side[state.to_move], [c for c in state.legal_actions() if c < state.nc])
            if c is None:
                raise AssertionError("no card keeps the value")  # the value is the best card's
            return c
        finally:
            self._count(s)

    def play_out(self, state):
        """The deal from `state` to its end: cards double-dummy, other choices by their owner's side's pay."""
        s = state.clone()
        while s.phase != DONE:
            legal = s.legal_actions()
            cards = [a for a in legal if a < s.nc]
            extras = [a for a in legal if a >= s.nc]
            if not extras:
                s.apply(self.best_card(s))
                continue
            owner, side = s.to_move, side_of(s)
            mine = side if owner in side else tuple(p for p in range(s.n) if p not in side)
            best = None
            for a in ([-1] if cards else []) + extras:
                t = s.clone()
                t.apply(self.best_card(t) if a < 0 else a)
                t = self.play_out(t)
                if best is None or side_payment(t, mine) > side_payment(best, mine):
                    best = t
            return best
        return s




@dataclass(frozen=True)
class CardVerdict:
    """One card of an actual deal against the double-dummy best: the side's total with the best card and
    after the card played, what that cost the player's side (0: nothing), and the cards that kept it."""

    trick: int
    seat: int
    card: int
    best: int
    after: int
    lost: int
    keep: tuple[int, ...]


def explain(analyst: Analyst, state, actions: list[int]) -> list[CardVerdict]:
    """Each card of `actions` (played from `state` on) judged double-dummy; other actions are applied as
    they are."""
    s = state.clone()
    out = []
    for a in actions:
        if s.phase in (PLAY, XPLAY) and a < s.nc:
            vals = analyst.values(s)
            mine = (s.to_move in side_of(s)) == (analyst.aim > 0)
            best = max(vals.values()) if mine else min(vals.values())
            after = vals[a]
            keep = tuple(c for c in s.legal_actions() if vals.get(c) == best)
            out.append(CardVerdict(len(s.trick_log) + 1, s.to_move, a, best, after, abs(best - after), keep))
        s.apply(a)
    return out


def deal_loss(done, max_nodes: int | None = None, max_cards: int = JUDGED_CARDS) -> dict | None:
    """How well a finished deal was played: from its first card (or, with more than `max_cards` cards in the
    hands, from the first trick at which no more are left: `from_trick`), the double-dummy total of the
    declarer's side, the measure, and per seat what its cards lost against the double-dummy best (`explain`,
    summed) and how many cards it played.
    None when no card was judged, when the judging needed more than `max_nodes` nodes (default
    `DEAL_LOSS_NODES`), or when the contract's aim is not known."""
    if max_nodes is None:
        max_nodes = DEAL_LOSS_NODES[kernel.ON]
    s, i = play_start(done)
    hist = done.history
    while (s.phase in (PLAY, XPLAY) and i < len(hist)
           and (s.trick or sum(h.bit_count() for h in s.hands) > max_cards)):
        s.apply(hist[i])
        i += 1
    if s.phase not in (PLAY, XPLAY):
        return None
    lost = [0] * s.n
    cards = [0] * s.n
    try:
        an = Analyst(s, limits=Limits(max_nodes=max_nodes))
        value = an.value(s)
        for v in explain(an, s, hist[i:]):
            lost[v.seat] += v.lost
            cards[v.seat] += 1
    except (SearchLimit, AimUnknown, Unsearchable):
        return None
    return {"measure": an.measure, "value": value, "lost": lost, "cards": cards,
            "from_trick": len(s.trick_log) + 1}
