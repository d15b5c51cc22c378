"""The values a session carries between deals (`session.carry`) are public and shown wherever a deal is: the
one-line text, every seat's view, the observation encoding, the OpenSpiel and PettingZoo adapters, the log and
the terminal.
The deals are scenario deals with known outcomes: Cinquillo's codille that makes the first beast and the remise
that makes the second (scoring=cg_new), German Solo's first won game that fixes the couleur."""
from pathlib import Path

import pytest

from ombre_rules import OmbreError, State, load
from ombre_rules.obs import layout
from ombre_rules.players import make_player
from ombre_rules.scenario import scenario_deal
from ombre_rules.tty import play_table

ROOT = Path(__file__).resolve().parent.parent
BEASTS = str(ROOT / "tests" / "scenarios" / "cinquillo" / "beasts.yaml")
SOLO = str(ROOT / "tests" / "scenarios" / "german-solo" / "worked_examples.yaml")
NO_BEAST = {"beasts": [], "first_beast": ""}


def played(path: str, index: int, session=None, keep=True) -> tuple[State, State]:
    """A scenario's deal before its actions and after them (with the scenario's session values, or `session`
    in their place when `keep` is false)."""
    start, actions, _name = scenario_deal(path, index)
    if not keep:
        start = State(start.rules, dealer=start.dealer, pool=start.pool_before, hands=list(start.deal_hands),
                      talon=list(start.deal_talon), session=session)
    end = start.clone()
    for a in actions:
        end.apply_str(a)
    return start, end


def test_the_codille_that_makes_the_first_beast_in_view_and_text():
    start, end = played(BEASTS, 1)
    assert end.result.outcome == "codille"
    for seat in range(5):  # public: every seat sees the same values, before and after the deal
        assert start.view(seat)["session"] == NO_BEAST
        v = end.view(seat)
        assert v["session"] == NO_BEAST
        assert v["result"]["session_after"] == {"beasts": [15], "first_beast": "codille"}
    assert start.to_text() == ('cinquillo(scoring=cg_new) | dealer 0 | pool 0 | session {"beasts": [], '
                               '"first_beast": ""} | hands ' + start.to_text().split(" | hands ")[1])
    text = end.to_text()
    assert text.endswith(' | next {"beasts": [15], "first_beast": "codille"}')
    assert State.from_text(text).to_text() == text


def test_the_second_beast_on_the_board_in_view_text_and_encoding():
    start, end = played(BEASTS, 2)
    assert end.result.outcome == "remise"
    assert start.view(3)["session"] == {"beasts": [15], "first_beast": "codille"}
    assert end.view(0)["result"]["session_after"] == {"beasts": [15, 30], "first_beast": "codille"}
    assert ' | pool 15 | session {"beasts": [15], "first_beast": "codille"} | hands ' in start.to_text()
    assert end.to_text().endswith(' | next {"beasts": [15, 30], "first_beast": "codille"}')
    back = State.from_text(end.to_text())
    assert back.carry == ([15], "codille") and back.carry_after == ([15, 30], "codille")
    lay = layout(start.rules)
    sl = lay.slices[-3]  # the last slices: the session, then the stand-in's two (empty without one)
    assert sl.name == "session" and sl.shape == (6,)
    assert [(x.name, x.size) for x in lay.slices[-2:]] == [("stand_in_hand", 0), ("stand_in", 0)]
    assert sl.meaning.endswith(": beasts length, beasts sum above zero, beasts sum below zero, first_beast codille, "
                               "first_beast remise, first_beast another word")
    assert lay.high()[sl.offset:] == [1000.0] * 3 + [1.0] * 3
    for seat in range(5):
        assert lay.encode(start, seat)[sl.offset:] == [1, 15, 0, 1, 0, 0]
    other = State(start.rules, seed=1, session={"beasts": [15, 45, 60], "first_beast": "a word of a record"})
    assert lay.encode(other, 0)[sl.offset:] == [3, 120, 0, 0, 0, 1]


