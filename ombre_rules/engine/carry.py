"""The values a session carries from deal to deal (`session.carry`) as one deal holds them: those it began with
(`State.carry`, read by `session.NAME`) and those its settlement leaves for the next deal (`State.carry_after`,
written by `set:` steps). Both are tuples in the order the file declares them."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import OmbreError

if TYPE_CHECKING:
    from ..ruleset import Ruleset


def start_values(rules: Ruleset, given: dict[str, Any] | tuple[Any, ...] | None) -> tuple[Any, ...]:
    """The carried values a deal begins with: the variant's start values, with those `given` by name (or
    another deal's tuple of them, as it is)."""
    if type(given) is tuple and rules.carry is not None and len(given) == len(rules.carry.names):
        return given
    if rules.carry is None:
        if given:
            raise OmbreError(f"'{rules.variant}' carries no values between deals (it declares no session.carry)")
        return ()
    return rules.carry.values(given)


def as_json(rules: Ruleset, values: tuple[Any, ...]) -> dict[str, Any] | None:
    """The carried values by name, as records and result lines hold them (None when the variant has none)."""
    return rules.carry.to_json(values) if rules.carry is not None else None
