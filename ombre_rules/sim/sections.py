"""The sections of a comparison's report, each added to a `Doc`: the bots, the headline table, the paired
differences, the contracts (paired shares and which contract each deal became), a swept option's trend,
rule coverage and each variant's details."""
from __future__ import annotations

from ..solve.analysis import JUDGED_CARDS
from .doc import Doc
from .paired import PAIRED
from .stats import PASSED_OUT, position_names

# measures drawn in percentage points (x100); the others in their own units
PP = {"pass_out_rate", "WinnerShare", "AdvantageP1", "LeadChange", "Drama", "DecisionMoves"}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ci_share(d: dict) -> str:
    lo, hi = d["ci"]
    return f"{pct(d['rate'])} [{pct(lo)}, {pct(hi)}]"


def ci_mean(d: dict, fmt: str = "+.2f", key: str = "mean") -> str:
    return f"{d[key]:{fmt}} [{d['ci'][0]:{fmt}}, {d['ci'][1]:{fmt}}]"


def balance(b: dict) -> str:
    return f"{b['value']:.3f} [{b['ci'][0]:.3f}, {b['ci'][1]:.3f}]"


def _diff(d: dict, scale: float) -> str:
    unit = " pp" if scale != 1 else ""
    m = d["mean"] if "mean" in d else d["value"]
    return f"{scale * m:+.2f}{unit} [{scale * d['ci'][0]:+.2f}, {scale * d['ci'][1]:+.2f}]"


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def headline(results: dict[str, dict]) -> tuple[list[str], list[list[str]]]:
    """The summary table, one row per variant."""
    head = ["variant", "deals", "passed out", "declarer's success rate [95%]", "declarer's payment (played)",
            "Balance [95% BCa]"]
    rows = []
    for v, m in results.items():
        dp = m["declarer_payment"]
        rows.append([v, f"{m['deals']:,}", pct(m["pass_out_rate"]["rate"]), ci_share(m["declarer_success"]),
                     f"{dp['mean']:+.2f} (sd {dp['sd']:.1f})", balance(m["Balance"])])
    return head, rows


def play_table(results: dict[str, dict]) -> tuple[list[str], list[list[str]]]:
    """The measures of the play, one row per variant."""
    head = ["variant", "AdvantageP1", "WinnerShare", "Duration (actions)", "LeadChange", "Drama", "DecisionMoves"]
    return head, [[v, f"{m['AdvantageP1']['value']:.3f}", f"{m['WinnerShare']['rate']:.3f}",
                   f"{m['Duration']['mean']:.1f}", f"{m['LeadChange']['mean']:.3f}", f"{m['Drama']['mean']:.3f}",
                   f"{m['DecisionMoves']['mean']:.3f}"] for v, m in results.items()]


def text_table(results: dict[str, dict]) -> str:
    """The summary tables as aligned text (for the terminal), side by side."""
    head, rows = headline(results)
    more, extra = play_table(results)
    rows = [head + more[1:]] + [a + b[1:] for a, b in zip(rows, extra, strict=True)]
    head = rows[0]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows)


