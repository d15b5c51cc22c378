"""The comparison's charts (matplotlib, the 'plot' extra): one question per chart, titled as the question; one
colour per contract and one per variant, the same in every chart; legends outside the data; a filled marker
for a difference significant after Holm's correction, as the report's tables mark it."""
from __future__ import annotations

import colorsys
import os

from ..outfile import open_output
from .stats import PASSED_OUT, position_names

PASSED_OUT_COLOUR = "#9e9e9e"
# differences of these measures are shares (drawn in percentage points); the others have their own units
_SHARES = ["pass_out_rate", "WinnerShare", "AdvantageP1", "LeadChange", "Drama", "DecisionMoves"]
_OWN_UNITS = ["Duration", "declarer_payment"]
_LABELS = {"pass_out_rate": "passed out", "WinnerShare": "WinnerShare", "AdvantageP1": "AdvantageP1",
           "LeadChange": "LeadChange (played in both)", "Drama": "Drama (played in both)",
           "DecisionMoves": "DecisionMoves", "Duration": "Duration (actions)",
           "declarer_payment": "declarer's payment per deal", "declarer_success": "declarer's success rate",
           "Balance": "Balance"}
# ten colours far apart (blue, orange, green, red, purple, brown, pink, olive, cyan, ochre); the palette takes
# them as they are, then darker, then lighter: 30 colours, the first ten the most distinct, any two of the 30 (and
# the grey of deals passed out) at least 38 apart in one of red, green and blue
BASE_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
                "#c08000"]
RINGS = (1.0, 0.65, 1.35)  # the lightness of each round, as a factor (at most LIGHTEST)
LIGHTEST = 0.85


def palette(n: int) -> list[str]:
    """n colours (30 distinct, then repeating): BASE_COLOURS, then each darker, then each lighter.

    >>> palette(12)[9:]
    ['#c08000', '#144d75', '#af5200']
    """
    out = []
    for i in range(n):
        ring, k = divmod(i % (len(RINGS) * len(BASE_COLOURS)), len(BASE_COLOURS))
        h, light, sat = colorsys.rgb_to_hls(*(int(BASE_COLOURS[k][j:j + 2], 16) / 255 for j in (1, 3, 5)))
        r, g, b = colorsys.hls_to_rgb(h, min(LIGHTEST, light * RINGS[ring]), sat)
        out.append("#" + "".join(f"{round(x * 255):02x}" for x in (r, g, b)))
    return out


def contract_colours(names: list[str]) -> dict[str, str]:
    """A colour per contract (in the order given, the same in every chart), grey for deals passed out."""
    played = [n for n in names if n != PASSED_OUT]
    out = dict(zip(played, palette(len(played)), strict=True))
    out[PASSED_OUT] = PASSED_OUT_COLOUR
    return out


VARIANT_COLOURS = ["#000000", "#e69f00", "#56b4e9", "#009e73", "#d55e00", "#cc79a7", "#0072b2", "#f0e442"]


def variant_colours(names: list[str]) -> dict[str, str]:
    """A colour per variant (the first black: the base the others are measured against), in every chart."""
    return {v: VARIANT_COLOURS[i % len(VARIANT_COLOURS)] for i, v in enumerate(names)}


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


def _contract_label(c: str | None) -> str:
    return PASSED_OUT if c is None else c


def contract_mix(plt, results: dict, colours: dict, folder: str) -> str:
    names = list(results)
    # tall enough for the legend's entries beside the bars
    fig, ax = plt.subplots(figsize=(9, max(0.6 * len(names) + 1.6, 0.22 * len(colours) + 0.8)))
    left = [0.0] * len(names)
    for c, col in colours.items():
        vals = [results[v]["contract_mix"].get(c, {"rate": 0.0})["rate"] for v in names]
        if any(vals):
            ax.barh([wrap(v) for v in names], vals, left=left, color=col, label=c, edgecolor="white", linewidth=0.5)
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


def position_payment(plt, results: dict, vcol: dict, folder: str) -> str:
    names = list(results)
    most = max(len(m["position_payment"]) for m in results.values())
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / max(len(names), 1)
    for i, v in enumerate(names):
        pp = results[v]["position_payment"]
        # the dealer is the last position at every table, however many seats it has
        xs = [(p if p < len(pp) - 1 else most - 1) - 0.4 + width * (i + 0.5) for p in range(len(pp))]
        ax.bar(xs, [d["mean"] for d in pp], width, color=vcol[v],
               yerr=[[d["mean"] - d["ci"][0] for d in pp], [d["ci"][1] - d["mean"] for d in pp]], capsize=3,
               ecolor="#555555", label=v)
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


def _pairing(paired: dict) -> str:
    """How the pairs of a chart were made, for its title."""
    same = [d["same_deals"]["alike"] == d["same_deals"]["checked"] for d in paired.values()]
    if all(same):
        return "the same deals in every variant"
    return "paired by seed: " + ("some variants deal other cards" if any(same) else "the variants deal other cards")


def _rows(plt, ax, rows: list[tuple[str, list[tuple[str, dict | None]]]], vcol: dict, scale: float) -> None:
    """One row per label, a point with its interval per variant (filled: significant after Holm)."""
    variants = list(dict.fromkeys(v for _label, pts in rows for v, _d in pts))
    height = 0.8 / max(len(variants), 1)
    for i, v in enumerate(variants):
        ax.plot([], [], "o", color=vcol[v], label=v)  # the legend's marker: filled whatever the first point
        for j, (_label, pts) in enumerate(rows):
            d = dict(pts).get(v)
            if d is None:
                continue
            y = j - 0.4 + height * (i + 0.5)
            m, lo, hi = scale * d["mean"], scale * d["ci"][0], scale * d["ci"][1]
            ax.errorbar([m], [y], xerr=[[max(m - lo, 0)], [max(hi - m, 0)]], fmt="o", color=vcol[v],
                        mfc=vcol[v] if d["significant"] else "white", capsize=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [label for label, _pts in rows], fontsize="small")
    ax.set_ylim(len(rows) - 0.5, -0.5)


