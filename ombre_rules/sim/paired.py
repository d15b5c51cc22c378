"""Paired differences between variants: deal i has the same seed in every variant (common random numbers), so
each metric's difference from the first variant is measured deal by deal, with a paired 95% interval."""
from __future__ import annotations

import math

from .stats import Z95, balance, bootstrap_ci, mean_sd, per_deal, win_score

# the per-deal metrics whose differences are reported, with their labels
PAIRED = {"pass_out_rate": "passed out (share of deals)", "declarer_won": "declarer gains (share of deals)",
          "declarer_payment": "declarer's payment (deals played in both)", "Decisiveness": "Decisiveness",
          "AdvantageP1": "AdvantageP1", "Duration": "Duration (actions)",
          "LeadChange": "LeadChange (deals played in both)", "Drama": "Drama (deals played in both)",
          "DecisionMoves": "DecisionMoves"}


def paired_ci(diffs: list[float]) -> dict:
    """Mean of paired differences with its 95% normal interval; `significant` when the interval excludes 0."""
    m, sd = mean_sd(diffs)
    half = Z95 * sd / math.sqrt(len(diffs)) if diffs else 0.0
    lo, hi = m - half, m + half
    return {"mean": m, "ci": [lo, hi], "pairs": len(diffs), "significant": bool(diffs) and (lo > 0 or hi < 0)}


def _scores(x: dict, players: int) -> list[float]:
    return [win_score(x["payments"][(x["dealer"] + 1 + k) % players]) for k in range(players)]


def differences(base: list[dict], other: list[dict], players_base: int, players_other: int) -> dict:
    """Each paired metric of `other` minus `base` over the deals both played (the same deal numbers)."""
    by_deal = {x["deal"]: x for x in base}
    pairs = [(by_deal[y["deal"]], y) for y in other if y["deal"] in by_deal]
    vals = [(per_deal(a, players_base), per_deal(b, players_other)) for a, b in pairs]
    out = {}
    for key in PAIRED:
        out[key] = paired_ci([b[key] - a[key] for a, b in vals if a[key] is not None and b[key] is not None])
    out["deals_differing"] = {"pairs": len(pairs),
                              "play": sum(1 for a, b in pairs if a["history"] != b["history"]),
                              "result": sum(1 for a, b in pairs if (a["outcome"], a["payments"]) !=
                                            (b["outcome"], b["payments"]))}
    if players_base == players_other and pairs:
        sa = [_scores(a, players_base) for a, _b in pairs]
        sb = [_scores(b, players_other) for _a, b in pairs]
        d = balance(sb) - balance(sa)
        lo, hi = bootstrap_ci(lambda idx: balance([sb[i] for i in idx]) - balance([sa[i] for i in idx]), len(pairs))
        out["Balance"] = {"mean": d, "ci": [lo, hi], "pairs": len(pairs), "significant": lo > 0 or hi < 0}
    return out