def bots(doc: Doc, a: dict) -> None:
    info = a["bots"]
    doc.h("Bots")
    doc.table(["player", "kind and budget", "seats"],
              [[nm, d["budget"], "; ".join(f"{v}: {', '.join(map(str, s))}" for v, s in d["seats"].items())]
               for nm, d in info["players"].items()])
    learnt = info["greedy_learnt"]
    if learnt:
        least = next(iter(learnt.values()))["min_success"]
        doc.p(f"Greedy learns from its own play which contracts it makes (rounds of deals with greedy at every "
              "seat, once per variant): a contract it bid of its own choice and made clearly less than the share "
              "that pays (its break-even against passing, from the declarer's mean gain and loss in its deals "
              f"there, and at least {pct(least)}; a one-sided 5% test) asks more of a hand from the next round on. "
              "Before it learnt:")
        doc.table(["variant", "rounds of deals", "made / bid before it learnt", "share that pays", "asks more for"],
                  [[v, f"{g['rounds']} x {g['deals_a_round']}",
                    ", ".join(f"{c} {d['made']}/{d['bids']}" for c, d in g["before"].items()) or "no bids",
                    ", ".join(f"{c} {pct(x)}" for c, x in g.get("success_needed", {}).items()) or "-",
                    ", ".join(f"{c} (+{x:g} trick{'s' if x != 1 else ''})" for c, x in g["asks_more"].items()) or "-"]
                   for v, g in learnt.items()])
    dd = [(v, nm, d["double_dummy"]) for v, kinds in a["players"].items() for nm, d in kinds.items()
          if "double_dummy" in d]
    judged = info["judged"]
    if dd:
        doc.p(f"Strength measured in this run, on each variant's first {judged:,} deals (--strength; "
              "--double-dummy judges every deal): what each bot's cards lost against the best play with every hand "
              f"open (double-dummy), from each deal's first card (in a deal of more than {JUDGED_CARDS} cards in the "
              f"hands, from the first trick at which {JUDGED_CARDS} are left), in the variant's measure; 0 is "
              "perfect play with the cards seen. A deal is skipped when its search passes the node limit or its "
              "contract's aim is not known.")
        doc.table(["variant", "player", "measure", "lost per card", "lost per deal", "deals measured", "skipped"],
                  [[v, nm, ", ".join(d["measure"]) or "-", ci_mean(d["lost_per_card"], ".4f"),
                    ci_mean(d["lost_per_deal"], ".3f"), f"{d['measured']:,}", f"{d['skipped']:,}"] for v, nm, d in dd])
    else:
        doc.p("Strength not measured in this run (--strength 0); with --strength N each bot's cards in the first N "
              "deals are judged against double-dummy play.")
    doc.p(f"Strength against another bot: {info['strength']}.")


def differences(doc: Doc, a: dict) -> None:
    if not a["paired"]:
        return
    base = next(iter(a["variants"]))
    doc.h(f"Differences from {base}")
    notes = []
    for v, d in a["paired"].items():
        sd = d["same_deals"]
        if sd["alike"] == sd["checked"]:
            notes.append(f"{v} deals the same cards as {base} (checked on the first {sd['checked']} deals): its pairs "
                         "are the same deals played under both rules")
        else:
            notes.append(f"{v} deals other cards than {base} from the same seeds ({sd['alike']} of the first "
                         f"{sd['checked']} deals alike): its pairs are pairs of seeds, not of deals; the paired tests "
                         "stay valid (the pairs are independent of each other) but pairing gains nothing")
    doc.p("Each variant minus the first, deal by deal over every deal (paired): the mean difference with its "
          "95% interval (normal for means and shares; BCa bootstrap of the deals for the declarer's success rate "
          f"and Balance), its p-value, and the p-value after Holm's correction over the {a['tests']} tests of this "
          "report (a difference no pair of deals shows, exactly 0, tests nothing and is left out of them); * marks a "
          "difference significant at 5% after the correction. " + "; ".join(notes) + ".")
    rows = []
    for v, d in a["paired"].items():
        for k, label in PAIRED.items():
            t = d["measures"][k]
            if t["pairs"]:
                rows.append(_row(label, v, t, 100 if k in PP else 1))
        for nm, t in d["positions"].items():
            rows.append(_row(f"payment of {nm} per deal", v, t, 1))
        rows.append(_row("declarer's success rate (share of played contracts the declarer gains)", v,
                         d["declarer_success"], 100))
        if "Balance" in d:
            rows.append(_row("Balance", v, d["Balance"], 100))
    doc.table(["measure", "variant", "difference [95%]", "p", "p (Holm)", "significant", "pairs"], rows)
    unpaired = [f"{v}: {what} — {why}" for v, d in a["paired"].items() for what, why in d["unpaired"].items()]
    if unpaired:
        doc.p("Not paired: " + "; ".join(unpaired) + ".")
    alike = [(v, d["deals_differing"]) for v, d in a["paired"].items()
             if d["same_deals"]["alike"] == d["same_deals"]["checked"]]
    if alike:
        doc.p("Deals dealt alike that went differently: " + "; ".join(
            f"{v}: play differs in {dd['play']:,}, the result in {dd['result']:,} of {dd['pairs']:,}"
            for v, dd in alike) + ".")


