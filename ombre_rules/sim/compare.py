"""`compare`: the same deal seeds played in every variant, then metrics, paired differences, rule coverage and
the warnings about rules the deals barely reached."""
from __future__ import annotations

from dataclasses import dataclass

from ..ruleset import Ruleset
from .coverage import coverage, warnings
from .paired import differences
from .runner import collect, run
from .stats import by_player, metrics

# a rule by which compared variants differ, reached in fewer deals than this, is warned about
MIN_REACHED = 30


@dataclass
class Run:
    """One variant's part of a comparison: its rules, players by seat and the result lines of its deals."""

    variant: str
    options: dict
    rules: Ruleset
    players: list[str]
    lines: list[dict]


def play(runs: list[Run], seed: int, deals: int, jobs: int, dask: str | None, quiet: bool = False,
         double_dummy: bool = False) -> bool:
    """Play each run's deals in turn (filling its lines); whether Ctrl-C stopped the comparison."""
    for i, r in enumerate(runs):
        lines = run(r.variant, r.options, r.players, seed, deals, jobs, dask, double_dummy)
        r.lines, stopped = collect(lines, deals, f"{r.rules.variant} ({i + 1}/{len(runs)})", quiet=quiet)
        if stopped:
            return True
    return False


def analyse(runs: list[Run], least: int = MIN_REACHED) -> dict:
    """Metrics, coverage and differences from the first variant, of the runs that played any deal."""
    done = [r for r in runs if r.lines]
    base = done[0] if done else None
    paired = {r.rules.variant: differences(base.lines, r.lines, base.rules.players, r.rules.players)
              for r in done[1:]}
    return {
        "variants": {r.rules.variant: metrics(r.lines, r.rules.players) for r in done},
        "coverage": {r.rules.variant: coverage(r.lines, r.rules) for r in done},
        "players": {r.rules.variant: by_player(r.lines, r.players) for r in done},
        "paired": paired,
        "warnings": warnings([(r.rules.variant, r.rules, r.lines) for r in done], least) + [
            _alike(v, base.rules.variant, d["deals_differing"]) for v, d in paired.items()
            if d["deals_differing"]["result"] < least],
        "contract_order": list(dict.fromkeys(c.name for r in done for c in r.rules.contracts)),
    }


def _alike(v: str, base: str, d: dict) -> str:
    """The warning about two variants whose deals, dealt alike, nearly always end alike."""
    k, n = d["result"], d["pairs"]
    if k == 0:
        return (f"{v} and {base} end alike in all {n:,} deals dealt alike — this comparison says nothing about "
                "what sets them apart; try --players random or more deals")
    return (f"{v} and {base} end differently in only {k:,} of {n:,} deals dealt alike — this comparison says "
            "little about what sets them apart; try --players random or more deals")
