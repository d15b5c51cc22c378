"""Values carried between deals (`session.carry`): declared in YAML, read as `session.NAME`, changed by `set:`
steps, carried by sessions, records and replays; errors at load time at their place."""
import re

import pytest
from housefiles import house, load_errors

from ombre_rules import OmbreError, load
from ombre_rules.engine import State
from ombre_rules.players import make_player
from ombre_rules.records import ReplayError, replay, to_record
from ombre_rules.session import Session


def test_declaration_and_use_errors_name_their_place(tmp_path):
    path = house(tmp_path, """extends: cinquillo
session:
  carry:
    couleur: {type: suit, once: true}
    bad: {start: null}
    wins: {start: 0}
scoring:
  outcomes:
    won:
      - {set: {couleur: trump, wins: "session.wins + 1", nope: 1}}
      - {set: {wins: "[1]"}}
play:
  follow:
    - must: "session.wins > 0"
names:
  x: "session.wins"
let:
  y: "session"
  z: "session.win"
""")
    assert load_errors(path) == [
        "5:10: session value 'bad' needs a type (one of int, bool, str, suit, list): its start value null does "
        "not tell it",
        "16:15: the session's values cannot be used in names (only where a deal is known: outcomes, scoring, bid, "
        "call and play conditions)",
        "14:22: the session's values cannot be used in a play obligation (only where a deal is known: outcomes, "
        "scoring, bid, call and play conditions)",
        "18:7: 'session' holds the values carried between deals: name one as session.NAME",
        "19:15: unknown session value 'win' (did you mean 'wins'?)",
        "10:58: set: unknown session value 'nope'",
        "11:23: session value 'wins' must be a number, not a list of numbers",
    ]


def test_a_variant_without_carried_values_refuses_them(tmp_path):
    path = house(tmp_path, """extends: ombre
let:
  z: "session.beasts"
""")
    assert load_errors(path) == ["3:15: unknown session value 'beasts' (the file declares none under session.carry)"]
    with pytest.raises(OmbreError, match="carries no values between deals"):
        State(load("ombre"), seed=1, session={"beasts": []})


@pytest.mark.parametrize("given, msg", [
    ({"beast": []}, "unknown session value 'beast' (did you mean 'beasts'?)"),
    ({"beasts": 3}, "session value 'beasts' must be a list of numbers, not '3'"),
    ({"beasts": ["x"]}, "session value 'beasts' must be a list of numbers"),
    ({"first_beast": 1}, "session value 'first_beast' must be a string, not '1'"),
    ([1], "the session's values are a mapping of names to values"),
])
def test_given_values_are_checked(given, msg):
    with pytest.raises(OmbreError, match=re.escape(msg)):
        State(load("cinquillo(scoring=cg_new)"), seed=1, session=given)


def test_a_once_value_is_fixed_by_the_first_game_won(tmp_path):
    path = house(tmp_path, """extends: cinquillo
session:
  carry:
    couleur: {type: suit, once: true, doc: the trump of the first game won}
    wins: {start: 0}
scoring:
  outcomes:
    won:
      - {set: {couleur: trump, wins: "session.wins + 1"}}
""")
    rules = load(path)
    s = Session(rules, seed=3)
    players = [make_player("greedy", k, rules) for k in range(5)]
    s.play(players, 40)
    won = [d for d in s.deals if d.result.outcome == "won"]
    assert len(won) >= 2
    assert {d.result.session_before["couleur"] for d in won[1:]} == {won[0].result.trump}
    for d in s.deals:
        r = d.result
        assert r.session_after["wins"] == r.session_before["wins"] + (r.outcome == "won")
    assert s.carried == {"beasts": [], "first_beast": "", "couleur": won[0].result.trump, "wins": len(won)}


def _beast(before: list[int], first: str) -> int:
    """cinquillo.md sect. 8.3: 15; then 45, or 30 after a first beast made by a codille; then +15 each."""
    if not before:
        return 15
    if len(before) == 1:
        return 30 if first == "codille" else 45
    return before[-1] + 15


def test_a_session_carries_the_beasts_from_deal_to_deal():
    rules = load("cinquillo(scoring=cg_new)")
    s = Session(rules, seed=11)
    players = [make_player("random", k, rules) for k in range(5)]
    s.play(players, 60)
    made = 0
    prev = {"beasts": [], "first_beast": ""}
    for d in s.deals:
        r = d.result
        assert r.session_before == prev
        b, first = r.session_before["beasts"], r.session_before["first_beast"]
        if r.outcome in ("remise", "codille"):
            made += 1
            assert r.session_after["beasts"] == b + [_beast(b, first)]
            assert r.session_after["first_beast"] == (first or r.outcome)
        elif r.outcome in ("won", "vole_failed") and r.contract == "solo":
            assert r.session_after == r.session_before
        elif r.outcome != "all_pass":
            assert r.session_after == {"beasts": [], "first_beast": ""}
        prev = r.session_after
    assert made >= 5
    assert s.carried == prev


def test_records_carry_the_values_and_replay_them():
    rules = load("cinquillo(scoring=cg_new)")
    s = Session(rules, seed=5, pool=45, carried={"beasts": [15, 30], "first_beast": "codille"})
    players = [make_player("greedy", k, rules) for k in range(5)]
    state = s.play(players, 1)[0]
    rec = to_record(state)
    assert rec["session"] == {"beasts": [15, 30], "first_beast": "codille"}
    assert rec["result"]["session_before"] == rec["session"]
    assert replay(rec, rules).result == rec["result"]
    rec["session"] = {"beasts": [15], "first_beast": "codille"}
    if state.result.outcome in ("remise", "codille"):
        with pytest.raises(ReplayError, match="result differs"):
            replay(rec, rules)


def test_a_clone_and_a_pickle_keep_the_values():
    import pickle

    rules = load("cinquillo(scoring=cg_new)")
    s = State(rules, seed=9, session={"beasts": [15], "first_beast": "remise"})
    assert s.clone().carry == s.carry
    assert pickle.loads(pickle.dumps(s)).carry == s.carry
