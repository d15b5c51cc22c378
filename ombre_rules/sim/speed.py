"""The bots' speed per variant, measured in one run: deals per second of `simulate` with greedy players, the
time of one Monte-Carlo decision at a budget of play-outs, and that time against 1,000 random deals (of the
engine, and optionally of a yardstick script)."""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from .. import bench
from ..bots.pimc import DEFAULT_ROLLOUTS, PimcPlayer
from ..engine import DONE, State
from ..errors import OmbreError
from ..players import act, make_player
from .runner import _rules, deal_seed, play_chunk

# every time is the CPU time of this process: on a machine shared with other work, the figures of one run
# stay comparable with each other
clock = time.process_time


def builtin_variants() -> list[str]:
    """The ids of the built-in variants, in the order `ombre variants` lists them."""
    from ..spec.resolve import builtin_index, resolve

    paths = sorted(set(builtin_index().values()))
    return [resolve(p).data["id"] for p in paths]


def greedy_rate(variant: str, deals: int, seed: int) -> dict:
    """Deals per second of `simulate VARIANT --players greedy` in one process (the same deals it plays)."""
    rules = _rules(variant, {})
    play_chunk(variant, {}, ["greedy"] * rules.players, seed + 1, 0, 1)  # rank and follow tables built first
    t0 = clock()
    play_chunk(variant, {}, ["greedy"] * rules.players, seed, 0, deals)
    dt = clock() - t0
    return {"deals": deals, "seconds": round(dt, 4), "deals_per_s": round(deals / dt, 1)}


# random deals whose time a Monte-Carlo decision is set against
RANDOM_DEALS = 1000


def random_time(variant: str, seed: int) -> dict:
    """The time of RANDOM_DEALS deals of random legal play (`ombre bench VARIANT`, State.random_playout)."""
    rules = _rules(variant, {})
    bench.run(rules, 200, seed + 999, warmup=0)  # rank and follow tables built first
    t0 = clock()
    bench.run(rules, RANDOM_DEALS, seed, warmup=0)
    return {"deals": RANDOM_DEALS, "seconds": round(clock() - t0, 4)}


def pimc_decision_time(variant: str, decisions: int, seed: int, rollouts: int = DEFAULT_ROLLOUTS) -> dict:
    """Mean and longest time of a Monte-Carlo decision at `rollouts` play-outs (decisions with one legal action
    are not counted: the player answers them at once), and how many of them fell back to the greedy choice
    because no world consistent with the seat's view was found. Deal i of the run has pimc at the seat i mod the
    seats that take part in it (a seat sitting the deal out has nothing to decide) and greedy at the others;
    deals are played until `decisions` decisions are timed."""
    rules = _rules(variant, {})
    n = rules.players
    times: list[float] = []
    fallbacks = 0
    i = 0
    while len(times) < decisions:
        if i >= MAX_DEALS_PER_DECISION * (len(times) + 1):
            raise OmbreError(f"{rules.variant}: the Monte-Carlo seat had no choice to make in {i} deals")
        s = deal_seed(seed, i)
        playing = [p for p in range(n) if p not in rules.sitters[i % n]]
        me = playing[i % len(playing)]
        players = [make_player("greedy", s * 16 + k, rules) for k in range(n)]
        pimc = players[me] = PimcPlayer(s * 16 + me, rules, rollouts=rollouts)
        state = State(rules, seed=s, dealer=i % n)
        before = pimc.fallbacks
        while state.phase != DONE and len(times) < decisions:
            seat = state.to_move
            if seat == me and len(state.legal_actions()) > 1:
                t0 = clock()
                a = act(players[seat], state, seat)
                times.append(clock() - t0)
            else:
                a = act(players[seat], state, seat)
            state.apply(a)
        fallbacks += pimc.fallbacks - before
        i += 1
    return {"decisions": len(times), "rollouts": rollouts, "deals": i,
            "mean_ms": round(1000 * sum(times) / len(times), 2), "max_ms": round(1000 * max(times), 2),
            "greedy_fallbacks": fallbacks}


MAX_DEALS_PER_DECISION = 50  # deals played without a decision timed before the measure gives up

YARDSTICK_RUNS = 3  # runs of a yardstick script a row takes the median of
YARDSTICK_DEALS = 1000
YARDSTICK_TIMEOUT = 600.0  # seconds one run may take


