"""Outcome statistics of a run of deals, with 95% confidence intervals. Metric names follow Ludii and
CardStock where they mean the same thing: Duration, Decisiveness, Drawishness, Balance, AdvantageP1."""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable

from ..engine.settle import PASSED_OUT

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



def position_names(players: int) -> list[str]:
    """Names of the positions relative to the dealer, in the order of play: forehand first, the dealer last.

    >>> position_names(3)
    ['forehand', '2nd after the dealer', 'dealer']
    """
    return ["forehand"] + [f"{k}{_th(k)} after the dealer" for k in range(2, players)] + ["dealer"]


def _th(k: int) -> str:
    return {2: "nd", 3: "rd"}.get(k, "th")


def _leaders(winners: list[int], players: int) -> list[tuple[int, ...]]:
    """After each trick, the seats with the most tricks so far."""
    tricks = [0] * players
    out = []
    for w in winners:
        tricks[w] += 1
        top = max(tricks)
        out.append(tuple(s for s in range(players) if tricks[s] == top))
    return out


def lead_change(x: dict, players: int) -> float:
    """Share of a deal's tricks after the first at which the seats leading in tricks changed (LeadChange)."""
    lead = _leaders(x["winners"], players)
    if len(lead) < 2:
        return 0.0
    return sum(1 for a, b in zip(lead, lead[1:], strict=False) if a != b) / (len(lead) - 1)


def drama(x: dict, players: int) -> float:
    """Share of a deal's tricks before the last after which a seat that ends with a net loss led alone in
    tricks (Drama)."""
    lead = _leaders(x["winners"], players)[:-1]
    if not lead:
        return 0.0
    return sum(1 for ld in lead if len(ld) == 1 and x["payments"][ld[0]] < 0) / len(lead)


def win_score(p: int) -> float:
    """A seat's result in a deal: 1 for a net gain, 0.5 for none, 0 for a loss."""
    return 1.0 if p > 0 else 0.5 if p == 0 else 0.0


def per_deal(x: dict, players: int) -> dict[str, float | None]:
    """A deal's own value of each metric that is a mean over deals (used for paired differences); None where
    the metric counts played deals only and this one was passed out."""
    pos = [0.0] * players
    pay = [0.0] * players
    for seat, p in enumerate(x["payments"]):
        k = (seat - x["dealer"] - 1) % players
        pos[k] = win_score(p)
        pay[k] = p
    played = x["contract"] is not None
    out: dict[str, float | None] = {"pass_out_rate": float(not played),
           "declarer_won": float(played and x["payments"][x["declarer"]] > 0),
           "declarer_payment": float(x["payments"][x["declarer"]]) if played else None,
           "Decisiveness": float(max(x["payments"]) > 0),
           "AdvantageP1": pos[0],
           "Duration": float(x["actions"]),
           "LeadChange": lead_change(x, players) if played else None,
           "Drama": drama(x, players) if played else None,
           "DecisionMoves": x["choices"] / x["decisions"] if x["decisions"] else 0.0}
    for k in range(players):
        out[f"payment_position_{k}"] = pay[k]
    return out


def balance(scores: list[list[float]]) -> float:
    """1 minus the gap between the best and the worst position's win rate, from per-deal position scores."""
    n = len(scores)
    if not n:
        return 0.0
    rates = [sum(col) / n for col in zip(*scores, strict=True)]
    return 1.0 - (max(rates) - min(rates))


def bootstrap_ci(values: Callable[[list[int]], float], n: int, rounds: int = 300, seed: int = 0) -> list[float]:
    """A 95% percentile interval of a statistic of n deals, resampling the deals (seeded)."""
    rng = random.Random(seed)
    stats = sorted(values([rng.randrange(n) for _ in range(n)]) for _ in range(rounds))
    return [stats[int(0.025 * rounds)], stats[min(rounds - 1, int(0.975 * rounds))]]


def by_player(lines: list[dict], names: list[str]) -> dict[str, dict]:
    """Per player name (a mixed table seats several kinds), its mean net payment over the deals and seats it
    played, and its win rate (no payment counts half)."""
    out = {}
    for nm in dict.fromkeys(names):
        seats = [k for k, x in enumerate(names) if x == nm]
        pays = [x["payments"][k] for x in lines for k in seats]
        out[nm] = {"seats": seats, **mean_ci(pays), "win_rate": sum(win_score(p) for p in pays) / len(pays)
                   if pays else 0.0}
        dd = [x["double_dummy"] for x in lines if "double_dummy" in x]
        if dd:
            measured = [d for d in dd if d is not None]
            out[nm]["double_dummy"] = {
                "measured": len(measured), "skipped": len(dd) - len(measured),
                "measure": sorted({d["measure"] for d in measured}),
                "lost_per_deal": mean_ci([sum(d["lost"][k] for k in seats) / len(seats) for d in measured])}
    return out