def test_the_first_won_game_fixes_the_couleur_shown_to_all():
    start, end = played(SOLO, 1, keep=False)
    assert (end.result.outcome, end.result.contract, end.result.trump) == ("won", "frage", "hearts")
    assert [end.view(s)["session"] for s in range(4)] == [{"couleur": None}] * 4
    assert end.view(2)["result"]["session_after"] == {"couleur": "hearts"}
    assert ' | session {"couleur": null} | ' in end.to_text()
    assert end.to_text().endswith(' | next {"couleur": "hearts"}')
    nxt = State(start.rules, seed=4, dealer=1, session={"couleur": "hearts"})
    assert [nxt.view(s)["session"] for s in range(4)] == [{"couleur": "hearts"}] * 4
    assert nxt.to_text() == 'german-solo | dealer 1 | pool 0 | session {"couleur": "hearts"} | seed 4 | actions'
    lay = layout(start.rules)
    at = lay.offset("session")
    assert [d.name for d in start.rules.deck.suits] == ["clubs", "spades", "hearts", "diamonds"]
    assert lay.encode(end, 0)[at:] == [0, 0, 0, 0] and lay.encode(nxt, 3)[at:] == [0, 0, 1, 0]
    # once fixed it stays: a later game won in another suit leaves it
    _s, again = played(SOLO, 1, session={"couleur": "spades"}, keep=False)
    assert again.to_text().endswith(' | next {"couleur": "spades"}')


def test_a_variant_without_carried_values_shows_none():
    s = State(load("ombre"), seed=2)
    assert "session" not in s.view(0)
    assert s.to_text() == "ombre | dealer 0 | pool 0 | seed 2 | actions"
    lay = layout(s.rules)
    assert [(x.name, x.size) for x in lay.slices[-3:]] == [("session", 0), ("stand_in_hand", 0), ("stand_in", 0)]


@pytest.mark.parametrize("text, message", [
    ('german-solo | session {"couleur": "purple"} | seed 1', "session value 'couleur' must be a suit, not 'purple'"),
    ("german-solo | session couleur | seed 1", "'session' wants the session's values as a JSON mapping of names, "
                                               "not 'couleur', in 'german-solo | session couleur | seed 1'"),
    ('ombre | session {"beasts": []} | seed 1', "'ombre' carries no values between deals (it declares no "
                                                "session.carry)"),
    ('german-solo | seed 1 | actions | next {"couleur": "hearts"}',
     "'next' gives the values a finished deal leaves, but the deal is not over, in 'german-solo | seed 1 | "
     "actions | next {\"couleur\": \"hearts\"}'"),
])
def test_bad_session_fields_are_refused(text, message):
    with pytest.raises(OmbreError) as e:
        State.from_text(text)
    assert e.value.message == message


def test_a_wrong_next_is_refused_and_a_bar_in_a_string_survives():
    _s, end = played(BEASTS, 1)
    wrong = end.to_text().replace('next {"beasts": [15]', 'next {"beasts": [45]')
    with pytest.raises(OmbreError, match=r"'next' gives \{\"beasts\": \[45\], \"first_beast\": \"codille\"\}, but "
                                         r"the deal leaves \{\"beasts\": \[15\], \"first_beast\": \"codille\"\}"):
        State.from_text(wrong)
    odd = State(end.rules, seed=3, session={"beasts": [15], "first_beast": "a | b"})
    assert '"first_beast": "a \\u007c b"' in odd.to_text()
    assert State.from_text(odd.to_text()).carry == ([15], "a | b")


def test_the_log_and_the_terminal_show_the_values_deal_after_deal():
    rules = load("german-solo")
    said: list[str] = []
    players = [make_player("greedy", k, rules) for k in range(4)]
    deals = play_table(rules, players, None, seed=3, dealer=0, deals=4, say=said.append)
    lines = "\n".join(said).splitlines()
    shown = [x for x in lines if x.startswith("session")]
    assert [d.result.outcome for d in deals] == ["lost", "lost", "prime", "lost"]  # prime: a game won
    assert shown == ["session: couleur none", "session for the next deal: couleur none"] * 2 + [
        "session: couleur none", "session for the next deal: couleur diamonds",
        "session: couleur diamonds", "session for the next deal: couleur diamonds",
        "session after the last deal: couleur diamonds"]
    assert lines[lines.index("=== deal 4 of 4: dealer seat 3, pool 0 ===") + 3] == "session: couleur diamonds"


