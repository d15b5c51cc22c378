"""What `compare` writes: a table on stdout, and in its folder a Markdown and an HTML report, PNG charts, CSV
and JSON; each says the package's version and each variant's ruleset digest."""
from __future__ import annotations

import csv
import json
import os

from ..errors import OmbreError
from ..outfile import open_output
from . import sections
from .charts import contract_colours, write_charts
from .doc import Doc, html_page, markdown
from .stats import GLOSSARY

table = sections.text_table


def _num(x: float) -> float:
    return round(x, 6)


def flat_rows(results: dict[str, dict], paired: dict[str, dict]) -> list[list]:
    """The numbers as rows: variant, metric, key, value, 95% low, 95% high, p, p (Holm)."""
    rows: list[list] = []
    for v, m in results.items():
        rows.append([v, "deals", "", m["deals"], "", "", "", ""])
        for name in ("pass_out_rate", "declarer_success", "WinnerShare"):
            d = m[name]
            rows.append([v, name, "", _num(d["rate"]), _num(d["ci"][0]), _num(d["ci"][1]), "", ""])
        for group in ("contract_mix", "outcomes", "declarer_success_by_contract"):
            for k, d in m[group].items():
                rows.append([v, group, k, _num(d["rate"]), _num(d["ci"][0]), _num(d["ci"][1]), "", ""])
        for name in ("declarer_payment", "declarer_payment_per_deal", "Duration", "LeadChange", "Drama",
                     "DecisionMoves", "AdvantageP1"):
            d = m[name]
            rows.append([v, name, "mean", _num(d["mean"]), _num(d["ci"][0]), _num(d["ci"][1]), "", ""])
        b = m["Balance"]
        rows.append([v, "Balance", "", _num(b["value"]), _num(b["ci"][0]), _num(b["ci"][1]), "", ""])
        for group in ("position_payment", "seat_payment"):
            for k, d in enumerate(m[group]):
                rows.append([v, group, k, _num(d["mean"]), _num(d["ci"][0]), _num(d["ci"][1]), "", ""])
        for k, w in enumerate(m["position_win_rate"]):
            rows.append([v, "position_win_rate", k, _num(w), "", "", "", ""])
        for name in ("Drawishness", "DurationTricks", "payment_spread", "payment_sd", "pool_net"):
            rows.append([v, name, "", _num(m[name]), "", "", "", ""])
    for v, d in paired.items():
        tests = [("difference", k, t) for k, t in d["measures"].items() if t["pairs"]]
        tests += [("difference_position", k, t) for k, t in d["positions"].items()]
        tests += [("difference_contract_share", "passed out" if k is None else k, t)
                  for k, t in d["contract_shares"].items()]
        tests += [("difference", "declarer_success", d["declarer_success"])]
        tests += [("difference", "Balance", d["Balance"])] if "Balance" in d else []
        for group, k, t in tests:
            rows.append([v, group, k, _num(t.get("mean", t.get("value"))), _num(t["ci"][0]), _num(t["ci"][1]),
                         _num(t["p"]), _num(t["p_holm"])])
        rows += [[v, "deals_differing", what, d["deals_differing"][what], "", "", "", ""]
                 for what in ("play", "result")]
    return rows


def _intro(doc: Doc, a: dict, meta: dict) -> None:
    played = ", ".join(f"{v} {n:,}" for v, n in meta["played"].items())
    stop = " The run was interrupted: the figures cover the deals actually played." if meta["interrupted"] else ""
    same = all(d["same_deals"]["alike"] == d["same_deals"]["checked"] for d in a["paired"].values())
    seeds = ("Deal i has the same seed, and so the same cards, in every variant (common random numbers)" if same else
             "Deal i has the same seed in every variant (common random numbers); not every variant deals the same "
             "cards from it (see the differences)")
    digests = ", ".join(f"{v} {h}" for v, h in a["digests"].items())
    doc.p(f"ombre_rules {meta['version']}; ruleset digests: {digests}. Deals asked for per variant: {meta['deals']:,}; "
          f"played: {played}.{stop} Seed {meta['seed']}; players by seat: {meta['players']}. {seeds}; deal i is "
          "dealt by seat i mod players (seats are numbered from 0, as in logs and records; positions are named "
          "from the dealer: forehand plays first, the dealer last); each deal starts with an empty pool. "
          "Intervals are 95%: Wilson for shares, normal for means, BCa bootstrap for Balance.")


def document(a: dict, meta: dict, charts: list[tuple[str, str]]) -> Doc:
    """The report's blocks: warnings first, then the summary, the bots, the paired differences, the contracts,
    a swept option's trend, coverage, details, charts and the metrics' definitions."""
    doc = Doc("Variant comparison")
    if a["warnings"]:
        doc.items(a["warnings"], strong=True)
    _intro(doc, a, meta)
    doc.table(*sections.headline(a["variants"]))
    doc.table(*sections.play_table(a["variants"]))
    sections.bots(doc, a)
    sections.differences(doc, a)
    sections.contracts(doc, a)
    if meta.get("sweep"):
        sections.trend(doc, a, meta["sweep"])
    sections.coverage(doc, a)
    sections.details(doc, a, meta["players_by_variant"])
    if charts:
        doc.h("Charts")
        for name, question in charts:
            doc.image(name, question)
    doc.h("Metrics")
    doc.items([f"{k}: {v}" for k, v in GLOSSARY.items()])
    return doc


def write(a: dict, meta: dict, folder: str) -> list[str]:
    """Write the reports, charts, CSV and JSON into `folder` (`-`: the Markdown report on standard output);
    the files written."""
    if folder == "-":
        with open_output("-") as f:
            f.write(markdown(document(a, meta, [])))
        return []
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise OmbreError(f"cannot write to '{folder}': {e.strerror or e}") from None
    names = [c for m in a["variants"].values() for c in m["contract_mix"]]
    colours = contract_colours(list(dict.fromkeys(a["contract_order"] + names)))
    pngs = write_charts(a["variants"], a["paired"], colours, folder, meta.get("sweep"))
    with open_output(os.path.join(folder, "metrics.json")) as f:
        parts = ("variants", "coverage", "players", "paired", "warnings", "bots", "digests", "tests")
        json.dump({"meta": meta, **{k: _keys(a[k]) for k in parts}}, f, indent=1)
        f.write("\n")
    with open_output(os.path.join(folder, "metrics.csv")) as f:
        w = csv.writer(f)
        w.writerow(["variant", "metric", "key", "value", "ci95_low", "ci95_high", "p", "p_holm"])
        w.writerows(flat_rows(a["variants"], a["paired"]))
    doc = document(a, meta, pngs)
    with open_output(os.path.join(folder, "report.md")) as f:
        f.write(markdown(doc))
    with open_output(os.path.join(folder, "report.html")) as f:
        f.write(html_page(doc, folder))
    return ["report.md", "report.html", "metrics.json", "metrics.csv"] + [p for p, _q in pngs]


def _keys(x):
    """A structure with JSON's keys: None (a deal passed out, as a contract) spelt as the reports spell it."""
    if isinstance(x, dict):
        return {("passed out" if k is None else k): _keys(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_keys(v) for v in x]
    return x
