"""Options that take a whole number within a range (`range: {min, max}`), besides any choices they list: reading
and checking the range, matching a value given as text, and saying what an option accepts."""
from __future__ import annotations

import re
from typing import Any, NamedTuple

from ..errors import SpecError
from .yamlpos import PositionedDoc

_WHOLE = re.compile(r"[+-]?\d{1,18}")


class Range(NamedTuple):
    """The whole numbers from `lo` to `hi`, both included."""

    lo: int
    hi: int

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and self.lo <= value <= self.hi

    def text(self) -> str:
        return f"a whole number from {self.lo} to {self.hi}"


def read_range(doc: PositionedDoc, key: str, spec: dict) -> Range | None:
    """The range of option `key` (its entry `spec`, checked by the schema), or None; a range whose min is above
    its max, or an option with neither choices nor a range, is refused at its place."""
    raw = spec.get("range")
    if raw is None:
        if "choices" not in spec:
            raise SpecError(f"option '{key}' has neither choices nor a range", doc.key_loc(("options", key)))
        return None
    rng = Range(raw["min"], raw["max"])
    if rng.lo > rng.hi:
        raise SpecError(f"the range of option '{key}' is empty: min {rng.lo} is above max {rng.hi}",
                        doc.loc(("options", key, "range", "min")))
    return rng


def in_range(value: Any, rng: Range | None) -> int | None:
    """`value` (a number, or a whole number as text) when it lies in `rng`; None otherwise."""
    if rng is None:
        return None
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        value = int(value.strip())
    return value if value in rng else None


def representatives(listed: list[Any], rng: Range | None, default: Any) -> list[Any]:
    """The values that stand for an option where each is tried (`ombre check`, a sweep of every choice, the
    built-in checks): its listed choices, then the range's ends and the default."""
    extra = [] if rng is None else [rng.lo, default, rng.hi]
    out: list[Any] = []
    for v in listed + extra:
        if not any(type(v) is type(w) and v == w for w in out):
            out.append(v)
    return out


def accepted_text(listed: list[Any], rng: Range | None, fmt: Any) -> str:
    """What an option accepts, in words: its choices, and the range (`fmt` writes one choice)."""
    words = ", ".join(fmt(c) for c in listed)
    if rng is None:
        return words
    return f"{words}, or {rng.text()}" if words else rng.text()
