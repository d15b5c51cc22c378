"""Pure built-in functions of the expression language. Each is total: no input makes it raise."""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sized
from typing import Any


def _items(xs: tuple[Any, ...]) -> list[Any]:
    """The values of max/min: the items of a single list argument, else the arguments themselves."""
    if len(xs) == 1:
        x = xs[0]
        if x is not None and not isinstance(x, int):
            try:
                return list(x)
            except TypeError:
                pass
    return list(xs)


def _extreme(pick: Callable[..., Any], xs: tuple[Any, ...]) -> Any:
    items = _items(xs)
    if None in items:  # a none does not count
        items = [x for x in items if x is not None]
    try:
        return pick(items, default=0)
    except TypeError:  # values that do not compare: only the numbers count
        return pick((x for x in items if isinstance(x, int)), default=0)


def _ints(xs: tuple[Any, ...]) -> list[int] | None:
    """The single argument, when it is a non-empty list of numbers only (the common case, taken as it is)."""
    if len(xs) == 1:
        x = xs[0]
        if type(x) is list and x:
            for v in x:
                if type(v) is not int:
                    return None
            return x
    return None


def _max(*xs: Any) -> Any:
    x = _ints(xs)
    return max(x) if x is not None else _extreme(max, xs)


def _min(*xs: Any) -> Any:
    x = _ints(xs)
    return min(x) if x is not None else _extreme(min, xs)


def _sum(xs: Iterable[Any]) -> Any:
    return sum(x for x in xs if x is not None)


def _count(xs: Iterable[Any]) -> int:
    """How many items are true (or, for a list of values, how many are not none)."""
    return sum(1 for x in xs if x)


def _len(xs: Sized | None) -> int:
    return len(xs) if xs is not None else 0


def _prefix_len(order: Iterable[Any] | None, held: Any) -> int:
    """How many leading items of `order` are all in `held` (a run from the top)."""
    if type(held) is not list or len(held) > 16:  # a set pays for itself only on long lists
        held = set(held or ())
    n = 0
    for x in order or ():
        if x not in held:
            break
        n += 1
    return n


def _group_points(values: Iterable[Any] | None, size: int | None, less: int) -> int:
    """Card points counted in groups: the values' sum, less `less` per full group of `size`, and less the
    same share rounded to the nearest (halves up) for a last, incomplete group."""
    vals: list[int] = [v for v in values or () if v is not None]
    if not size or size < 1:
        return sum(vals)
    full, rest = divmod(len(vals), size)
    return sum(vals) - full * less - (2 * less * rest + size) // (2 * size) * (rest > 0)


def _first(xs: Iterable[Any] | None) -> Any:
    for x in xs or ():
        return x
    return None


def _rest(xs: Iterable[Any] | None) -> list[Any]:
    """The items of a list after the first (an empty list for none)."""
    return list(xs)[1:] if xs else []


def _abs(x: Any) -> Any:
    return abs(x) if x is not None else 0


def _div(a: Any, b: Any) -> Any:
    return a // b if b else 0


def _mod(a: Any, b: Any) -> Any:
    return a % b if b else 0


# name -> (function, min arity, max arity or None for any, description)
PURE: dict[str, tuple[Callable[..., Any], int, int | None, str]] = {
    "max": (_max, 1, None, "largest of the values (0 for none)"),
    "min": (_min, 1, None, "smallest of the values (0 for none)"),
    "sum": (_sum, 1, 1, "sum of the values"),
    "count": (_count, 1, 1, "how many items are true"),
    "len": (_len, 1, 1, "length of a list"),
    "any": (lambda xs: any(xs), 1, 1, "whether any item is true"),
    "all": (lambda xs: all(xs), 1, 1, "whether every item is true"),
    "prefix_len": (_prefix_len, 2, 2, "how many leading items of a list are all in another"),
    "first": (_first, 1, 1, "the first item of a list, or none"),
    "group_points": (_group_points, 3, 3, "card points counted in groups: group_points(values, size, less)"),
    "abs": (_abs, 1, 1, "absolute value"),
    "rest": (_rest, 1, 1, "the items of a list after the first"),
}


_PLAIN = (int, bool, str, list, tuple, dict, float, type(None))


def attr_reader(name: str) -> Callable[[Any], Any]:
    """`x.NAME` for a checked attribute name: the attribute of a card, suit or contract, none for a plain value
    or an object without it."""
    get = operator.attrgetter(name)

    def read(obj: Any) -> Any:
        if type(obj) in _PLAIN:
            return None
        try:
            return get(obj)
        except AttributeError:
            return None
    return read


RUNTIME: dict[str, Callable[[Any, Any], Any]] = {"_div": _div, "_mod": _mod}
