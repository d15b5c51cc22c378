"""The double-dummy search in the compiled kernel (`ombre_rules.kernel`), with the face of `Solver`: the same
values for the same position, measure and aim, far faster. `solver` gives it where the kernel can run the
position, and the Python `Solver` otherwise: the kernel not built or turned off, an excuse card in the deck, a
deck of more than 64 cards, an early end (`play.end_when`) that reads more than the trick counts."""
from __future__ import annotations

import time
from typing import Any

from .. import kernel
from ..cards import bits as _bits
from ..engine.phases import XPLAY
from ..envs import side_of
from .search import COUNT_NAMES, SearchLimit, Solver, solvable

CACHED_SEARCHES = 8  # searches a `make` cache keeps (each with its table) before it starts afresh


def solver(state, measure: str = "tricks", aim: int = 1, max_nodes: int | None = None,
           seconds: float | None = None, prev: Any = None) -> Any:
    """A solver at `state`: the kernel's when it can run the position, else the Python one. `prev`, a solver of
    an earlier position of the same deal, lends its tables (positions solved one after the other share them)."""
    if kernel.ON:
        fast = KernelSolver.make(state, measure, aim, max_nodes, seconds, prev)
        if fast is not None:
            return fast
    s = Solver(state, measure, aim, max_nodes, seconds)
    if isinstance(prev, Solver):
        s.tt, s.lead_hint, s.compat, s.mcache = prev.tt, prev.lead_hint, prev.compat, prev.mcache
    return s


def runs_in_kernel(state, measure: str = "tricks") -> bool:
    """Whether the kernel can search this position (it is on, and the rules are ones it runs)."""
    return kernel.ON and _tables(state, measure) is not None


# what an early end may read for the kernel to run it: the trick counts and what stays fixed through the cards
# a search plays (a commitment after a claim, a concession's takeover), as names and as functions called
END_NAMES = COUNT_NAMES | {f"{n}()" for n in COUNT_NAMES} | {"committed", "taken_from"}


def _tables(state, measure: str) -> Any:
    r = state.rules
    if r.excuse is not None or state.ctx is None:
        return None
    ew = state.end_when
    if ew is not None and not ew.uses <= END_NAMES:
        return None
    if measure == "points" and not all(type(c.points) is int for c in r.deck.cards):
        return None
    return kernel.tables(state.ctx, state.contract.follow_id)


