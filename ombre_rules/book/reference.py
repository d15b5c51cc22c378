"""The language reference, generated from the schema, the scope tables and the built-in functions, so
it cannot drift: every variant key, every expression name and function, the operators, the scenario keys."""
from __future__ import annotations

import json
import os
from typing import Any

from ..envs import (
    AUCTION_FUNCS,
    CONTEXT_FUNCS,
    DEAL_FUNCS,
    DEAL_VARS,
    FOLLOW_FUNCS,
    FOLLOW_VARS,
    NAME_FUNCS,
    NAME_VARS,
    SEAT_VARS,
    SESSION_END_FUNCS,
    SESSION_END_VARS,
)
from ..explain.phrase import ARITH, COMPARE, FUNCS
from ..lang.builtins import PURE
from ..resources import variants_dir
from .keys import EXPECT_DOCS, FUNC_DOCS, KEY_DOCS, SCENARIO_DOCS, VAR_DOCS
from .limits import limit_rows, none_rows

# where expressions stand: scope name -> (where, variables, functions)
SCOPES: dict[str, tuple[str, frozenset, frozenset]] = {
    "names": ("`names:` and the names in ranking lists, once per trump suit", NAME_VARS, NAME_FUNCS),
    "card": ("play obligations (`play.follow`) and other card rules", FOLLOW_VARS, FOLLOW_FUNCS),
    "seat": ("`auction.first`, `auction.all_pass.who`, `auction.opening.seat`", SEAT_VARS, AUCTION_FUNCS),
    "deal": ("outcomes, `let`, scoring, play conditions (claim, concede, end_when), exchange limits; with "
             "`choice` in `trump_allowed` and `call.allowed`, `bidder` in `bid_when` and `show`, both in "
             "`surrender.takeover.when`, `exchanger` in exchange limits, `payer` and `payee` in a `pay` step's "
             "amount",
             DEAL_VARS | {"choice", "bidder", "exchanger", "payer", "payee"}, DEAL_FUNCS),
    "sit_out": ("`sit_out.who`", frozenset({"dealer", "seats"}), frozenset()),
    "session_end": ("`session.end_when`, `session.close`: after the session's last deal (`session.NAME` and "
                    "`pool` as that deal left them)", SESSION_END_VARS, SESSION_END_FUNCS),
}
OPERATORS = [("a if c else b", "b unless c holds, then a"), ("or, and, not", "logic (values as in Python)"),
             ("a.NAME", "an attribute: card.rank, card.suit, suit.colour, contract.value, contract.NAME"),
             ("xs[i]", "an item of a list from 0 (none when out of range)"),
             ("[a, b]  [e for x in xs if c]", "lists and list comprehensions"),
             ("f(e for x in xs)", "a function over a generator, e.g. max(tricks(p) for p in defenders)"),
             ("KH, 7D", "card literals (rank, then suit letter); suit names, ranks, contract names and option "
                        "values are constants"),
             ("opt.NAME", "an option's chosen value")]


def schema() -> dict:
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "spec", "variant.schema.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def schema_keys() -> list[tuple[str, str]]:
    """Every key of the variant schema as (path, its schema description or ''): top-level paths, then the
    keys of each shared definition as `DEF:key`."""
    s = schema()
    out: list[tuple[str, str]] = []

    def walk(node: dict, prefix: str) -> None:
        for alt in node.get("oneOf", []):
            walk(alt, prefix)
        if isinstance(node.get("items"), dict):
            walk(node["items"], prefix)
        for k, v in node.get("properties", {}).items():
            out.append((prefix + k, v.get("description", "")))
            walk(v, prefix + k + ".")
            extra = v.get("additionalProperties")
            if isinstance(extra, dict) and "properties" in extra:
                walk(extra, prefix + k + ".*.")
    walk(s, "")
    for name, node in s["$defs"].items():
        walk(node, name + ":")
    return out


