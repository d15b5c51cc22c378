"""Outcome statistics of a run of deals, with 95% confidence intervals. Metric names follow Ludii and
CardStock where they mean the same thing: Duration, Decisiveness, Drawishness, Balance, AdvantageP1."""
from __future__ import annotations

import math
from collections import Counter

Z95 = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n.

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + Z95 ** 2 / n
    mid = (p + Z95 ** 2 / (2 * n)) / d
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    # rounding may put a bound a hair past p when k is 0 or n; an interval always holds its estimate
    return (min(p, max(0.0, mid - half)), max(p, min(1.0, mid + half)))


def mean_sd(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return (0.0, 0.0)
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return (m, 0.0)
    return (m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)))


def mean_ci(xs: list[float]) -> dict:
    m, sd = mean_sd(xs)
    half = Z95 * sd / math.sqrt(len(xs)) if xs else 0.0
    return {"mean": m, "sd": sd, "ci": [m - half, m + half]}


def share(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"count": k, "rate": k / n if n else 0.0, "ci": [lo, hi]}


def metrics(lines: list[dict], players: int) -> dict:
    """The statistics of one variant's deals (result lines of a run)."""
    n = len(lines)
    played = [x for x in lines if x["contract"] is not None]
    contracts = Counter(x["contract"] or "(passed out)" for x in lines)
    outcomes = Counter(x["outcome"] for x in lines)
    success: dict[str, dict] = {}
    for c in sorted({x["contract"] for x in played}):
        mine = [x for x in played if x["contract"] == c]
        wins = sum(1 for x in mine if x["payments"][x["declarer"]] > 0)
        success[c] = share(wins, len(mine))
    all_won = sum(1 for x in played if x["payments"][x["declarer"]] > 0)
    decl_pay = [x["payments"][x["declarer"]] for x in played]
    by_pos: list[list[int]] = [[] for _ in range(players)]
    wins_pos = [0.0] * players
    for x in lines:
        for seat, p in enumerate(x["payments"]):
            pos = (seat - x["dealer"] - 1) % players
            by_pos[pos].append(p)
            wins_pos[pos] += 1.0 if p > 0 else 0.5 if p == 0 else 0.0
    win_rate = [w / n if n else 0.0 for w in wins_pos]
    decisive = sum(1 for x in lines if max(x["payments"]) > 0)
    drawn = sum(1 for x in lines if x["contract"] is None)
    all_pay = [p for x in lines for p in x["payments"]]
    return {
        "deals": n,
        "contract_mix": {c: share(k, n) for c, k in contracts.most_common()},
        "pass_out_rate": share(drawn, n),
        "declarer_success": share(all_won, len(played)),
        "declarer_success_by_contract": success,
        "outcomes": {o: share(k, n) for o, k in outcomes.most_common()},
        "declarer_payment": mean_ci(decl_pay),
        "payment_spread": mean_sd([abs(p) for p in all_pay])[0],
        "payment_sd": mean_sd(all_pay)[1],
        "position_payment": [mean_ci(p) for p in by_pos],
        "position_win_rate": win_rate,
        "AdvantageP1": win_rate[0] if players else 0.0,
        "Balance": 1.0 - (max(win_rate) - min(win_rate)) if n else 0.0,
        "Decisiveness": decisive / n if n else 0.0,
        "Drawishness": drawn / n if n else 0.0,
        "Duration": mean_ci([x["actions"] for x in lines]),
        "DurationTricks": mean_sd([sum(x["tricks"]) for x in lines])[0],
    }


GLOSSARY = {
    "Duration": "mean number of actions in a deal (bids, exchanges, cards), with its 95% interval",
    "DurationTricks": "mean number of tricks played in a deal",
    "Decisiveness": "share of deals in which some seat gains (a net payment above zero)",
    "Drawishness": "share of deals passed out (nobody plays)",
    "Balance": "1 minus the gap between the best and worst seat position's win rate (a win: a net gain; "
               "no payment counts half)",
    "AdvantageP1": "win rate of forehand, the first seat after the dealer (no payment counts half)",
    "pass_out_rate": "share of deals in which every seat passed",
    "declarer_success": "share of played contracts in which the declarer gained",
    "payment_spread": "mean absolute net payment of a seat in a deal",
}
