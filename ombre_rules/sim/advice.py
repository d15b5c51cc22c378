"""The warnings of a comparison, each with advice only where the advice can help: a rule by which the
variants differ that their deals barely reached, and two variants whose deals nearly always end alike.

What would help is measured, not guessed: how many deals at this rate would reach the rule `least` times,
and whether random players reach it (or make the variants' deals differ) more often, in PROBE_DEALS random
deals of the same seeds. A rule single deals can never reach (a session's rules) is said to be out of a
comparison's reach, with no advice; one that random play does not reach either is said to be perhaps
unreachable with these options (another option may switch it off)."""
from __future__ import annotations

import math
from typing import Any

from .coverage import SESSION_LABEL, Coverage, differing, has_rule, reach_of
from .runner import play_deal

PROBE_DEALS = 400  # random deals played to see whether random players would reach what the run barely did


def _random_lines(run: Any, seed: int) -> list[dict]:
    names = ["random"] * run.rules.players
    return [play_deal(run.rules, names, seed, i) for i in range(PROBE_DEALS)]


class Probe:
    """Random deals of the compared variants, played the first time they are asked for."""

    def __init__(self, runs: list[Any], seed: int) -> None:
        self.runs = {r.name: r for r in runs}
        self.seed = seed
        self.lines: dict[str, list[dict]] = {}

    def of(self, variant: str) -> list[dict]:
        got = self.lines.get(variant)
        if got is None:
            got = self.lines[variant] = _random_lines(self.runs[variant], self.seed)
        return got

    def random_already(self, variant: str) -> bool:
        return all(p == "random" for p in self.runs[variant].players)


def _more_deals(k: int, n: int, least: int) -> str:
    """How many deals at this rate would reach a rule `least` times."""
    return f"about {math.ceil(least * n / k):,} deals would reach it {least} times at this rate"


def rule_warning(label: str, k: int, n: int, name: str, v0: str, v: str, least: int, probe: Probe,
                 test, share: dict | None = None) -> str:
    """The warning about a rule reached in k of n deals of `name`, with the advice that can help; `share`: the
    paired difference of the contract's share when the rule is a contract."""
    if label == SESSION_LABEL:
        return (f"session rules differ between {v0} and {v} — compare plays single deals, each with an empty pool "
                "and nothing carried from deal to deal, so it does not measure them")
    head = f"{label}: reached in {k:,} of {n:,} deals of {name} (it differs between {v0} and {v})"
    says = f"this comparison says {'nothing' if k == 0 else 'little'} about it"
    if share is not None and share["significant"]:
        says = (f"its share changes by {100 * share['mean']:+.1f} pp (significant after Holm), but this comparison "
                f"says little about how it plays and pays in {name}")
    advice = []
    if k:
        advice.append(_more_deals(k, n, least))
    if not probe.random_already(name):
        c = Coverage()
        for x in probe.of(name):
            c.add(x)
        kr = c.count(test)
        if kr and kr / PROBE_DEALS > k / n:
            advice.append(f"random players reach it in {kr:,} of {PROBE_DEALS:,} deals (--players random)")
        elif not k and not kr:
            advice.append(f"random players did not reach it in {PROBE_DEALS:,} deals either: with these options it "
                          "may not be reachable")
    elif not k:
        advice.append("with these options it may not be reachable")
    return f"{head} — {says}" + ("; " + "; ".join(advice) if advice else "")


def alike_warning(v: str, base: str, d: dict, probe: Probe, least: int, session_only: bool) -> str:
    """The warning about two variants whose deals, dealt alike, nearly always end alike (`session_only`: they
    differ in session rules alone)."""
    k, n = d["result"], d["pairs"]
    if session_only:
        return (f"{v} and {base} differ only in session rules, which compare's single deals do not reach: their "
                f"{n:,} deals end {'alike' if not k else f'differently in {k:,}'}")
    head = (f"{v} and {base} end alike in all {n:,} deals dealt alike — this comparison says nothing about what "
            "sets them apart" if k == 0 else
            f"{v} and {base} end differently in only {k:,} of {n:,} deals dealt alike — this comparison says "
            "little about what sets them apart")
    advice = [_more_deals(k, n, least).replace("reach it", "end differently")] if k else []
    if not (probe.random_already(v) and probe.random_already(base)):
        a, b = probe.of(base), probe.of(v)
        kr = sum((x["outcome"], x["payments"]) != (y["outcome"], y["payments"]) for x, y in zip(a, b, strict=True))
        if kr and kr / PROBE_DEALS > k / n:
            advice.append(f"with random players {kr:,} of {PROBE_DEALS:,} deals end differently (--players random)")
        elif not k and not kr:
            advice.append(f"so do {PROBE_DEALS:,} deals with random players: the rules by which they differ may not "
                          "be reachable with these options")
    return head + ("; " + "; ".join(advice) if advice else "")


def warnings(runs: list[Any], paired: dict[str, dict], seed: int, least: int) -> list[str]:
    """Plain warnings: one per rule by which a variant differs from the first and that some variant having it
    reached in fewer than `least` deals; one per variant whose deals, dealt alike, end alike in fewer than
    `least` deals."""
    if len(runs) < 2:
        return []
    probe = Probe(runs, seed)
    out: list[str] = []
    seen: set[str] = set()
    r0 = runs[0]
    v0 = r0.name
    for r in runs[1:]:
        v = r.name
        for p in differing(r0.rules, r.rules):
            having = [x for x in runs if has_rule(x.rules, p)]
            reach = reach_of(p, (r.rules if has_rule(r.rules, p) else r0.rules).spec.data)
            if reach.label in seen:
                continue
            k, n, name = min((x.coverage.count(reach.test), x.coverage.deals, x.name) for x in having)
            if k < least:
                seen.add(reach.label)
                share = paired[v]["contract_shares"].get(p[1]) if p[0] == "contracts" and len(p) > 1 else None
                out.append(rule_warning(reach.label, k, n, name, v0, v, least, probe, reach.test, share))
    for r in runs[1:]:
        d = paired[r.name]
        dd = d["deals_differing"]
        if dd["result"] < least and d["same_deals"]["alike"]:
            paths = differing(r0.rules, r.rules)
            session_only = bool(paths) and all(reach_of(p, r.rules.spec.data).label == SESSION_LABEL for p in paths)
            out.append(alike_warning(r.name, v0, dd, probe, least, session_only))
    return out
