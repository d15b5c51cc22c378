"""The PettingZoo environments: PettingZoo's own API and seed tests, rewards, observations, rendering."""
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from ombre_rules import IllegalActionError, State, load
from ombre_rules.obs import layout
from ombre_rules.pettingzoo import env, raw_env
from ombre_rules.sim.speed import builtin_variants


@pytest.mark.filterwarnings("ignore:Observation")  # api_test's general advice for dict observations
@pytest.mark.parametrize("variant", builtin_variants())
def test_api_and_seed_tests(variant):
    api_test(env(variant=variant, render_mode="ansi"), num_cycles=300)
    seed_test(lambda: env(variant=variant), num_cycles=300)


def play(e, rng):
    """One random episode; the rewards seen by each agent when it is done."""
    seen = {}
    for agent in e.agent_iter():
        obs, reward, done, trunc, _info = e.last()
        if done or trunc:
            seen[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


def test_the_deal_rewards_and_observations():
    e = raw_env(variant="quadrille")
    e.reset(seed=3)
    rules = load("quadrille")
    same_deal = State(rules, seed=random.Random(3).getrandbits(63))
    assert e.deal.deal_hands == same_deal.deal_hands
    assert e.agent_selection == f"player_{same_deal.current_player}"
    lay = layout(e.rules)
    for agent in e.agents:
        seat = int(agent.split("_")[1])
        obs = e.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        assert obs["observation"].tolist() == lay.encode(e.deal, seat)
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert legal == (sorted(e.deal.legal_actions()) if seat == e.deal.current_player else [])
    seen = play(e, np.random.default_rng(1))
    assert seen == {f"player_{s}": p for s, p in enumerate(e.deal.result.payments)}
    assert e.agents == []


def test_reset_without_a_seed_deals_anew():
    e = raw_env(variant="tredrille")
    e.reset(seed=5)
    first = e.deal.deal_hands
    e.reset()
    assert e.deal.deal_hands != first
    e.reset(seed=5)
    assert e.deal.deal_hands == first


def test_render_ansi_shows_the_table():
    e = raw_env(variant="tredrille", render_mode="ansi")
    e.reset(seed=1)
    s = e.deal
    lines = e.render().splitlines()
    assert lines[0] == "tredrille  phase auction"
    hand = " ".join(e.rules.deck.names(s.hands[s.current_player]))
    assert lines[1 + s.current_player] == f"> seat {s.current_player}: {hand}  (tricks 0)"
    with pytest.warns(UserWarning, match="render\\(\\) called without a render_mode"):
        assert raw_env(variant="tredrille").render() is None


def test_an_illegal_action_raises_the_engine_error():
    e = env(variant="ombre")
    e.reset(seed=2)
    with pytest.raises(IllegalActionError, match="'play AS' is not legal"):
        e.step(0)


def test_bad_render_mode():
    with pytest.raises(ValueError, match="unknown render_mode 'human'"):
        raw_env(variant="ombre", render_mode="human")
