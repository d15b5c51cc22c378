"""`compare`: the same deal seeds played in every variant, then metrics, paired differences (Holm-corrected as
one family), rule coverage and the warnings about rules the deals barely reached. Each variant's deals stream
into its accumulators as they are played (and, asked for, into a file of per-deal rows); only the first
variant keeps a few numbers a deal, the others a few small codes, for the paired statistics."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import State
from ..errors import OmbreError
from ..ruleset import Ruleset
from .advice import warnings
from .coverage import Coverage
from .inference import holm
from .paired import Deals, Differences
from .players_info import players_info
from .rows import Rows, Target, row
from .runner import _rules, collect, deal_seed, run
from .stats import Metrics, by_player, per_deal
from .sweep import Sweep, parse

# a rule by which compared variants differ, reached in fewer deals than this, is warned about
MIN_REACHED = 30
SAME_DEALS_CHECKED = 20  # deals dealt in two variants to tell whether they deal alike


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
    rows: Rows | None = None  # the per-deal rows file, when asked for
    label: str | None = None  # its name in the report, when not the variant's (a line-up of players swept)

    def __post_init__(self) -> None:
        self.metrics = Metrics(self.rules.players)
        self.coverage = Coverage()

    @property
    def name(self) -> str:
        """The run's name in the report: its variant's, or its label."""
        return self.label or self.rules.variant

    @property
    def deals(self) -> int:
        """How many deals were played."""
        return self.metrics.deals

    def add(self, x: dict) -> None:
        """Add one deal's result line to every accumulator."""
        n = self.rules.players
        d = per_deal(x, n)
        self.metrics.add(x, d)
        self.coverage.add(x)
        if self.paired is not None:
            self.paired.add(x, d)
        if self.rows is not None:
            self.rows.add(row(self.name, x, n, d))


def play(runs: list[Run], seed: int, deals: int, jobs: int, dask: str | None, quiet: bool = False,
         judged: int = 0, rows: Target | None = None) -> bool:
    """Play each run's deals in turn (into its accumulators and, with `rows`, that file; the first `judged`
    deals with the double-dummy measure); whether Ctrl-C stopped the comparison."""
    if rows is None:
        return _play(runs, seed, deals, jobs, dask, quiet, judged)
    with rows.open(max(r.rules.players for r in runs), judged > 0) as table:
        for r in runs:
            r.rows = table
        return _play(runs, seed, deals, jobs, dask, quiet, judged)


def _play(runs: list[Run], seed: int, deals: int, jobs: int, dask: str | None, quiet: bool,
          judged: int) -> bool:
    for i, r in enumerate(runs):
        if len(runs) > 1:
            first = runs[0].paired
            r.paired = Deals(r.metrics.scores) if i == 0 else Differences(_deals(first), r.metrics.scores)
        lines = run(r.variant, r.options, r.players, seed, deals, jobs, dask, judged)
        _done, stopped = collect(lines, deals, f"{r.name} ({i + 1}/{len(runs)})", r.add, quiet=quiet)
        if stopped:
            return True
    return False


def _deals(paired: Deals | Differences | None) -> Deals:
    assert isinstance(paired, Deals)  # the first run's
    return paired


def _differences(paired: Deals | Differences | None) -> dict:
    assert isinstance(paired, Differences)  # a later run's, from the first
    return paired.result()


def swept(runs: list[Run], text: str, seat_players) -> tuple[list[Run], Sweep]:
    """The runs of `--sweep text` of the one variant of `runs` (`seat_players(rules, text)`: the players by seat
    of a line-up, checked)."""
    if len(runs) != 1:
        raise OmbreError("--sweep compares one VARIANT with each value of an option: give one variant")
    base = runs[0]
    sweep = parse(text, base.variant, base.rules)
    out = []
    for variant, lineup in sweep.runs:
        rules = _rules(variant, base.options)
        # each run named by what is swept: the option's value written out (a default one too), or the line-up
        out.append(Run(variant, base.options, rules, seat_players(rules, lineup) if lineup else base.players,
                       label=f"{rules.variant} [players {lineup}]" if lineup else variant))
    return out, sweep


def same_deals(a: Ruleset, b: Ruleset, seed: int, k: int = SAME_DEALS_CHECKED) -> int:
    """Of the first `k` deals of a run, how many two variants deal alike (the same hands and talon)."""
    if a.players != b.players:
        return 0
    alike = 0
    for i in range(k):
        s = deal_seed(seed, i)
        x, y = State(a, seed=s, dealer=i % a.players), State(b, seed=s, dealer=i % b.players)
        alike += (x.deal_hands, x.deal_talon) == (y.deal_hands, y.deal_talon)
    return alike


def _family(paired: dict[str, dict]) -> tuple[list[dict], list[dict]]:
    """The tests of a report's paired differences (each a dict with a p-value), in a fixed order: those of
    the family, and those that test nothing (no pair differs: a difference of exactly 0)."""
    tests = []
    for d in paired.values():
        tests += [t for t in d["measures"].values() if t["pairs"]]
        tests += list(d["positions"].values())
        tests += list(d["contract_shares"].values())
        tests += [d["declarer_success"]] + ([d["Balance"]] if "Balance" in d else [])
    nothing = [t for t in tests if t["ci"] == [0.0, 0.0] and t.get("mean", t.get("value")) == 0]
    return [t for t in tests if t not in nothing], nothing


def analyse(runs: list[Run], seed: int, least: int = MIN_REACHED, judged: int = 0) -> dict:
    """Metrics, coverage and differences from the first variant of the runs that played any deal; the paired
    tests Holm-corrected as one family (`p_holm`, `significant` at 5%), but for those no pair of deals differs
    in, which test nothing. `judged`: how many of each run's first deals were judged double-dummy."""
    done = [r for r in runs if r.deals]
    paired = {r.name: _differences(r.paired) for r in done[1:]}
    for r in done[1:]:
        paired[r.name]["same_deals"] = {"alike": same_deals(done[0].rules, r.rules, seed),
                                        "checked": SAME_DEALS_CHECKED}
    tests, nothing = _family(paired)
    for t, p in zip(tests, holm([t["p"] for t in tests]), strict=True):
        t["p_holm"], t["significant"] = p, p < 0.05
    for t in nothing:
        t["p_holm"], t["significant"] = 1.0, False
    return {
        "variants": {r.name: r.metrics.result() for r in done},
        "coverage": {r.name: r.coverage.result(r.rules) for r in done},
        "players": {r.name: by_player(r.metrics, r.players) for r in done},
        "paired": paired,
        "tests": len(tests),
        "warnings": warnings(done, paired, seed, least),
        "contract_order": list(dict.fromkeys(c.name for r in done for c in r.rules.contracts)),
        "bots": players_info(done, judged),
        "digests": {r.name: r.rules.digest for r in done},
    }
