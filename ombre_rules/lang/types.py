"""The static types of the expression language, worked out while compiling, so that a value of the wrong
kind is refused at load time (`ombre check`) and never met at play time.

A type is a short string: `int`, `bool`, `str`, `card`, `suit`, `contract`, `none`, `any`, or `list:T`.
`none` may stand wherever a value may (a missing card, a declarer not yet known); `any` is a value whose kind
the compiler cannot tell, and is never refused."""
from __future__ import annotations

from typing import Any

INT, BOOL, STR, CARD, SUIT, CONTRACT, NONE, ANY = "int", "bool", "str", "card", "suit", "contract", "none", "any"
SEATS = "seats"  # a declared result: one seat, a list of seats, or none
COND = "cond"  # a declared result: a condition (true or false)

_WORDS = {INT: "a number", BOOL: "true or false", STR: "a string", CARD: "a card", SUIT: "a suit",
          CONTRACT: "a contract", NONE: "none", ANY: "a value", SEATS: "a seat or a list of seats",
          COND: "a condition"}


def list_of(t: str) -> str:
    return "list:" + t


def elem(t: str) -> str | None:
    """The item type of a list type; `any` for `any`; None for a type that is not a list."""
    if t.startswith("list:"):
        return t[5:]
    return ANY if t in (ANY, NONE) else None


def words(t: str) -> str:
    """A type as a message says it."""
    if t.startswith("list:"):
        inner = t[5:]
        return "a list" if inner == ANY else f"a list of {_WORDS.get(inner, inner).split(' ', 1)[-1]}s"
    return _WORDS.get(t, t)


def is_num(t: str) -> bool:
    return t in (INT, BOOL, ANY, NONE)


def of_value(v: Any) -> str:
    """The type of a constant value (an option's choice, a suit attribute, a contract attribute)."""
    if v is None:
        return NONE
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, str):
        return STR
    return ANY


def join(a: str, b: str) -> str:
    """The type of a value that is either an `a` or a `b`."""
    if a == b:
        return a
    if a == NONE:
        return b
    if b == NONE:
        return a
    if {a, b} == {INT, BOOL}:
        return INT
    ea, eb = elem(a), elem(b)
    if a.startswith("list:") and b.startswith("list:") and ea is not None and eb is not None:
        return list_of(join(ea, eb))
    return ANY


def fits(want: str, got: str) -> bool:
    """Whether a value of type `got` may stand where `want` is declared."""
    if got in (ANY, NONE) or want == ANY or want == got:
        return True
    if want == COND:
        return True  # every value has a truth value; a list is true when it is not empty
    if want == INT:
        return got == BOOL
    if want == BOOL:
        return got == INT
    if want == SEATS:
        return got in (INT, BOOL) or elem(got) in (INT, ANY, NONE)
    ew, eg = elem(want), elem(got)
    if ew is not None and eg is not None and want.startswith("list:") and got.startswith("list:"):
        return fits(ew, eg)
    return False


def comparable(a: str, b: str) -> bool:
    """Whether `a == b` can be true: values of different kinds are never equal."""
    return fits(a, b) or fits(b, a)
