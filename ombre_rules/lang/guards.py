"""Guards: what a condition tells about the values it tests, so that `x if declarer != none else 0` may count
with `declarer`. Expressions are pure, so a subexpression has the same value wherever it stands in one
expression, as long as no comprehension binds again a name it reads; a guard is known by the subexpression's
shape (`key`) and the names it reads (`reads`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, Tree

from . import types as T

Facts = dict[tuple, frozenset[str]]  # the subexpressions known not to be none, by shape, with the names they read


def key(t: Any) -> tuple:
    """The shape of a subtree: the same for two places that read the same (spaces and brackets aside)."""
    if isinstance(t, Token):
        return (t.type, str(t))
    if t is None:
        return ("",)
    return (t.data, *(key(c) for c in t.children))


def reads(t: Any) -> frozenset[str]:
    """The names a subtree reads."""
    out: set[str] = set()
    stack = [t]
    while stack:
        node = stack.pop()
        if isinstance(node, Tree):
            if node.data == "name":
                out.add(str(node.children[0]))
            stack.extend(node.children)
    return frozenset(out)


def _is_none(t: Any) -> bool:
    return isinstance(t, Tree) and t.data == "name" and str(t.children[0]) == "none"


def _int(t: Any) -> int | None:
    return int(str(t.children[0])) if isinstance(t, Tree) and t.data == "int" else None


def _not_empty(left: Any, op: str, right: Any) -> Any:
    """The list `len(xs) > 0`, `len(xs) >= 1`, `len(xs) != 0` or `xs != []` says has an item (None otherwise)."""
    if op == "!=" and isinstance(right, Tree) and right.data == "list" and right.children in ([], [None]):
        return left
    listed = _len_of(left)
    n = _int(right)
    if listed is not None and ((op in (">", "!=") and n == 0) or (op == ">=" and n == 1)):
        return listed
    return None


def _len_of(t: Any) -> Any:
    """The list `len(xs)` measures (None for anything else)."""
    if isinstance(t, Tree) and t.data == "call" and isinstance(t.children[0], Tree) \
            and str(t.children[0].children[0]) == "len" and isinstance(t.children[1], Tree) \
            and t.children[1].data == "args" and len([c for c in t.children[1].children if c is not None]) == 1:
        return t.children[1].children[0]
    return None


def known(cond: Any, holds: bool, look: Callable[[Any], T.Val | None] = lambda t: None) -> Facts:
    """The subexpressions that are not none when `cond` holds (or, with holds=False, when it does not);
    `look` tells what is known of a subtree already compiled (for `x in xs` and `i < len(xs)`)."""
    if not isinstance(cond, Tree):
        return {}
    kind = cond.data
    if kind == "not_":
        return known(cond.children[0], not holds, look)
    if kind in ("and_", "or_"):
        if holds != (kind == "and_"):  # `a and b` false, or `a or b` true, tells nothing of either
            return {}
        return {**known(cond.children[0], holds, look), **known(cond.children[1], holds, look)}
    if kind == "compare" and len(cond.children) == 3:
        left, op, right = cond.children
        words = " ".join(str(x) for x in op.children)
        if (words == "!=" and holds) or (words == "==" and not holds):
            other = left if _is_none(right) else right if _is_none(left) else None
            if other is not None:
                return {key(other): reads(other)}
        if not holds:
            return {}
        listed = _not_empty(left, words, right)
        if listed is not None:  # a list with an item: its first and last items are not none
            k, r = key(listed), reads(listed)
            return {("index", k, ("int", ("INT", "0"))): r, ("index", k, ("neg", ("int", ("INT", "1")))): r,
                    ("call", ("name", ("NAME", "first")), ("args", k)): r}
        found = look(right)
        if words == "in" and found is not None and found.t.startswith("list:") and T.items(found).none is None \
                and T.items(found).t != T.NONE:  # found among items that are never none
            return {key(left): reads(left)}
        index, listed = {"<": (left, _len_of(right)), ">": (right, _len_of(left))}.get(words, (None, None))
        at = look(index) if listed is not None else None
        if at is not None and at.t in (T.INT, T.BOOL) and at.none is None and at.lo >= 0:  # 0 <= i < len(xs)
            return {("index", key(listed), key(index)): reads(listed) | reads(index)}
        return {}
    if kind in ("name", "attr", "index", "call") and holds and not _is_none(cond):
        return {key(cond): reads(cond)}  # a value that holds is not none
    return {}


def without(facts: Facts, name: str) -> Facts:
    """The facts that still hold where a comprehension binds `name` again."""
    return {k: r for k, r in facts.items() if name not in r}