def _nothing(t: dict) -> bool:
    """Whether no pair of deals differs: a difference of exactly 0, which tests nothing."""
    return t["ci"] == [0.0, 0.0] and t.get("mean", t.get("value")) == 0


def _marks(t: dict) -> list[str]:
    """The p-value, Holm's, and the mark of a test (or that no pair differs)."""
    if _nothing(t):
        return ["-", "-", "no pair differs"]
    return [_p(t["p"]), _p(t["p_holm"]), "*" if t["significant"] else ""]


def _row(label: str, v: str, t: dict, scale: float) -> list[str]:
    return [label, v, _diff(t, scale), *_marks(t), f"{t['pairs']:,}" if "pairs" in t else ""]


def _name(c: str | None) -> str:
    return PASSED_OUT if c is None else c


def contracts(doc: Doc, a: dict) -> None:
    if not a["paired"]:
        return
    base = next(iter(a["variants"]))
    doc.h(f"Contracts against {base}")
    doc.p("Each contract's share of the deals in both variants and its paired difference (a deal counts +1 when "
          "it became this contract, -1 when it stopped being it; normal 95% interval, Holm-corrected p).")
    rows = []
    for v, d in a["paired"].items():
        for c, t in d["contract_shares"].items():
            rows.append([_name(c), v, pct(t["base"]), pct(t["other"]), _diff(t, 100), *_marks(t)[1:]])
    doc.table(["contract", "variant", f"share in {base}", "share in the variant", "difference [95%]", "p (Holm)",
               "significant"], rows)
    for v, d in a["paired"].items():
        if d["same_deals"]["alike"] != d["same_deals"]["checked"]:
            continue
        trans = d["transitions"]
        cols = list(dict.fromkeys(b for row in trans.values() for b in row))
        doc.p(f"Which contract each deal became: rows are the deal's contract in {base}, columns in {v} (deals).")
        doc.table([f"{base} \\ {v}"] + [_name(c) for c in cols],
                  [[_name(c)] + [f"{row.get(b, 0):,}" if row.get(b) else "" for b in cols] for c, row in trans.items()])


def trend(doc: Doc, a: dict, sweep: dict) -> None:
    doc.h(f"Trend over {sweep['option']}")
    doc.p(f"The same deals played with each value of {sweep['option']} ({', '.join(map(str, sweep['values']))}); "
          "the paired differences above are each value's against the first.")
    rows = []
    for val, m in zip(sweep["values"], a["variants"].values(), strict=False):
        top = ", ".join(f"{c} {pct(d['rate'])}" for c, d in list(m["contract_mix"].items())[:4])
        rows.append([str(val), ci_share(m["declarer_success"]), ci_mean(m["declarer_payment_per_deal"]),
                     balance(m["Balance"]), top])
    doc.table([sweep["option"], "declarer's success rate", "declarer's payment per deal (0 when nobody declares)",
               "Balance [BCa]", "contracts (most played)"], rows)


