"""The rulebook's outcomes and payments: what decides the outcome of a deal, the payment steps in words (under
the outcome they settle and the label the file gives them), the payments worked out by the compiled settlement
(`schedule.py`) as tables, the session's closing payments, and the appendix of the file's expressions."""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from ..explain.account import READS_PAIR
from ..explain.phrase import SINGLE_SEATS
from .builder import Builder
from .model import Rule
from .schedule import Amount, Schedule, representatives
from .schedule import Builder as Schedules
from .words import cap, header, join

ROWS = 8  # most rows of one outcome (and note) in a payment table before the rest are counted
EXAMPLES = 3  # trick splits named in one row
NOTED = 2  # rows of one note (a claim, a defender who passed, …) in one outcome


def outcome_lists(b: Builder) -> list[tuple[list[Any], tuple, list[dict]]]:
    """The outcome lists of the contracts that can occur (lists alike counted once), each with the contracts
    that use it."""
    out: list[tuple[list[Any], tuple, list[dict]]] = []
    for c in b.occurs:
        if c.base is not None and c.base in b.occurs:
            continue
        outs: Any = b.data
        for k in c.outcomes_path:
            outs = outs[k]
        for entry in out:
            if entry[2] == list(outs):
                entry[0].append(c)
                break
        else:
            out.append(([c], tuple(c.outcomes_path), list(outs)))
    return out


def outcomes(b: Builder) -> None:
    s = b.book.section("outcomes", "Outcomes")
    s.rule("order", "When play ends, the outcome of the deal is the first of these whose condition holds.")
    lists = outcome_lists(b)
    for contracts, path, outs in lists:
        rows: list[list[str]] = []
        for o in outs:
            when = o.get("when")
            held = b.holds(when) if when is not None else True
            if held is False:
                continue
            cond = o["doc"] if o.get("doc") else "otherwise" if held is True and rows else \
                "always" if held is True else b.say(when)
            rows.append([cap(b.w.outcome(o["name"])), cap(str(cond))])
            if when is not None:
                b.exprs.append((f"Outcome {b.w.outcome(o['name'])}", when))
            if held is True:
                break
        who = "" if len(lists) == 1 else " in " + join([c.title for c in contracts])
        key = "outcomes" if path == ("outcomes",) else "outcomes." + ".".join(map(str, path))
        s.table(key, f"The outcomes{who}", ["outcome", "when"], rows)


def reachable(b: Builder) -> list[str]:
    """The outcomes some contract that can occur may end in, in the order the file lists them."""
    seen: list[str] = []
    for _cs, _p, outs in outcome_lists(b):
        for o in outs:
            if o["name"] not in seen and (o.get("when") is None or b.holds(o["when"]) is not False):
                seen.append(o["name"])
    return seen


def payment_words(b: Builder) -> None:
    sc, s, w = b.data["scoring"], b.book.section("scoring", "Payments"), b.w
    if sc.get("ante"):
        s.rule("ante", "Before each deal: " + step(b, "to_pool", sc["ante"], "ante"), sc["ante"].get("amount"))
    for name, expr in {**(b.data.get("let") or {}), **(sc.get("let") or {})}.items():
        if name in w.terms:
            b.exprs.append((cap(w.terms[name]), expr))
    steps = sc.get("outcomes") or {}
    for oname in reachable(b) + (["all_pass"] if "all_pass" in steps else []):
        for j, st in enumerate(steps.get(oname) or []):
            kind = next(iter(st))
            body = st[kind] or {}
            text = step(b, kind, body, "")
            if not text:
                continue
            title = "When all pass" if oname == "all_pass" else cap(w.outcome(oname))
            label = _label(str(body.get("label") or ""), title)
            line = f"{title}{label}: {text}"
            if s.items and getattr(s.items[-1], "text", None) == line:  # the same step for another seat
                continue
            s.rule(f"pay.{oname}.{j}", line, body.get("amount"))
    summary = b.data.get("summary") or {}
    for label, expr in summary.items():
        s.rule(f"summary.{label}", f"At the end of a deal the result also shows {label}.", expr)


def _label(label: str, title: str) -> str:
    """A step's label after its outcome's title (` — the pool's worth`), the outcome's own name left out."""
    if label.lower().startswith(title.lower()):
        label = label[len(title):].strip(" ()")
    return f" — {label}" if label else ""


