"""The adapters refuse what is not an action or a setting of the game with a precise message, and a refused
action changes nothing (OpenSpiel's state and history, PettingZoo's deal, agent and rewards)."""
import numpy as np
import pyspiel
import pytest

import ombre_rules.openspiel as osp
from ombre_rules import IllegalActionError, OmbreError, State
from ombre_rules.errors import ArgumentError, InvalidActionError
from ombre_rules.pettingzoo import env, raw_env


# -- OpenSpiel ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("params, message", [
    ({"variant": "tredrille", "dealer": 3}, "parameter 'dealer' must be a seat of 'tredrille' from 0 to 2, not 3"),
    ({"variant": "tredrille", "dealer": -1}, "parameter 'dealer' must be a seat of 'tredrille' from 0 to 2, not -1"),
    ({"variant": "ombre", "pool": -1}, "parameter 'pool' (the counters in the pool) must be at least 0, not -1"),
    ({"variant": "ombre", "seed": -2}, "parameter 'seed' must be -1 (the deal is chance) or a seed from 0, not -2"),
    ({"variant": "ombre", "utility_bound": -5},
     "parameter 'utility_bound' must be 0 (worked out from 1000 deals) or more, not -5"),
])
def test_openspiel_settings_out_of_range_are_refused(params, message):
    with pytest.raises(OmbreError) as e:
        pyspiel.load_game("ombre_rules", params)
    assert e.value.message == message


def test_openspiel_settings_in_game_strings_and_dicts_are_checked():
    assert pyspiel.load_game("ombre_rules", {"dealer": 1}).config.dealer == 1  # remembered: "1" is not the same
    with pytest.raises(OmbreError) as e:
        osp.OmbreGame({"dealer": "1"})
    assert e.value.message == "parameter 'dealer' must be a whole number, not '1'"
    with pytest.raises(OmbreError) as e:
        pyspiel.load_game("ombre_rules_tredrille(dealer=3)")
    assert e.value.message == "parameter 'dealer' must be a seat of 'tredrille' from 0 to 2, not 3"
    for params, message in (({"dealer": 1.5}, "parameter 'dealer' must be a whole number, not 1.5"),
                            ({"dealer": True}, "parameter 'dealer' must be a whole number, not True"),
                            ({"variant": 5}, "parameter 'variant' must be text, not 5"),
                            ({"colour": "red"}, "unknown parameter 'colour' of ombre_rules (parameters: dealer, "
                                                "options, pool, seed, session, utility_bound, variant)")):
        with pytest.raises(OmbreError) as e:
            osp.OmbreGame(params)
        assert e.value.message == message


def _snapshot(state) -> tuple:
    return str(state), state.history(), state.move_number(), state.legal_actions(), state.serialize()


@pytest.mark.parametrize("action, error, message", [
    (0, IllegalActionError, "card AS is dealt already"),
    (40, IllegalActionError, "no card 40 to deal (cards are 0 to 39)"),
    (-1, IllegalActionError, "no card -1 to deal (cards are 0 to 39)"),
    (2**70, IllegalActionError, "no card 1180591620717411303424 to deal (cards are 0 to 39)"),
    (True, InvalidActionError, "an action is an id (a whole number), not True"),
    (1.0, InvalidActionError, "an action is an id (a whole number), not 1.0"),
    ("3", InvalidActionError, "an action is an id (a whole number), not '3'"),
    (None, InvalidActionError, "an action is an id (a whole number), not None"),
    (np.array([1, 2]), InvalidActionError, "an action is an id (a whole number), not array([1, 2])"),
])
def test_an_openspiel_chance_action_that_is_not_a_card_left_changes_nothing(action, error, message):
    game = pyspiel.load_game("ombre_rules_ombre")
    state = game.new_initial_state()
    state.apply_action(0)
    before = _snapshot(state)
    with pytest.raises(error) as e:
        state.apply_action(action)
    assert e.value.message == message
    assert _snapshot(state) == before
    state.apply_action(np.int64(1))  # numpy's integers are ids
    assert state.history() == [0, 1]


@pytest.mark.parametrize("action, error, message", [
    (10**6, IllegalActionError, "'1000000' is not legal for seat 1 in auction"),
    (-7, IllegalActionError, "'-7' is not legal for seat 1 in auction"),
    (True, InvalidActionError, "an action is an id (a whole number), not True"),
    (2.0, InvalidActionError, "an action is an id (a whole number), not 2.0"),
    ("pass", InvalidActionError, "an action is an id (a whole number), not 'pass'"),
])
def test_an_openspiel_decision_that_is_not_legal_changes_nothing(action, error, message):
    state = pyspiel.load_game("ombre_rules_ombre(seed=3)").new_initial_state()
    before = _snapshot(state)
    with pytest.raises(error) as e:
        state.apply_action(action)
    assert e.value.message.startswith(message)
    assert _snapshot(state) == before


