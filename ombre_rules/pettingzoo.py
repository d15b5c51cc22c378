"""Every variant as a PettingZoo AEC environment (extra `pettingzoo`): one deal per episode.

    from ombre_rules.pettingzoo import env
    e = env(variant="house.yaml(option=choice)", render_mode="ansi")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        e.step(None if terminated else int(obs["action_mask"].nonzero()[0][0]))

Agents are `player_0` … in the engine's seat order. An observation is a dict: `observation`, the seat's
encoding (`obs.py`, float32, bounded by each slice's largest value), and `action_mask` (int8, one per action
id of the variant; all zero for a seat not to move). Each reset deals from a seed drawn from the generator
that `reset(seed=…)` seeds. Rewards come once, when the deal ends: each seat's payment (pool changes
included). `step` takes an action id (a whole number): anything else raises InvalidActionError and an illegal
id the engine's IllegalActionError, and neither changes anything. `render()` with `render_mode="ansi"`
gives the whole table as text (every hand, for a spectator). `deal` is the engine state of the deal in play.
`session` gives the values a variant with `session.carry` carries into every deal, by name (JSON form: a suit
by its name); the observation's `session` slice encodes them and the text shows them.
"""
from __future__ import annotations

import operator
import random
from typing import Any, SupportsInt

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .checks import action_id, seat_id
from .engine import State
from .engine.carry import start_values
from .engine.portable import carry_words, remember, rules_for
from .errors import ArgumentError, InvalidActionError
from .obs import layout
from .ruleset import load


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's wrapper of calls in order. Actions are checked by the environment
    itself (PettingZoo's bounds wrapper is an `assert`, gone under `python -O`, and lets `True` through)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """One deal of a variant per episode; `variant` is any variant string or file, `dealer` the dealer's seat."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "ombre_rules_v0", "is_parallelizable": False}

    def __init__(self, variant: str | None = None, render_mode: str | None = None, dealer: int = 0,
                 pool: int = 0, session: dict | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(f"unknown render_mode {render_mode!r} (modes: ansi)"[:120])
        if variant is None:
            from .spec.resolve import builtin_index, resolve

            variant = resolve(sorted(set(builtin_index().values()))[0]).data["id"]
        if not isinstance(variant, str):
            raise ArgumentError(f"variant is a variant string or file, not {variant!r}"[:120])
        rules = load(variant)
        remember(rules)  # states of this environment pickle and unpickle onto one ruleset
        self.rules = rules_for(rules.variant)
        self.layout = layout(self.rules)
        try:
            self.dealer = seat_id(dealer, self.rules.players)
        except ArgumentError as e:
            raise ArgumentError(f"dealer: {e.message}") from None
        if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
            raise ArgumentError(f"pool (the counters in the pool) is a whole number from 0, not {pool!r}"[:120])
        self.pool = pool
        if session is not None and not isinstance(session, dict):
            raise ArgumentError(f"session gives the carried values by name (a dict), not {session!r}"[:120])
        self.carry = start_values(self.rules, session)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        high = np.array(self.layout.high(), np.float32)
        n_actions = self.rules.num_actions
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._rng = random.Random()
        self.deal: State | None = None

    def _seat(self, agent: str) -> int:
        """The seat of an agent's name; an ArgumentError naming the agents otherwise."""
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ArgumentError(f"no agent {agent!r} (agents: {', '.join(self.possible_agents)})"[:160]) from None

    def _deal(self) -> State:
        if self.deal is None:
            raise ArgumentError("no deal yet: call reset() first")
        return self.deal

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            if isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
                raise ArgumentError(f"a seed is a whole number, not {seed!r}"[:120])
            self._rng = random.Random(operator.index(seed))
        self.deal = State(self.rules, seed=self._rng.getrandbits(63), dealer=self.dealer, pool=self.pool,
                          session=self.carry)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.deal.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        deal = self._deal()
        vec = np.zeros(self.layout.size, np.float32)
        ones, vals = self.layout.sparse(deal, seat)
        vec[ones] = 1.0
        for i, v in vals:
            vec[i] = v
        mask = np.zeros(self.rules.num_actions, np.int8)
        if deal.current_player == seat:
            mask[deal.legal_actions()] = 1
        return {"observation": vec, "action_mask": mask}

    def step(self, action: SupportsInt | None) -> None:
        """Apply the selected agent's action: an id (a whole number, numpy's included; never a bool, a float
        or text) of a legal action; anything else is refused and changes nothing. A finished agent steps with
        None."""
        s = self._deal()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise InvalidActionError(f"{agent}'s deal is over: step with None, not {action!r}"[:120])
            self._was_dead_step(action)
            return
        s.apply(action_id(action))  # an IllegalActionError changes nothing
        self._cumulative_rewards[agent] = 0
        res = s.result
        if res is not None:
            for a, pay in zip(self.possible_agents, res.payments, strict=True):
                self.rewards[a] = pay
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[s.current_player]
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (this environment offers 'ansi')")
            return None
        return table_text(self._deal())

    def close(self) -> None:
        pass


def table_text(s: State) -> str:
    """The whole table as text: variant, phase, contract, every hand, the trick in play, tricks won."""
    r = s.rules
    deck = r.deck
    head = f"{r.variant}  phase {s.phase_name}"
    if s.contract is not None:
        head += f"  contract {s.contract.name} by seat {s.declarer}"
        if s.trump is not None:
            head += f", trumps {s.trump.name}"
    lines = [head]
    if r.carry is not None:
        lines.append(f"  session: {carry_words(r, s.carry)}")
    for seat in range(s.n):
        mark = ">" if s.current_player == seat else " "
        lines.append(f"{mark} seat {seat}: {' '.join(deck.names(s.hands[seat])) or '-'}  (tricks {s.tricks[seat]})")
    if s.talon:
        lines.append(f"  talon: {len(s.talon)} cards")
    if s.trick:
        lines.append(f"  trick: {' '.join(deck.name(c) for c in s.trick)} (led by seat {s.leader})")
    if s.result is not None:
        lines.append(f"  {s.result.outcome}: payments {list(s.result.payments)}")
        if r.carry is not None:
            lines.append(f"  next deal's session: {carry_words(r, s.carry_after)}")
    return "\n".join(lines)
