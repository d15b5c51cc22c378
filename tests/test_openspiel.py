"""The OpenSpiel games: OpenSpiel's own random-play checks, the chance model, observations, bots."""
import os
import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import ombre_rules.openspiel as osp
from ombre_rules import State, load
from ombre_rules.engine.state import shuffled
from ombre_rules.obs import layout, max_actions
from ombre_rules.sim.speed import builtin_variants

DATA = os.path.join(os.path.dirname(__file__), "data")


@pytest.mark.parametrize("variant", builtin_variants())
def test_random_sim_test_with_serialisation(variant):
    game = pyspiel.load_game(osp.short_name(variant))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", [
    {"variant": "ombre(four_players=dealer_sits_out)", "dealer": 2},
    {"variant": "danish-lhombre", "options": "four_players:opposite_sits_out;scale:pagat_isl"},
    {"variant": "taroc-lhombre(type=decl)", "seed": 4},
    {"variant": f"{DATA}/turn_up.yaml(turn=dealer_last)"},
    {"variant": f"{DATA}/turn_up.yaml(turn=second_pack)"},
])
def test_random_sim_test_of_the_generic_game(params):
    game = pyspiel.load_game("ombre_rules", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_info_from_the_ruleset():
    game = pyspiel.load_game("ombre_rules_tredrille")
    rules = load("tredrille")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == rules.num_actions == 172
    assert game.max_chance_outcomes() == 30
    assert game.max_game_length() == max_actions(rules) == 218
    assert game.max_utility() == -game.min_utility() == osp.payment_bound(rules) == 92
    assert game.information_state_tensor_size() == game.observation_tensor_size() == layout(rules).size == 1493
    t = game.get_type()
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_game_strings_round_trip():
    game = pyspiel.load_game("ombre_rules", {"variant": "quadrille(no_hold=true)", "pool": 4})
    assert str(game) == ("ombre_rules(dealer=0,options=no_hold:true,pool=4,seed=-1,utility_bound=0,"
                         "variant=quadrille)")
    assert str(pyspiel.load_game(str(game))) == str(game)
    short = pyspiel.load_game("ombre_rules_quadrille(no_hold=true,options=deal_packets:4-3-3)")
    assert short.get_parameters()["no_hold"] is True
    assert short.get_parameters()["options"] == "deal_packets:4-3-3"
    assert short.rules.variant == "quadrille(deal_packets=4-3-3,no_hold=true)"
    assert str(pyspiel.load_game(str(short))) == str(short)
    assert pyspiel.load_game("ombre_rules_ombre(utility_bound=500)").max_utility() == 500


def test_bad_options_are_refused():
    with pytest.raises(Exception, match="unknown option 'no_such' for variant 'ombre'"):
        pyspiel.load_game("ombre_rules", {"variant": "ombre", "options": "no_such:1"})


def test_the_deal_as_chance_nodes_matches_a_seeded_deal():
    game = pyspiel.load_game("ombre_rules_ombre")
    rules = game.rules
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(40)) and all(p == 1 / 40 for _, p in outcomes)
    order = shuffled(40, 7)
    for i, card in enumerate(order):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 40 - i
        assert state.chance_outcomes()[0][1] == 1 / (40 - i)
        state.apply_action(card)
    seeded = State(rules, seed=7)
    assert not state.is_chance_node()
    assert state.engine.deal_hands == seeded.deal_hands and state.engine.deal_talon == seeded.deal_talon
    assert state.current_player() == seeded.current_player
    assert state.legal_actions() == sorted(seeded.legal_actions())


def test_chance_action_strings_name_the_receiver():
    game = pyspiel.load_game("ombre_rules_ombre")
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal AS to seat 1"
    for c in range(27):
        state.apply_action(c)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 27) == "deal JH to the talon"  # the 28th card


def test_a_seeded_game_has_no_chance_node():
    game = pyspiel.load_game("ombre_rules_ombre(seed=5)")
    state = game.new_initial_state()
    assert not state.is_chance_node()
    assert state.engine.deal_hands == State(game.rules, seed=5).deal_hands


