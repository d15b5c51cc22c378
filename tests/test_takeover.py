"""The take-over after a surrender (`play.surrender.takeover`, engine/surrender.py) beyond the scenario files
(tests/scenarios/mechanics/takeover.yaml): load errors at their place, the bots' decisions, worlds sampled after a
take-over, records and positions of a game taken over, and random play against the public loop."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from housefiles import refused_at
from test_playout import _agree

from ombre_rules import State, load
from ombre_rules.bots.sample import Knowledge, sample
from ombre_rules.players import act, make_player, prepare
from ombre_rules.records import replay, to_record

DATA = Path(__file__).parent / "data"
FILE = str(DATA / "takeover.yaml")
STRONG = ["AH KH QH 10H 9H AS KS AD", "7S 8S JS 9D 10D 8D 8C 9C", "AC KC QC JC 10C 9S 10S QS"]
WEAK = [STRONG[1], STRONG[0], STRONG[2]]  # seats 0 and 1 swap hands
TALON = "7C JH 8H 7H QD JD KD 7D"
# seat 1 bids turn (clubs, by the 7C), buys one card and lays down: seat 0 is asked to take over
TO_TAKEOVER = ["bid turn", "pass", "pass", "discard 7S", "draw", "concede"]
WEAK_TO_TAKEOVER = ["bid turn", "pass", "pass", "discard KS", "draw", "concede"]
TAKEN = TO_TAKEOVER + ["take_over", "discard KS", "draw", "discard 8S", "discard 8D", "draw", "discard 9S",
                       "discard 10S", "draw"]


def _deal(rules, hands: list[str], actions: list[str]) -> State:
    d = rules.deck
    s = State(rules, dealer=0, hands=[d.mask_of(h.split()) for h in hands], talon=[d.parse(c) for c in TALON.split()])
    for a in actions:
        s.apply_str(a)
    return s


@pytest.mark.parametrize("body, where, expected", [
    ("contracts: {turn: {play: {surrender: {at: after_play}}}}", "h.yaml",
     "3:43: 'after_play' is not allowed for contracts.turn.play.surrender.at (did you mean 'before_play'?)"),
    ("contracts: {turn: {play: {surrender: {takeover: {contracts: [turn, grand]}}}}}", "h.yaml",
     "3:68: unknown contract 'grand'"),
    ('contracts: {turn: {play: {surrender: {takeover: {when: "talon >= 2"}}}}}', "h.yaml",
     "3:57: unknown name 'talon' (did you mean 'went_alone'?)"),
    ('contracts: {turn: {play: {surrender: {takeover: {by: "contract"}}}}}', "h.yaml",
     "3:55: surrender.takeover.by must be a seat or a list of seats, not a contract"),
    ("contracts: {turn: {play: {surrender: {takeover: {who: dealer}}}}}", "h.yaml",
     "3:50: unknown key 'who' in contracts.turn.play.surrender.takeover (expected one of: by, when, contracts, "
     "doc)"),
    ("doubling: {who: defenders}", "base.yaml",
     "58:11: a take-over after a surrender cannot be combined with doubling (a game taken over begins anew)"),
    ('defence: {when: "true"}', "base.yaml",
     "58:11: a take-over after a surrender cannot be combined with defence (a game taken over begins anew)"),
    ('contracts: {turn: {call: {allowed: "choice.rank == K"}}}', "base.yaml",
     "58:11: a take-over after a surrender cannot be combined with a called partner (contract 'turn' calls a "
     "card)"),
], ids=["at", "contract", "name", "by-type", "key", "doubling", "defence", "call"])
def test_a_bad_takeover_is_refused_at_its_place(tmp_path, body, where, expected):
    assert refused_at(tmp_path, FILE, body) == ([expected], where)


@pytest.mark.parametrize("name", ["greedy", "pimc:12", "pimcdd:6"])
def test_the_bots_take_over_a_game_their_hand_supports(name):
    rules = load(FILE)
    prepare({name}, rules)
    for hands, actions, want in ((STRONG, TO_TAKEOVER, "take_over"), (WEAK, WEAK_TO_TAKEOVER, "pass")):
        s = _deal(rules, hands, actions)
        assert s.phase_name == "takeover" and s.to_move == 0
        assert rules.action_str(act(make_player(name, seed=3, rules=rules), s, 0)) == want


def test_greedy_chooses_among_the_contracts_offered_as_it_bids():
    rules = load(FILE, {"choose": "true"})
    s = _deal(rules, STRONG, TO_TAKEOVER)
    assert [rules.action_str(a) for a in s.legal_actions()] == ["bid turn", "bid solo", "pass"]
    assert rules.action_str(act(make_player("greedy", seed=1, rules=rules), s, 0)) == "bid solo"
    s = _deal(rules, WEAK, WEAK_TO_TAKEOVER)
    assert rules.action_str(act(make_player("greedy", seed=1, rules=rules), s, 0)) == "pass"


def test_worlds_are_sampled_after_a_take_over_with_the_new_turned_card_where_it_lay():
    """The card turned for the taker lay on the talon after the draws made before the take-over: in every world
    the taker's first draw brings it (the conceder's view: he drew the first turned card himself)."""
    rules = load(FILE)
    d = rules.deck
    for upto, seat in ((9, 1), (12, 2), (len(TAKEN), 1)):
        s = _deal(rules, STRONG, TAKEN[:upto])
        assert s.to_move == seat
        k = Knowledge(rules, s.view(seat))
        assert k.consistent and k.turn_from == 1 and k.turned == d.parse("JH")
        rng = random.Random(5)
        for _ in range(10):
            w = sample(k, rng)
            assert w is not None
            assert w.declarer == 0 and w.taken_from == 1 and w.turned == d.parse("JH")
            assert w.hands[seat] == s.hands[seat] and w.hands[0] >> d.parse("JH") & 1


def test_a_game_taken_over_replays_from_its_record_and_its_position():
    rules = load(FILE)
    s = _deal(rules, STRONG, TAKEN)
    twin = State.from_text(s.to_text(), rules)
    assert (twin.phase_name, twin.declarer, twin.taken_from, twin.history) == ("play", 0, 1, s.history)
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    again = replay(to_record(s), rules)
    assert again.result == s.result.to_dict() and again.actions == len(s.history)
    assert [e["action"] for e in s.view(2)["actions"]][5:8] == ["concede", "take_over", "discard"]
    assert [e["phase"] for e in s.view(2)["actions"]][5:7] == ["surrender", "takeover"]


@pytest.mark.parametrize("options, ends", [
    ({}, {"laid_down", "won", "lost"}),
    ({"at": "before_exchange"}, {"laid_down", "taken_won", "taken_lost"}),
    ({"at": "before_exchange", "choose": "true"}, {"laid_down", "taken_lost"}),
])
def test_random_playout_is_the_public_loop_with_take_overs(options, ends):
    """Before the exchange eight cards are left, so a game laid down there is often taken over."""
    rules = load(FILE, options)
    outcomes = set()
    for i in range(300):
        a = State(rules, seed=9_000 + i, dealer=i % 3)
        _agree(a, i)
        outcomes.add(a.result.outcome)
    assert ends <= outcomes