def differences(plt, results: dict, paired: dict, vcol: dict, folder: str, keys: list[str], scale: float, unit: str,
                name: str, question: str) -> str | None:
    """Paired differences from the first variant of the measures `keys`, one row each (x `scale`, in `unit`)."""
    rows: list[tuple[str, list[tuple[str, dict | None]]]] = []
    for k in keys:
        pts: list[tuple[str, dict | None]] = []
        for v, d in paired.items():
            t = d["measures"].get(k) or (d.get(k) if k in ("declarer_success", "Balance") else None)
            if t is not None and t.get("pairs", 1):
                pts.append((v, dict(t, mean=t.get("mean", t.get("value")))))
        if pts:
            rows.append((_LABELS.get(k, k), pts))
    if not rows:
        return None
    base = next(iter(results))
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) * max(1, len(paired) / 2) + 1.8))
    _rows(plt, ax, rows, vcol, scale)
    ax.set_xlabel(f"difference from {base}, {unit} (paired 95% interval; filled: significant after Holm)")
    ax.set_title(f"{question} ({_pairing(paired)})")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", title="variant")
    return _save(plt, fig, folder, name)


def contract_shares(plt, results: dict, paired: dict, vcol: dict, folder: str) -> str | None:
    """Each contract's paired share difference from the first variant, per variant."""
    names = list(dict.fromkeys(c for d in paired.values() for c in d["contract_shares"]))
    if not names:
        return None
    rows = [(_contract_label(c), [(v, d["contract_shares"][c]) for v, d in paired.items() if c in d["contract_shares"]])
            for c in names]
    base = next(iter(results))
    fig, ax = plt.subplots(figsize=(9, 0.4 * len(rows) * max(1, len(paired) / 2) + 1.8))
    _rows(plt, ax, rows, vcol, 100)
    ax.set_xlabel(f"share of deals, difference from {base} in percentage points (paired 95% interval; filled: "
                  "significant after Holm)")
    ax.set_title(f"Which contracts gain or lose share? ({_pairing(paired)})")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", title="variant")
    return _save(plt, fig, folder, "contract_shares.png")


def trend(plt, results: dict, sweep: dict, colours: dict, folder: str) -> str:
    """A swept option's values along the x axis: contract shares, the declarer's success rate, his payment per
    deal and Balance, each with its 95% interval."""
    names = list(results)
    xs = list(range(len(names)))
    labels = [str(v) for v in sweep["values"]][:len(names)]
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    ax = axes[0][0]
    for c, col in colours.items():
        d = [results[v]["contract_mix"].get(c) for v in names]
        if any(d):
            rates = [x["rate"] if x else 0.0 for x in d]
            ax.plot(xs, rates, "o-", color=col, label=c)
    ax.set_ylabel("share of deals")
    ax.set_title("contracts")
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1), title="contract")
    for ax, key, title, value in ((axes[0][1], "declarer_success", "declarer's success rate (played contracts)",
                                   "rate"),
                                  (axes[1][0], "declarer_payment_per_deal",
                                   "declarer's payment per deal (0 when nobody declares)", "mean"),
                                  (axes[1][1], "Balance", "Balance (BCa interval)", "value")):
        ys = [results[v][key][value] for v in names]
        los = [results[v][key]["ci"][0] for v in names]
        his = [results[v][key]["ci"][1] for v in names]
        ax.errorbar(xs, ys, yerr=[[max(y - lo, 0) for y, lo in zip(ys, los, strict=True)],
                                  [max(hi - y, 0) for y, hi in zip(ys, his, strict=True)]],
                    fmt="o-", color="black", capsize=3)
        ax.set_title(title)
    for ax in axes.flat:
        ax.set_xticks(xs, labels)
        ax.set_xlabel(sweep["option"])
    fig.suptitle(f"How do the figures change with {sweep['option']}? (95% intervals)")
    fig.tight_layout()
    return _save(plt, fig, folder, "trend.png")


def write_charts(results: dict, paired: dict, colours: dict, folder: str,
                 sweep: dict | None = None) -> list[tuple[str, str]]:
    """Write the PNG charts; (file name, question) of each, none without matplotlib."""
    plt = _plt()
    if plt is None:
        return []
    vcol = variant_colours(list(results))
    out = [(contract_mix(plt, results, colours, folder), "Which contracts are played, and how often?"),
           (declarer_success(plt, results, colours, folder), "How often does the declarer win each contract?"),
           (position_payment(plt, results, vcol, folder), "Which position gains most?")]
    if sweep:
        out.append((trend(plt, results, sweep, colours, folder), f"How do the figures change with {sweep['option']}?"))
    if not paired:
        return out
    base = next(iter(results))
    shares = contract_shares(plt, results, paired, vcol, folder)
    if shares:
        out.append((shares, "Which contracts gain or lose share?"))
    for keys, scale, unit, name, question in (
            (_SHARES + ["declarer_success", "Balance"], 100, "percentage points", "differences.png",
             f"Which shares and rates change against {base}?"),
            (_OWN_UNITS, 1, "actions / payment units", "differences_length_payment.png",
             f"Do deals get longer or dearer than in {base}?")):
        d = differences(plt, results, paired, vcol, folder, keys, scale, unit, name, question)
        if d:
            out.append((d, question))
    return out
