"""Paired differences between variants: deal i has the same seed in every variant (common random numbers), so
each metric's difference from the first variant is measured deal by deal, with a paired 95% interval. The
first variant's deals are kept as a few numbers each (`Deals`); the others' stream past them (`Differences`)."""
from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable

from .stats import Moments, Scores, balance_of, bootstrap_ci, per_deal, rates_of

# the per-deal metrics whose differences are reported, with their labels (a new per-deal measure: a key of
# `per_deal` and a label here)
PAIRED = {"pass_out_rate": "passed out (share of deals)", "declarer_won": "declarer gains (share of deals)",
          "declarer_payment": "declarer's payment (deals played in both)", "Decisiveness": "Decisiveness",
          "AdvantageP1": "AdvantageP1", "Duration": "Duration (actions)",
          "LeadChange": "LeadChange (deals played in both)", "Drama": "Drama (deals played in both)",
          "DecisionMoves": "DecisionMoves"}


def paired_ci(m: Moments) -> dict:
    """Mean of paired differences with its 95% normal interval; `significant` when the interval excludes 0."""
    d = m.ci()
    lo, hi = d["ci"]
    return {"mean": d["mean"], "ci": [lo, hi], "pairs": m.n, "significant": bool(m.n) and (lo > 0 or hi < 0)}


def _fingerprints(x: dict) -> tuple[int, int]:
    """Fingerprints of a deal's play and of its result (64-bit hashes: equal for equal lines, and two different
    lines agree by chance once in about 2**64)."""
    return hash(tuple(x["history"])), hash((x["outcome"], tuple(x["payments"])))


class Deals:
    """The first variant's deals in deal order, compact: one double per paired metric (NaN where it does not
    apply), the fingerprints of the play and of the result, and the score codes (`scores`, shared with the
    variant's `Metrics`)."""

    def __init__(self, scores: Scores) -> None:
        self.values = {k: array("d") for k in PAIRED}
        self.play = array("q")
        self.result = array("q")
        self.scores = scores

    def __len__(self) -> int:
        return len(self.play)

    def add(self, x: dict, d: dict) -> None:
        """Add deal number len(self) (`d`: its `per_deal` values)."""
        for k, a in self.values.items():
            v = d[k]
            a.append(math.nan if v is None else v)
        p, r = _fingerprints(x)
        self.play.append(p)
        self.result.append(r)


class Differences:
    """Another variant's paired differences from the first (`base`), added deal by deal in deal order."""

    def __init__(self, base: Deals, scores: Scores) -> None:
        self.base = base
        self.scores = scores  # this variant's score codes (its `Metrics`'s)
        self.moments = {k: Moments() for k in PAIRED}
        self.pairs = self.play_differs = self.result_differs = 0

    def add(self, x: dict, d: dict) -> None:
        """Add a deal of this variant (`d`: its `per_deal` values); one the first variant did not play is left out."""
        i = x["deal"]
        if i >= len(self.base):
            return
        self.pairs += 1
        for k, m in self.moments.items():
            a, b = self.base.values[k][i], d[k]
            if b is not None and a == a:  # NaN: the metric does not apply to the first variant's deal
                m.add(b - a)
        p, r = _fingerprints(x)
        self.play_differs += p != self.base.play[i]
        self.result_differs += r != self.base.result[i]

    def result(self) -> dict:
        """Each paired metric's difference, the deals whose play and result differ, and Balance's difference
        (resampled) when both variants seat as many players."""
        out = {k: paired_ci(m) for k, m in self.moments.items()}
        n = self.pairs
        out["deals_differing"] = {"pairs": n, "play": self.play_differs, "result": self.result_differs}
        sa, sb = self.base.scores, self.scores
        if sa.players == sb.players and n:
            p, size = sa.players, 3 ** sa.players
            ca, cb = sa.codes, sb.codes

            def diff(idx: Iterable[int]) -> float:
                joint = Counter(ca[i] * size + cb[i] for i in idx)
                a: Counter[int] = Counter()
                b: Counter[int] = Counter()
                for c, k in joint.items():
                    a[c // size] += k
                    b[c % size] += k
                return balance_of(rates_of(b, n, p)) - balance_of(rates_of(a, n, p))

            d = diff(range(n))
            lo, hi = bootstrap_ci(diff, n)
            out["Balance"] = {"mean": d, "ci": [lo, hi], "pairs": n, "significant": lo > 0 or hi < 0}
        return out


def differences(base: Iterable[dict], other: Iterable[dict], players_base: int, players_other: int) -> dict:
    """Each paired metric of `other` minus `base` over the deals both played (result lines in deal order from
    deal 0)."""
    deals = Deals(Scores(players_base))
    for x in base:
        deals.add(x, per_deal(x, players_base))
        deals.scores.add(x)
    diff = Differences(deals, Scores(players_other))
    for y in other:
        diff.add(y, per_deal(y, players_other))
        diff.scores.add(y)
    return diff.result()
