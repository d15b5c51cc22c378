"""The static types of the expression language, worked out while compiling, so that a value of the wrong
kind is refused at load time (`ombre check`) and never met at play time.

A type is a short string: `int`, `bool`, `str`, `card`, `suit`, `contract`, `none`, `any`, or `list:T`.
`none` may stand wherever a value may (a missing card, a declarer not yet known); `any` is a value whose kind
the compiler cannot tell, and is never refused."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

INT, BOOL, STR, CARD, SUIT, CONTRACT, NONE, ANY = "int", "bool", "str", "card", "suit", "contract", "none", "any"
SEATS = "seats"  # a declared result: one seat, a list of seats, or none
SEAT = "seat"  # a declared argument or result: a seat of the table (a number from 0)
COND = "cond"  # a declared result: a condition (true or false)

_WORDS = {INT: "a number", BOOL: "true or false", STR: "a string", CARD: "a card", SUIT: "a suit",
          CONTRACT: "a contract", NONE: "none", ANY: "a value", SEATS: "a seat or a list of seats",
          COND: "a condition", SEAT: "a seat"}


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
    if want == SEAT:
        want = INT
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


# -- what is known of a value besides its type --------------------------------------------------------------------
MAX_NUMBER = 2**63 - 1  # no expression may make a number past this, either way (it fits 64 bits): a load error
SESSION_NUMBER = 10**15  # what a value a session accumulates (the pool, carried numbers, scores) counts as
MAX_LIST = 100_000  # items (or characters) of a list or string an expression may build


@dataclass(frozen=True)
class Val:
    """What the compiler knows of a value: its type; whether it may be none, as (what, when): `'declarer' is
    none when every seat passes`; the range of a number (true and false are 1 and 0); the most items of a
    list or characters of a string; and what is known of a list's items."""

    t: str
    none: tuple[str, str] | None = None
    lo: int = 0
    hi: int = 0
    size: int = 0
    item: Val | None = None
    quiet: bool = False  # the value of an expression already refused: it raises no more errors
    least: int = 0  # the fewest items a list has

    def sure(self) -> Val:
        """The same value, known not to be none (after a guard)."""
        return self if self.none is None else replace(self, none=None)

    def maybe(self, what: str, when: str) -> Val:
        """The same value, which may also be none (`what` is none `when`)."""
        return self if self.none is not None else replace(self, none=(what, when))


def num(lo: int, hi: int) -> Val:
    return Val(INT, lo=lo, hi=hi)


BOOL_VAL = Val(BOOL, lo=0, hi=1)
NONE_VAL = Val(NONE, none=("none", ""))
ANY_VAL = Val(ANY)
QUIET = Val(ANY, quiet=True)  # what an expression that did not compile stands for
NEVER = Val(ANY, quiet=True, size=-1)  # a value never computed (a branch a guard rules out): it adds nothing


def seq(item: Val, size: int, least: int = 0) -> Val:
    """A list of at most `size` items (and at least `least`), each as `item` says."""
    return Val(list_of(item.t), size=size, item=item, least=least)


def items(v: Val) -> Val:
    """What is known of a list's items (anything, for a value that is not known to be a list)."""
    if v.item is not None:
        return v.item
    if v.quiet:
        return v
    e = elem(v.t)
    return default(e) if e is not None and e != ANY else ANY_VAL


def default(t: str) -> Val:
    """What is known of a value of type `t` and nothing more: numbers within SESSION_NUMBER, lists and
    strings of at most MAX_LIST items."""
    if t in (INT, SEATS):
        return num(-SESSION_NUMBER, SESSION_NUMBER)
    if t == BOOL:
        return BOOL_VAL
    if t == STR:
        return Val(STR, size=MAX_LIST)
    if t == NONE:
        return NONE_VAL
    e = elem(t) if t.startswith("list:") else None
    if e is not None:
        return seq(default(e), MAX_LIST)
    return Val(t)


def unite(a: Val, b: Val) -> Val:
    """What is known of a value that is either `a` or `b`."""
    if a == NEVER or b == NEVER:
        return b if a == NEVER else a
    if a.t == NONE and a.none is not None:
        return b.maybe(*a.none) if b.t != NONE else a
    if b.t == NONE and b.none is not None:
        return a.maybe(*b.none)
    t = join(a.t, b.t)
    lo, hi = (min(a.lo, b.lo), max(a.hi, b.hi)) if is_num(a.t) and is_num(b.t) else (0, 0)
    item = None
    if t.startswith("list:"):  # the items of an empty list are nothing: the other list's items stand
        item = items(b) if a.size == 0 else items(a) if b.size == 0 else unite(items(a), items(b))
        t = list_of(item.t)
    return Val(t, a.none or b.none, lo, hi, max(a.size, b.size), item, a.quiet or b.quiet, min(a.least, b.least))


# -- ranges of numbers: the result of each operator over every value its operands may have -------------------------
def plus(a: Val, b: Val) -> tuple[int, int]:
    return a.lo + b.lo, a.hi + b.hi


def minus(a: Val, b: Val) -> tuple[int, int]:
    return a.lo - b.hi, a.hi - b.lo


def times(a: Val, b: Val) -> tuple[int, int]:
    ps = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return min(ps), max(ps)


def divided(a: Val, b: Val) -> tuple[int, int]:
    """`a // b`, where a division by zero gives 0: the extremes are at the ends of each sign's part of b."""
    ds = ([max(b.lo, 1), b.hi] if b.hi >= 1 else []) + ([b.lo, min(b.hi, -1)] if b.lo <= -1 else [])
    vs = [x // d for x in (a.lo, a.hi) for d in ds] + ([0] if b.lo <= 0 <= b.hi else [])
    return min(vs), max(vs)


def modulo(a: Val, b: Val) -> tuple[int, int]:
    """`a % b` (0 for b = 0): between 0 and b, short of b."""
    if b.lo >= 1 and 0 <= a.lo and a.hi < b.lo:
        return a.lo, a.hi
    return min(0, b.lo + 1), max(0, b.hi - 1)


def negated(a: Val) -> tuple[int, int]:
    return -a.hi, -a.lo


def absolute(a: Val) -> tuple[int, int]:
    if a.lo >= 0:
        return a.lo, a.hi
    if a.hi <= 0:
        return -a.hi, -a.lo
    return 0, max(-a.lo, a.hi)


def magnitude(n: int) -> str:
    """A bound as a message says it: the number, or its power of ten when it is long."""
    n = abs(n)
    if n == MAX_NUMBER:
        return "2^63 - 1"
    if n < 10**6:
        return str(n)
    digits = len(str(n))
    return f"10^{digits - 1}" if n == 10 ** (digits - 1) else f"about 10^{digits - 1}"
