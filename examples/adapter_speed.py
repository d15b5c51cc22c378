"""Random-play speed through the adapters, side by side in one run.

    python examples/adapter_speed.py [--variant ombre] [--native hearts] [--seconds 3] [--rounds 3]

Every loop picks uniformly among `legal_actions()` (chance outcomes included) and counts one step per
`apply_action` / `step`. The loops take turns in `--rounds` rounds and each keeps its best, so that a
machine busy with other work biases the ratios less. Timed, each for about `--seconds` in all:
  1. our OpenSpiel game (`ombre_rules.openspiel`), chance nodes included, from a Python loop;
  2. the same with the mover's `information_state_tensor()` (or observation tensor) read at every
     decision (what an RL loop does);
  3. OpenSpiel's native C++ game (`hearts` by default) from the same Python loops (1 and 2);
  4. our PettingZoo environment (`env.last()` builds the observation and mask at every step);
  5. the engine's own `legal_actions`/`apply` loop, for scale.
"""
from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np
import pyspiel

import ombre_rules.openspiel as ombre_openspiel
from ombre_rules import State, load
from ombre_rules.pettingzoo import env as pz_env


def spiel_rate(game, seconds: float, observe: bool, seed: int = 1) -> dict:
    """Steps and deals per second of random play through the OpenSpiel API."""
    rng = random.Random(seed)
    steps = deals = 0
    kind = game.get_type()
    tensor = "information_state_tensor" if kind.provides_information_state_tensor else "observation_tensor"
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if observe and not state.is_chance_node():
                getattr(state, tensor)()
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        deals += 1
    dt = time.perf_counter() - t0
    return {"steps_per_s": round(steps / dt), "deals_per_s": round(deals / dt, 1), "steps_per_deal": steps / deals}


def engine_rate(variant: str, seconds: float, seed: int = 1) -> dict:
    """Decisions per second of the engine's own loop (`legal_actions`/`apply` on `State`, no adapter)."""
    rules = load(variant)
    rng = random.Random(seed)
    steps = deals = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = State(rules, seed=deals)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        deals += 1
    dt = time.perf_counter() - t0
    return {"steps_per_s": round(steps / dt), "deals_per_s": round(deals / dt, 1), "steps_per_deal": steps / deals}


def pettingzoo_rate(variant: str, seconds: float, seed: int = 1) -> dict:
    """Steps and deals per second of random play through the PettingZoo AEC loop."""
    e = pz_env(variant=variant)
    rng = np.random.default_rng(seed)
    steps = deals = 0
    t0 = time.perf_counter()
    e.reset(seed=seed)
    while time.perf_counter() - t0 < seconds:
        for _agent in e.agent_iter():
            obs, _reward, done, trunc, _info = e.last()
            if done or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        deals += 1
        e.reset()
    dt = time.perf_counter() - t0
    return {"steps_per_s": round(steps / dt), "deals_per_s": round(deals / dt, 1), "steps_per_deal": steps / deals}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="ombre", help="a built-in variant id")
    ap.add_argument("--native", default="hearts", help="an OpenSpiel game to compare with (hearts, skat, …)")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per loop, over all rounds")
    ap.add_argument("--rounds", type=int, default=3, help="rounds in which the loops take turns (best kept)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    ours = pyspiel.load_game(ombre_openspiel.short_name(args.variant))
    native = pyspiel.load_game(args.native)
    loops = {
        f"engine {args.variant} (no adapter, no chance nodes)": lambda t: engine_rate(args.variant, t),
        f"openspiel {args.variant}": lambda t: spiel_rate(ours, t, False),
        f"openspiel {args.variant} + tensor": lambda t: spiel_rate(ours, t, True),
        f"openspiel native {args.native}": lambda t: spiel_rate(native, t, False),
        f"openspiel native {args.native} + tensor": lambda t: spiel_rate(native, t, True),
        f"pettingzoo {args.variant}": lambda t: pettingzoo_rate(args.variant, t),
    }
    rows: dict[str, dict] = {}
    for _ in range(args.rounds):  # the loops take turns; each keeps its best round (a shared machine)
        for name, run in loops.items():
            row = run(args.seconds / args.rounds)
            if name not in rows or row["steps_per_s"] > rows[name]["steps_per_s"]:
                rows[name] = row
    if args.json:
        print(json.dumps(rows))
        return
    base = rows[f"openspiel native {args.native}"]["steps_per_s"]
    print(f"{'loop':<52} {'steps/s':>9} {'deals/s':>9} {'steps/deal':>10} {'vs native':>9}")
    for name, row in rows.items():
        print(f"{name:<52} {row['steps_per_s']:>9} {row['deals_per_s']:>9} {row['steps_per_deal']:>10.1f} "
              f"{row['steps_per_s'] / base:>9.2f}")


if __name__ == "__main__":
    main()
