"""Duplicate matches: how much more a player wins than another on the same deals, seats rotated.

Every deal of the run is played n + 1 times (n the variant's seats): once with player B at every seat (the
reference), and once with A at seat k and B at the others, for each seat k. A's gain on a deal is the mean over
the seats of what A won at seat k less what B won at seat k in the reference: the same cards, the same
opponents (B's players at the other seats draw the same random numbers in both tables), only seat k's player
changed. Deals are played by `sim.runner.run`: here, in local processes (`jobs`), or on a Dask cluster."""
from __future__ import annotations

import math
import time
from collections.abc import Callable

from .runner import _rules, run

Z95 = 1.959964  # the two-sided 95% quantile of the normal law (a mean over many deals)


def tables(a: str, b: str, n: int) -> list[list[str]]:
    """The line-ups of a match: B everywhere, then A at each seat in turn."""
    return [[b] * n] + [[a if s == k else b for s in range(n)] for k in range(n)]


def match(variant: str, options: dict, a: str, b: str, deals: int, seed: int = 1, jobs: int = 1,
          dask: str | None = None, progress: Callable[[str], None] | None = None) -> dict:
    """A's gain over B per deal, with its 95% interval; per seat too; and the wall time of the whole match."""
    rules = _rules(variant, options)
    n = rules.players
    t0 = time.perf_counter()
    pays = []
    for names in tables(a, b, n):
        pays.append([line["payments"] for line in run(variant, options, names, seed, deals, jobs, dask)])
        if progress is not None:
            progress(f"{','.join(names)}: {deals} deals, {time.perf_counter() - t0:.0f} s so far")
    base = pays[0]
    per_seat = [[pays[1 + k][i][k] - base[i][k] for i in range(deals)] for k in range(n)]
    gains = [sum(per_seat[k][i] for k in range(n)) / n for i in range(deals)]
    mean, half = interval(gains)
    return {"variant": rules.variant, "a": a, "b": b, "deals": deals, "seed": seed, "gain": mean,
            "low": mean - half, "high": mean + half,
            "by_seat": [round(sum(d) / deals, 3) for d in per_seat],
            "deals_a_better": sum(1 for g in gains if g > 0), "deals_b_better": sum(1 for g in gains if g < 0),
            "seconds": round(time.perf_counter() - t0, 1)}


def interval(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    k = len(xs)
    m = sum(xs) / k
    if k < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (k - 1)
    return m, Z95 * math.sqrt(var / k)


def line(r: dict) -> str:
    """A match's result in words."""
    return (f"{r['variant']}: {r['a']} against {r['b']}, {r['deals']} deals (seed {r['seed']}): "
            f"{r['gain']:+.3f} a deal [{r['low']:+.3f}, {r['high']:+.3f}] 95%; better on {r['deals_a_better']}, "
            f"worse on {r['deals_b_better']} deals; by seat {', '.join(f'{g:+.3f}' for g in r['by_seat'])}; "
            f"{r['seconds']:.0f} s")
