"""`ombre check` of one variant file: every problem it has, with its default options and with each other
choice of each option, within a budget of work (`CHECK_COMPILED`, `CHECK_TABLE_WORK`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import OmbreError, SpecError, SpecErrors
from .lang.compiler import MAX_COMPILED
from .ruleset import MAX_TABLE_WORK, Ruleset
from .spec.resolve import resolve

# the work one `check` may do over all the option choices it compiles (each ruleset keeps to a quarter of it)
CHECK_COMPILED = 4 * MAX_COMPILED
CHECK_TABLE_WORK = 2 * MAX_TABLE_WORK


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
    compiled = tables = 0
    for sel in runs:
        if before is not None:
            before(sel)
        try:
            rules = Ruleset.from_spec(resolve(path, sel, unknown=problems))
            compiled += rules.compiler.compiled
            tables += rules.table_work
            if compiled > CHECK_COMPILED or tables > CHECK_TABLE_WORK:
                problems.append(SpecError(
                    f"checking every option choice would compile more than {CHECK_COMPILED:,} characters of "
                    f"expressions or take more than {CHECK_TABLE_WORK:,} follow-table evaluations (stopped after "
                    f"{runs.index(sel) + 1} of {len(runs)} rulesets): fewer option choices, contracts or cards",
                    spec.doc.key_loc(("options",))))
                break
            for ctx in list(rules._contexts.values()):
                for fid in range(len(rules.follow_lists)):
                    ctx.follow(fid)
        except SpecErrors as e:
            problems += e.errors
        except OmbreError as e:
            problems.append(e)
    return list({str(p): p for p in problems}.values())