def test_openspiel_queries_out_of_range_are_refused():
    game = pyspiel.load_game("ombre_rules_ombre")
    state = game.new_initial_state()
    with pytest.raises(InvalidActionError) as e:
        state.action_to_string(pyspiel.PlayerId.CHANCE, 40)
    assert e.value.message == "no card 40 (cards are 0 to 39)"
    for c in range(40):
        state.apply_action(c)
    with pytest.raises(OmbreError) as e:
        state.chance_outcomes()
    assert e.value.message == "no chance outcomes: the cards are dealt and seat 1 is to move"
    for seat in (True, 5, -1, 1.0):
        with pytest.raises(ArgumentError) as e:
            state.information_state_string(seat)
        assert e.value.message == f"no seat {seat!r} to observe (seats are 0 to 2)"
    with pytest.raises(InvalidActionError) as e:
        state.action_to_string(1, 10**6)
    assert e.value.message.startswith("no action 1000000 (ids are 0 to ")
    with pytest.raises(OmbreError) as e:
        game.state_from(State(pyspiel.load_game("ombre_rules_quadrille").rules, seed=1))
    assert e.value.message.startswith("state_from takes an engine state of 'ombre', not ")
    with pytest.raises(OmbreError) as e:
        game.state_from(State(game.rules, seed=1, dealer=2))
    assert e.value.message == "the state has dealer 2 and pool 0, this game dealer 0 and pool 0"


# -- PettingZoo -------------------------------------------------------------------------------------------------
def _table(e) -> tuple:
    u = e.unwrapped
    return (u.deal.to_text(), u.agent_selection, dict(u.rewards), dict(u._cumulative_rewards),
            dict(u.terminations))


@pytest.mark.parametrize("action, error, message", [
    (1.0, InvalidActionError, "an action is an id (a whole number), not 1.0"),
    (np.float32(1), InvalidActionError, "an action is an id (a whole number), not np.float32(1.0)"),
    ("1", InvalidActionError, "an action is an id (a whole number), not '1'"),
    (True, InvalidActionError, "an action is an id (a whole number), not True"),
    (np.bool_(True), InvalidActionError, "an action is an id (a whole number), not np.True_"),
    (None, InvalidActionError, "an action is an id (a whole number), not None"),
    (10**6, IllegalActionError, "'1000000' is not legal for seat 1 in auction"),
    (-1, IllegalActionError, "'-1' is not legal for seat 1 in auction"),
])
def test_a_pettingzoo_step_that_is_not_a_legal_id_changes_nothing(action, error, message):
    e = env(variant="ombre")
    e.reset(seed=3)
    before = _table(e)
    with pytest.raises(error) as ei:
        e.step(action)
    assert ei.value.message.startswith(message)
    assert _table(e) == before
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    e.step(np.int64(legal[0]))  # numpy's integers are ids
    assert len(e.unwrapped.deal.history) == 1


@pytest.mark.parametrize("kwargs, message", [
    ({"variant": "tredrille", "dealer": 3}, "dealer: no seat 3 (seats are 0 to 2)"),
    ({"variant": "tredrille", "dealer": 1.0}, "dealer: a seat is a whole number, not 1.0"),
    ({"variant": "tredrille", "pool": -1}, "pool (the counters in the pool) is a whole number from 0, not -1"),
    ({"variant": "tredrille", "pool": True}, "pool (the counters in the pool) is a whole number from 0, not True"),
    ({"variant": "tredrille", "session": "x"}, "session gives the carried values by name (a dict), not 'x'"),
    ({"variant": 3}, "variant is a variant string or file, not 3"),
    ({"variant": "tredrille", "render_mode": "human"}, "unknown render_mode 'human' (modes: ansi)"),
])
def test_pettingzoo_settings_are_checked_when_made(kwargs, message):
    with pytest.raises(ArgumentError) as e:
        raw_env(**kwargs)
    assert e.value.message == message


def test_pettingzoo_calls_out_of_order_or_range_are_refused():
    e = raw_env(variant="tredrille")
    with pytest.raises(ArgumentError) as ei:
        e.step(0)
    assert ei.value.message == "no deal yet: call reset() first"
    with pytest.raises(ArgumentError) as ei:
        e.reset(seed=1.5)
    assert ei.value.message == "a seed is a whole number, not 1.5"
    e.reset(seed=np.int64(2))
    with pytest.raises(ArgumentError) as ei:
        e.observe("player_9")
    assert ei.value.message == "no agent 'player_9' (agents: player_0, player_1, player_2)"
    with pytest.raises(ArgumentError):
        e.action_space("nobody")
    while not e.deal.is_terminal:
        e.step(e.deal.legal_actions()[0])
    with pytest.raises(InvalidActionError) as ei:
        e.step(0)
    assert ei.value.message == f"{e.agent_selection}'s deal is over: step with None, not 0"
