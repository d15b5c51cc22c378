"""The bots' speed per variant, measured in one run: deals per second of `simulate` with greedy players, the
time of one Monte-Carlo decision at a budget of play-outs, and that time against 1,000 random deals."""
from __future__ import annotations

import time

from .. import bench
from ..bots.pimc import DEFAULT_ROLLOUTS, PimcPlayer
from ..engine import DONE, State
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
    because no world consistent with the seat's view was found. Deal i of the run has pimc at seat i mod players and
    greedy at the others; deals are played until `decisions` decisions are timed."""
    rules = _rules(variant, {})
    n = rules.players
    times: list[float] = []
    fallbacks = 0
    i = 0
    while len(times) < decisions:
        s = deal_seed(seed, i)
        me = i % n
        players = [make_player("greedy", s * 16 + k, rules) for k in range(n)]
        players[me] = PimcPlayer(s * 16 + me, rules, rollouts=rollouts)
        state = State(rules, seed=s, dealer=i % n)
        before = players[me].fallbacks
        while state.phase != DONE and len(times) < decisions:
            seat = state.to_move
            if seat == me and len(state.legal_actions()) > 1:
                t0 = clock()
                a = act(players[seat], state, seat)
                times.append(clock() - t0)
            else:
                a = act(players[seat], state, seat)
            state.apply(a)
        fallbacks += players[me].fallbacks - before
        i += 1
    return {"decisions": len(times), "rollouts": rollouts, "deals": i,
            "mean_ms": round(1000 * sum(times) / len(times), 2), "max_ms": round(1000 * max(times), 2),
            "greedy_fallbacks": fallbacks}


def measure(variants: list[str], deals: int, decisions: int, seed: int,
            rollouts: int = DEFAULT_ROLLOUTS) -> list[dict]:
    """One row per variant: its greedy simulate rate, the time of RANDOM_DEALS random deals, and its Monte-Carlo
    decision time, also as a multiple of the random deals' time (`per_random_deals`)."""
    rows = []
    for v in variants:
        rules = _rules(v, {})
        rnd = random_time(v, seed)
        pimc = pimc_decision_time(v, decisions, seed, rollouts)
        pimc["per_random_deals"] = round(pimc["mean_ms"] / (1000 * rnd["seconds"]), 3)
        rows.append({"variant": rules.variant, "players": rules.players, "greedy": greedy_rate(v, deals, seed),
                     "random": rnd, "pimc": pimc})
    return rows


def table(rows: list[dict]) -> str:
    """The rows as a plain-text table."""
    head = (f"{'variant':<16} {'greedy deals/s':>14} {'pimc ms/decision':>16} {'max ms':>8} {'decisions':>9} "
            f"{'fallbacks':>9} {'x random':>8}")
    lines = [head]
    for r in rows:
        g, p = r["greedy"], r["pimc"]
        lines.append(f"{r['variant']:<16} {g['deals_per_s']:>14.1f} {p['mean_ms']:>16.1f} {p['max_ms']:>8.1f} "
                     f"{p['decisions']:>9} {p['greedy_fallbacks']:>9} {p['per_random_deals']:>8.2f}")
    if rows:
        lines.append(f"x random: a pimc decision's time over the time of {RANDOM_DEALS} random deals "
                     f"(ombre bench) of the same variant, in the same run")
    return "\n".join(lines)