def metrics(lines: list[dict], players: int) -> dict:
    """The statistics of one variant's deals (result lines of a run)."""
    n = len(lines)
    played = [x for x in lines if x["contract"] is not None]
    contracts = Counter(x["contract"] or PASSED_OUT for x in lines)
    outcomes = Counter(x["outcome"] for x in lines)
    success: dict[str, dict] = {}
    for c in sorted({x["contract"] for x in played}):
        mine = [x for x in played if x["contract"] == c]
        wins = sum(1 for x in mine if x["payments"][x["declarer"]] > 0)
        success[c] = share(wins, len(mine))
    all_won = sum(1 for x in played if x["payments"][x["declarer"]] > 0)
    decl_pay = [x["payments"][x["declarer"]] for x in played]
    deals = [per_deal(x, players) for x in lines]
    scores = [[win_score(x["payments"][(x["dealer"] + 1 + k) % players]) for k in range(players)] for x in lines]
    win_rate = [sum(s[k] for s in scores) / n if n else 0.0 for k in range(players)]
    by_seat = [mean_ci([x["payments"][k] for x in lines]) for k in range(players)]
    decisive = sum(1 for x in lines if max(x["payments"]) > 0)
    drawn = n - len(played)
    all_pay = [p for x in lines for p in x["payments"]]
    bal = balance(scores)
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
        "position_payment": [mean_ci([d[f"payment_position_{k}"] for d in deals]) for k in range(players)],
        "position_win_rate": win_rate,
        "seat_payment": by_seat,
        "pool_net": sum(x["pool_after"] - x["pool_before"] for x in lines) / n if n else 0.0,
        "AdvantageP1": {"value": win_rate[0] if players else 0.0, **mean_ci([d["AdvantageP1"] for d in deals])},
        "Balance": {"value": bal, "ci": bootstrap_ci(lambda idx: balance([scores[i] for i in idx]), n) if n else
                    [0.0, 0.0]},
        "Decisiveness": share(decisive, n),
        "Drawishness": drawn / n if n else 0.0,
        "Duration": mean_ci([x["actions"] for x in lines]),
        "DurationTricks": mean_sd([sum(x["tricks"]) for x in lines])[0],
        "LeadChange": mean_ci([d["LeadChange"] for d in deals if d["LeadChange"] is not None]),
        "Drama": mean_ci([d["Drama"] for d in deals if d["Drama"] is not None]),
        "DecisionMoves": mean_ci([d["DecisionMoves"] for d in deals]),
    }


GLOSSARY = {
    "Duration": "mean number of actions in a deal (bids, exchanges, cards), with its 95% interval (Ludii: "
                "Duration)",
    "DurationTricks": "mean number of tricks played in a deal",
    "Decisiveness": "share of deals in which some seat gains (a net payment above zero)",
    "Drawishness": "share of deals passed out (nobody plays)",
    "Balance": "1 minus the gap between the best and the worst position's win rate (a win: a net gain; no "
               "payment counts half); its interval resamples the deals (Ludii: Balance)",
    "AdvantageP1": "win rate of forehand, the first seat after the dealer (no payment counts half; Ludii: "
                   "AdvantageP1)",
    "LeadChange": "in a played deal, the share of tricks after the first at which the set of seats with the most "
                  "tricks so far changed; mean over played deals (Ludii: LeadChange)",
    "Drama": "in a played deal, the share of tricks before the last after which a seat that ends the deal with a "
             "net loss had the most tricks alone: how often the eventual loser led; mean over played deals "
             "(Ludii: Drama)",
    "DecisionMoves": "share of a deal's decisions at which the seat to move had more than one legal action; mean "
                     "over deals (Ludii: DecisionMoves)",
    "pass_out_rate": "share of deals in which every seat passed and no contract was played",
    "declarer_success": "share of played contracts in which the declarer gained",
    "payment_spread": "mean absolute net payment of a seat in a deal",
}