def _examples() -> dict[str, str]:
    """A value from a built-in file for each leaf key name under its parent's name (`claim.when`)."""
    import yaml

    found: dict[str, str] = {}

    def visit(node: Any, parent: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                key = f"{parent}.{k}"
                if key not in found and not isinstance(v, (dict, list)) and v is not None:
                    found[key] = str(v)
                visit(v, str(k))
        elif isinstance(node, list):
            for v in node:
                visit(v, parent)
    d = variants_dir()
    for name in sorted(os.listdir(d)):
        if name.endswith(".yaml"):
            with open(os.path.join(d, name), encoding="utf-8") as f:
                visit(yaml.safe_load(f), "")
    return found


def _example_for(path: str, examples: dict[str, str]) -> str:
    parts = path.replace(":", ".").split(".")
    leaf = parts[-1]
    parent = parts[-2] if len(parts) > 1 else ""
    for p in ((parent, leaf), ("", leaf)) if parent not in ("*",) else (("", leaf),):
        got = examples.get(f"{p[0]}.{p[1]}")
        if got is not None:
            return f"{leaf}: {got}"[:90]
    return ""


def sections() -> list[tuple[str, list[str], list[list[str]]]]:
    """The reference as (title, header, rows) tables."""
    ex = _examples()
    keys = [[f"`{p}`", KEY_DOCS.get(p) or d, f"`{_example_for(p, ex)}`" if _example_for(p, ex) else ""]
            for p, d in schema_keys()]
    names = sorted(set().union(*(v for _w, v, _f in SCOPES.values())) | {"opt"})
    var_rows = [[f"`{n}`", VAR_DOCS[n][0], ", ".join(s for s, (_w, v, _f) in SCOPES.items() if n in v) or "every scope",
                 f"`{VAR_DOCS[n][1]}`"] for n in names]
    funcs = list(PURE) + [f for f in CONTEXT_FUNCS if f not in PURE]
    func_rows = []
    for f in funcs:
        lo, hi = (PURE[f][1], PURE[f][2]) if f in PURE else CONTEXT_FUNCS[f]
        arity = str(lo) if lo == hi else f"{lo} or more" if hi is None else f"{lo}-{hi}"
        where = "every scope" if f in PURE else ", ".join(s for s, (_w, _v, fs) in SCOPES.items() if f in fs)
        args, result, example = FUNC_DOCS[f]
        func_rows.append([f"`{f}`", arity, args, result, FUNCS[f].format(*"xyz"[:max(lo, 1)]) if f in FUNCS else "",
                          where, f"`{example}`"])
    ops = [[f"`{k}`", w] for k, w in COMPARE.items()] + [[f"`{k}`", w] for k, w in ARITH.items()] + \
        [[f"`{k}`", w] for k, w in OPERATORS]
    scopes = [[f"`{s}`", w] for s, (w, _v, _f) in SCOPES.items()]
    scen = [[f"`{k}`", v] for k, v in SCENARIO_DOCS.items()] + [[f"`expect.{k}`", v] for k, v in EXPECT_DOCS.items()]
    return [("Variant file keys", ["key", "meaning", "example"], keys),
            ("Scopes: where expressions stand", ["scope", "where"], scopes),
            ("Names", ["name", "meaning", "scopes", "example"], var_rows),
            ("Functions", ["function", "arguments", "types", "result", "meaning", "scopes", "example"], func_rows),
            ("Operators", ["operator", "meaning"], ops),
            ("Values that may be none", ["value", "it is none"], none_rows()),
            ("Limits", ["what", "limit"], limit_rows()),
            ("Scenario file keys", ["key", "meaning"], scen)]


INTRO = ("Generated by `ombre reference` from the variant schema, the scope tables and the built-in functions. "
         "A name defined under a top-level `let:` (or `scoring.let:`) may be used in every expression that knows "
         "all it reads (the outcomes, the payment steps, bid, call and play conditions); elsewhere the error says "
         "where it is defined and what the place does not know. "
         "Names under `names:` may be used in every scope but `sit_out`. Division by zero gives 0. "
         "A file that `ombre check` accepts plays without an error: what could fail at play is refused at load, at "
         "its place. A value that may be none (see the table below) cannot be counted with, ordered, walked "
         "through or given where a number is needed until a guard says it is not none: `x if declarer != none "
         "else 0`, `declarer != none and ...`, `p != none` in a comprehension's `if`, `len(xs) > 0` for `xs[0]`, "
         "`i < len(xs)` for `xs[i]`, or `x or 0`. No expression may make a number past the limit below, a list "
         "past its length, or name a seat outside the table (`(declarer + 1) % 3`, not `declarer + 1`).")


def reference_md() -> str:
    from .markdown import table_md
    from .model import Table

    out = ["# The ombre_rules language reference", "", INTRO, ""]
    for title, header, rows in sections():
        out += [f"## {title}", ""] + table_md(Table(title, title, tuple(header), tuple(map(tuple, rows))))[2:]
    return "\n".join(out).rstrip() + "\n"


def reference_html() -> str:
    import html

    from .html import page

    parts = ["<h1>The ombre_rules language reference</h1>", f"<p>{html.escape(INTRO)}</p>"]
    for title, header, rows in sections():
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c.strip('`'))}</td>" for c in r) + "</tr>" for r in rows)
        parts.append(f'<h2>{html.escape(title)}</h2><div class="scroll"><table><thead><tr>{head}</tr></thead>'
                     f"<tbody>{body}</tbody></table></div>")
    return page("ombre_rules language reference", "".join(parts), False)