def play_random(game, seed: int):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_returns_are_the_payments_and_observations_the_encoding():
    game = pyspiel.load_game("ombre_rules_cinquillo")
    state = play_random(game, 3)
    assert state.returns() == [float(p) for p in state.engine.result.payments]
    lay = layout(game.rules)
    for p in range(5):
        assert state.information_state_tensor(p) == pytest.approx(lay.encode(state.engine, p))
        assert state.observation_tensor(p) == pytest.approx(lay.encode(state.engine, p))
    assert '"actions":[' in state.information_state_string(0)
    assert '"actions"' not in state.observation_string(0)
    assert state.information_state_string(0) != state.information_state_string(1)


def test_observer_pieces_are_named_slices():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("ombre_rules_tredrille(seed=2)")
    state = game.new_initial_state()
    obs = make_observation(game)
    obs.set_from(state, 1)
    assert list(obs.dict) == [sl.name for sl in layout(game.rules).slices]
    held = np.flatnonzero(obs.dict["hand"]).tolist()
    assert held == [c for c in range(30) if state.engine.hands[1] >> c & 1]


def test_information_while_dealing():
    game = pyspiel.load_game("ombre_rules_ombre")
    state = game.new_initial_state()
    for c in (0, 1, 2, 3):
        state.apply_action(c)
    assert state.information_state_string(1) == "seat 1 | dealer 0 | dealt AS 2S 3S"
    assert str(state) == "ombre | dealing AS 2S 3S 4S"
    lay = layout(game.rules)
    t = state.information_state_tensor(1)
    hand = t[lay.offset("hand"):lay.offset("hand") + 40]
    assert [i for i, x in enumerate(hand) if x] == [0, 1, 2]


def test_serialise_pickle_and_clone():
    game = pyspiel.load_game("ombre_rules", {"variant": "quadrille(roi_rendu=true)"})
    state = play_random(game, 9)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state) and state2.returns() == state.returns()
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state) and back.history() == state.history()
    assert str(state.clone()) == str(state)


def test_state_from_an_engine_state_replays_it():
    game = pyspiel.load_game("ombre_rules_ombre")
    s = State(game.rules, seed=12)
    for a in ("pass", "bid entrada", "pass"):
        s.apply_str(a)
    st = game.state_from(s)
    assert str(st) == s.to_text().replace(" | seed 12", " | hands " + " / ".join(
        " ".join(game.rules.deck.names(h)) for h in s.deal_hands) + " | talon " + " ".join(
        game.rules.deck.name(c) for c in s.deal_talon))
    assert len(st.history()) == 40 + 3


@pytest.mark.parametrize("kind", ["talon_top", "dealer_last", "second_pack"])
def test_the_turned_card_of_a_deal_dealt_by_chance(kind):
    """The deck dealt as chance nodes gives the deal's turned card: where the deal puts it, or (a second pack's)
    from one more chance node; an engine state's deal is dealt again by the same nodes."""
    game = pyspiel.load_game("ombre_rules", {"variant": f"{DATA}/turn_up.yaml(turn={kind})", "dealer": 1})
    rules = game.rules
    s = State(rules, seed=7, dealer=1)
    st = game.state_from(s)
    assert st.engine.turn_up == s.turn_up and st.engine.deal_hands == s.deal_hands
    assert len(st.history()) == rules.deck.size + (kind == "second_pack")
    fresh = game.new_initial_state()
    for a in st.history()[:rules.deck.size]:
        fresh.apply_action(a)
    assert fresh.is_chance_node() == (kind == "second_pack")
    if kind == "second_pack":
        assert len(fresh.chance_outcomes()) == rules.deck.size
        assert fresh.action_to_string(pyspiel.PlayerId.CHANCE, s.turn_up) == \
            f"turn {rules.deck.name(s.turn_up)} from the second pack"
        fresh.apply_action(s.turn_up)
    assert fresh.engine.turn_up == s.turn_up


def test_ismcts_plays_a_deal():
    game = pyspiel.load_game("ombre_rules_tredrille")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=np.random.RandomState(2),
                           allow_inconsistent_action_sets=True)
    bot.set_resampler(osp.resampler(random.Random(3)))
    rng = random.Random(4)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            decisions += 1
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert decisions >= 10
    assert state.returns() == [float(p) for p in state.engine.result.payments]


def test_mcts_bot_plays_a_seeded_deal():
    game = pyspiel.load_game("ombre_rules_ombre_a_dos(seed=3)")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=10, evaluator=evaluator, solve=False,
                       random_state=np.random.RandomState(5))
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(abs(r) for r in state.returns()) > 0