class KernelSolver:
    """A `Solver` whose search runs in the kernel: `value`, `after`, `root_cards`, `so_far`, `side`, `nodes`,
    `measure` as there; `values` gives every legal card's exact value in one call. Its transposition table is
    the kernel search's own, kept from one position of a deal to the next (`make` with `prev`)."""

    def __init__(self, state, measure: str, aim: int, search: Any, signature: tuple,
                 max_nodes: int | None, seconds: float | None) -> None:
        self.rules = state.rules
        self.measure = measure
        self.aim = aim
        self.search = search
        self.signature = signature
        self.side = signature[-1]
        self.counted = counted(state, self.side, measure)
        leader = state.leader if state.trick else state.to_move
        search.position(state.hands, state.tricks, state.trick, leader)
        search.limits(max_nodes, time.perf_counter() + seconds if seconds is not None else None)

    @classmethod
    def make(cls, state, measure: str, aim: int, max_nodes: int | None = None, seconds: float | None = None,
             prev: Any = None, cache: dict | None = None, tt_bits: int = 16) -> KernelSolver | None:
        """A kernel solver at `state`, or None when the kernel cannot run it; the refusals of `Solver` alike.
        Its search (and transposition table) is `prev`'s when that searched the same game (the same tables,
        seats, side, aim and measure), or one kept in `cache` for that game (a dict the caller keeps), else a
        new one with 4 * 2**tt_bits entries."""
        solvable(state, measure)
        t = _tables(state, measure)
        if t is None or state.phase == XPLAY or state.uneven:  # Solver refuses hands of unequal size
            return None
        side = set(side_of(state))
        sides = tuple(s in side for s in range(state.n))
        signature = (t, measure, aim, tuple(state.nxt), state.tn, state.follow_high, state.end_when, sides)
        if isinstance(prev, KernelSolver) and prev.signature == signature:
            search = prev.search
        elif cache is not None and signature in cache:
            search = cache[signature]
        else:
            search = kernel.Search(t, state.nxt, state.tn, state.follow_high, sides, aim,
                                   [c.points for c in state.rules.deck.cards] if measure == "points" else None,
                                   _end_rule(state), tt_bits)
            if cache is not None:
                if len(cache) >= CACHED_SEARCHES:
                    cache.clear()
                cache[signature] = search
        return cls(state, measure, aim, search, signature, max_nodes, seconds)

    @property
    def nodes(self) -> int:
        return self.search.nodes

    @nodes.setter
    def nodes(self, n: int) -> None:
        self.search.nodes = n

    def so_far(self) -> int:
        """What the side has already counted (tricks, or card points of the piles it won)."""
        return self.counted


    def root_cards(self) -> list[int]:
        return self.search.root_cards()

    def value(self, alpha: int, beta: int) -> int:
        return self._run(self.search.value, alpha, beta)

    def after(self, c: int, alpha: int, beta: int) -> int:
        return self._run(self.search.after, c, alpha, beta)

    def values(self, guess: int = 0) -> dict[int, int]:
        """The exact value of the rest after each legal card of the seat to move (aim applied); `guess`, near
        the position's value, saves null windows (the values do not depend on it)."""
        return self._run(self.search.values, guess)

    def reached(self, xs: list[int]) -> dict[int, int]:
        """For each legal card of the seat to move: how many of the values `xs` (rising) the rest reaches after
        it (value >= x, aim applied), by null-window searches."""
        return self._run(self.search.reached, xs)

    def exact(self) -> int:
        return self._run(self.search.exact)

    def line(self) -> list[int]:
        """The rest of the play with every hand open: each card one that keeps its side's value."""
        return self._run(self.search.line)

    def _run(self, fn, *args):
        try:
            return fn(*args)
        except kernel.Stopped as e:
            raise SearchLimit(str(e)) from None


def counted(state, side: tuple[bool, ...], measure: str) -> int:
    """What the side (a flag by seat) has counted so far: its tricks, or the card points of the piles it won
    (a deck without an excuse card: its piles are the tricks it won)."""
    if measure == "tricks":
        return sum(t for s, t in enumerate(state.tricks) if side[s])
    cards = state.rules.deck.cards
    return sum(cards[c].points for s, m in enumerate(state.won) if side[s] for c in _bits(m))


def keeping(s: Any, rest: int, mine: bool, cards: list[int]) -> int | None:
    """The first of `cards` after which the rest is still worth `rest` (its exact value) to a seat of the side
    (`mine`) or of the others; None if none is."""
    for c in cards:
        if mine and s.after(c, rest - 1, rest) >= rest or not mine and s.after(c, rest, rest + 1) <= rest:
            return c
    return None


def best_card(s: KernelSolver, seat: int, cards: list[int]) -> int:
    """The first of `cards` (the legal cards of `seat`, the seat to move) that keeps the double-dummy value."""
    c = keeping(s, s.exact(), s.side[seat], cards)
    if c is None:
        raise AssertionError("no card keeps the value")  # the value is the best card's
    return c


def _end_rule(state):
    """The early end as the kernel asks for it, `end(tricks, left)` for the trick counts by seat and the cards
    left in each hand: the variant's `play.end_when` (names of the counts only) evaluated on a private copy of
    the state that holds those counts."""
    expr = state.end_when
    if expr is None:
        return None
    st = state.clone()
    n = st.n

    def end(tricks: tuple[int, ...], left: int) -> bool:
        st.tricks = list(tricks)
        st.hands = [(1 << left) - 1] * n  # what `tricks_left` reads
        return bool(st.eval(expr))

    return end