def step(b: Builder, kind: str, body: dict, default: str) -> str:
    """A payment step in words (its `doc:`, else its parts); empty for one the options switch off."""
    say, w = b.say, b.w
    if kind == "set":  # the values a session keeps: said where the file says what the step is for
        return cap(str(body["doc"]).rstrip(".")) + "." if isinstance(body.get("doc"), str) else ""
    fixed, amount = say.fixed(body.get("amount", "pool" if kind == "from_pool" else 0))
    if fixed and not amount:
        return ""
    for end in ("from", "to"):
        if end in body or (kind == "pay" and end == "to"):
            who_fixed, who = say.fixed(body.get(end))
            if who_fixed and not who:
                return ""
    if body.get("doc"):
        return cap(str(body["doc"]).rstrip(".")) + "."
    amt = say(body.get("amount", "pool" if kind == "from_pool" else 0))
    if kind == "pay" and READS_PAIR.search(str(body.get("amount", ""))):  # an amount for each payer and payee
        amt = w.phraser(payer="the payer", payee="the payee")(str(body["amount"])) + ", each payee its own amount"
    if kind == "pay":
        return f"{cap(w.seats(body.get('from')))} pays {w.seats(body.get('to')).replace('each of ', 'each of ')} " \
               f"{amt}."
    if kind == "to_pool":
        payer = cap(w.seats(body.get("from", "players")))
        if str(body.get("amount")) == "pool":
            return f"{payer} puts into {w.pool} as much as it holds (doubling it)."
        return f"{payer} puts {amt} into {w.pool}."
    to = say(body.get("to"))
    shared = "" if str(body.get("to")) in SINGLE_SEATS else " shared equally, an odd counter staying in it"
    if "amount" not in body or str(body.get("amount")) == "pool":
        return f"{cap(to)} takes {w.pool}{' (' + shared.strip() + ')' if shared else ''}."
    return f"{cap(to)} takes {amt} from {w.pool} (at most what it holds{';' + shared if shared else ''})."


def close_words(b: Builder, s: Any) -> None:
    """The payments made once when the session ends."""
    for i, st in enumerate((b.data.get("session") or {}).get("close") or []):
        kind = next(iter(st))
        body = st[kind] or {}
        text = step(b, kind, body, "")
        if text:
            label = f" — {body['label']}" if body.get("label") else ""
            s.rule(f"close.{i}", f"When the session ends{label}: {text}", body.get("amount"))


# -- the computed tables ------------------------------------------------------------------------------
def payment_tables(b: Builder) -> None:
    w = b.w
    s = b.book.section("payments", "Payments, worked out")
    sch = Schedules(b.rules, w)
    done: list[tuple[Any, list[Schedule]]] = []
    for c in b.occurs:
        if c.base is not None and c.base in b.occurs:
            continue
        got = sch.contract(c)
        if got is None:
            s.rule(f"none.{c.name}", f"{c.title}: no deal reached it, so it has no table.")
            continue
        done.append((c, got))
    if not done:
        return
    b.pool_used = any(case.pool != Amount(0, Fraction(1)) or any(a.b for a in case.amounts)
                      for _c, groups in done for g in groups for case in g.cases)
    pool_words = (f"P is what {w.pool} holds when the deal is settled (its stakes paid, nothing else in it "
                  f"before), and the last column shows {w.pool} afterwards. ") if b.pool_used else ""
    s.rule("how", f"These tables are worked out by the program: it settles made-up ends of a deal with the "
                  f"file's own rules. A number is what a player receives (+) or pays (−) in the settlement. "
                  f"{pool_words}The defenders are named A, B, … in the order of their tricks, the most first; a row "
                  f"gives a few of the splits of the tricks that pay as it says.")
    units: list[tuple[Any, Schedule]] = []
    scale: list[tuple[Any, Schedule, Any]] = []
    for c, groups in done:
        for g in groups:
            unit = next((u for u in units if _same_shape(u[1], g)), None)
            f = _ratio(unit[1], g) if unit is not None else None
            if unit is not None and f == 1:
                s.rule(f"same.{c.name}{_trumps(b, g)}", f"{c.title}{_trumps(b, g)} pays as "
                                                        f"{unit[0].title}{_trumps(b, unit[1])}.")
                continue
            if unit is not None and f is not None:
                scale.append((c, g, (unit[0], f)))
                continue
            units.append((c, g))
            scale.append((c, g, None))
            table(b, s, c, g)
    if any(u is not None for _c, _g, u in scale):
        scale_table(b, s, scale)
    if len(done) > 1:
        glance(b, s, done)


