"""State.random_playout takes, action for action, the choices of the public loop
`acts = s.legal_actions(); s.apply(acts[int(rand() * len(acts))])` with the same random numbers, and ends in the
same state: in every built-in variant, and with every choice of every option."""
from __future__ import annotations

import random

import pytest

from ombre_rules import State, load
from ombre_rules.sim.speed import builtin_variants

VARIANTS = builtin_variants()  # each built-in variant once, by its id (not its other names)


def _option_runs() -> list[tuple[str, dict[str, str]]]:
    runs = []
    for v in VARIANTS:
        spec = load(v).spec
        for key, choices in sorted(spec.choices.items()):
            for c in choices:
                if c != spec.options[key]:
                    runs.append((v, {key: str(c).lower() if isinstance(c, bool) else str(c)}))
    return runs


def _agree(a: State, seed: int) -> None:
    """Play `a` to its end with the public loop, and a copy of it with random_playout, from the same random
    numbers: both end alike."""
    b = a.clone()
    b.legal_actions()  # a list asked for first changes nothing
    ra = random.Random(seed).random
    rb = random.Random(seed).random
    while not a.is_terminal:
        acts = a.legal_actions()
        a.apply(acts[int(ra() * len(acts))])
    b.random_playout(rb)
    assert b.history == a.history, (seed, a.rules.variant)
    assert b.trick_log == a.trick_log
    assert b.result == a.result
    assert (b.hands, b.discards, b.drawn, b.won) == (a.hands, a.discards, a.drawn, a.won)
    assert ra() == rb()  # as many random numbers used
    assert b.legal_actions() == [] and b.is_terminal


def _both_ways(rules, deals: int, seed: int) -> dict[str, int]:
    """Play each deal with the public loop and with random_playout from the same seed; both must agree. The
    outcomes met, counted."""
    outcomes: dict[str, int] = {}
    pool = 0
    dealer = 0
    for i in range(deals):
        a = State(rules, seed=seed * 100_000 + i, dealer=dealer, pool=pool)
        _agree(a, i)
        outcomes[a.result.outcome] = outcomes.get(a.result.outcome, 0) + 1
        pool = a.result.pool_after
        dealer = rules.next_seat[dealer]
    return outcomes


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playout_is_the_public_loop(variant):
    rules = load(variant)
    outcomes = _both_ways(rules, 400, 1)
    assert sum(outcomes.values()) == 400
    assert len(outcomes) >= 3  # several ways to end were met, not one path over and over


@pytest.mark.parametrize(("variant", "option"), _option_runs(),
                         ids=lambda x: x if isinstance(x, str) else ",".join(f"{k}={v}" for k, v in x.items()))
def test_random_playout_is_the_public_loop_with_each_option(variant, option):
    rules = load(variant, option)
    assert sum(_both_ways(rules, 25, 2).values()) == 25


def test_random_playout_from_the_middle_of_a_deal():
    """It may start at any point: mid-auction, mid-exchange, mid-trick, after a claim."""
    rules = load("ombre")
    for i in range(200):
        a = State(rules, seed=i)
        r0 = random.Random(-i)
        for _ in range(i % 37):
            if a.is_terminal:
                break
            a.apply(r0.choice(a.legal_actions()))
        _agree(a, i)


def test_random_playout_with_a_compulsory_bid_and_no_bid_condition(tmp_path):
    """A contract a seat must bid when it holds the cards (`compulsory`), with no `bid_when`: the random bids
    take the pass away as the legal list does."""
    from housefiles import house

    rules = load(house(tmp_path, "extends: ombre\ncontracts:\n  solo: {compulsory: \"spadille in hand(bidder)\"}\n"))
    assert rules.compulsory and not rules.bid_conditions
    outcomes = _both_ways(rules, 300, 3)
    assert sum(outcomes.values()) == 300
