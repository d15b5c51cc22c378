"""The checks of what a caller hands the engine (action ids, seats), made before anything changes."""
from __future__ import annotations

import operator
from typing import Any

from .errors import ArgumentError, InvalidActionError


def action_id(a: Any) -> int:
    """An action id as a plain int: an int, or an integer type such as numpy's; never a bool, a float or text."""
    if type(a) is int:
        return a
    if isinstance(a, bool) or not hasattr(type(a), "__index__"):
        raise InvalidActionError(f"an action is an id (a whole number), not {_shown(a)}")
    try:
        return operator.index(a)
    except TypeError:  # an array of more than one number
        raise InvalidActionError(f"an action is an id (a whole number), not {_shown(a)}") from None


def seat_id(seat: Any, n: int) -> int:
    """A seat number from 0 to n - 1."""
    if isinstance(seat, bool) or not hasattr(type(seat), "__index__"):
        raise ArgumentError(f"a seat is a whole number, not {_shown(seat)}")
    try:
        seat = operator.index(seat)
    except TypeError:  # an array of more than one number
        raise ArgumentError(f"a seat is a whole number, not {_shown(seat)}") from None
    if not 0 <= seat < n:
        raise ArgumentError(f"no seat {seat} (seats are 0 to {n - 1})")
    return seat


def _shown(v: Any) -> str:
    text = repr(v).replace("\n", "\\n")
    return text if len(text) <= 40 else text[:37] + "..."


def as_count(v: Any) -> int:
    """A number an expression gave where a count is needed (an exchange limit): none counts as 0."""
    return v if type(v) is int else int(v or 0)
