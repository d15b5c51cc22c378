"""An expression with the variant's chosen options put in: `opt.NAME` becomes the option's value, and whatever
then has a fixed value is worked out (comparisons of fixed values, `and`/`or`/`not` with a fixed side, a
condition `a if c else b` whose `c` is fixed, sums of numbers). A rule that can never hold under the chosen
options folds to false, so the rulebook can leave it out; a value an option fixes reads as that value.

The trees of `parse` are shared and never changed: folding builds new nodes where something folds."""
from __future__ import annotations

import operator
from typing import Any

from lark import Tree

from ..lang.builtins import RUNTIME

CONST = "const"  # a folded node: Tree("const", [value])
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}
_NAMED = {"true": True, "false": False, "none": None}


def const(value: Any) -> Tree:
    return Tree(CONST, [value])


def is_const(t: Any) -> bool:
    return isinstance(t, Tree) and t.data == CONST


def value(t: Tree) -> Any:
    return t.children[0]


def fold(t: Tree, options: dict[str, Any]) -> Tree:
    """The tree with the options' values put in and what is then fixed worked out. `options` may also give
    fixed values of plain names under the key KNOWN (a dict: name -> value)."""
    fn = _FOLD.get(t.data)
    if fn is None:
        kids = [fold(k, options) if isinstance(k, Tree) else k for k in t.children]
        return t if all(a is b for a, b in zip(kids, t.children, strict=True)) else Tree(t.data, kids, t.meta)
    return fn(t, options)


KNOWN = "\0known"  # the key of `options` that holds names with fixed values


def _name(t: Tree, options: dict[str, Any]) -> Tree:
    name = str(t.children[0])
    known = options.get(KNOWN) or {}
    return const(_NAMED[name]) if name in _NAMED else const(known[name]) if name in known else t


def _int(t: Tree, options: dict[str, Any]) -> Tree:
    return const(int(str(t.children[0])))


def _string(t: Tree, options: dict[str, Any]) -> Tree:
    return const(str(t.children[0])[1:-1])


def _attr(t: Tree, options: dict[str, Any]) -> Tree:
    obj, attr = t.children
    if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "opt" and str(attr) in options:
        return const(options[str(attr)])
    inner = fold(obj, options)
    return t if inner is obj else Tree("attr", [inner, attr], t.meta)


def _truth(t: Tree) -> bool | None:
    """True or False when the node's truth is fixed, else None."""
    return bool(value(t)) if is_const(t) else None


def _and(t: Tree, options: dict[str, Any]) -> Tree:
    a, b = (fold(k, options) for k in t.children)
    ta, tb = _truth(a), _truth(b)
    if ta is False or tb is False:
        return const(False)
    if ta is True:
        return b
    if tb is True:
        return a
    return Tree("and_", [a, b], t.meta)


def _or(t: Tree, options: dict[str, Any]) -> Tree:
    a, b = (fold(k, options) for k in t.children)
    ta, tb = _truth(a), _truth(b)
    if ta is True or tb is True:
        return const(True)
    if ta is False:
        return b
    if tb is False:
        return a
    return Tree("or_", [a, b], t.meta)


def _not(t: Tree, options: dict[str, Any]) -> Tree:
    a = fold(t.children[0], options)
    ta = _truth(a)
    return const(not ta) if ta is not None else Tree("not_", [a], t.meta)


def _cond(t: Tree, options: dict[str, Any]) -> Tree:
    a, c, b = t.children
    tc = _truth(fold(c, options))
    if tc is True:
        return fold(a, options)
    if tc is False:
        return fold(b, options)
    return Tree("cond", [fold(a, options), fold(c, options), fold(b, options)], t.meta)


def _compare(t: Tree, options: dict[str, Any]) -> Tree:
    kids = [fold(k, options) if isinstance(k, Tree) and k.data != "comp_op" else k for k in t.children]
    if len(kids) == 3 and is_const(kids[0]) and is_const(kids[2]):
        op = " ".join(str(x) for x in kids[1].children)
        if op in _CMP:
            try:
                return const(bool(_CMP[op](value(kids[0]), value(kids[2]))))
            except TypeError:
                pass
    return Tree("compare", kids, t.meta)


def _binop(t: Tree, options: dict[str, Any]) -> Tree:
    a, op, b = t.children
    fa, fb = fold(a, options), fold(b, options)
    x, y = (value(fa), value(fb)) if is_const(fa) and is_const(fb) else (None, None)
    if type(x) is int and type(y) is int:
        o = str(op)
        v = x + y if o == "+" else x - y if o == "-" else x * y if o == "*" else \
            RUNTIME["_div"](x, y) if o == "//" else RUNTIME["_mod"](x, y)
        return const(v)
    if str(op) in "+-" and is_const(fb) and value(fb) == 0:
        return fa
    if str(op) == "+" and is_const(fa) and value(fa) == 0:
        return fb
    return Tree("binop", [fa, op, fb], t.meta)


def _neg(t: Tree, options: dict[str, Any]) -> Tree:
    a = fold(t.children[0], options)
    return const(-value(a)) if is_const(a) and type(value(a)) is int else Tree("neg", [a], t.meta)


def _list(t: Tree, options: dict[str, Any]) -> Tree:
    kids = [k for k in t.children if k is not None]
    if not kids:
        return const([])
    folded = [fold(k, options) for k in kids]
    return t if all(a is b for a, b in zip(folded, kids, strict=True)) else Tree("list", folded, t.meta)


_FOLD = {"list": _list, "name": _name, "int": _int, "string": _string, "attr": _attr, "and_": _and, "or_": _or,
         "not_": _not, "cond": _cond, "compare": _compare, "binop": _binop, "neg": _neg}
