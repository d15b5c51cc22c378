"""The replay behind views and logs goes on from the last deal it replayed: whatever order states are viewed in,
a view equals one worked out from scratch."""
from __future__ import annotations

import random

from ombre_rules import State, load
from ombre_rules.engine import replay


def _fresh_view(s: State, seat: int) -> dict:
    replay.forget()  # forget the last replay
    return s.view(seat)


def test_views_in_any_order_equal_views_from_scratch():
    rules = load("quadrille")
    rng = random.Random(5)
    snapshots = []
    s = State(rules, seed=9)
    while not s.is_terminal:
        snapshots.append(s.clone())
        s.apply(rng.choice(s.legal_actions()))
    snapshots.append(s)
    other = State(rules, seed=10)
    order = list(range(len(snapshots)))
    rng.shuffle(order)
    expected = {i: _fresh_view(snapshots[i], i % 4) for i in order}
    seen = {}
    for k, i in enumerate(order + sorted(order)):
        if k % 7 == 0:
            other.view(0)  # another deal in between
        seen[i] = snapshots[i].view(i % 4)
        assert seen[i] == expected[i], i
    assert len(snapshots[-1].view(0)["actions"]) == len(s.history) > 40


def test_a_replay_that_fails_is_forgotten():
    rules = load("quadrille")
    s = State(rules, seed=9)
    s.apply(s.legal_actions()[0])
    good = s.view(1)
    broken = s.clone()
    broken.history.append(rules.num_actions + 5)  # not an action: the replay stops with an error
    try:
        broken.view(1)
    except Exception:  # noqa: BLE001 - any error will do; what matters is what follows
        pass
    assert s.view(1) == good
