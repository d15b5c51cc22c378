"""The bots' speed per variant, measured in one run: deals per second of `simulate` with greedy players, and
the time of one Monte-Carlo decision at its default budget."""
from __future__ import annotations

import time

from ..bots.pimc import DEFAULT_ROLLOUTS, PimcPlayer
from ..engine import DONE, State
from ..players import act, make_player
from .runner import _rules, deal_seed, play_chunk


def builtin_variants() -> list[str]:
    """The ids of the built-in variants, in the order `ombre variants` lists them."""
    from ..spec.resolve import builtin_index, resolve

    paths = sorted(set(builtin_index().values()))
    return [resolve(p).data["id"] for p in paths]


def greedy_rate(variant: str, deals: int, seed: int) -> dict:
    """Deals per second of `simulate VARIANT --players greedy` in one process (the same deals it plays)."""
    rules = _rules(variant, {})
    play_chunk(variant, {}, ["greedy"] * rules.players, seed + 1, 0, 1)  # rank and follow tables built first
    t0 = time.perf_counter()
    play_chunk(variant, {}, ["greedy"] * rules.players, seed, 0, deals)
    dt = time.perf_counter() - t0
    return {"deals": deals, "seconds": round(dt, 4), "deals_per_s": round(deals / dt, 1)}


def pimc_decision_time(variant: str, decisions: int, seed: int) -> dict:
    """Mean and longest time of a Monte-Carlo decision at the default budget (decisions with one legal action
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
        players[me] = PimcPlayer(s * 16 + me, rules)
        state = State(rules, seed=s, dealer=i % n)
        before = players[me].fallbacks
        while state.phase != DONE and len(times) < decisions:
            seat = state.to_move
            if seat == me and len(state.legal_actions()) > 1:
                t0 = time.perf_counter()
                a = act(players[seat], state, seat)
                times.append(time.perf_counter() - t0)
            else:
                a = act(players[seat], state, seat)
            state.apply(a)
        fallbacks += players[me].fallbacks - before
        i += 1
    return {"decisions": len(times), "rollouts": DEFAULT_ROLLOUTS, "deals": i,
            "mean_ms": round(1000 * sum(times) / len(times), 2), "max_ms": round(1000 * max(times), 2),
            "greedy_fallbacks": fallbacks}


def measure(variants: list[str], deals: int, decisions: int, seed: int) -> list[dict]:
    """One row per variant: its greedy simulate rate and its Monte-Carlo decision time."""
    rows = []
    for v in variants:
        rules = _rules(v, {})
        rows.append({"variant": rules.variant, "players": rules.players, "greedy": greedy_rate(v, deals, seed),
                     "pimc": pimc_decision_time(v, decisions, seed)})
    return rows


def table(rows: list[dict]) -> str:
    """The rows as a plain-text table."""
    head = (f"{'variant':<16} {'greedy deals/s':>14} {'pimc ms/decision':>16} {'max ms':>8} {'decisions':>9} "
            f"{'fallbacks':>9}")
    lines = [head]
    for r in rows:
        g, p = r["greedy"], r["pimc"]
        lines.append(f"{r['variant']:<16} {g['deals_per_s']:>14.1f} {p['mean_ms']:>16.1f} {p['max_ms']:>8.1f} "
                     f"{p['decisions']:>9} {p['greedy_fallbacks']:>9}")
    return "\n".join(lines)