def test_openspiel_games_take_the_values_and_show_them():
    import json

    import pyspiel

    import ombre_rules.openspiel as osp

    game = pyspiel.load_game("ombre_rules_cinquillo", {"scoring": "cg_new", "seed": 3,
                                                       "session": "first_beast:codille; beasts:15 30"})
    assert str(game) == ("ombre_rules_cinquillo(all_pass=dealer_forced_call,codille_leftover=highest_trump,dealer=0,"
                         "options=,pool=0,scoring=cg_new,seed=3,session=beasts:15 30;first_beast:codille,"
                         "utility_bound=0)")
    assert str(pyspiel.load_game(str(game))) == str(game)
    st = game.new_initial_state()
    seat = st.current_player()
    for recall in (True, False):
        text = st.information_state_string(seat) if recall else st.observation_string(seat)
        assert json.loads(text)["session"] == {"beasts": [15, 30], "first_beast": "codille"}
    at = layout(game.rules).offset("session")
    assert st.information_state_tensor(seat)[at:] == [2, 45, 0, 1, 0, 0]
    assert st.observation_tensor(seat)[at:] == [2, 45, 0, 1, 0, 0]
    assert str(st).startswith('cinquillo(scoring=cg_new) | dealer 0 | pool 0 | session {"beasts": [15, 30], '
                              '"first_beast": "codille"} | seed 3')
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    solo = pyspiel.load_game("ombre_rules", {"variant": "german-solo", "session": "couleur:hearts"})
    pyspiel.random_sim_test(solo, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(ValueError, match=r"the state carries \{'couleur': None\} into its deal, this game "
                                         r"\{'couleur': 'hearts'\}"):
        solo.state_from(State(solo.rules, seed=1))
    assert solo.state_from(State(solo.rules, seed=1, session={"couleur": "hearts"})).engine.carry[0].name == "hearts"
    with pytest.raises(Exception, match="session value 'couleur' must be a suit, not 'purple'"):
        pyspiel.load_game("ombre_rules", {"variant": "german-solo", "session": "couleur:purple"})
    with pytest.raises(Exception, match="Unknown parameter 'session'"):
        pyspiel.load_game("ombre_rules_ombre(session=x:1)")
    with pytest.raises(OmbreError, match="session value 'first_beast' cannot be a game parameter: 'a,b'"):
        osp.session_text(game.rules, ([], "a,b"))


@pytest.mark.filterwarnings("ignore:Observation")
def test_pettingzoo_takes_the_values_and_shows_them():
    from pettingzoo.test import api_test

    from ombre_rules.pettingzoo import env, raw_env

    e = raw_env(variant="german-solo", render_mode="ansi", session={"couleur": "hearts"})
    e.reset(seed=2)
    at = e.layout.offset("session")
    assert e.deal.carry[0].name == "hearts"
    assert [e.observe(a)["observation"][at:].tolist() for a in e.agents] == [[0, 0, 1, 0]] * 4
    assert e.render().splitlines()[1] == "  session: couleur hearts"
    while not e.deal.is_terminal:
        e.step(e.deal.legal_actions()[0])
    assert e.render().splitlines()[-1] == f"  next deal's session: couleur {e.deal.result.session_after['couleur']}"
    api_test(env(variant="cinquillo(scoring=cg_new)", session={"beasts": [15], "first_beast": "remise"}),
             num_cycles=100)
    with pytest.raises(OmbreError, match="unknown session value 'colour'"):
        raw_env(variant="german-solo", session={"colour": "hearts"})


def test_worlds_sampled_from_a_view_carry_its_values():
    import random

    from ombre_rules.bots.sample import Knowledge, sample

    rules = load("german-solo")
    s = State(rules, seed=6, dealer=2, session={"couleur": "hearts"})
    s.apply_str(s.rules.action_str(s.legal_actions()[0]))
    seat = s.current_player
    world = sample(Knowledge(rules, s.view(seat)), random.Random(1))
    assert world is not None and world.carry == s.carry and world.carry[0].name == "hearts"
    assert world.view(seat) == s.view(seat)