def coverage(doc: Doc, a: dict) -> None:
    doc.h("Rule coverage")
    doc.p("How many deals reached each rule of each variant. A contract is reached when it is played, an outcome "
          "when a deal ends with it, the all-pass rule when every seat passed the first round, a mechanic when it "
          "was offered (legal at some decision) and when it was taken; an option's rules are what its choices' "
          "patches set and the expressions that read it (opt.NAME).")
    for v, cov in a["coverage"].items():
        n = cov["deals"]
        rows = [[f"contract {c}", f"{k:,}", pct(k / n) if n else "-"] for c, k in cov["contracts"].items()]
        rows += [[f"outcome {o}", f"{k:,}", pct(k / n) if n else "-"] for o, k in cov["outcomes"].items()]
        ap = cov["all_pass"]
        rows.append([f"all-pass rule ({ap['rule']})", f"{ap['reached']:,}", pct(ap["reached"] / n) if n else "-"])
        cl = cov["claims"]
        rows.append(["claim offered / taken", f"{cl['offered']:,} / {cl['taken']:,}", ""])
        rows += [[f"{name} offered / taken", f"{d['offered']:,} / {d['taken']:,}", ""]
                 for name, d in cov["mechanics"].items()]
        for opt, reach in cov["options"].items():
            rows += [[f"option {opt}: {label}", f"{k:,}", pct(k / n) if n else "-"] for label, k in reach.items()]
        doc.p(f"{v} ({n:,} deals):")
        doc.table(["rule", "deals", "share"], rows)


def _below(c: str, chose: int, count: int, learnt: dict | None) -> str:
    """Why a contract the declarer won less than greedy's stated share of the time was played."""
    if not chose:
        return "forced on the declarer (never bid by choice)"
    if learnt is None:
        return f"bid by choice in {chose:,} of {count:,}"
    if c in learnt["asks_more"]:
        return f"greedy asks {learnt['asks_more'][c]:g} trick(s) more for it since its learning"
    b = learnt["before"].get(c)
    seen = f"made {b['made']} of {b['bids']} there" if b else "not bid there"
    return f"bid by choice in {chose:,} of {count:,}; not clearly below the share in greedy's learning ({seen})"


def details(doc: Doc, a: dict, players: dict[str, list[str]]) -> None:
    for v, m in a["variants"].items():
        kinds = a["players"][v]
        learnt = a["bots"]["greedy_learnt"].get(v)
        doc.h(v)
        rows = []
        for c, d in m["contract_mix"].items():
            ds = m["declarer_success_by_contract"].get(c)
            chose = m["declarer_chose_by_contract"].get(c, 0)
            note = ""
            least = learnt.get("success_needed", {}).get(c, learnt["min_success"]) if learnt else None
            if ds and least is not None and ds["rate"] < least:
                note = f"below {pct(least)}: " + _below(c, chose, d["count"], learnt)
            rows.append([c, ci_share(d), ci_share(ds) if ds else "-",
                         f"{chose:,} of {d['count']:,}" if ds else "-", note])
        doc.table(["contract", "share", "declarer's success rate", "bid by the declarer's choice", "note"], rows)
        doc.table(["outcome", "share"], [[o, ci_share(d)] for o, d in m["outcomes"].items()])
        names = position_names(len(m["position_payment"]))
        doc.table(["position", "mean payment", "win rate"],
                  [[names[k], ci_mean(d), pct(w)] for k, (d, w) in
                   enumerate(zip(m["position_payment"], m["position_win_rate"], strict=True))])
        doc.table(["seat", "player", "mean payment"],
                  [[str(k), players[v][k], ci_mean(d)] for k, d in enumerate(m["seat_payment"])])
        if len(kinds) > 1:
            doc.p("A mixed table: each player's results over the seats it held (every seat plays every position "
                  "in turn, as the dealer moves round).")
            doc.table(["player", "seats", "mean payment", "win rate"],
                      [[nm, ", ".join(map(str, d["seats"])), ci_mean(d), pct(d["win_rate"])]
                       for nm, d in kinds.items()])
        dp = m["declarer_payment"]
        doc.p(f"Declarer's payment: mean {ci_mean(dp)} over played contracts, sd {dp['sd']:.2f}; "
              f"{ci_mean(m['declarer_payment_per_deal'])} per deal (0 when nobody declares); a seat's mean absolute "
              f"payment {m['payment_spread']:.2f} (sd {m['payment_sd']:.2f}); the pool gains {m['pool_net']:+.2f} "
              f"a deal on average, which the seats' payments lack. Duration {ci_mean(m['Duration'], '.1f')} "
              f"actions, {m['DurationTricks']:.1f} tricks.")