def yardstick_time(path: str, seed: int) -> dict:
    """The time of YARDSTICK_DEALS random deals of the yardstick script at `path`, the median of YARDSTICK_RUNS
    runs (seeds `seed`, `seed` + 1, ...): each run is `python PATH --deals 1000 --reps 1 --warmup 500 --seed S
    --json FILE` in a process of its own, and its time is read from the last line of FILE
    (`games_per_s_median`, deals per second of wall time: the script's own clock)."""
    times = []
    for k in range(YARDSTICK_RUNS):
        fd, out = tempfile.mkstemp(suffix=".jsonl")
        os.close(fd)
        try:
            cmd = [sys.executable, path, "--deals", str(YARDSTICK_DEALS), "--reps", "1", "--warmup", "500",
                   "--seed", str(seed + k), "--json", out]
            try:
                run = subprocess.run(cmd, capture_output=True, text=True, timeout=YARDSTICK_TIMEOUT)
            except subprocess.TimeoutExpired:
                raise OmbreError(f"yardstick '{path}' took more than {YARDSTICK_TIMEOUT:g} s") from None
            if run.returncode != 0:
                tail = run.stderr.strip().splitlines()[-1:] or ["no message"]
                raise OmbreError(f"yardstick '{path}' failed (exit {run.returncode}): {tail[0]}")
            with open(out, encoding="utf-8") as f:
                lines = f.read().strip().splitlines()
            try:
                rate = float(json.loads(lines[-1])["games_per_s_median"])
            except (IndexError, ValueError, KeyError, TypeError):
                raise OmbreError(f"yardstick '{path}' wrote no 'games_per_s_median' to its --json file") from None
            if not rate > 0:
                raise OmbreError(f"yardstick '{path}' reported {rate!r} deals per second")
            times.append(YARDSTICK_DEALS / rate)
        finally:
            os.unlink(out)
    return {"deals": YARDSTICK_DEALS, "runs": YARDSTICK_RUNS, "seconds": round(statistics.median(times), 4)}


def measure(variants: list[str], deals: int, decisions: int, seed: int,
            rollouts: int = DEFAULT_ROLLOUTS, yardstick: str | None = None) -> list[dict]:
    """One row per variant: its greedy simulate rate, the time of RANDOM_DEALS random deals, and its Monte-Carlo
    decision time, also as a multiple of the random deals' time (`per_random_deals`); with a `yardstick`
    script, also its time for 1,000 deals (timed next to the decisions) and the decision's time as a multiple
    of it (`per_yardstick_1000`)."""
    rows = []
    for v in variants:
        rules = _rules(v, {})
        rnd = random_time(v, seed)
        yard = yardstick_time(yardstick, seed) if yardstick is not None else None
        pimc = pimc_decision_time(v, decisions, seed, rollouts)
        pimc["per_random_deals"] = round(pimc["mean_ms"] / (1000 * rnd["seconds"]), 3)
        row = {"variant": rules.variant, "players": rules.players, "greedy": greedy_rate(v, deals, seed),
               "random": rnd, "pimc": pimc}
        if yard is not None:
            pimc["per_yardstick_1000"] = round(pimc["mean_ms"] / (1000 * yard["seconds"]), 3)
            row["yardstick"] = yard
        rows.append(row)
    return rows


def table(rows: list[dict]) -> str:
    """The rows as a plain-text table."""
    yard = any("yardstick" in r for r in rows)
    head = (f"{'variant':<16} {'greedy deals/s':>14} {'pimc ms/decision':>16} {'max ms':>8} {'decisions':>9} "
            f"{'fallbacks':>9} {'x random':>8}" + (f" {'x yardstick':>11}" if yard else ""))
    lines = [head]
    for r in rows:
        g, p = r["greedy"], r["pimc"]
        lines.append(f"{r['variant']:<16} {g['deals_per_s']:>14.1f} {p['mean_ms']:>16.1f} {p['max_ms']:>8.1f} "
                     f"{p['decisions']:>9} {p['greedy_fallbacks']:>9} {p['per_random_deals']:>8.2f}"
                     + (f" {p['per_yardstick_1000']:>11.2f}" if yard else ""))
    if rows:
        lines.append(f"x random: a pimc decision's time over the time of {RANDOM_DEALS} random deals "
                     f"(ombre bench) of the same variant, in the same run")
    if yard:
        lines.append(f"x yardstick: the same over the yardstick script's time for {YARDSTICK_DEALS} deals (the "
                     f"median of {YARDSTICK_RUNS} runs), in the same run")
    return "\n".join(lines)
