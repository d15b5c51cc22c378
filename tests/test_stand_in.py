"""The seat sitting out taking over a seat's hand in the auction (`sit_out.stand_in`, engine/auction.py) beyond
the scenario file (tests/scenarios/mechanics/stand_in.yaml): load errors at their place, views that leak nothing,
records and positions of a hand taken over, the observation encoding, the bots, and random play against the
public loop."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from housefiles import load_errors, refused_at
from test_playout import _agree

from ombre_rules import State, load
from ombre_rules.engine.view import visible_cards
from ombre_rules.log import format_deal
from ombre_rules.obs import Layout
from ombre_rules.players import act, make_player, prepare
from ombre_rules.records import replay, to_record

DATA = Path(__file__).parent / "data"
FILE = str(DATA / "stand_in.yaml")
STRONG = ["AS KS QS", "AH KH JC", "QH JH AC", "", "JS KC QC"]  # the dealer (0) holds the three top spades
WEAK = ["QH JH JC", "AS KS AH", "AC KC KH", "", "QS JS QC"]  # the hands by seat, then the talon


def _deal(rules, hands: list[str], actions: list[str]) -> State:
    d = rules.deck
    s = State(rules, dealer=0, hands=[d.mask_of(h.split()) for h in hands[:4]],
              talon=[d.parse(c) for c in hands[4].split()])
    for a in actions:
        s.apply_str(a)
    return s


@pytest.mark.parametrize("body, where, expected", [
    ('sit_out: {stand_in: {seat: "(dealer + 1) % seats"}}', "h.yaml",
     "3:28: expression '(dealer + 1) % seats' gives 1 for dealer 0: not a seat beside the seat sitting out (3) "
     "that plays"),
    ('sit_out: {stand_in: {seat: "(dealer + 3) % seats"}}', "h.yaml",
     "3:28: expression '(dealer + 3) % seats' gives 3 for dealer 0: not a seat beside the seat sitting out (3) "
     "that plays"),
    ('sit_out: {who: "[(dealer + 3) % seats, (dealer + 2) % seats]"}\nplayers: 5', "base.yaml",
     "28:13: sit_out.stand_in needs exactly one seat sitting out each deal (sit_out.who)"),
    ("sit_out: {stand_in: {seat: contract}}", "h.yaml", "3:28: unknown name 'contract'"),
    ("sit_out: {stand_in: {seat: dealer, sees: 1}}", "h.yaml", "3:42: sit_out.stand_in.sees must be boolean, not 1"),
], ids=["not-beside", "the-sitter", "two-out", "name", "sees"])
def test_a_bad_stand_in_is_refused_at_its_place(tmp_path, body, where, expected):
    assert refused_at(tmp_path, FILE, body) == ([expected], where)


def test_a_stand_in_without_a_seat_sitting_out_is_refused_at_its_place(tmp_path):
    text = Path(FILE).read_text(encoding="utf-8")
    alone = tmp_path / "alone.yaml"
    alone.write_text(text.replace('  who: "(dealer + 3) % seats"\n', ""), encoding="utf-8")
    assert load_errors(str(alone)) == ["27:3: missing key 'who' in sit_out"]


@pytest.mark.parametrize("options", [{}, {"sees": "false"}])
def test_only_the_seat_sitting_out_sees_the_hand_and_only_in_the_auction(options):
    """In every state of random deals: no other seat (nor a spectator) knows a card of the named seat's hand
    that it does not know without the rule; the seat sitting out knows it during the auction (if he sees)."""
    rules = load(FILE, options)
    plain = load(FILE, {"stand_in": "false"})
    sees = not options
    seen_by_sitter = 0
    for i in range(60):
        s = State(rules, seed=500 + i, dealer=i % 4)
        rng = random.Random(i)
        while not s.is_terminal:
            si = rules.stand_in
            sitter, named = si.sitter[s.dealer], si.named[s.dealer]
            for seat in (None, *range(4)):
                v = s.view(seat, actions=False)
                known = visible_cards(s, seat)
                assert v["stand_in"] == {"seat": named, "sitter": sitter, "asked": bool(s.stand_bids),
                                         "taken": s.stand_for >= 0}
                if seat == sitter and sees and s.phase_name == "auction" and s.stand_for < 0:
                    assert known & s.hands[named] == s.hands[named]
                    assert rules.deck.mask_of(v["stand_in_hand"]) == s.hands[named]
                    seen_by_sitter += 1
                else:
                    assert v["stand_in_hand"] == []
                    if seat != named and s.stand_for < 0:
                        s.rules = plain
                        assert known == visible_cards(s, seat)
                        s.rules = rules
            acts = s.legal_actions()
            s.apply(acts[int(rng.random() * len(acts))])
    assert (seen_by_sitter > 0) == sees


def test_a_hand_taken_over_replays_from_its_record_its_position_and_its_log():
    rules = load(FILE)
    s = _deal(rules, STRONG, ["bid game", "pass", "pass", "bid big", "pass"])
    twin = State.from_text(s.to_text(), rules)
    assert (twin.phase_name, twin.declarer, twin.stand_for, twin.to_move, twin.history) == \
        ("trump", 3, 0, 3, s.history)
    assert twin.view(3)["hand"] == ["AS", "KS", "QS"] and twin.view(0)["sitting_out"] == [0]
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    again = replay(to_record(s), rules)
    assert again.result == s.result.to_dict() and again.actions == len(s.history)
    assert s.result.payments[0] == 0 and s.result.payments[3] != 0
    assert [(e["seat"], e["phase"], e["action"]) for e in s.view(1)["actions"]][:5] == [
        (1, "auction", "bid game"), (2, "auction", "pass"), (0, "auction", "pass"), (3, "auction", "bid big"),
        (1, "auction", "pass")]
    text = "\n".join(format_deal(s))
    assert "  seat 3 takes over the hand of seat 0 in the auction" in text
    assert "seat 0 (dealer): AS KS QS" in text


def test_the_encoding_carries_the_hand_seen_and_the_seat_taken_over():
    rules = load(FILE)
    lay = Layout(rules)
    d = rules.deck
    at = {sl.name: sl for sl in lay.slices}
    assert (at["stand_in_hand"].size, at["stand_in"].size) == (12, 4)
    assert lay.size == at["stand_in"].offset + 4  # the stand-in seat is the last slice
    asked = _deal(rules, STRONG, ["bid game", "pass", "pass"])
    v = lay.encode(asked, 3)
    hand = at["stand_in_hand"].offset
    assert [i for i in range(12) if v[hand + i]] == sorted(d.parse(c) for c in ("AS", "KS", "QS"))
    assert not any(lay.encode(asked, 1)[hand:hand + 12]) and not any(v[at["stand_in"].offset:])
    taken = _deal(rules, STRONG, ["bid game", "pass", "pass", "bid big"])
    w = lay.encode(taken, 2)
    assert w[at["stand_in"].offset:at["stand_in"].offset + 4] == [1.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("name", ["greedy", "pimc:12"])
def test_the_bots_take_over_a_hand_that_supports_a_higher_bid(name):
    rules = load(FILE)
    prepare({name}, rules)
    for hands, want in ((STRONG, "bid big"), (WEAK, "pass")):
        s = _deal(rules, hands, ["bid game", "pass", "pass"])
        assert s.to_move == 3 and [rules.action_str(a) for a in s.legal_actions()] == ["pass", "bid big"]
        assert rules.action_str(act(make_player(name, seed=3, rules=rules), s, 3)) == want


def test_a_bot_sitting_out_bids_blind_never():
    rules = load(FILE, {"sees": "false"})
    s = _deal(rules, STRONG, ["bid game", "pass", "pass"])
    assert rules.action_str(act(make_player("greedy", seed=3, rules=rules), s, 3)) == "pass"


def test_random_playout_is_the_public_loop_with_stand_ins():
    rules = load(FILE)
    taken = 0
    for i in range(200):
        a = State(rules, seed=7_000 + i, dealer=i % 4)
        _agree(a, i)
        taken += a.stand_for >= 0
    assert taken > 0
