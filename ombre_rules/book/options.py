"""The options section of a rulebook: each option's doc, its choices, and what each choice changes
(worked out by building the book with that choice and comparing it with this one)."""
from __future__ import annotations

from typing import Any

from ..spec.resolve import fmt_value, parse_variant_string
from .model import Book

SHOWN = 6  # changed items named per choice before "and N more"


def with_option(rules: Any, key: str, value: Any) -> Any:
    """The same variant with one option set to another choice."""
    from ..ruleset import Ruleset

    name = parse_variant_string(rules.variant)[0]
    chosen = {k: fmt_value(v) for k, v in rules.spec.options.items()}
    chosen[key] = fmt_value(value)
    return Ruleset.load(name, chosen)


def changes_words(changes: list) -> str:
    names = [f"{c.name} ({c.kind})" for c in changes]
    if not names:
        return "nothing in these rules (it changes play only through what the bots or players choose)"
    more = f", and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return "; ".join(names[:SHOWN]) + more


def options_section(book: Book, rules: Any, effects: bool = True) -> None:
    """Add the options section: per option its doc, and a table of its choices and (`effects`) what each
    changes."""
    from .build import build
    from .diff import diff_books

    spec = rules.spec
    if not spec.choices:
        return
    s = book.section("options", "Options")
    here = build(rules, options=False, examples=False) if effects else None
    docs = spec.data.get("options") or {}
    for key, choices in spec.choices.items():
        doc = (docs.get(key) or {}).get("doc", "")
        s.rule(f"option.{key}", f"{key}: {doc}" if doc else key)
        rows = []
        for v in choices:
            mark = ("default, " if v == spec.defaults[key] else "") + ("chosen here" if v == spec.options[key] else "")
            if here is None:
                rows.append([fmt_value(v), mark.rstrip(", ")])
                continue
            if v == spec.options[key]:
                what = "these rules"
            else:
                other = build(with_option(rules, key, v), options=False, examples=False)
                what = changes_words([c for cs in diff_books(here, other).sections.values() for c in cs])
            rows.append([fmt_value(v), mark.rstrip(", "), what])
        s.table(f"choices.{key}", f"Choices of {key}", ["choice", "status"] + (["what it changes"] if effects else []),
                rows)