def _trumps(b: Builder, g: Schedule) -> str:
    names = [t.name for t in g.trumps if hasattr(t, "name")]
    return "" if not names else f", trumps {join(names, 'or')}"


def table(b: Builder, s: Any, c: Any, g: Schedule) -> None:
    """The table of one contract (and group of trump suits): a row for the cases that pay alike (whatever note
    they carry), at most ROWS rows an outcome (spread over its cases, the rest counted)."""
    w = b.w
    rows: dict[tuple, list[Any]] = {}
    for case in g.cases:
        rows.setdefault((case.outcome, case.amounts, case.pool, case.values, case.carry), []).append(case)
    carries = len({case.carry for case in g.cases}) > 1  # a value every deal sets alike (a counter) is not shown
    cols = list(g.roles)
    n_side = 1 + sum(1 for r in cols[1:] if r == w.partner)
    n_def = sum(1 for r in cols if r.startswith(w.defender))
    same_def = n_def > 1 and all(len({a.text() for a in case.amounts[n_side:n_side + n_def]}) == 1
                                 for case in g.cases)
    order = {o: i for i, o in enumerate(reachable(b))}
    by_outcome: dict[str, list[tuple]] = {}
    for key in rows:
        by_outcome.setdefault(key[0], []).append(key)
    out = []
    width = 2 + len(g.labels) + n_side + (1 if same_def else n_def) + (len(cols) - n_side - n_def) + b.pool_used \
        + carries
    for outcome, keys in sorted(by_outcome.items(), key=lambda kv: order.get(kv[0], 99)):
        keys.sort(key=lambda k: (k[3], -max(c.tricks[0] for c in rows[k]), [a.text() for a in k[1]]))
        plain = [k for k in keys if any(not c.notes for c in rows[k])]
        noted: dict[str, list[tuple]] = {}
        for k in keys:
            if k not in plain:
                noted.setdefault(min(c.notes for c in rows[k]), []).append(k)
        shown = _spread(plain, ROWS) + [k for ks in noted.values() for k in _spread(ks, NOTED)]
        for key in shown:
            cases = rows[key]
            mid = sorted(c.tricks[0] for c in cases)[len(cases) // 2]
            ex = sorted(cases, key=lambda c: (bool(c.notes), abs(c.tricks[0] - mid), max(c.tricks[1:], default=0)
                                              - min(c.tricks[1:], default=0), c.tricks))
            splits = list(dict.fromkeys(" · ".join(map(str, c.tricks)) for c in ex))
            tricks = ", ".join(splits[:EXAMPLES]) + (f" … ({len(splits)} in all)" if len(splits) > EXAMPLES else "")
            amounts = key[1]
            cells = [a.text() for a in amounts[:n_side]]
            cells += [amounts[n_side].text()] if same_def else [a.text() for a in amounts[n_side:n_side + n_def]]
            cells += [a.text() for a in amounts[n_side + n_def:]]
            notes = list(dict.fromkeys(re.sub(r" \(.*\)$", "", c.notes) for c in ex if c.notes))
            said = "; or ".join(notes) if notes and key not in plain else ""
            label = cap(w.outcome(outcome)) + (f" ({said})" if said else "")
            out.append([label, tricks] + [str(v) for v in key[3]] + cells + ([_pool(key[2])] if b.pool_used else [])
                       + ([rows[key][0].carry or "—"] if carries else []))
        if len(shown) < len(keys):
            out.append([cap(w.outcome(outcome)), f"… and {len(keys) - len(shown)} more rows like these"]
                       + [""] * (width - 2))
    heads = [header(r) for r in cols[:n_side]]
    heads += ["Each defender"] if same_def else [header(r) for r in cols[n_side:n_side + n_def]]
    heads += [header(r) for r in cols[n_side + n_def:]]
    caption = f"{c.title}{_trumps(b, g)}"
    who = [header(r) for r in cols[:n_side]] + \
        (["A", "B", "C", "D", "E"][:n_def] if n_def > 1 else [header(cols[n_side])] if n_def else [])
    s.table(f"table.{c.name}{_trumps(b, g)}", caption,
            ["outcome", f"tricks ({' · '.join(who)})"] + g.labels + heads
            + ([f"{header(w.pool)} after"] if b.pool_used else []) + (["for the next deal"] if carries else []), out)
    held = "his side held" if n_side >= 2 else "he held"
    for dim, (labels, rows2) in g.dims.items():
        what = {"run": f"{c.title}: {w.declarer}'s payment by how many of the highest trumps {held}, without a "
                       f"gap (the table above: none)",
                "doubles": f"{c.title}: {w.declarer}'s payment, doubled or not"}[dim]
        s.table(f"dim.{dim}.{c.name}", what, ["outcome"] + labels,
                [[cap(w.outcome(o))] + cells for o, cells in sorted(rows2, key=lambda r: order.get(r[0], 99))])


def _spread(keys: list, most: int) -> list:
    """At most `most` of the keys, spread evenly from the first to the last."""
    if len(keys) <= most:
        return keys
    return [keys[i * (len(keys) - 1) // (most - 1)] for i in range(most)] if most > 1 else keys[:1]


def _pool(a: Amount) -> str:
    """The pool after settling, in terms of P."""
    if a.b == 0:
        return str(a.a)
    if a.b == 1:
        lead = "P"
    elif a.b.denominator == 1:
        lead = f"{a.b}P"
    else:
        lead = f"{a.b.numerator}P/{a.b.denominator}"
    return lead + (f" + {a.a}" if a.a > 0 else f" − {-a.a}" if a.a < 0 else "")


def _same_shape(a: Schedule, b: Schedule) -> bool:
    return [(c.key, c.outcome) for c in a.cases] == [(c.key, c.outcome) for c in b.cases] and a.roles == b.roles


def _ratio(a: Schedule, b: Schedule) -> Any:
    from .schedule import _factor

    return _factor(a, b)


def scale_table(b: Builder, s: Any, scale: list[tuple[Any, Schedule, Any]]) -> None:
    """A 2-D table for contracts that pay a multiple of a table above, by contract and trump suit: each cell the
    number the amounts of the table named in the row are multiplied by ("its table": the contract's own)."""
    suits = list(b.rules.deck.suits)
    cols = {su.name: i for i, su in enumerate(suits)}
    rows: dict[str, list[str]] = {}
    for c, g, unit in scale:
        row = rows.setdefault(c.title, ["—"] * (len(suits) + 2))
        if unit is not None:
            row[-1] = unit[0].title
        cell = f"× {unit[1]}" if unit is not None else "its table"
        if not any(hasattr(t, "name") for t in g.trumps):
            row[-2] = cell
        for t in g.trumps:
            if hasattr(t, "name"):
                row[cols[t.name]] = cell
    keep = [i for i in range(len(suits) + 1) if any(r[i] != "—" for r in rows.values())]
    heads = [su.name for su in suits] + ["no trumps"]
    s.table("scale", "Contracts and trump suits that pay a table above times a number",
            ["contract"] + [heads[i] for i in keep] + ["times the table of"],
            [[name] + [cells[i] for i in keep] + [cells[-1] if cells[-1] != "—" else name]
             for name, cells in rows.items()])


def glance(b: Builder, s: Any, done: list[tuple[Any, list[Schedule]]]) -> None:
    """All contracts at a glance: the declarer's payment in a typical case of each outcome."""
    w = b.w
    outs = reachable(b)
    rows = []
    for c, groups in done:
        for g in groups:
            reps = representatives(g)
            rows.append([c.title + _trumps(b, g) if len(groups) > 1 else c.title]
                        + [reps[o].amounts[0].text() if o in reps else "—" for o in outs])
    keep = [i for i in range(len(outs)) if any(r[i + 1] != "—" for r in rows)]
    s.table("glance", f"At a glance: {w.declarer}'s payment in a typical deal of each outcome",
            ["contract"] + [cap(w.outcome(outs[i])) for i in keep], [[r[0]] + [r[i + 1] for i in keep] for r in rows])


def appendix(b: Builder) -> None:
    """The expressions behind the rules, as the file writes them (kept out of the prose)."""
    rows = []
    for sec in b.book.sections:
        for item in sec.items:
            if isinstance(item, Rule) and item.expr and item.expr != item.text:
                rows.append([f"{sec.title}: {_short(item.text)}", item.expr])
    rows += [[what, " ".join(str(e).split())] for what, e in b.exprs if not isinstance(e, (bool, int))]
    if rows:
        s = b.book.section("appendix", "Appendix: the rules as the file writes them", compare=False)
        s.rule("how", "The expressions of the variant file that the rules above put in words.")
        s.table("exprs", "Expressions", ["rule", "expression"], rows)


def _short(text: str, words: int = 9) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")
