"""The play kernel's figures, as ratios measured in one run of one process (CPU time, so that a busy machine
slows both sides of a ratio alike):

- random play: whole random deals (`ombre bench`, State.random_playout) with the kernel and without it, and the
  card play alone with its settlement (the same deals from their first card), in alternating rounds; the
  median ratios;
- double dummy: the exact value of whole deals from their first card (the auction and exchange at random),
  by the Python `Solver` and by the kernel's search, the same deals (the values must agree);
- decisions: a `pimc:500` and a `pimcdd` decision at the same points of greedy deals (the bot named by --bot),
  and each one's mean by the phase of the decision (auction, exchange, play, ...).

    python examples/kernel_bench.py ombre
    python examples/kernel_bench.py ombre --bot pimcdd:40 --decisions 100 --json

The random deals against the hand-written yardstick are `compare.py` of the shared bench folder (with
OMBRE_KERNEL=0 for the pure-Python path)."""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter

from ombre_rules import State, bench, kernel, load
from ombre_rules.engine.phases import PHASE_NAMES, PLAY
from ombre_rules.players import act, make_player
from ombre_rules.solve.analysis import exact
from ombre_rules.solve.fast import KernelSolver
from ombre_rules.solve.search import Solver

clock = time.process_time


def at_first_card(rules, seed: int, count: int) -> list[State]:
    """Deals brought to their first card by random bids and exchanges (deals passed out skipped)."""
    out = []
    i = 0
    while len(out) < count:
        s = State(rules, seed=seed + i, dealer=i % rules.players)
        rng = random.Random(seed + i)
        while s.phase != PLAY and not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
        if s.phase == PLAY and not s.trump_open:
            out.append(s)
        i += 1
    return out


def random_play(rules, deals: int, rounds: int, seed: int) -> dict:
    """Whole random deals and their card play alone, with the kernel and without, in alternating rounds."""
    starts = at_first_card(rules, seed, deals)
    rates: dict[str, list[float]] = {"deals_kernel": [], "deals_python": [], "play_kernel": [],
                                     "play_python": []}
    for r in range(rounds):
        for on, name in ((True, "kernel"), (False, "python")):
            with kernel.use(on):
                bench.run(rules, 200, seed + 999, warmup=0)  # the rank and follow tables (and kernel tables) built
                t0 = clock()
                bench.run(rules, deals, seed + r, warmup=0)
                rates[f"deals_{name}"].append(deals / (clock() - t0))
                copies = [s.clone() for s in starts]
                rands = [random.Random(k).random for k in range(deals)]
                t0 = clock()
                for s, rand in zip(copies, rands, strict=True):
                    s.random_playout(rand)
                rates[f"play_{name}"].append(deals / (clock() - t0))
    med = {k: statistics.median(v) for k, v in rates.items()}
    return {"deals": deals, "rounds": rounds, "deals_per_s_kernel": round(med["deals_kernel"]),
            "deals_per_s_python": round(med["deals_python"]),
            "deals_kernel_over_python": round(med["deals_kernel"] / med["deals_python"], 2),
            "plays_per_s_kernel": round(med["play_kernel"]), "plays_per_s_python": round(med["play_python"]),
            "play_kernel_over_python": round(med["play_kernel"] / med["play_python"], 2)}


