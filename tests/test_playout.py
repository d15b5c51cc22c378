"""State.random_playout takes, action for action, the choices of the public loop
`acts = s.legal_actions(); s.apply(acts[int(rand() * len(acts))])` with the same random numbers, and ends in the
same state: in every built-in variant, and with every choice of every option."""
from __future__ import annotations

import random
from functools import reduce
from operator import or_

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
def test_random_playout_play_tricks_and_play_exchange_are_the_public_loop_with_each_option(variant, option):
    rules = load(variant, option)
    assert sum(_both_ways(rules, 25, 2).values()) == 25
    for i in range(8):  # play_tricks too (see test_play_tricks_is_the_public_loop), with the rules loaded once
        _picked_agree(State(rules, seed=900 + i, dealer=i % rules.players), i)
        _exchange_agree(State(rules, seed=950 + i, dealer=i % rules.players), i)  # play_exchange too


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


def _slots(s: State) -> dict:
    return {name: getattr(s, name) for name in State.__slots__}


def _picked_agree(a: State, seed: int) -> int:
    """Play a copy of `a` with play_tricks wherever it plays (random cards; the public loop elsewhere), and `a`
    along with it by the public loop: play_tricks asks exactly where the public loop offers a choice of cards,
    with the same lists and trick, and after each of its returns both states are the same, slot for slot.
    The number of cards picked."""
    from ombre_rules.bots.seat import world_trick

    b = a.clone()
    rb = random.Random(seed).random
    asked = []

    def pick(seat, cards, trick, played):
        assert played == reduce(or_, b.won, 0) | sum(1 << c for _s, c in trick)
        asked.append((seat, list(cards), list(trick)))
        return cards[int(rb() * len(cards))]

    picked = _along(a, b, rb, lambda: b.play_tricks(pick), asked,
                    lambda acts: (a.to_move, acts, world_trick(a)), seed)
    assert b.legal_actions() == []
    return picked


def _along(a: State, b: State, rb, run, asked: list, shown, seed: int, cache: str = "") -> int:
    """Play `b` with `run()` (a loop whose `pick` appends what it is offered to `asked`) wherever it plays,
    random actions by the public loop elsewhere, and `a` along with it by the public loop: each choice asked for
    is what `shown(legal)` makes of the public loop's list, and after each return both states are the same,
    slot for slot (but the slot `cache`). The choices asked for."""
    total = 0

    def slots(s: State) -> dict:
        return {k: v for k, v in _slots(s).items() if k != cache}

    while True:
        run()
        total += len(asked)
        while len(a.history) < len(b.history):  # the same actions, by the public loop
            acts = a.legal_actions()
            if len(acts) > 1:
                assert asked.pop(0) == shown(acts), (seed, a.rules.variant)
            a.apply(b.history[len(a.history)])
        assert asked == []
        assert slots(a) == slots(b), (seed, a.rules.variant)
        if b.is_terminal:
            break
        acts = b.legal_actions()
        x = acts[int(rb() * len(acts))]
        a.legal_actions()
        a.apply(x)
        b.apply(x)
    assert b.result == a.result
    return total


def _random_start(rules, seed: int, i: int, steps: int) -> State:
    """Deal `seed` (dealer i mod the seats) after `steps` random legal actions (fewer if it ends first)."""
    a = State(rules, seed=seed, dealer=i % rules.players)
    r0 = random.Random(i)
    for _ in range(steps):
        if a.is_terminal:
            break
        acts = a.legal_actions()
        a.apply(acts[int(r0.random() * len(acts))])
    return a


# games of few cards a deal (5 cards a hand): fewer of the random starts are still in play
SHORT_DEALS = {"euchre": 300, "bete": 120}


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_tricks_is_the_public_loop(variant):
    """State.play_tricks offers the legal cards and the trick in play as legal_actions and the state show
    them, and plays the card picked as apply plays it: from the deal's start, and from anywhere in it."""
    rules = load(variant)
    picked = 0
    for i in range(100):
        picked += _picked_agree(_random_start(rules, 7000 + i, i, i % 41), i)
    assert picked > SHORT_DEALS.get(variant, 500)  # it played most of the cards, not a few


