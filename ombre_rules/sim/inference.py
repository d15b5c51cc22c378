"""Tests and intervals for a comparison: a paired mean's normal interval and p-value, the bias-corrected and
accelerated (BCa) bootstrap of a statistic of counted categories, and Holm's correction of a family of tests.

A statistic of counted categories (Balance from the deals' win-score codes, a success rate from the deals'
played-and-won codes, their paired differences from joint codes) depends on the deals only through how many
fell in each category, so a resample is one multinomial draw of the counts (`multinomial`: a binomial per
category, each drawn exactly by inversion from its mode) and the jackknife takes one deal of each category
out: the cost grows with the categories and the square root of the deals, not with the deals."""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from statistics import NormalDist

Z95 = 1.959963984540054
_N = NormalDist()
ROUNDS = 1000  # bootstrap resamples


def normal_p(mean: float, sd: float, n: int) -> float:
    """Two-sided p-value of a mean of n values with standard deviation sd against 0 (normal approximation); 1
    when nothing varies and the mean is 0, 0 when nothing varies and it is not."""
    if n < 2:
        return 1.0 if mean == 0 else 0.0
    return se_p(mean, sd / math.sqrt(n))


def se_p(estimate: float, se: float) -> float:
    """Two-sided p-value of a normal estimate with standard error se against 0 (1 or 0 when se is 0, as
    `normal_p`)."""
    if se == 0:
        return 1.0 if estimate == 0 else 0.0
    return 2 * (1 - _N.cdf(abs(estimate) / se))


def holm(ps: list[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values, in the order given.

    >>> [round(p, 3) for p in holm([0.01, 0.04, 0.03, 0.5])]
    [0.04, 0.09, 0.09, 0.5]
    """
    m = len(ps)
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=ps.__getitem__)):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def binomial(rng: random.Random, n: int, p: float) -> int:
    """An exact Binomial(n, p) draw by inversion over the outcomes taken outwards from the mode (any fixed order
    of the outcomes is a valid inversion; this one stops after about the standard deviation's steps)."""
    if n <= 0 or p <= 0.0:
        return 0
    if p >= 1.0:
        return n
    q = 1.0 - p
    m = min(n, int((n + 1) * p))
    pm = math.exp(math.lgamma(n + 1) - math.lgamma(m + 1) - math.lgamma(n - m + 1) + m * math.log(p)
                  + (n - m) * math.log(q))
    u = rng.random() - pm
    if u < 0:
        return m
    lo, hi, plo, phi = m, m, pm, pm
    ratio = p / q
    while lo > 0 or hi < n:
        if hi < n:  # P(k + 1) = P(k) (n - k) / (k + 1) p / q
            phi *= (n - hi) / (hi + 1) * ratio
            hi += 1
            u -= phi
            if u < 0:
                return hi
        if lo > 0:  # P(k - 1) = P(k) k / (n - k + 1) q / p
            plo *= lo / (n - lo + 1) / ratio
            lo -= 1
            u -= plo
            if u < 0:
                return lo
    return m  # rounding left a sliver of probability unassigned: the mode takes it


def multinomial(rng: random.Random, n: int, weights: list[int]) -> list[int]:
    """n draws over categories of the given weights (counts), as counts per category: each category's count is
    a binomial of what is left, given the categories before it."""
    out = []
    left, total = n, sum(weights)
    for w in weights:
        if left <= 0 or total <= 0:
            out.append(0)
            continue
        k = binomial(rng, left, w / total)
        out.append(k)
        left -= k
        total -= w
    return out


Statistic = Callable[[Mapping], float]


def bca(stat: Statistic, counts: Mapping, rounds: int = ROUNDS, seed: int = 0) -> dict:
    """The statistic of the counted categories `counts` (category -> deals), with its 95% BCa bootstrap interval
    (the percentiles corrected for the bias and the skew of the statistic's resampled distribution: it need not
    be centred on the estimate, nor hold it when the estimate is biased), the
    bootstrap's two-sided p-value against 0 (twice the smaller share of resamples on one side of 0), and
    `bias`: the resamples' mean less the estimate."""
    cats = [c for c, k in counts.items() if k > 0]
    weights = [counts[c] for c in cats]
    n = sum(weights)
    est = stat(counts)
    if n < 2:
        return {"value": est, "ci": [est, est], "p": 1.0, "bias": 0.0}
    rng = random.Random(seed)
    boot = sorted(stat(dict(zip(cats, multinomial(rng, n, weights), strict=True))) for _ in range(rounds))
    below = sum(b < est for b in boot) + 0.5 * sum(b == est for b in boot)
    z0 = _N.inv_cdf(min(max(below / rounds, 0.5 / rounds), 1 - 0.5 / rounds))
    # the jackknife: one deal of each category left out (each such value weighs as many deals as it has)
    jack = []
    for c, w in zip(cats, weights, strict=True):
        less = dict(counts)
        less[c] = w - 1
        jack.append((stat(less), w))
    mean = sum(v * w for v, w in jack) / n
    num = sum(w * (mean - v) ** 3 for v, w in jack)
    den = sum(w * (mean - v) ** 2 for v, w in jack)
    a = num / (6 * den ** 1.5) if den > 0 else 0.0
    ends = []
    for z in (-Z95, Z95):
        t = z0 + (z0 + z) / (1 - a * (z0 + z))
        ends.append(boot[min(rounds - 1, max(0, int(_N.cdf(t) * rounds)))])
    side = min(sum(b <= 0 for b in boot), sum(b >= 0 for b in boot))
    return {"value": est, "ci": ends, "p": min(1.0, 2 * side / rounds),
            "bias": sum(boot) / rounds - est}
