"""What `compare` writes: a table on stdout, and in its folder a Markdown and an HTML report, PNG charts, CSV
and JSON."""
from __future__ import annotations

import csv
import json
import os

from ..errors import OmbreError
from ..outfile import open_output
from .charts import contract_colours, write_charts
from .doc import Doc, html_page, markdown
from .paired import PAIRED
from .stats import GLOSSARY, position_names


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(d: dict) -> str:
    lo, hi = d["ci"]
    return f"{_pct(d['rate'])} [{_pct(lo)}, {_pct(hi)}]"


def _mean(d: dict, fmt: str = "+.2f") -> str:
    return f"{d['mean']:{fmt}} [{d['ci'][0]:{fmt}}, {d['ci'][1]:{fmt}}]"


def table(results: dict[str, dict]) -> str:
    """The summary table, one row per variant."""
    head = ["variant", "deals", "passed out", "declarer wins", "decl. payment", "Balance", "AdvantageP1",
            "Decisiveness", "Duration", "LeadChange", "Drama", "DecisionMoves"]
    rows = [head]
    for v, m in results.items():
        dp = m["declarer_payment"]
        rows.append([v, str(m["deals"]), _pct(m["pass_out_rate"]["rate"]), _ci(m["declarer_success"]),
                     f"{dp['mean']:+.2f} (sd {dp['sd']:.1f})", f"{m['Balance']['value']:.3f}",
                     f"{m['AdvantageP1']['value']:.3f}", f"{m['Decisiveness']['rate']:.3f}",
                     f"{m['Duration']['mean']:.1f}", f"{m['LeadChange']['mean']:.3f}", f"{m['Drama']['mean']:.3f}",
                     f"{m['DecisionMoves']['mean']:.3f}"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows)


def _num(x: float) -> float:
    return round(x, 6)


def flat_rows(results: dict[str, dict], paired: dict[str, dict]) -> list[list]:
    """The numbers as rows: variant, metric, key, value, 95% low, 95% high."""
    rows: list[list] = []
    for v, m in results.items():
        rows.append([v, "deals", "", m["deals"], "", ""])
        for name in ("pass_out_rate", "declarer_success", "Decisiveness"):
            d = m[name]
            rows.append([v, name, "", _num(d["rate"]), _num(d["ci"][0]), _num(d["ci"][1])])
        for group in ("contract_mix", "outcomes", "declarer_success_by_contract"):
            for k, d in m[group].items():
                rows.append([v, group, k, _num(d["rate"]), _num(d["ci"][0]), _num(d["ci"][1])])
        for name in ("declarer_payment", "Duration", "LeadChange", "Drama", "DecisionMoves", "AdvantageP1"):
            d = m[name]
            rows.append([v, name, "mean", _num(d["mean"]), _num(d["ci"][0]), _num(d["ci"][1])])
        rows.append([v, "Balance", "", _num(m["Balance"]["value"]), _num(m["Balance"]["ci"][0]),
                     _num(m["Balance"]["ci"][1])])
        for group in ("position_payment", "seat_payment"):
            for k, d in enumerate(m[group]):
                rows.append([v, group, k, _num(d["mean"]), _num(d["ci"][0]), _num(d["ci"][1])])
        for k, w in enumerate(m["position_win_rate"]):
            rows.append([v, "position_win_rate", k, _num(w), "", ""])
        for name in ("Drawishness", "DurationTricks", "payment_spread", "payment_sd", "pool_net"):
            rows.append([v, name, "", _num(m[name]), "", ""])
    for v, diffs in paired.items():
        for k, d in diffs.items():
            if k == "deals_differing":
                rows += [[v, "deals_differing", what, d[what], "", ""] for what in ("play", "result")]
                continue
            rows.append([v, "difference", k, _num(d["mean"]), _num(d["ci"][0]), _num(d["ci"][1])])
    return rows


def _intro(doc: Doc, a: dict, meta: dict) -> None:
    played = ", ".join(f"{v} {n:,}" for v, n in meta["played"].items())
    stop = " The run was interrupted: the figures cover the deals actually played." if meta["interrupted"] else ""
    doc.p(f"Deals asked for per variant: {meta['deals']:,}; played: {played}.{stop} Seed {meta['seed']}; players "
          f"by seat: {meta['players']}. Deal i has the same seed in every variant (common random numbers); it is "
          "dealt by seat i mod players (seats are numbered from 0, as in logs and records; positions are named "
          "from the dealer: forehand plays first, the dealer last); each deal starts with an empty pool. "
          "Intervals are 95%: Wilson for shares, normal for means, resampled deals for Balance.")


def _differences(doc: Doc, a: dict) -> None:
    if not a["paired"]:
        return
    base = next(iter(a["variants"]))
    doc.h(f"Differences from {base}")
    doc.p("Each variant minus the first, deal by deal over the deals both played (paired); the interval is the "
          "paired 95% interval; * marks a difference whose interval excludes 0.")
    rows = []
    for k, label in list(PAIRED.items()) + [("Balance", "Balance")]:
        for v, diffs in a["paired"].items():
            d = diffs.get(k)
            if d is None or not d["pairs"] or k == "deals_differing":
                continue
            scale = 1 if k in ("Duration", "declarer_payment") else 100
            unit = "" if scale == 1 else " pp"
            rows.append([label, v, f"{scale * d['mean']:+.2f}{unit} [{scale * d['ci'][0]:+.2f}, "
                         f"{scale * d['ci'][1]:+.2f}]", "*" if d["significant"] else "", f"{d['pairs']:,}"])
    doc.table(["metric", "variant", "difference [95%]", "excludes 0", "pairs"], rows)
    doc.p("Deals dealt alike that went differently: " + "; ".join(
        f"{v}: play differs in {d['deals_differing']['play']:,}, the result in {d['deals_differing']['result']:,} "
        f"of {d['deals_differing']['pairs']:,}" for v, d in a["paired"].items()) + ".")


def _coverage(doc: Doc, a: dict) -> None:
    doc.h("Rule coverage")
    doc.p("How many deals reached each rule of each variant. A contract is reached when it is played, an outcome "
          "when a deal ends with it, the all-pass rule when every seat passed the first round, a mechanic when it "
          "was offered (legal at some decision) and when it was taken; an option's rules are what its choices' "
          "patches set and the expressions that read it (opt.NAME).")
    for v, cov in a["coverage"].items():
        n = cov["deals"]
        rows = [[f"contract {c}", f"{k:,}", _pct(k / n) if n else "-"] for c, k in cov["contracts"].items()]
        rows += [[f"outcome {o}", f"{k:,}", _pct(k / n) if n else "-"] for o, k in cov["outcomes"].items()]
        ap = cov["all_pass"]
        rows.append([f"all-pass rule ({ap['rule']})", f"{ap['reached']:,}", _pct(ap["reached"] / n) if n else "-"])
        cl = cov["claims"]
        rows.append(["claim offered / taken", f"{cl['offered']:,} / {cl['taken']:,}", ""])
        rows += [[f"{name} offered / taken", f"{d['offered']:,} / {d['taken']:,}", ""]
                 for name, d in cov["mechanics"].items()]
        for opt, reach in cov["options"].items():
            rows += [[f"option {opt}: {label}", f"{k:,}", _pct(k / n) if n else "-"] for label, k in reach.items()]
        doc.p(f"{v} ({n:,} deals):")
        doc.table(["rule", "deals", "share"], rows)


def _details(doc: Doc, a: dict, players: dict[str, list[str]]) -> None:
    for v, m in a["variants"].items():
        kinds = a["players"][v]
        doc.h(v)
        rows = []
        for c, d in m["contract_mix"].items():
            ds = m["declarer_success_by_contract"].get(c)
            rows.append([c, _ci(d), _ci(ds) if ds else "-"])
        doc.table(["contract", "share", "declarer wins"], rows)
        doc.table(["outcome", "share"], [[o, _ci(d)] for o, d in m["outcomes"].items()])
        names = position_names(len(m["position_payment"]))
        doc.table(["position", "mean payment", "win rate"],
                  [[names[k], _mean(d), _pct(w)] for k, (d, w) in
                   enumerate(zip(m["position_payment"], m["position_win_rate"], strict=True))])
        doc.table(["seat", "player", "mean payment"],
                  [[str(k), players[v][k], _mean(d)] for k, d in enumerate(m["seat_payment"])])
        if len(kinds) > 1:
            doc.p("A mixed table: each player's results over the seats it held (every seat plays every position "
                  "in turn, as the dealer moves round).")
            doc.table(["player", "seats", "mean payment", "win rate"],
                      [[nm, ", ".join(map(str, d["seats"])), _mean(d), _pct(d["win_rate"])]
                       for nm, d in kinds.items()])
        dd = [(nm, d["double_dummy"]) for nm, d in kinds.items() if "double_dummy" in d]
        if dd:
            doc.p("Double-dummy (--double-dummy): what a player's cards lost against the best play with every hand "
                  "open, from the first card of each deal, in the variant's measure (tricks, or card points), "
                  "per deal and seat it held; a deal whose search passed its node limit is skipped.")
            doc.table(["player", "measure", "lost per deal", "deals measured", "skipped"],
                      [[nm, ", ".join(d["measure"]) or "-", _mean(d["lost_per_deal"], ".3f"), str(d["measured"]),
                        str(d["skipped"])] for nm, d in dd])
        dp = m["declarer_payment"]
        doc.p(f"Declarer's payment: mean {_mean(dp)}, sd {dp['sd']:.2f}; a seat's mean absolute payment "
              f"{m['payment_spread']:.2f} (sd {m['payment_sd']:.2f}); the pool gains {m['pool_net']:+.2f} a deal "
              f"on average, which the seats' payments lack. Duration {_mean(m['Duration'], '.1f')} actions, "
              f"{m['DurationTricks']:.1f} tricks.")


def document(a: dict, meta: dict, charts: list[tuple[str, str]]) -> Doc:
    """The report's blocks: warnings first, then the summary, the paired differences, coverage, details,
    charts and the metrics' definitions."""
    doc = Doc("Variant comparison")
    if a["warnings"]:
        doc.items(a["warnings"], strong=True)
    _intro(doc, a, meta)
    doc.pre(table(a["variants"]))
    _differences(doc, a)
    _coverage(doc, a)
    _details(doc, a, meta["players_by_variant"])
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
    pngs = write_charts(a["variants"], a["paired"], colours, folder)
    with open_output(os.path.join(folder, "metrics.json")) as f:
        parts = ("variants", "coverage", "players", "paired", "warnings")
        json.dump({"meta": meta, **{k: a[k] for k in parts}}, f, indent=1)
        f.write("\n")
    with open_output(os.path.join(folder, "metrics.csv")) as f:
        w = csv.writer(f)
        w.writerow(["variant", "metric", "key", "value", "ci95_low", "ci95_high"])
        w.writerows(flat_rows(a["variants"], a["paired"]))
    doc = document(a, meta, pngs)
    with open_output(os.path.join(folder, "report.md")) as f:
        f.write(markdown(doc))
    with open_output(os.path.join(folder, "report.html")) as f:
        f.write(html_page(doc, folder))
    return ["report.md", "report.html", "metrics.json", "metrics.csv"] + [p for p, _q in pngs]
