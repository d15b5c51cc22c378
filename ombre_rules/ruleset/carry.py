"""Values carried from deal to deal in a session (`session.carry`): each has a start value and a type; an
expression reads it as `session.NAME` (the value the deal began with) and a settlement step `set:` gives its
value for the next deal. A value declared `once` is fixed by the first `set` that gives it one (not none)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import OmbreError, SpecError, quoted
from ..lang import types as T
from .compiled import MAX_ITEMS, Carry

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset

# the types a carried value may have, by the word the file uses
TYPES = {"int": T.INT, "bool": T.BOOL, "str": T.STR, "suit": T.SUIT, "list": T.list_of(T.INT)}
_EMPTY: dict[str, Any] = {"int": 0, "bool": False, "str": None, "suit": None, "list": []}  # without `start`


def build_carry(rs: Ruleset) -> None:
    """Read `session.carry` into `rs.carry` (None without it) and make its names known to the compiler."""
    decl = (rs.spec.data.get("session") or {}).get("carry") or {}
    rs.carry = None
    if not decl:
        return
    names, types, once, start, by_seat = [], [], [], [], []
    empty = Carry((), (), (), (), rs.deck.suit_by_name)
    for name, d in decl.items():
        path = ("session", "carry", name)
        if not rs.user_name(path, "session.carry"):
            continue
        word = d.get("type")
        v = d.get("start")
        if word is None:
            word = next((w for w, t in TYPES.items() if t == T.of_value(v)), None) if not isinstance(v, list) \
                else "list"
        if word not in TYPES:
            shown = "null" if v is None else quoted(v)
            rs._errors.append(SpecError(f"session value '{name}' needs a type (one of {', '.join(TYPES)}): its "
                                        f"start value {shown} does not tell it", rs.loc(path)))
            continue
        if d.get("by_seat") and word != "list":
            rs._errors.append(SpecError(f"session value '{name}' is kept by seat, so it must be a list (not {word})",
                                        rs.loc(path + ("by_seat",))))
            continue
        if d.get("by_seat"):
            by_seat.append(name)
        once_only = bool(d.get("once", False))
        if "start" not in d:
            v = None if once_only else _EMPTY[word]
        try:
            value = empty._decode(name, TYPES[word], v, once_only)
        except OmbreError as e:
            rs._errors.append(SpecError(e.message, rs.loc(path + ("start",))))
            continue
        names.append(name)
        types.append(TYPES[word])
        once.append(once_only)
        start.append(value)
        rs.namespace.carried_vals[name] = _val(name, TYPES[word], value)
    rs.carry = Carry(tuple(names), tuple(types), tuple(once), tuple(start), rs.deck.suit_by_name,
                     frozenset(by_seat))
    rs.namespace.carried.update({n: (i, t) for i, (n, t) in enumerate(zip(names, types, strict=True))})


def _val(name: str, t: str, start: Any) -> T.Val:
    """What the compiler knows of a carried value: a number within the session's limit, a list or string of at
    most MAX_ITEMS; none until a set: gives it a value if it starts as none, and a string or a suit may be none
    at any time (a set: may give it none)."""
    if t == T.INT:
        v = T.num(-T.SESSION_NUMBER, T.SESSION_NUMBER)
    elif t == T.list_of(T.INT):
        v = T.seq(T.num(-T.SESSION_NUMBER, T.SESSION_NUMBER), MAX_ITEMS)
    elif t == T.STR:
        v = T.Val(T.STR, size=MAX_ITEMS)
    else:
        v = T.default(t)
    if start is None:
        return v.maybe(f"session.{name}", "until a set: gives it a value")
    return v.maybe(f"session.{name}", "once a set: gives it none") if t in (T.STR, T.SUIT) else v


def set_value(st: Any, i: int, value: Any) -> None:
    """`set:` in a settlement: the carried value i for the next deal (a `once` value keeps one it has)."""
    carry = st.rules.carry
    if carry.once[i] and st.carry[i] is not None:
        return
    after = list(st.carry_after)
    after[i] = carry.value(i, value)
    st.carry_after = tuple(after)
