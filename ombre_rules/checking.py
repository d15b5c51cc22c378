"""`ombre check` of one variant file: every problem it has, with its default options and with each other
choice of each option."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import OmbreError, SpecErrors
from .ruleset import Ruleset
from .spec.resolve import resolve


def check_variant(path: str, before: Callable[[dict[str, Any]], None] | None = None) -> list[OmbreError]:
    """Every problem of a variant file: with its default options and with each other choice of each option.
    Keys the schema does not know are reported and left out, so that the rest of the file is checked too.
    `before(options)` is called before each choice is compiled (the web's upload check times each)."""
    problems: list[OmbreError] = []
    try:
        spec = resolve(path, unknown=problems)
    except SpecErrors as e:
        return list(e.errors)
    except OmbreError as e:
        return problems + [e]
    runs: list[dict[str, Any]] = [{}] + [{k: c} for k, cs in spec.choices.items() for c in cs if c != spec.defaults[k]]
    for sel in runs:
        if before is not None:
            before(sel)
        try:
            rules = Ruleset.from_spec(resolve(path, sel, unknown=problems))
            for ctx in list(rules._contexts.values()):
                for fid in range(len(rules.follow_lists)):
                    ctx.follow(fid)
        except SpecErrors as e:
            problems += e.errors
        except OmbreError as e:
            problems.append(e)
    return list({str(p): p for p in problems}.values())
