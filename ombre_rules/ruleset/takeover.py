"""The take-over after a surrender (`play.surrender.takeover`), checked against the variant's other mechanics
once every contract is compiled: a game taken over begins anew, so it may not meet a rule that changes the
ring of play or the stakes once a deal (going alone, the defenders' decisions, doubling) or a called partner."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import SpecError

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset  # the part of a Ruleset a builder uses


def check_takeover(rs: Ruleset) -> None:
    """A load error at each `takeover` the variant's other rules do not allow (one for each place)."""
    seen: set[tuple] = set()
    for c in rs.contracts:
        sur = c.play.surrender
        t = sur.takeover if sur is not None else None
        if t is None or t.path in seen:
            continue
        seen.add(t.path)
        others = [k for k, on in (("alone", rs.alone is not None), ("defence", rs.defence is not None),
                                  ("doubling", rs.doubling is not None)) if on]
        called = [k.name for k in (c, *t.contracts) if k.call is not None]
        if others:
            rs._errors.append(SpecError(f"a take-over after a surrender cannot be combined with "
                                        f"{' or '.join(others)} (a game taken over begins anew)", rs.loc(t.path)))
        elif called:
            rs._errors.append(SpecError(f"a take-over after a surrender cannot be combined with a called partner "
                                        f"(contract '{called[0]}' calls a card)", rs.loc(t.path)))
