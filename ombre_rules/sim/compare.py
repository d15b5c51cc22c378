"""`compare`: the same deal seeds played in every variant, then metrics, paired differences, rule coverage and
the warnings about rules the deals barely reached. Each variant's deals stream into its accumulators as they
are played; only the first variant keeps a few numbers a deal, for the paired differences."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..ruleset import Ruleset
from .coverage import Coverage, warnings
from .paired import Deals, Differences
from .runner import collect, run
from .stats import Metrics, by_player, per_deal

# a rule by which compared variants differ, reached in fewer deals than this, is warned about
MIN_REACHED = 30


@dataclass
class Run:
    """One variant's part of a comparison: its rules, players by seat and what its deals added up to so far."""

    variant: str
    options: dict
    rules: Ruleset
    players: list[str]
    metrics: Metrics = field(init=False)
    coverage: Coverage = field(init=False)
    paired: Deals | Differences | None = None  # the first variant's deals, or the others' differences from them

    def __post_init__(self) -> None:
        self.metrics = Metrics(self.rules.players)
        self.coverage = Coverage()

    @property
    def deals(self) -> int:
        """How many deals were played."""
        return self.metrics.deals

    def add(self, x: dict) -> None:
        """Add one deal's result line to every accumulator."""
        d = per_deal(x, self.rules.players)
        self.metrics.add(x, d)
        self.coverage.add(x)
        if self.paired is not None:
            self.paired.add(x, d)


def play(runs: list[Run], seed: int, deals: int, jobs: int, dask: str | None, quiet: bool = False,
         double_dummy: bool = False) -> bool:
    """Play each run's deals in turn (into its accumulators; `double_dummy` adds the double-dummy measure to
    each deal); whether Ctrl-C stopped the comparison."""
    for i, r in enumerate(runs):
        if len(runs) > 1:
            first = runs[0].paired
            r.paired = Deals(r.metrics.scores) if i == 0 else Differences(_deals(first), r.metrics.scores)
        lines = run(r.variant, r.options, r.players, seed, deals, jobs, dask, double_dummy)
        _done, stopped = collect(lines, deals, f"{r.rules.variant} ({i + 1}/{len(runs)})", r.add, quiet=quiet)
        if stopped:
            return True
    return False


def _deals(paired: Deals | Differences | None) -> Deals:
    assert isinstance(paired, Deals)  # the first run's
    return paired


def _differences(paired: Deals | Differences | None) -> dict:
    assert isinstance(paired, Differences)  # a later run's, from the first
    return paired.result()


def analyse(runs: list[Run], least: int = MIN_REACHED) -> dict:
    """Metrics, coverage and differences from the first variant, of the runs that played any deal."""
    done = [r for r in runs if r.deals]
    paired = {r.rules.variant: _differences(r.paired) for r in done[1:]}
    base = done[0].rules.variant if done else ""
    return {
        "variants": {r.rules.variant: r.metrics.result() for r in done},
        "coverage": {r.rules.variant: r.coverage.result(r.rules) for r in done},
        "players": {r.rules.variant: by_player(r.metrics, r.players) for r in done},
        "paired": paired,
        "warnings": warnings([(r.rules.variant, r.rules, r.coverage) for r in done], least) + [
            _alike(v, base, d["deals_differing"]) for v, d in paired.items()
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