def _exchange_agree(a: State, seed: int) -> int:
    """Play a copy of `a` with play_exchange wherever the exchange goes on (random choices; the public loop
    elsewhere), and `a` along with it by the public loop: play_exchange asks exactly where the public loop
    offers a choice in the exchange, with the cards it may discard and whether it may draw or cede as the
    legal list has them, takes what it is told as apply takes it, and after each of its returns both states
    are the same, slot for slot (but the exchanger's list of actions, a cache made when first asked for).
    The number of choices asked."""
    r = a.rules
    b = a.clone()
    rb = random.Random(seed).random
    asked = []

    def pick(seat, may, draw, cede):
        opts = [c for c in range(r.deck.size) if may >> c & 1] + [r.A_DRAW] * draw + [r.A_CEDE] * cede
        asked.append((seat, [c + r.A_DISCARD if c < r.A_DISCARD else c for c in opts]))
        return opts[int(rb() * len(opts))]

    return _along(a, b, rb, lambda: b.play_exchange(pick), asked, lambda acts: (a.to_move, acts), seed, "ex_acts")


# the choices play_exchange was asked for in the deals below: none where the talon is empty (or laid away)
EXCHANGE_CHOICES = {"boston": 0, "cinquillo": 0, "danish-lhombre": 41, "german-solo": 0, "ombre-a-dos": 258,
                    "ombre": 553, "preference": 58, "quadrille": 0, "rocambor": 571, "taroc-lhombre": 0, "tredrille": 0,
                    "tresillo": 577, "euchre": 14, "sextille": 0, "bete": 0, "solo-whist": 0,
                    "swedish-vira": 741}


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_exchange_is_the_public_loop(variant):
    """State.play_exchange offers the exchanger's choices as legal_actions lists them and takes the one picked
    as apply takes it: from the deal's start, and from anywhere in it (mid-exchange included)."""
    rules = load(variant)
    asked = 0
    for i in range(100):
        asked += _exchange_agree(_random_start(rules, 8000 + i, i, i % 23), i)
    assert asked == EXCHANGE_CHOICES[variant], asked


def test_play_tricks_returns_at_once_outside_plain_play():
    rules = load("ombre")
    s = State(rules, seed=3)
    before = s.to_text()
    s.play_tricks(lambda seat, cards, trick, played: pytest.fail("no card is due in the auction"))
    assert s.to_text() == before


def test_play_tricks_waits_while_the_declarer_may_concede():
    """A concession the declarer may still make keeps play_tricks out (it returns at once); once its tricks are
    past, play_tricks plays the deal out. Tresillo offers it in the first four tricks of some contracts."""
    rules = load("tresillo")
    checked = 0
    for i in range(120):
        s = State(rules, seed=i)
        r0 = random.Random(i)
        while not s.is_terminal and not (s.phase_name == "play" and s.concede_ok):
            acts = s.legal_actions()
            s.apply(acts[int(r0.random() * len(acts))])
        if s.is_terminal:
            continue
        limit = s.contract.play.concede[0]
        assert limit == 4
        while len(s.trick_log) < limit:  # the window is open: nothing is played for us
            before = s.to_text()
            s.play_tricks(lambda seat, cards, trick, played: cards[0])
            assert s.to_text() == before
            acts = [a for a in s.legal_actions() if a != rules.A_CONCEDE]
            s.apply(acts[0])
        if s.claim_pending:
            continue
        left = sum(h.bit_count() for h in s.hands)
        n = len(s.history)
        s.play_tricks(lambda seat, cards, trick, played: cards[-1])
        assert s.is_terminal and len(s.history) == n + left
        checked += 1
    assert checked >= 10
