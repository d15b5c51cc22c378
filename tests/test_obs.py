"""The observation encoding: its table, its values, and that it leaks nothing a seat's view does not show."""
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ombre_rules import State, load
from ombre_rules.bots.sample import Knowledge, sample
from ombre_rules.engine import PHASE_NAMES
from ombre_rules.obs import KINDS, TABLE, describe, layout
from ombre_rules.sim.speed import builtin_variants

ROOT = Path(__file__).resolve().parent.parent


def piece(lay, vec, name):
    sl = next(s for s in lay.slices if s.name == name)
    return vec[sl.offset:sl.offset + sl.size]


def test_the_table_of_classic_ombre():
    lay = layout(load("ombre"))
    sizes = {name: size for name, size, _ in lay.table()}
    assert [name for name, _, _ in TABLE] == list(sizes)
    assert sizes["hand"] == 40 and sizes["phase"] == len(PHASE_NAMES) + 1 and sizes["contract"] == 4
    assert sizes["trick_cards"] == 14 * 3 * 40 and sizes["actions"] == 3 * 22 and sizes["bids"] == 3 * 4
    assert lay.size == sum(sizes.values()) == 2428
    assert describe()[4] == {"name": "hand", "size": "C", "meaning": "the cards in the seat's hand"}
    assert describe(lay.rules)[22]["shape"] == [14, 3, 40]
    assert len(KINDS) == 22


def test_the_values_at_the_start_of_a_deal():
    rules = load("ombre")
    s = State(rules, seed=7, dealer=0, pool=3)
    lay = layout(rules)
    vec = lay.encode(s, 2)
    hand = [float(s.hands[2] >> c & 1) for c in range(40)]
    assert piece(lay, vec, "hand") == hand
    assert piece(lay, vec, "seat") == [0, 0, 1] and piece(lay, vec, "dealer") == [1, 0, 0]
    assert piece(lay, vec, "to_move") == [0, 1, 0]
    assert piece(lay, vec, "phase")[PHASE_NAMES.index("auction")] == 1 and sum(piece(lay, vec, "phase")) == 1
    assert piece(lay, vec, "hand_sizes") == [9, 9, 9] and piece(lay, vec, "talon_size") == [13]
    assert piece(lay, vec, "pool") == [s.pool] and piece(lay, vec, "pool_before") == [3]
    assert sum(vec) == 9 + 4 + 27 + 13 + s.pool + 3  # hand, four one-hots, sizes, talon, pools


def test_tricks_bids_and_counts_follow_the_play():
    rules = load("ombre")
    s = State(rules, seed=7)
    lay = layout(rules)
    for a in ("pass", "bid entrada", "pass", "trump clubs"):
        s.apply_str(a)
    while s.phase_name == "exchange":
        s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    card = s.history[-1]
    leader = s.leader
    vec = lay.encode(s, 0)
    bids = piece(lay, vec, "bids")
    assert bids[2 * 4 + rules.contract_by_name["entrada"].index] == 1 and sum(bids) == 1
    assert piece(lay, vec, "trick_cards")[(0 * 3 + leader) * 40 + card] == 1
    assert piece(lay, vec, "trick_leader")[:3] == [float(leader == p) for p in range(3)]
    counts = piece(lay, vec, "actions")
    assert counts[1 * 22 + KINDS.index("pass")] == 1 and counts[0 * 22 + KINDS.index("pass")] == 1
    assert counts[2 * 22 + KINDS.index("trump")] == 1
    assert piece(lay, vec, "trump")[rules.deck.suit_by_name["clubs"].index] == 1


@pytest.mark.parametrize("variant", builtin_variants())
def test_no_leak_and_every_action_shows(variant):
    """Worlds dealt anew consistently with a seat's view, whose view of them is the same, encode the same for
    that seat; and every action changes every seat's encoding."""
    rules = load(variant)
    lay = layout(rules)
    rng = random.Random(3)
    equal = 0
    for deal in range(3):
        s = State(rules, seed=deal)
        before = [lay.encode(s, p) for p in range(rules.players)]
        while not s.is_terminal:
            seat = s.current_player
            if rng.random() < 0.3:
                v = s.view(seat)
                world = sample(Knowledge(rules, v), rng)
                if world is not None and world.view(seat) == v:
                    assert lay.encode(world, seat) == before[seat]
                    equal += (world.deal_hands, world.deal_talon) != (s.deal_hands, s.deal_talon)
            s.apply(rng.choice(s.legal_actions()))
            after = [lay.encode(s, p) for p in range(rules.players)]
            assert all(a != b for a, b in zip(after, before, strict=True))
            before = after
    assert equal >= 3  # worlds with another deal than the real one


def test_different_hands_encode_differently():
    rules = load("quadrille")
    lay = layout(rules)
    a, b = State(rules, seed=1), State(rules, seed=2)
    for p in range(4):
        assert (lay.encode(a, p) == lay.encode(b, p)) == (a.hands[p] == b.hands[p])


def test_the_core_imports_no_numpy_or_adapter_packages():
    code = ("import sys, ombre_rules, ombre_rules.obs, ombre_rules.engine.portable; "
            "print(sorted(m for m in ('numpy', 'pyspiel', 'pettingzoo', 'gymnasium') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT)}).stdout.decode().strip()
    assert out == "[]"
