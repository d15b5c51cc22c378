"""`compare VARIANT --sweep OPTION[=VALUES]`: the same variant with each value of one option (or each players'
line-up, `--sweep players=A/B`), compared as variants are, against the first value; its trend is charted.

VALUES are the option's values separated by commas, a numeric range A..B (the option's numeric choices from A
to B, and every whole number there if the option takes a range) or A..B:STEP (every STEP-th number from A), or
nothing: every choice of the option (for a range, its ends and its default), its current value first."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import OmbreError, did_you_mean
from ..ruleset import Ruleset
from ..spec.ranges import Range, in_range
from ..spec.resolve import fmt_value, parse_variant_string

MAX_VALUES = 50
PLAYERS = "players"


@dataclass(frozen=True)
class Sweep:
    """A swept option, its values in order, and the variant string (or players' line-up) of each."""

    option: str
    values: list
    runs: list[tuple[str, str | None]]  # (variant, players: None for the run's own)

    def meta(self) -> dict:
        return {"option": self.option, "values": [fmt_value(v) for v in self.values]}


_RANGE = re.compile(r"\s*(-?\d{1,9})\s*\.\.\s*(-?\d{1,9})\s*(?::\s*(\d{1,9})\s*)?")


def parse(text: str, variant: str, rules: Ruleset) -> Sweep:
    """The sweep `--sweep text` of `variant` (loaded as `rules`)."""
    key, eq, spec = text.partition("=")
    key = key.strip()
    if key == PLAYERS:
        lineups = [x.strip() for x in spec.split("/") if x.strip()] if eq else []
        if len(lineups) < 2:
            raise OmbreError("--sweep players needs two line-ups or more, separated by '/' (e.g. "
                             "players=greedy/pimc:40, each one player for every seat or one per seat)")
        return Sweep(PLAYERS, lineups, [(variant, x) for x in lineups])
    choices = rules.spec.choices.get(key)
    if choices is None:
        known = sorted(rules.spec.choices)
        raise OmbreError(f"--sweep: {rules.variant} has no option '{key}'{did_you_mean(key, known)}"
                         + (f" (options: {', '.join(known)})" if known else " (it has no options)"))
    rng = rules.spec.ranges.get(key)
    values: list[Any]
    if not eq:
        current = rules.spec.options.get(key, rules.spec.defaults.get(key))
        values = [current] + [c for c in choices if c != current]
    elif m := _RANGE.fullmatch(spec):
        lo, hi, step = int(m[1]), int(m[2]), int(m[3] or 1)
        if lo > hi or step < 1:
            raise OmbreError(f"--sweep {key}={spec}: expected A..B or A..B:STEP with A <= B and STEP >= 1")
        values = sorted({c for c in choices if isinstance(c, int) and not isinstance(c, bool) and lo <= c <= hi
                         and (c - lo) % step == 0} | set(_stepped(lo, hi, step, rng, text)))
        if not values:
            raise OmbreError(f"--sweep {key}={spec}: no choice of {key} in that range (choices: "
                             f"{rules.spec.accepted(key)})")
    else:
        written = {fmt_value(c): c for c in choices}
        values = []
        for part in (x.strip() for x in spec.split(",")):
            if part not in written and in_range(part, rng) is None:
                raise OmbreError(f"--sweep: '{part}' is not a choice of {key}{did_you_mean(part, list(written))} "
                                 f"(choices: {rules.spec.accepted(key)})")
            values.append(written[part] if part in written else in_range(part, rng))
    values = list(dict.fromkeys(values))
    if len(values) < 2:
        raise OmbreError(f"--sweep {text}: needs two values or more")
    if len(values) > MAX_VALUES:
        raise OmbreError(f"--sweep {text}: more than {MAX_VALUES} values")
    name, opts = parse_variant_string(variant)
    return Sweep(key, values, [(_with(name, opts, key, v), None) for v in values])


def _stepped(lo: int, hi: int, step: int, rng: Range | None, text: str) -> range:
    """The numbers lo, lo + step, ... up to hi that lie in an option's range (none without one); refused when
    they are more than a sweep takes."""
    if rng is None:
        return range(0)
    span = range(lo, hi + 1, step)
    first = max(0, -(-(rng.lo - lo) // step))
    inside = span[first:max(first, (min(hi, rng.hi) - lo) // step + 1)]
    if len(inside) > MAX_VALUES:
        raise OmbreError(f"--sweep {text}: more than {MAX_VALUES} values")
    return inside


def _with(name: str, opts: dict[str, str], key: str, value) -> str:
    """The variant string of `name` with its options and `key` set to `value`."""
    merged = {**opts, key: fmt_value(value)}
    return f"{name}({','.join(f'{k}={v}' for k, v in merged.items())})"
