"""The options section of a rulebook: each option in words, its choices, the default and the one chosen here.
What a choice changes is the diff's job (`ombre diff VARIANT 'VARIANT(OPTION=CHOICE)'`): it needs the other
choice's rules loaded, which a book does not."""
from __future__ import annotations

from typing import Any

from ..spec.resolve import fmt_value, parse_variant_string
from .words import cap


def with_option(rules: Any, key: str, value: Any) -> Any:
    """The same variant with one option set to another choice."""
    from ..ruleset import Ruleset

    name = parse_variant_string(rules.variant)[0]
    chosen = {k: fmt_value(v) for k, v in rules.spec.options.items()}
    chosen[key] = fmt_value(value)
    return Ruleset.load(name, chosen)


def options_section(b: Any) -> None:
    """Add the options section: per option its words and a table of its choices."""
    spec = b.rules.spec
    if not spec.choices:
        return
    s = b.book.section("options", "Options", compare=False)
    s.rule("how", f"Each option below may be set when the game is chosen, as "
                  f"{parse_variant_string(b.rules.variant)[0]}(option=choice). The diff of two choices shows what "
                  f"a choice changes.")
    docs = spec.data.get("options") or {}
    rows = []
    for key in spec.choices:
        doc = " ".join(str((docs.get(key) or {}).get("doc", "")).split())
        chosen = spec.options[key]
        rng = spec.ranges.get(key)
        rest = [fmt_value(v) for v in spec.listed(key) if v != chosen] + ([rng.text()] if rng else [])
        default = fmt_value(spec.defaults[key])
        status = " (the default)" if chosen == spec.defaults[key] else f" (default {default})"
        rows.append([key, cap(doc) if doc else "—", fmt_value(chosen) + status, ", ".join(rest) or "—"])
    s.table("options", "The options", ["option", "what it sets", "chosen here", "other choices"], rows)
