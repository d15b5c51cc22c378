"""The Monte-Carlo player (perfect-information Monte-Carlo): it deals the hidden cards anew in ways consistent
with its seat's view, plays every legal action out in each such world with the greedy player at every seat,
and chooses the action with the best average payment to itself."""
from __future__ import annotations

import random
import time

from .greedy import GreedyPolicy, greedy_action
from .sample import Knowledge, sample
from .seat import from_view

DEFAULT_ROLLOUTS = 200


def playout(world, policy: GreedyPolicy) -> None:
    """Play a world to its end with the greedy policy at every seat."""
    legal = world.legal_actions
    apply = world.apply
    while world.phase != 5:
        apply(greedy_action(policy, world, legal()))


class PimcPlayer:
    """Monte-Carlo player; its budget is a number of playouts per decision, or seconds per decision."""

    name = "pimc"
    view_actions = True

    def __init__(self, seed: int | None = None, rules=None, rollouts: int = DEFAULT_ROLLOUTS,
                 seconds: float | None = None) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.policy = GreedyPolicy(self.rng)
        self.rollouts = rollouts
        self.seconds = seconds
        self.fallbacks = 0  # decisions made greedily because no consistent world was found

    def act(self, view: dict, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        me = view["seat"]
        k = Knowledge(self.rules, view)
        greedy = self.policy.choose(from_view(self.rules, view), legal)
        totals = dict.fromkeys(legal, 0.0)
        worlds = 0
        done = 0
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and worlds:
                    break
            elif done + len(legal) > max(self.rollouts, len(legal)):
                break
            w = sample(k, self.rng)
            if w is None:
                break
            worlds += 1
            for a in legal:
                x = w.clone()
                x.apply(a)
                playout(x, self.policy)
                totals[a] += x.result.payments[me]
            done += len(legal)
        if not worlds:
            self.fallbacks += 1
            return greedy
        # ties go to the greedy choice
        return max(legal, key=lambda a: (totals[a], a == greedy))
