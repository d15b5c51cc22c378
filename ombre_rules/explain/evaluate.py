"""A small evaluator over the parsed expression tree, for explaining a deal after it ended.

It gives the values the compiled code gives (same built-ins, same guarded division, indexing and attribute
access) but walks the tree, so it does not depend on how expressions are compiled. It is slow and only used
once per explained deal.
"""
from __future__ import annotations

import operator
from typing import Any

from lark import Tree

from ..envs import name_attr
from ..lang.builtins import PURE, RUNTIME
from ..lang.compiler import CARRIED, parse

_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge, "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}


class Evaluator:
    """Evaluates expressions of one ruleset against an environment (a DealEnv) and named local values."""

    def __init__(self, rules: Any, env: Any, local: dict[str, Any] | None = None) -> None:
        self.ns = rules.namespace
        self.env = env
        self.local = dict(local or {})

    def value(self, expr: Any) -> Any:
        """The value of a YAML value: an expression string, or a plain number, bool or none."""
        if expr is None or isinstance(expr, (bool, int)):
            return expr
        return self.node(parse(str(expr)))

    def node(self, t: Tree) -> Any:
        return getattr(self, "_" + t.data)(t)

    def _name(self, t: Tree) -> Any:
        name = str(t.children[0])
        if name in self.local:
            return self.local[name]
        if name in self.ns.names:  # a name of the variant's `names:` (kept under its own attribute)
            return getattr(self.env, name_attr(name))
        if name in self.ns.constants and not hasattr(self.env, name):
            return self.ns.constants[name]
        if name in self.ns.lets:  # a let not bound here: its expression, as the compiler inlines it
            return self.value(self.ns.lets[name].value)
        return getattr(self.env, name)

    def _int(self, t: Tree) -> int:
        return int(str(t.children[0]))

    def _string(self, t: Tree) -> str:
        return str(t.children[0])[1:-1]

    def _card(self, t: Tree) -> Any:
        return self.ns.card_literal(str(t.children[0]))

    def _list(self, t: Tree) -> list:
        return [self.node(x) for x in t.children if x is not None]

    def _items(self, elt: Tree, comp_for: Tree) -> list:
        var_tok, iterable, *conds = comp_for.children
        var = str(var_tok)
        saved = self.local.get(var, _UNSET)
        out = []
        try:
            for v in self.node(iterable):
                self.local[var] = v
                if all(self.node(c.children[0]) for c in conds):
                    out.append(self.node(elt))
        finally:
            if saved is _UNSET:
                self.local.pop(var, None)
            else:
                self.local[var] = saved
        return out

    def _listcomp(self, t: Tree) -> list:
        return self._items(t.children[0], t.children[1])

    def _cond(self, t: Tree) -> Any:
        a, c, b = t.children
        return self.node(a) if self.node(c) else self.node(b)

    def _or_(self, t: Tree) -> Any:
        return self.node(t.children[0]) or self.node(t.children[1])

    def _and_(self, t: Tree) -> Any:
        return self.node(t.children[0]) and self.node(t.children[1])

    def _not_(self, t: Tree) -> bool:
        return not self.node(t.children[0])

    def _compare(self, t: Tree) -> bool:
        left = self.node(t.children[0])
        for i in range(1, len(t.children), 2):
            op = " ".join(str(x) for x in t.children[i].children)
            right = self.node(t.children[i + 1])
            if not _CMP[op](left, right):
                return False
            left = right
        return True

    def _binop(self, t: Tree) -> Any:
        a, op, b = t.children
        x, y = self.node(a), self.node(b)
        if op == "//":
            return RUNTIME["_div"](x, y)
        if op == "%":
            return RUNTIME["_mod"](x, y)
        return x + y if op == "+" else (x - y if op == "-" else x * y)

    def _neg(self, t: Tree) -> Any:
        return -self.node(t.children[0])

    def _index(self, t: Tree) -> Any:
        xs, i = self.node(t.children[0]), self.node(t.children[1])
        try:
            return xs[i]
        except (IndexError, KeyError, TypeError):
            return None

    def _attr(self, t: Tree) -> Any:
        obj, attr = t.children
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "opt" and "opt" not in self.local:
            return self.ns.options[str(attr)]
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == CARRIED \
                and CARRIED not in self.local:
            return self.env.session[self.ns.carried[str(attr)][0]]
        return getattr(self.node(obj), str(attr), None)

    def _call(self, t: Tree) -> Any:
        callee, arguments = t.children
        fname = str(callee.children[0])
        fn = PURE[fname][0] if fname in PURE else getattr(self.env, "f_" + fname)
        if arguments is None:
            return fn()
        if arguments.data == "genexp":
            return fn(self._items(arguments.children[0], arguments.children[1]))
        return fn(*(self.node(x) for x in arguments.children if x is not None))


_UNSET = object()
