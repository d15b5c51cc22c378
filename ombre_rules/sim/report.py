"""What `compare` writes: a table on stdout, and in its folder a Markdown report, PNG charts, CSV and JSON."""
from __future__ import annotations

import csv
import json
import os

from ..errors import OmbreError
from .stats import GLOSSARY


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(d: dict) -> str:
    lo, hi = d["ci"]
    return f"{_pct(d['rate'])} [{_pct(lo)}, {_pct(hi)}]"


def table(results: dict[str, dict]) -> str:
    """The summary table, one row per variant."""
    head = ["variant", "deals", "pass-out", "declarer wins", "decl. payment", "Balance", "AdvantageP1",
            "Decisiveness", "Duration"]
    rows = [head]
    for v, m in results.items():
        dp = m["declarer_payment"]
        rows.append([v, str(m["deals"]), _pct(m["pass_out_rate"]["rate"]), _ci(m["declarer_success"]),
                     f"{dp['mean']:+.2f} (sd {dp['sd']:.1f})", f"{m['Balance']:.3f}", f"{m['AdvantageP1']:.3f}",
                     f"{m['Decisiveness']:.3f}", f"{m['Duration']['mean']:.1f}"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows)


def flat_rows(results: dict[str, dict]) -> list[list]:
    """The numbers as rows: variant, metric, key, value, 95% low, 95% high."""
    rows: list[list] = []
    for v, m in results.items():
        rows.append([v, "deals", "", m["deals"], "", ""])
        for name in ("pass_out_rate", "declarer_success"):
            d = m[name]
            rows.append([v, name, "", round(d["rate"], 6), round(d["ci"][0], 6), round(d["ci"][1], 6)])
        for group in ("contract_mix", "outcomes", "declarer_success_by_contract"):
            for k, d in m[group].items():
                rows.append([v, group, k, round(d["rate"], 6), round(d["ci"][0], 6), round(d["ci"][1], 6)])
        for name in ("declarer_payment", "Duration"):
            d = m[name]
            rows.append([v, name, "mean", round(d["mean"], 6), round(d["ci"][0], 6), round(d["ci"][1], 6)])
            rows.append([v, name, "sd", round(d["sd"], 6), "", ""])
        for pos, d in enumerate(m["position_payment"]):
            rows.append([v, "position_payment", pos, round(d["mean"], 6), round(d["ci"][0], 6),
                         round(d["ci"][1], 6)])
        for pos, w in enumerate(m["position_win_rate"]):
            rows.append([v, "position_win_rate", pos, round(w, 6), "", ""])
        for name in ("Balance", "AdvantageP1", "Decisiveness", "Drawishness", "DurationTricks", "payment_spread",
                     "payment_sd"):
            rows.append([v, name, "", round(m[name], 6), "", ""])
    return rows


def markdown(results: dict[str, dict], meta: dict, charts: list[str]) -> str:
    out = ["# Variant comparison", "",
           f"Deals per variant: {meta['deals']}; seed {meta['seed']}; players {', '.join(meta['players'])}. "
           "Deal i has the same seed in every variant (common random numbers); dealer i mod players; "
           "each deal starts with an empty pool. Intervals are 95% (Wilson for shares, normal for means).", "",
           "```", table(results), "```", ""]
    for v, m in results.items():
        out += [f"## {v}", "", "| contract | share | declarer wins |", "|---|---|---|"]
        for c, d in m["contract_mix"].items():
            ds = m["declarer_success_by_contract"].get(c)
            out.append(f"| {c} | {_ci(d)} | {_ci(ds) if ds else '-'} |")
        out += ["", "| outcome | share |", "|---|---|"]
        out += [f"| {o} | {_ci(d)} |" for o, d in m["outcomes"].items()]
        out += ["", "| position (0 = forehand) | mean payment | win rate |", "|---|---|---|"]
        for pos, (d, w) in enumerate(zip(m["position_payment"], m["position_win_rate"], strict=True)):
            out.append(f"| {pos} | {d['mean']:+.2f} [{d['ci'][0]:+.2f}, {d['ci'][1]:+.2f}] | {_pct(w)} |")
        dp = m["declarer_payment"]
        out += ["", f"Declarer's payment: mean {dp['mean']:+.2f} [{dp['ci'][0]:+.2f}, {dp['ci'][1]:+.2f}], "
                f"sd {dp['sd']:.2f}; a seat's mean absolute payment {m['payment_spread']:.2f} "
                f"(sd {m['payment_sd']:.2f}). Duration {m['Duration']['mean']:.1f} actions, "
                f"{m['DurationTricks']:.1f} tricks.", ""]
    if charts:
        out += ["## Charts", ""] + [f"![{c}]({c})" for c in charts] + [""]
    out += ["## Metrics", ""] + [f"- **{k}**: {v}" for k, v in GLOSSARY.items()] + [""]
    return "\n".join(out)


def charts(results: dict[str, dict], folder: str) -> list[str]:
    """PNG charts (with matplotlib, the 'plot' extra); the file names written, none without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    names = list(results)
    written = []

    fig, ax = plt.subplots(figsize=(8, 4.5))
    labels = sorted({c for m in results.values() for c in m["contract_mix"]})
    bottom = [0.0] * len(names)
    for c in labels:
        vals = [results[v]["contract_mix"].get(c, {"rate": 0.0})["rate"] for v in names]
        ax.bar(names, vals, bottom=bottom, label=c)
        bottom = [b + x for b, x in zip(bottom, vals, strict=True)]
    ax.set_ylabel("share of deals")
    ax.set_title("Contract mix")
    ax.legend(fontsize="small", ncol=2)
    written.append(_save(fig, folder, "contract_mix.png", plt))

    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs, ys, lo, hi, ticks = [], [], [], [], []
    for v in names:
        for c, d in results[v]["declarer_success_by_contract"].items():
            xs.append(len(xs))
            ys.append(d["rate"])
            lo.append(d["rate"] - d["ci"][0])
            hi.append(d["ci"][1] - d["rate"])
            ticks.append(f"{v}\n{c}")
    ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3)
    ax.set_xticks(xs, ticks, fontsize="x-small", rotation=60)
    ax.set_ylim(0, 1)
    ax.set_ylabel("declarer wins (95% interval)")
    ax.set_title("Declarer success by contract")
    written.append(_save(fig, folder, "declarer_success.png", plt))

    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / max(len(names), 1)
    for i, v in enumerate(names):
        pp = results[v]["position_payment"]
        ax.bar([p + i * width for p in range(len(pp))], [d["mean"] for d in pp], width,
               yerr=[[d["mean"] - d["ci"][0] for d in pp], [d["ci"][1] - d["mean"] for d in pp]], label=v)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("seat position (0 = forehand)")
    ax.set_ylabel("mean payment")
    ax.set_title("Advantage by seat position")
    ax.legend(fontsize="small")
    written.append(_save(fig, folder, "position_payment.png", plt))
    return written


def _save(fig, folder: str, name: str, plt) -> str:
    fig.tight_layout()
    fig.savefig(os.path.join(folder, name), dpi=100)
    plt.close(fig)
    return name


def write(results: dict[str, dict], meta: dict, folder: str) -> list[str]:
    """Write the report, charts, CSV and JSON into `folder`; the files written."""
    try:
        os.makedirs(folder, exist_ok=True)
        pngs = charts(results, folder)
        with open(os.path.join(folder, "metrics.json"), "w", encoding="utf-8") as f:
            json.dump({"meta": meta, "variants": results}, f, indent=1)
            f.write("\n")
        with open(os.path.join(folder, "metrics.csv"), "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow(["variant", "metric", "key", "value", "ci95_low", "ci95_high"])
            w.writerows(flat_rows(results))
        with open(os.path.join(folder, "report.md"), "w", encoding="utf-8") as f:
            f.write(markdown(results, meta, pngs))
    except OSError as e:
        raise OmbreError(f"cannot write to '{folder}': {e.strerror or e}") from None
    return ["report.md", "metrics.json", "metrics.csv"] + pngs