def double_dummy(rules, solves: int, seed: int) -> dict:
    """The exact value of the same whole deals by the Python solver and by the kernel (aim: more tricks)."""
    deals = at_first_card(rules, seed + 5000, solves)
    tp = tk = 0.0
    nodes_p = nodes_k = 0
    for s in deals:
        t0 = clock()
        py = Solver(s, "tricks", 1)
        vp = exact(py.value)
        tp += clock() - t0
        t0 = clock()
        k = KernelSolver.make(s, "tricks", 1)
        vk = k.exact()
        tk += clock() - t0
        if vp != vk:
            raise AssertionError(f"the kernel's value {vk} is not the Python solver's {vp}: {s.to_text()}")
        nodes_p += py.nodes
        nodes_k += k.nodes
    return {"deals": solves, "python_ms": round(1000 * tp / solves, 2), "kernel_ms": round(1000 * tk / solves, 3),
            "python_over_kernel": round(tp / tk, 1), "python_nodes": nodes_p // solves,
            "kernel_nodes": nodes_k // solves}


def decisions(rules, bots: list[str], count: int, seed: int) -> dict:
    """Each bot's mean time per decision at the same decision points of greedy deals (a choice to make)."""
    greedy = [make_player("greedy", k, rules) for k in range(rules.players)]
    players = [make_player(b, seed, rules) for b in bots]
    for p in players:
        p.prepare(rules)
    pick = random.Random(seed)
    points: list[State] = []
    i = 0
    while len(points) < count:
        s = State(rules, seed=seed + 10_000 + i, dealer=i % rules.players)
        i += 1
        while not s.is_terminal and len(points) < count:
            if len(s.legal_actions()) > 1 and pick.random() < 0.3:
                points.append(s.clone())
            s.apply(act(greedy[s.to_move], s, s.to_move))
    phases = [PHASE_NAMES[s.phase] for s in points]
    per_phase = dict(sorted(Counter(phases).items()))
    out = {}
    kinds: dict[str, dict[str, float]] = {}  # bot -> phase name -> mean ms of its decisions there
    for name, p in zip(bots, players, strict=True):
        spent = dict.fromkeys(per_phase, 0.0)
        for s, phase in zip(points, phases, strict=True):
            t0 = clock()
            act(p, s, s.to_move)
            spent[phase] += clock() - t0
        out[name] = round(1000 * sum(spent.values()) / count, 1)
        kinds[name] = {ph: round(1000 * spent[ph] / n, 1) for ph, n in per_phase.items()}
    return {"decisions": count, "card_decisions": phases.count(PHASE_NAMES[PLAY]), "mean_ms": out,
            "ratio": round(out[bots[1]] / out[bots[0]], 2), "by_phase_ms": kinds, "by_phase_count": per_phase}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant", nargs="?", default="ombre")
    p.add_argument("--deals", type=int, default=2000, help="random deals a round (default 2000)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--solves", type=int, default=20, help="whole deals solved both ways (default 20)")
    p.add_argument("--decisions", type=int, default=60)
    p.add_argument("--against", default="pimc:500", help="the bot pimcdd's decisions are timed against")
    p.add_argument("--bot", default="pimcdd")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    if not kernel.BUILT:
        sys.exit("the play kernel is not built here (pip install . with a C compiler, or python hatch_build.py)")
    rules = load(a.variant)
    out = {"variant": rules.variant, "random": random_play(rules, a.deals, a.rounds, a.seed),
           "double_dummy": double_dummy(rules, a.solves, a.seed),
           "decisions": decisions(rules, [a.against, a.bot], a.decisions, a.seed)}
    if a.json:
        print(json.dumps(out))
        return 0
    r, d = out["random"], out["double_dummy"]
    c: dict = out["decisions"]
    print(f"{out['variant']}, CPU time of one process:")
    print(f"  random deals:  kernel {r['deals_per_s_kernel']}/s, Python {r['deals_per_s_python']}/s: "
          f"{r['deals_kernel_over_python']}x (median of {r['rounds']} rounds of {r['deals']})")
    print(f"  play, settled: kernel {r['plays_per_s_kernel']}/s, Python {r['plays_per_s_python']}/s: "
          f"{r['play_kernel_over_python']}x (from the first card)")
    print(f"  double dummy:  Python {d['python_ms']} ms a deal, kernel {d['kernel_ms']} ms: "
          f"{d['python_over_kernel']}x faster ({d['deals']} whole deals, {d['python_nodes']} and "
          f"{d['kernel_nodes']} nodes a deal)")
    print(f"  decisions:     {a.against} {c['mean_ms'][a.against]} ms, {a.bot} {c['mean_ms'][a.bot]} ms: "
          f"{c['ratio']}x ({c['decisions']} decisions, {c['card_decisions']} of them cards)")
    for bot in (a.against, a.bot):
        split = ", ".join(f"{ph} {ms} ms ({c['by_phase_count'][ph]})" for ph, ms in c["by_phase_ms"][bot].items())
        print(f"    {bot} by phase (decisions): {split}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
