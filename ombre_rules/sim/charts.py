"""The comparison's charts (matplotlib, the 'plot' extra): one question per chart, titled as the question, one
colour per contract in every chart, legends outside the data."""
from __future__ import annotations

import os

from ..outfile import open_output
from .paired import PAIRED
from .stats import PASSED_OUT, position_names

PASSED_OUT_COLOUR = "#9e9e9e"
# differences of these metrics are shares (drawn in percentage points); the others have their own units
_SHARES = ["pass_out_rate", "declarer_won", "Decisiveness", "AdvantageP1", "Balance", "LeadChange", "Drama",
           "DecisionMoves"]
_OWN_UNITS = ["Duration", "declarer_payment"]


def contract_colours(names: list[str]) -> dict[str, str]:
    """A colour per contract (in the order given, the same in every chart), grey for deals passed out."""
    palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
               "#bcbd22", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#e6550d"]
    out = {c: palette[i % len(palette)] for i, c in enumerate(n for n in names if n != PASSED_OUT)}
    out[PASSED_OUT] = PASSED_OUT_COLOUR
    return out


def wrap(name: str, width: int = 22) -> str:
    r"""A variant's name cut into lines of about `width` characters at its option list, for an axis label.

    >>> wrap("game(first_option=one_choice,second_option=another)")
    'game\n(first_option=one_choice,\nsecond_option=another)'
    """
    if len(name) <= width or "(" not in name:
        return name
    head, rest = name.split("(", 1)
    lines, cur = [head], "("
    for part in rest.split(","):
        if cur not in ("(", "") and len(cur) + len(part) > width:
            lines.append(cur + ",")
            cur = ""
        cur += ("," if cur not in ("(", "") else "") + part
    return "\n".join(lines + [cur])


def _plt():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def _save(plt, fig, folder: str, name: str) -> str:
    with open_output(os.path.join(folder, name), binary=True) as f:
        fig.savefig(f, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    return name


def contract_mix(plt, results: dict, colours: dict, folder: str) -> str:
    names = list(results)
    fig, ax = plt.subplots(figsize=(9, 0.6 * len(names) + 1.6))
    left = [0.0] * len(names)
    for c, col in colours.items():
        vals = [results[v]["contract_mix"].get(c, {"rate": 0.0})["rate"] for v in names]
        if any(vals):
            ax.barh(names, vals, left=left, color=col, label=c)
            left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("share of deals")
    ax.set_title("Which contracts are played, and how often?")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", title="contract")
    return _save(plt, fig, folder, "contract_mix.png")


def declarer_success(plt, results: dict, colours: dict, folder: str) -> str:
    names = list(results)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    labelled: set[str] = set()
    cs = [c for c in colours if any(c in results[v]["declarer_success_by_contract"] for v in names)]
    width = 0.8 / max(len(cs), 1)
    for i, v in enumerate(names):
        for j, c in enumerate(cs):
            d = results[v]["declarer_success_by_contract"].get(c)
            if d is None:
                continue
            x = i - 0.4 + width * (j + 0.5)
            ax.errorbar([x], [d["rate"]], yerr=[[d["rate"] - d["ci"][0]], [d["ci"][1] - d["rate"]]], fmt="o",
                        color=colours[c], capsize=3, label=None if c in labelled else c)
            labelled.add(c)
    ax.set_xticks(range(len(names)), [wrap(v) for v in names], fontsize="small")
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of its deals the declarer gains")
    ax.set_title("How often does the declarer win each contract? (95% interval)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", title="contract")
    return _save(plt, fig, folder, "declarer_success.png")


def position_payment(plt, results: dict, folder: str) -> str:
    names = list(results)
    most = max(len(m["position_payment"]) for m in results.values())
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / max(len(names), 1)
    for i, v in enumerate(names):
        pp = results[v]["position_payment"]
        # the dealer is the last position at every table, however many seats it has
        xs = [(p if p < len(pp) - 1 else most - 1) - 0.4 + width * (i + 0.5) for p in range(len(pp))]
        ax.bar(xs, [d["mean"] for d in pp], width,
               yerr=[[d["mean"] - d["ci"][0] for d in pp], [d["ci"][1] - d["mean"] for d in pp]], capsize=3,
               label=v)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(most), position_names(most))
    ax.set_xlabel("position in the order of play (the dealer moves round: deal i is dealt by seat i mod players)")
    ax.set_ylabel("mean net payment per deal")
    ax.set_title("Which position gains most? (mean net payment, 95% interval)")
    pools = ", ".join(f"{v}: {m['pool_net']:+.2f}" for v, m in results.items())
    fig.text(0.01, -0.04, "Antes go into a pool that starts empty each deal; what is still in it when the deal "
             f"ends is lost to the seats, so the seats' payments add up to minus the pool's gain per deal ({pools}).",
             fontsize="small", wrap=True, ha="left", va="top")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", title="variant")
    return _save(plt, fig, folder, "position_payment.png")


def differences(plt, results: dict, paired: dict, folder: str, keys: list[str], scale: float, unit: str,
                name: str, question: str) -> str | None:
    """Paired differences from the first variant of the metrics `keys`, one row each (x `scale`, in `unit`)."""
    others = [v for v in results if v in paired]
    keys = [k for k in keys if any(paired[v].get(k, {}).get("pairs") for v in others)]
    if not others or not keys:
        return None
    base = next(iter(results))
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(keys) * max(1, len(others) / 2) + 1.8))
    height = 0.8 / len(others)
    for i, v in enumerate(others):
        ax.plot([], [], "o", color=f"C{i}", label=v)  # the legend's marker: filled whatever the first point
        for j, k in enumerate(keys):
            d = paired[v].get(k)
            if d is None or not d["pairs"]:
                continue
            y = j - 0.4 + height * (i + 0.5)
            m, lo, hi = scale * d["mean"], scale * d["ci"][0], scale * d["ci"][1]
            ax.errorbar([m], [y], xerr=[[m - lo], [hi - m]], fmt="o", color=f"C{i}",
                        mfc=f"C{i}" if d["significant"] else "white", capsize=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(keys)), [PAIRED.get(k, k) for k in keys], fontsize="small")
    ax.set_ylim(len(keys) - 0.5, -0.5)
    ax.set_xlabel(f"difference from {base}, {unit} (paired 95% interval; filled: excludes 0)")
    ax.set_title(f"{question} (same deals in every variant)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", title="variant")
    return _save(plt, fig, folder, name)


def write_charts(results: dict, paired: dict, colours: dict, folder: str) -> list[tuple[str, str]]:
    """Write the PNG charts; (file name, question) of each, none without matplotlib."""
    plt = _plt()
    if plt is None:
        return []
    out = [(contract_mix(plt, results, colours, folder), "Which contracts are played, and how often?"),
           (declarer_success(plt, results, colours, folder), "How often does the declarer win each contract?"),
           (position_payment(plt, results, folder), "Which position gains most?")]
    base = next(iter(results))
    for keys, scale, unit, name, question in (
            (_SHARES, 100, "percentage points", "differences.png", f"Which shares change against {base}?"),
            (_OWN_UNITS, 1, "actions / payment units", "differences_length_payment.png",
             f"Do deals get longer or dearer than in {base}?")):
        d = differences(plt, results, paired, folder, keys, scale, unit, name, question)
        if d:
            out.append((d, question))
    return out
