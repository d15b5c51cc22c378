"""Evaluate OpenSpiel's ISMCTS bot on one variant against this project's bots, on the same deals.

    python examples/ismcts_vs_bots.py [--variant tredrille] [--deals 30] [--simulations 50] [--seed 1]

Deal i (seeded) is played once per contender: the contender sits at seat i mod players, `greedy` at every
other seat. Contenders: `random`, `greedy`, `pimc:N` (this project's Monte-Carlo bot) and ISMCTS from
`open_spiel.python.algorithms.ismcts` with random roll-outs, resampling its worlds with the pimc sampler
(`ombre_rules.openspiel.resampler`). Printed: each contender's mean payment per deal at its seat, its standard
error, and its mean gain over `greedy` on the same deals (paired).
"""
from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import ombre_rules.openspiel as ombre_openspiel
from ombre_rules import State
from ombre_rules.players import act, make_player


def ismcts_chooser(game, simulations: int, seed: int):
    """A function state -> action of an ISMCTS bot."""
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                           random_state=np.random.RandomState(seed + 1), allow_inconsistent_action_sets=True)
    bot.set_resampler(ombre_openspiel.resampler(random.Random(seed + 2)))
    return bot.step


def bot_chooser(name: str, rules, seed: int):
    player = make_player(name, seed, rules)
    return lambda state: act(player, state.engine, state.current_player())


def play(game, deal: int, focus: int, chooser, others) -> float:
    """One seeded deal with `chooser` at seat `focus`; the focus seat's payment."""
    state = game.state_from(State(game.rules, seed=deal))
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(chooser(state) if seat == focus else others(state))
    return state.returns()[focus]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="tredrille")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--simulations", type=int, default=50, help="ISMCTS simulations per decision")
    ap.add_argument("--pimc", type=int, default=50, help="pimc play-outs per decision")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = pyspiel.load_game(ombre_openspiel.short_name(args.variant))
    rules = game.rules
    contenders = {
        "random": lambda: bot_chooser("random", rules, args.seed),
        "greedy": lambda: bot_chooser("greedy", rules, args.seed),
        f"pimc:{args.pimc}": lambda: bot_chooser(f"pimc:{args.pimc}", rules, args.seed),
        f"ismcts:{args.simulations}": lambda: ismcts_chooser(game, args.simulations, args.seed),
    }
    others = bot_chooser("greedy", rules, args.seed + 100)
    results: dict[str, list[float]] = {}
    for name, make in contenders.items():
        chooser = make()
        t0 = time.perf_counter()
        results[name] = [play(game, args.seed * 10_000 + i, i % rules.players, chooser, others)
                         for i in range(args.deals)]
        print(f"  {name}: {args.deals} deals in {time.perf_counter() - t0:.1f} s")
    base = results["greedy"]
    print(f"\n{args.variant}, {args.deals} deals, contender at one seat, greedy at the others\n")
    print(f"{'contender':<14} {'mean':>7} {'s.e.':>6} {'gain vs greedy':>15}")
    for name, pays in results.items():
        gains = [a - b for a, b in zip(pays, base, strict=True)]
        print(f"{name:<14} {mean(pays):>7.2f} {se(pays):>6.2f} {mean(gains):>8.2f} ± {se(gains):.2f}")


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def se(xs: list[float]) -> float:
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1) / len(xs))


if __name__ == "__main__":
    main()
