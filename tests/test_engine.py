"""Engine guarantees beyond the scenario files: sandboxing, deals given from outside, the pool, records."""
from __future__ import annotations

import gc
import random

import pytest

from ombre_rules import OmbreError, SpecError, State, bench, load
from ombre_rules.records import replay, to_record
from ombre_rules.records import write as write_records
from ombre_rules.sim.speed import builtin_variants


def test_expressions_cannot_reach_python_internals(write):
    path = write('extends: ombre\nnames:\n  x: "trump.__init__"\n')
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value).split("\n")[0] == f"{path}:3:13: unknown attribute '__init__'"


def test_a_deal_given_from_outside_must_hold_every_card_once():
    rules = load("ombre")
    s = State(rules, seed=1)
    hands = list(s.deal_hands)
    with pytest.raises(OmbreError, match="a deal needs 3 hands, not 2"):
        State(rules, hands=hands[:2], talon=list(s.deal_talon))
    with pytest.raises(OmbreError, match="is dealt twice"):
        State(rules, hands=[hands[0], hands[0], hands[2]], talon=list(s.deal_talon))
    with pytest.raises(OmbreError, match="the deal leaves out"):
        State(rules, hands=hands, talon=list(s.deal_talon)[1:])


def test_the_last_outcome_must_catch_every_deal(write):
    path = write('extends: ombre\noutcomes:\n  - {name: sacada, when: "mine > best"}\n')
    with pytest.raises(SpecError) as ei:
        load(path)
    assert "the last outcome needs no 'when'" in str(ei.value)
    assert str(ei.value).startswith(f"{path}:3:")


def test_a_pool_paid_to_several_seats_is_shared(write):
    path = write("extends: ombre\nscoring:\n  outcomes:\n    all_pass:\n      - {from_pool: {to: players}}\n")
    rules = load(path)
    s = State(rules, seed=2, pool=31)  # antes make it 46; 15 each, one counter stays
    for a in ("pass", "pass", "pass"):
        s.apply_str(a)
    assert s.result.payments == (10, 10, 10)
    assert s.result.pool_after == 1


def test_a_house_rule_record_replays_from_its_file(write, tmp_path):
    path = write("id: ombre\nextends: ombre\ncontracts:\n  solo: {value: 20}\n")
    rules = load(path)
    assert rules.variant == path
    s = State(rules, seed=4)
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    assert replay(to_record(s)).result == s.result.to_dict()


def test_writing_a_record_where_it_cannot_go_is_a_clear_error(tmp_path):
    with pytest.raises(OmbreError, match="cannot write"):
        write_records(str(tmp_path / "no" / "such" / "dir.json"), [{"format": "x"}])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("rec, message", [
    ({"variant": 5}, "record field 'variant' must be str, not 5"),
    ({"variant": "ombre", "dealer": "x", "deal": {}, "actions": []}, "record field 'dealer' must be int, not 'x'"),
    ({"variant": "ombre", "deal": {"hands": [[], [], []], "talon": []}, "actions": [1]},
     "record field 'actions' must be a list of action strings"),
    ({"variant": "ombre", "deal": {"hands": [["AS"], ["AS"], []], "talon": []}, "actions": []},
     "bad card in the deal: AS is dealt twice (hand 1 and hand 2)"),
])
def test_a_malformed_record_is_refused_with_its_field(rec, message):
    from ombre_rules.records import ReplayError

    with pytest.raises(ReplayError) as ei:
        replay(rec)
    assert ei.value.message == message


@pytest.mark.parametrize("removed, kept", [("diamonds", "SCH"), ("hearts", "SCD")])
def test_two_hand_deal_is_eight_each_in_packets_of_two_from_thirty_cards(removed, kept):
    from ombre_rules.engine.state import shuffled

    rules = load(f"ombre-a-dos(removed_suit={removed})")
    deck = rules.deck
    assert deck.size == 30
    assert sorted({deck.name(c)[-1] for c in range(deck.size)}) == sorted(kept)
    for dealer in (0, 1):
        s = State(rules, seed=11, dealer=dealer)
        order = shuffled(30, 11)
        elder, other = 1 - dealer, dealer
        want = {elder: [], other: []}
        for k in range(4):  # four rounds of two, the elder first
            want[elder] += order[4 * k:4 * k + 2]
            want[other] += order[4 * k + 2:4 * k + 4]
        assert s.hands[elder] == sum(1 << c for c in want[elder])
        assert s.hands[other] == sum(1 << c for c in want[other])
        assert s.talon == order[16:] and len(s.talon) == 14
        assert s.current_player == elder


def test_a_deal_that_gives_a_sitter_cards_is_refused():
    rules = load("danish-lhombre(four_players=opposite_sits_out)")
    s = State(rules, seed=1, dealer=0)
    assert s.deal_hands[2] == 0 and all(bin(h).count("1") == 9 for i, h in enumerate(s.deal_hands) if i != 2)
    hands = list(s.deal_hands)
    hands[1], hands[2] = 0, hands[1]
    with pytest.raises(OmbreError, match="seat 2 sits this deal out and gets no cards"):
        State(rules, dealer=0, hands=hands, talon=list(s.deal_talon))


def test_sit_out_must_name_seats(write):
    path = write('extends: danish-lhombre\nplayers: 4\nsit_out: {who: "dealer + 2"}\n')
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value).split("\n")[0] == (f"{path}:3:17: sit_out.who must be a seat (0 to 3), and 'dealer + 2' "
                                            f"may be 5")
    path = write('extends: danish-lhombre\nplayers: 4\nsit_out: {who: "[dealer, dealer]"}\n')
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value).split("\n")[0] == (f"{path}:3:16: expression '[dealer, dealer]' gives [0, 0] for dealer 0, "
                                            f"not distinct seats from 0 to 3")


def test_sit_out_must_leave_the_same_number_playing(write):
    path = write('extends: danish-lhombre\nplayers: 4\nsit_out: {who: "dealer if dealer < 2 else none"}\n')
    with pytest.raises(SpecError) as ei:
        load(path)
    assert "must name the same number of seats for every dealer" in str(ei.value)
    assert str(ei.value).startswith(f"{path}:3:16:")


@pytest.mark.parametrize("variant", builtin_variants())
def test_a_finished_deal_is_freed_without_the_cycle_collector(variant):
    """Nothing of a deal refers back to it once it is over (its result's account reads the state, the state
    does not hold the result): random deals leave no garbage for the cycle collector, and the result still
    gives its account."""
    rules = load(variant)
    bench.run(rules, 20, 1)
    gc.collect(0)
    gc.disable()  # what the deals leave stays in the youngest generation, which alone is searched
    try:
        bench.run(rules, 200, 2, warmup=0)
        assert gc.collect(0) == 0
    finally:
        gc.enable()
    s = State(rules, seed=5)
    s.random_playout(random.Random(5).random)
    res = s.result
    del s
    assert tuple(res.account) and res.account == res.account
