"""Values carried from deal to deal in a session (`session.carry`): each has a start value and a type; an
expression reads it as `session.NAME` (the value the deal began with) and a settlement step `set:` gives its
value for the next deal. A value declared `once` is fixed by the first `set` that gives it one (not none)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import Suit
from ..errors import OmbreError, SpecError, did_you_mean, quoted
from ..lang import types as T

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset

# the types a carried value may have, by the word the file uses
TYPES = {"int": T.INT, "bool": T.BOOL, "str": T.STR, "suit": T.SUIT, "list": T.list_of(T.INT)}
_EMPTY: dict[str, Any] = {"int": 0, "bool": False, "str": None, "suit": None, "list": []}  # without `start`
MAX_ITEMS = 1000  # items of a carried list, characters of a carried string (no session grows one without bound)


@dataclass(frozen=True)
class Carry:
    """The carried values of a variant, in the order the file declares them."""

    names: tuple[str, ...]
    types: tuple[str, ...]
    once: tuple[bool, ...]
    start: tuple[Any, ...]
    suits: dict[str, Suit]

    def index(self, name: str) -> int:
        return self.names.index(name)

    def value(self, i: int, v: Any) -> Any:
        """A value a `set:` step gives, as the value's type holds it (true/false for a bool, a number for an
        int); an OmbreError when it would pass the limits of a session's values."""
        t = self.types[i]
        if v is None:
            return v
        if t == T.BOOL:
            return bool(v)
        if t == T.INT:
            v = int(v)
            if abs(v) > T.SESSION_NUMBER:
                raise OmbreError(f"session value '{self.names[i]}' would be {T.magnitude(v)}, past the "
                                 f"{T.magnitude(T.SESSION_NUMBER)} a session's number may reach")
            return v
        if t in (T.STR, T.list_of(T.INT)) and len(v) > MAX_ITEMS:
            raise OmbreError(f"session value '{self.names[i]}' would have {len(v)} items, more than {MAX_ITEMS}")
        if t == T.list_of(T.INT) and any(abs(x) > T.SESSION_NUMBER for x in v):
            raise OmbreError(f"session value '{self.names[i]}' would hold a number past the "
                             f"{T.magnitude(T.SESSION_NUMBER)} a session's number may reach")
        return list(v) if isinstance(v, list) else v

    def values(self, given: dict | None) -> tuple[Any, ...]:
        """The values a deal begins with: the start values, with those `given` (by name, as JSON gives them:
        a suit by its name) put in; an OmbreError for an unknown name or a value of the wrong kind."""
        if not given:
            return self.start
        if not isinstance(given, dict):
            raise OmbreError(f"the session's values are a mapping of names to values, not {quoted(given)}")
        out = list(self.start)
        for name, v in given.items():
            if name not in self.names:
                raise OmbreError(f"unknown session value '{name}'{did_you_mean(str(name), self.names)}")
            i = self.names.index(name)
            out[i] = self._decode(name, self.types[i], v, self.once[i])
        return tuple(out)

    def _decode(self, name: str, t: str, v: Any, once: bool = False) -> Any:
        if v is None and (t in (T.SUIT, T.STR) or once):
            return v
        if t == T.SUIT:
            if isinstance(v, Suit) and self.suits.get(v.name) is v:
                return v
            if isinstance(v, str) and v in self.suits:
                return self.suits[v]
        elif t == T.BOOL:
            if isinstance(v, bool):
                return v
        elif t == T.INT:
            if type(v) is int and abs(v) <= T.SESSION_NUMBER:
                return v
        elif t == T.STR:
            if isinstance(v, str) and len(v) <= MAX_ITEMS:
                return v
        elif isinstance(v, (list, tuple)) and len(v) <= MAX_ITEMS and all(type(x) is int and abs(x) <= T.SESSION_NUMBER
                                                                           for x in v):
            return list(v)
        raise OmbreError(f"session value '{name}' must be {T.words(t)}, not {quoted(v)}")

    def to_json(self, values: tuple[Any, ...]) -> dict[str, Any]:
        """The values by name as JSON has them (a suit by its name)."""
        return {n: (v.name if isinstance(v, Suit) else (list(v) if isinstance(v, list) else v))
                for n, v in zip(self.names, values, strict=True)}


def build_carry(rs: Ruleset) -> None:
    """Read `session.carry` into `rs.carry` (None without it) and make its names known to the compiler."""
    decl = (rs.spec.data.get("session") or {}).get("carry") or {}
    rs.carry = None
    if not decl:
        return
    names, types, once, start = [], [], [], []
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
    rs.carry = Carry(tuple(names), tuple(types), tuple(once), tuple(start), rs.deck.suit_by_name)
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
