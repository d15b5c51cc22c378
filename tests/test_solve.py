"""The double-dummy solver (`ombre_rules.solve`): its legal cards are the engine's, its values those of a
plain minimax over the engine on small endings of every variant, hand-made endings give their known
answer, and the `ombre solve` command."""
from __future__ import annotations

import random

import pytest
from variant_choices import every_choice, rules_of

from ombre_rules.engine import State
from ombre_rules.engine.phases import DONE, PLAY, XPLAY
from ombre_rules.engine.piles import piles
from ombre_rules.solve.analysis import Analyst, side_of
from ombre_rules.solve.search import Solver

CHOICES = every_choice()
IDS = [p.rsplit("/", 1)[-1].removesuffix(".yaml") + "".join(f"({k}={c})" for k, c in sel) for p, sel in CHOICES]


def _card_or_play_on(s: State, rng: random.Random) -> None:
    """A random card (never a stop or a concession; a concession to consent to is refused)."""
    legal = s.legal_actions()
    cards = [a for a in legal if a < s.nc]
    s.apply(rng.choice(cards) if cards else legal[-1])


def to_play(rules, seed: int) -> State | None:
    """A random deal played at random up to its first card (None if it never gets there)."""
    rng = random.Random(seed)
    for k in range(20):
        s = State(rules, seed=seed * 100 + k, dealer=k % rules.players)
        while s.phase not in (PLAY, XPLAY, DONE):
            s.apply(rng.choice(s.legal_actions()))
        if s.phase != DONE:
            return s
    return None


def ending(rules, seed: int, tricks_left: int, mid: bool) -> State | None:
    """A random position with `tricks_left` tricks to play (and, if `mid`, a card or two of the next one
    played), reached by random cards."""
    rng = random.Random(seed)
    s = to_play(rules, seed)
    if s is None:
        return None
    while s.phase != DONE and (s.trick or s.hands[s.to_move].bit_count() > tricks_left):
        _card_or_play_on(s, rng)
    if mid:
        for _ in range(rng.randrange(1, s.tn) if s.phase != DONE else 0):
            if s.phase not in (PLAY, XPLAY):
                break
            _card_or_play_on(s, rng)
    return s if s.phase in (PLAY, XPLAY) else None


def measured(s: State, side: tuple[int, ...], measure: str) -> int:
    if measure == "tricks":
        return sum(s.tricks[p] for p in side)
    pts = [c.points for c in s.rules.deck.cards]
    won = piles(s)
    return sum(pts[c] for p in side for c in range(s.nc) if won[p] >> c & 1)


def minimax(s: State, side: tuple[int, ...], measure: str, aim: int) -> int:
    """Plain minimax over the engine's own legal cards and apply, no pruning: the side's total at the end."""
    if s.phase == DONE:
        return measured(s, side, measure)
    legal = s.legal_actions()
    cards = [a for a in legal if a < s.nc]
    vals = []
    for a in cards or [legal[-1]]:
        t = s.clone()
        t.apply(a)
        vals.append(minimax(t, side, measure, aim))
    better = max if (s.to_move in side) == (aim > 0) else min
    return better(vals)


# tricks left in the endings the minimax checks, by the number of seats in a trick (it grows as (cards!)^seats)
ENDING = {2: 5, 3: 4, 4: 3, 5: 2}
DEFAULTS = [(p, sel) for p, sel in CHOICES if not sel]
OPTIONS = [(p, sel) for p, sel in CHOICES if sel]


def _check(s: State, measures: tuple[str, ...]) -> None:
    side = side_of(s)
    for measure in measures:
        for aim in (1, -1):
            want = minimax(s, side, measure, aim)
            assert Analyst(s, measure, aim).value(s) == want, (measure, aim, s.to_text())


@pytest.mark.parametrize(("path", "sel"), DEFAULTS, ids=[IDS[CHOICES.index(c)] for c in DEFAULTS])
def test_values_are_those_of_plain_minimax(path, sel):
    """On random endings of every variant (the last 5 tricks with two seats, 4 with three, 3 with four, 2
    with five; one from a trick's start, one from its middle), the solver's value equals an exhaustive
    minimax over the engine, for tricks and card points, for a side that wants more and one that wants
    fewer."""
    tn = rules_of(path, sel).active
    for mid in (False, True):
        s = _ending_of(path, sel, ENDING[tn], mid)
        _check(s, ("tricks", "points"))


@pytest.mark.parametrize(("path", "sel"), OPTIONS, ids=[IDS[CHOICES.index(c)] for c in OPTIONS])
def test_values_are_those_of_plain_minimax_with_each_option(path, sel):
    """The same with each other choice of each option, on one ending a trick shorter."""
    tn = rules_of(path, sel).active
    s = _ending_of(path, sel, ENDING[tn] - 1, True)
    _check(s, ("tricks", "points"))


def _ending_of(path: str, sel: tuple, tricks_left: int, mid: bool) -> State:
    rules = rules_of(path, sel)
    for seed in range(30):
        s = ending(rules, seed, tricks_left, mid)
        if s is not None:
            return s
    raise AssertionError("no ending reached")


@pytest.mark.parametrize(("path", "sel"), CHOICES, ids=IDS)
def test_legal_cards_are_the_engines(path, sel):
    """At every card of random deals, the solver's legal cards are exactly the cards of legal_actions()."""
    rules = rules_of(path, sel)
    for seed in range(3):
        rng = random.Random(seed)
        s = to_play(rules, seed)
        if s is None:
            continue
        while s.phase in (PLAY, XPLAY):
            sol = Solver(s)
            seat, trick, _leader, led = sol.root()[:4]
            assert sol.legal_mask(seat, trick, led) == sum(1 << a for a in s.legal_actions() if a < s.nc)
            _card_or_play_on(s, rng)
