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
                 seconds: float | None = None, greedy_auction: bool = False, sampler=sample,
                 margin: float = 1.0) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.policy = GreedyPolicy(self.rng)
        self.rollouts = rollouts
        self.seconds = seconds
        self.sampler = sampler  # (knowledge, rng) -> a world consistent with it, or None
        self.greedy_auction = greedy_auction  # bid as the greedy player does, search everything else
        self.margin = margin  # an action replaces the greedy one when better by more than margin standard errors
        self.fallbacks = 0  # decisions made greedily because no consistent world was found

    def act(self, view: dict, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        me = view["seat"]
        greedy = self.policy.choose(from_view(self.rules, view), legal)
        if self.greedy_auction and view["contract"] is None:
            return greedy
        k = Knowledge(self.rules, view)
        diffs: dict[int, list[float]] = {a: [] for a in legal}  # per world: payment minus the greedy action's
        worlds = 0
        done = 0
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and worlds:
                    break
            elif done + len(legal) > max(self.rollouts, len(legal)):
                break
            w = self.sampler(k, self.rng)
            if w is None:
                break
            worlds += 1
            pay = {}
            for a in legal:
                x = w.clone()
                x.apply(a)
                playout(x, self.policy)
                pay[a] = x.result.payments[me]
            for a in legal:
                diffs[a].append(pay[a] - pay[greedy])
            done += len(legal)
        if not worlds:
            self.fallbacks += 1
            return greedy
        # leave the greedy choice only for an action better in these worlds by more than its standard error
        best, gain = greedy, 0.0
        for a in legal:
            m, se = _mean_se(diffs[a])
            if m > self.margin * se and m > gain:
                best, gain = a, m
        return best


def _mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, abs(m)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, (var / n) ** 0.5
