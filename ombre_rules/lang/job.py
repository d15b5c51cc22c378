"""Checking and compiling one expression: every node's type and what else is known of its value (`types.Val`:
none or not, a number's range, a list's length), so that whatever could fail at play is refused here, at its
place: a value that may be none where a number is needed, a number past `MAX_NUMBER`, a list past `MAX_LIST`, a
seat outside the table. Guards (`guards.py`) narrow what a condition has tested."""
from __future__ import annotations

import ast
import copy
from dataclasses import replace
from typing import Any

from lark import Token, Tree

from ..errors import did_you_mean
from . import types as T
from .block import ENV, IDENT, LOCAL, USER, call, checked, env_read, internal, local
from .builtins import PURE
from .guards import Facts, key, known, without
from .types import Val
from .values import ValueChecks

CARRIED = "session"  # `session.NAME` reads a value carried between deals
MAX_INT_DIGITS = 18  # digits of an integer literal

_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE,
            "in": ast.In, "not in": ast.NotIn}
_ARITH = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult}
_RANGE = {"+": T.plus, "-": T.minus, "*": T.times, "//": T.divided, "%": T.modulo}
_CLASS_TYPES = {"Card": T.CARD, "Suit": T.SUIT, "Contract": T.CONTRACT}
# argument types and result type of each pure function (max, min and first are worked out from their arguments)
PURE_TYPES: dict[str, tuple[tuple[str, ...], str]] = {
    "sum": ((T.list_of(T.INT),), T.INT), "count": ((T.list_of(T.ANY),), T.INT),
    "len": ((T.list_of(T.ANY),), T.INT), "any": ((T.list_of(T.ANY),), T.BOOL),
    "all": ((T.list_of(T.ANY),), T.BOOL), "prefix_len": ((T.list_of(T.ANY), T.list_of(T.ANY)), T.INT),
    "first": ((T.list_of(T.ANY),), T.ANY), "group_points": ((T.list_of(T.INT), T.INT, T.INT), T.INT),
    "abs": ((T.INT,), T.INT), "rest": ((T.list_of(T.ANY),), T.ANY),
}
# the arguments that may not be none (the others give the function's value for none: 0, an empty list)
_NOT_NONE = {("sum", 0), ("count", 0), ("any", 0), ("all", 0), ("group_points", 2)}


def const_type(v: Any) -> str:
    t = T.of_value(v)
    return _CLASS_TYPES.get(type(v).__name__, T.ANY) if t == T.ANY else t


def const_val(v: Any) -> Val:
    """What is known of a value fixed at load: all of it."""
    if v is None:
        return T.NONE_VAL
    if isinstance(v, (bool, int)):
        return Val(const_type(v), lo=int(v), hi=int(v))
    if isinstance(v, str):
        return Val(T.STR, size=len(v))
    if isinstance(v, (list, tuple)):
        item = T.ANY_VAL
        for i, x in enumerate(v):
            item = const_val(x) if i == 0 else T.unite(item, const_val(x))
        return T.seq(item, len(v))
    return Val(const_type(v))


class Job(ValueChecks):
    """Compiles one expression: a scope stack for comprehension variables, what it uses, the guards that hold
    where each node stands, and what is known of every node's value."""

    def emit(self, t: Any) -> tuple[ast.expr, Val]:
        if isinstance(t, Token):
            raise self.error(f"unexpected '{t}'", t)
        node, v = getattr(self, "_" + t.data)(t)
        if v.none is not None and self.facts and key(t) in self.facts:
            v = v.sure() if v.t != T.NONE else T.NEVER  # a value always none, guarded: where it stands never runs
        self.seen[id(t)] = v
        return node, v

    def known(self, cond: Any, holds: bool) -> Facts:
        """What a condition compiled already tells when it holds (or not)."""
        return known(cond, holds, lambda t: self.seen.get(id(t)))

    def static(self, node: ast.expr) -> tuple[bool, Any]:
        """Whether a compiled node reads nothing of a deal (only the file's constants and options), and then its
        value: the branch a constant condition leaves out is never run, so it is not checked."""
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and (n.id == ENV or n.id.startswith(LOCAL)):
                return False, None
        tree = ast.fix_missing_locations(ast.Expression(copy.deepcopy(node)))
        return True, eval(compile(tree, "<constant>", "eval"), self.c.globals)  # noqa: S307 - built from ast

    def guarded(self, t: Any, facts: Facts) -> tuple[ast.expr, Val]:
        """Emit a node where more guards hold."""
        if not facts:
            return self.emit(t)
        saved = self.facts
        self.facts = {**saved, **facts}
        try:
            return self.emit(t)
        finally:
            self.facts = saved

    # -- names -----------------------------------------------------------------------------------
    def _local(self, name: str) -> Val | None:
        for n, v in reversed(self.locals):
            if n == name:
                return v
        return None

    def _name(self, t: Tree) -> tuple[ast.expr, Val]:
        tok = t.children[0]
        name = str(tok)
        lv = self._local(name)
        if lv is not None:
            return local(name), lv
        ns = self.ns
        if name == CARRIED:
            raise self.error(f"'{CARRIED}' holds the values carried between deals: name one as {CARRIED}.NAME", tok)
        if name in self.site.vars:
            self.uses.add(name)
            t_here = dict(self.site.types).get(name)
            v = T.default(t_here) if t_here else ns.var_vals.get(name) or T.default(ns.var_types.get(name, T.ANY))
            if name in ns.unset and self.site.unset:
                v = v.maybe(name, self.site.unset)
            return env_read(name), v
        if name in ns.names:
            if not self.site.names:
                raise self.error(f"'{name}' cannot be used in {self.site.what}", tok)
            self.uses.add(name)
            return env_read(USER + checked(name)), ns.vals.get(name) or T.default(ns.types.get(name, T.ANY))
        if name in ns.constants:
            v = ns.constants[name]
            return self.c.const_ref(v), const_val(v)
        if name in ns.lets:
            return self._let(name, tok)
        if name in PURE or name in ns.context_funcs:
            raise self.error(f"'{name}' is a function: call it as {name}(...)", tok)
        raise self.error(f"unknown name '{name}'{did_you_mean(name, self._visible())}", tok)

    def _let(self, name: str, tok: Any) -> tuple[ast.expr, Val]:
        """A `let` name outside the block that binds it: its expression, inlined, if this site knows every input."""
        node, uses, v = self.c.let_code(name, self.site.unset)
        known_here = set(self.site.vars) | {f + "()" for f in self.site.funcs}
        if self.site.names:
            known_here |= self.ns.names
        missing = sorted(uses - known_here)
        if missing:
            d = self.ns.lets[name]
            at = f" ({d.source.loc})" if d.source is not None and d.source.loc is not None else ""
            raise self.error(f"'{name}' is defined under {d.where}{at} and reads {', '.join(missing)}, which "
                             f"{self.site.what} does not know; it may be used where its inputs are known"
                             f"{self.ns.let_scopes}", tok)
        self.uses |= uses
        return copy.deepcopy(node), v

    def _visible(self) -> list[str]:
        out = [n for n, _v in self.locals] + list(self.site.vars) + list(self.ns.constants)
        if self.site.names:
            out += list(self.ns.names)
        return out

    # -- atoms -------------------------------------------------------------------------------------
    def _int(self, t: Tree) -> tuple[ast.expr, Val]:
        digits = str(t.children[0])
        if len(digits) > MAX_INT_DIGITS:
            raise self.error(f"number too large (at most {MAX_INT_DIGITS} digits)", t.children[0])
        return ast.Constant(int(digits)), T.num(int(digits), int(digits))

    def _string(self, t: Tree) -> tuple[ast.expr, Val]:
        s = str(t.children[0])[1:-1]
        return ast.Constant(s), Val(T.STR, size=len(s))

    def _card(self, t: Tree) -> tuple[ast.expr, Val]:
        tok = t.children[0]
        try:
            card = self.ns.card_literal(str(tok))
        except ValueError as e:
            raise self.error(getattr(e, "message", str(e)), tok) from None
        return self.c.const_ref(card), Val(const_type(card))

    def _list(self, t: Tree) -> tuple[ast.expr, Val]:
        items = [self.emit(x) for x in t.children if x is not None]
        item: Val | None = None
        for _n, v in items:
            item = v if item is None else T.unite(item, v)
        if item is None or item.t == T.NONE:
            item = T.ANY_VAL if item is None else Val(T.ANY, none=item.none)
        return ast.List([n for n, _v in items], ast.Load()), T.seq(item, len(items), len(items))

    # -- comprehensions ----------------------------------------------------------------------------
    def comp(self, elt: Any, comp_for: Tree) -> tuple[ast.ListComp, Val]:
        var_tok, iterable, *conds = comp_for.children
        var = str(var_tok)
        if not IDENT.fullmatch(var):
            raise self.error(f"'{var}' is not a valid name", var_tok)
        if var in self.ns.constants:
            raise self.error(f"'{var}' is a name of the variant (a rank, suit, card or contract): give the "
                             f"comprehension's variable another name", var_tok)
        it, iv = self.emit(iterable)
        if T.elem(iv.t) is None:
            raise self.error(f"'for' needs a list, not {T.words(iv.t)}", iterable)
        self.known_list(iv, iterable, "'for'")
        saved = self.facts
        self.locals.append((var, T.items(iv)))
        self.facts = without(saved, var)
        try:
            ifs = []
            for cif in conds:
                cond = cif.children[0]
                ifs.append(self.emit(cond)[0])
                self.facts = {**self.facts, **self.known(cond, True)}
            body, bv = self.emit(elt)
        finally:
            self.locals.pop()
            self.facts = saved
        gen = ast.comprehension(local(var, store=True), it, ifs, 0)
        return ast.ListComp(body, [gen]), T.seq(bv, iv.size, 0 if conds else iv.least)

    def _listcomp(self, t: Tree) -> tuple[ast.expr, Val]:
        return self.comp(t.children[0], t.children[1])

    # -- operators ---------------------------------------------------------------------------------
    def _cond(self, t: Tree) -> tuple[ast.expr, Val]:
        a_tree, c_tree, b_tree = t.children
        c, _cv = self.emit(c_tree)
        fixed, value = self.static(c)
        if fixed:
            return self.emit(a_tree if value else b_tree)
        a, av = self.guarded(a_tree, self.known(c_tree, True))
        b, bv = self.guarded(b_tree, self.known(c_tree, False))
        return ast.IfExp(c, a, b), T.unite(av, bv)

    def _or_(self, t: Tree) -> tuple[ast.expr, Val]:
        a, av = self.emit(t.children[0])
        fixed, value = self.static(a)
        if fixed and value:
            return a, av
        b, bv = self.guarded(t.children[1], self.known(t.children[0], False))
        if fixed:
            return b, bv
        return ast.BoolOp(ast.Or(), [a, b]), T.unite(av.sure(), bv)  # `a or b` is b when a is none

    def _and_(self, t: Tree) -> tuple[ast.expr, Val]:
        a, av = self.emit(t.children[0])
        fixed, value = self.static(a)
        if fixed and not value:
            return a, av
        b, bv = self.guarded(t.children[1], self.known(t.children[0], True))
        if fixed:
            return b, bv
        return ast.BoolOp(ast.And(), [a, b]), T.unite(av, bv)

    def _not_(self, t: Tree) -> tuple[ast.expr, Val]:
        return ast.UnaryOp(ast.Not(), self.emit(t.children[0])[0]), T.BOOL_VAL

    def _compare(self, t: Tree) -> tuple[ast.expr, Val]:
        left_tree = t.children[0]
        left, lv = self.emit(left_tree)
        first = left
        ops, rights = [], []
        for i in range(1, len(t.children), 2):
            op = " ".join(str(x) for x in t.children[i].children)
            right_tree = t.children[i + 1]
            right, rv = self.emit(right_tree)
            self._check_compare(op, (lv, left_tree), (rv, right_tree), t.children[i])
            ops.append(_COMPARE[op]())
            rights.append(right)
            lv, left_tree = rv, right_tree
        return ast.Compare(first, ops, rights), T.BOOL_VAL

    def _check_compare(self, op: str, left: tuple[Val, Any], right: tuple[Val, Any], where: Any) -> None:
        (lv, ln), (rv, rn) = left, right
        lt, rt = lv.t, rv.t
        if op in ("==", "!="):
            lt, rt = self._option_type(ln, lt), self._option_type(rn, rt)
            if not T.comparable(lt, rt):
                always = "false" if op == "==" else "true"
                raise self.error(f"'{op}' compares {T.words(lt)} with {T.words(rt)}: always {always}", where)
        elif op in ("in", "not in"):
            et = T.elem(rt)
            if rt == T.NONE or (rt != T.ANY and et is None and rt != T.STR):
                raise self.error(f"'{op}' needs a list on its right, not {T.words(rt)}", where)
            if rt != T.STR:
                self.known_list(rv, rn, f"'{op}'")
            else:
                self.value(rv, rn)
            if rt == T.STR:
                if lt not in (T.STR, T.ANY):
                    raise self.error(f"'{op}' looks for {T.words(lt)} in a string: only a string can be there", where)
                if lt == T.ANY:
                    raise self.error(f"'{op}' looks in a string, and '{self.text_of(ln).strip()}' is not known to "
                                     f"be a string", ln)
                self.value(lv, ln)
            elif et is not None and not T.comparable(lt, et):
                raise self.error(f"'{op}' looks for {T.words(lt)} in {T.words(rt)}: never there", where)
        elif lt == T.STR and rt == T.STR:
            self.value(lv, ln)
            self.value(rv, rn)
        elif T.is_num(lt) and T.is_num(rt):
            self.number(lv, ln, op)
            self.number(rv, rn, op)
        else:
            raise self.error(f"'{op}' cannot order {T.words(lt)} and {T.words(rt)}", where)

    def _option_type(self, t: Any, got: str) -> str:
        """The type of `opt.NAME` over all the option's choices (a comparison must make sense for each), or
        `got` for anything else."""
        obj = t.children[0] if isinstance(t, Tree) and t.data == "attr" else None
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "opt" \
                and self._local("opt") is None:
            return str(self.ns.option_types.get(str(t.children[1]), got))
        return got

    def _binop(self, t: Tree) -> tuple[ast.expr, Val]:
        a, op, b = t.children
        (left, lv), (right, rv) = self.emit(a), self.emit(b)
        if op == "+" and not (T.is_num(lv.t) and T.is_num(rv.t)) and not (lv.quiet or rv.quiet):
            return self._join(t, (left, lv, a), (right, rv, b))
        self.number(lv, a, op)
        self.number(rv, b, op)
        # (a value already refused, or never computed, is what the whole is)
        v = lv if lv.quiet else rv if rv.quiet else self.bounded(*_RANGE[str(op)](lv, rv), t)
        if op in _ARITH:
            return ast.BinOp(left, _ARITH[str(op)](), right), v
        return call("_div" if op == "//" else "_mod", left, right), v

    def _join(self, t: Tree, a: tuple, b: tuple) -> tuple[ast.expr, Val]:
        """`+` of two strings or two lists."""
        (left, lv, ln), (right, rv, rn) = a, b
        res = T.join(lv.t, rv.t)
        if T.ANY in (lv.t, rv.t):
            unknown = ln if lv.t == T.ANY else rn
            raise self.error(f"'+' adds two numbers, two strings or two lists, and '{self.text_of(unknown).strip()}' "
                             f"is not known to be either", unknown)
        if not (res == T.STR or res.startswith("list:")) or T.NONE in (lv.t, rv.t):
            raise self.error(f"'+' cannot add {T.words(lv.t)} and {T.words(rv.t)}", t.children[1])
        self.value(lv, ln)
        self.value(rv, rn)
        size = lv.size + rv.size
        if size > T.MAX_LIST:
            raise self.error(f"'{self.text_of(t).strip()}' may have {size} items, more than {T.MAX_LIST}", t)
        if res == T.STR:
            v = Val(T.STR, size=size)
        else:
            v = T.unite(lv, rv)
            v = T.seq(T.items(v), size, lv.least + rv.least)
        return ast.BinOp(left, ast.Add(), right), v

    def _neg(self, t: Tree) -> tuple[ast.expr, Val]:
        node, nv = self.emit(t.children[0])
        if not T.is_num(nv.t) or nv.t == T.NONE:
            raise self.error(f"'-' needs a number, not {T.words(nv.t)}", t)
        self.number(nv, t.children[0], "-")
        return ast.UnaryOp(ast.USub(), node), nv if nv.quiet else self.bounded(*T.negated(nv), t)

    def _index(self, t: Tree) -> tuple[ast.expr, Val]:
        (xs, xv), (i, iv) = self.emit(t.children[0]), self.emit(t.children[1])
        if T.elem(xv.t) is None:
            raise self.error(f"only a list can be indexed, not {T.words(xv.t)}", t.children[0])
        if not T.is_num(iv.t):
            raise self.error(f"a list index must be a number, not {T.words(iv.t)}", t.children[1])
        item = T.items(xv)
        if iv.t in (T.INT, T.BOOL) and iv.none is None and (0 <= iv.lo and iv.hi < xv.least
                                                             or -xv.least <= iv.lo and iv.hi < 0):
            return call("_gi", xs, i), item  # an index the list always has
        return call("_gi", xs, i), item.maybe(self.text_of(t).strip(), "when the list has no such item")

    def _attr(self, t: Tree) -> tuple[ast.expr, Val]:
        obj, attr_tok = t.children
        attr = str(attr_tok)
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "opt" \
                and self._local("opt") is None:
            if attr not in self.ns.options:
                raise self.error(f"unknown option '{attr}'{did_you_mean(attr, self.ns.options)}", attr_tok)
            v = self.ns.options[attr]
            node = ast.Constant(v) if v is None or type(v) in (bool, int, str) else self.c.const_ref(v)
            return node, const_val(v)
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == CARRIED \
                and self._local(CARRIED) is None:
            return self._carried(attr, attr_tok)
        target, ov = self.emit(obj)
        if "_a_" + attr not in self.c.globals:
            raise self.error(f"unknown attribute '{attr}'{did_you_mean(attr, self.ns.attrs)}", attr_tok)
        if ov.quiet:
            return call("_a_" + attr, target), ov
        ot = ov.t
        table = self.ns.attr_types.get(ot)
        if ot in (T.ANY, T.NONE) or not self.ns.attr_types:
            v = T.ANY_VAL
        elif table is None or attr not in table:
            raise self.error(f"{T.words(ot)} has no attribute '{attr}'", attr_tok)
        else:
            v = self._object_attr(obj, attr) or self.ns.attr_vals.get(ot, {}).get(attr) or T.default(table[attr])
            if v.none is not None:  # an attribute some objects lack
                v = replace(v, none=(self.text_of(t).strip(), v.none[1]))
        if ov.none is not None:  # the attribute of none is none
            v = replace(v, none=ov.none)
        return call("_a_" + attr, target), v

    def _object_attr(self, obj: Any, attr: str) -> Val | None:
        """An attribute of a variable the site knows the object of (a contract's own rules know `contract`):
        that object's value of it, or none if it lacks it."""
        if not (isinstance(obj, Tree) and obj.data == "name") or self._local(str(obj.children[0])) is not None:
            return None
        known_key = dict(self.site.objects).get(str(obj.children[0]))
        attrs = self.ns.objects.get(known_key) if known_key else None
        if attrs is None:
            return None
        return attrs.get(attr) or Val(T.NONE, none=(attr, f"for {known_key}"))

    def _carried(self, attr: str, tok: Any) -> tuple[ast.expr, Val]:
        """`session.NAME`: a value carried between deals, as the deal began (deal-level sites only)."""
        if attr not in self.ns.carried:
            known_names = self.ns.carried
            raise self.error(f"unknown session value '{attr}'{did_you_mean(attr, known_names)}"
                             + ("" if known_names else " (the file declares none under session.carry)"), tok)
        if CARRIED not in self.site.vars:
            raise self.error(f"the session's values cannot be used in {self.site.what} (only where a deal is known: "
                             f"outcomes, scoring, bid, call and play conditions)", tok)
        self.uses.add(CARRIED)
        i, t = self.ns.carried[attr]
        return call("_gi", env_read(CARRIED), ast.Constant(i)), self.ns.carried_vals.get(attr) or T.default(t)

    # -- calls -------------------------------------------------------------------------------------
    def _call(self, t: Tree) -> tuple[ast.expr, Val]:
        callee, arguments = t.children
        if not (isinstance(callee, Tree) and callee.data == "name"):
            raise self.error("only named functions can be called", callee)
        tok = callee.children[0]
        fname = str(tok)
        # the function is checked before its arguments, so the leftmost error is the one reported
        if fname in PURE:
            lo, hi = PURE[fname][1:3]
            target: ast.expr = internal("_b_" + fname)
            sig = PURE_TYPES.get(fname)
        elif fname in self.ns.context_funcs:
            if fname not in self.site.funcs:
                raise self.error(f"'{fname}' cannot be used in {self.site.what}", tok)
            lo, hi = self.ns.context_funcs[fname]
            self.uses.add(fname + "()")
            target = env_read("f_" + checked(fname))
            sig = self.ns.func_types.get(fname)
        else:
            known_funcs = list(PURE) + [f for f in self.ns.context_funcs if f in self.site.funcs]
            raise self.error(f"unknown function '{fname}'{did_you_mean(fname, known_funcs)}", tok)
        if arguments is None:
            args: list[tuple[ast.expr, Val]] = []
            nodes: list[Any] = []
        elif arguments.data == "genexp":
            # a list, not a generator: expressions are pure and total, and a list comprehension runs faster
            args, nodes = [self.comp(arguments.children[0], arguments.children[1])], [arguments]
        else:
            nodes = [x for x in arguments.children if x is not None]
            args = [self.emit(x) for x in nodes]
        self._arity(fname, len(args), lo, hi, tok)
        if sig:
            for i, ((_n, av), want, node) in enumerate(zip(args, sig[0], nodes, strict=False)):
                self._argument(fname, i, want, av, node)
        vals = [v for _n, v in args]
        if any(v.quiet for v in vals):
            return ast.Call(target, [n for n, _v in args], []), next(v for v in vals if v.quiet)
        if fname in PURE:
            result = self._pure_result(fname, vals, nodes, t)
        else:
            result = self.ns.func_vals.get(fname) or T.default(sig[1] if sig else T.ANY)
            if result.none is not None:
                result = replace(result, none=(self.text_of(t).strip(), result.none[1]))
            elif fname == "suit" and vals and vals[0].none is not None:  # the suit of none is none
                result = result.maybe(*vals[0].none)
        return ast.Call(target, [n for n, _v in args], []), result

    def _argument(self, fname: str, i: int, want: str, av: Val, node: Any) -> None:
        if not T.fits(want, av.t):
            raise self.error(f"{fname}() needs {T.words(want)}, not {T.words(av.t)}", node)
        if want != T.ANY and av.t == T.ANY and not av.quiet:
            raise self.error(f"{fname}() needs {T.words(want)}, and '{self.text_of(node).strip()}' is not known to "
                             f"be one", node)
        if (fname, i) in _NOT_NONE:
            self.value(av, node)
        if want == T.SEAT:
            self.seat(av, node, f"{fname}()'s argument")
        we = T.elem(want)
        if we not in (None, T.ANY) and T.items(av).t == T.ANY and av.size and not T.items(av).quiet:
            raise self.error(f"{fname}() needs {T.words(want)}, and the items of '{self.text_of(node).strip()}' "
                             f"are not known to be", node)

    def _pure_result(self, fname: str, vals: list[Val], nodes: list[Any], t: Tree) -> Val:
        """What is known of the value of a pure function, from what is known of its arguments."""
        if fname in ("max", "min", "first"):
            return self._pick(fname, vals, nodes, t)
        a = vals[0]
        if fname == "rest":  # a list of the same items as its argument (empty for none)
            if not a.t.startswith("list:"):
                return T.seq(T.ANY_VAL, T.MAX_LIST)
            return T.seq(T.items(a), a.size, max(0, a.least - 1) if a.none is None else 0)
        if fname in ("len", "count"):
            return T.num(0, a.size)
        if fname == "prefix_len":
            return T.num(0, a.size)
        if fname in ("any", "all"):
            return T.BOOL_VAL
        if fname == "abs":
            return T.num(*T.absolute(a)) if a.none is None else T.num(*T.absolute(T.unite(a, T.num(0, 0))))
        item = T.items(a)
        total = self.bounded(a.size * min(item.lo, 0), a.size * max(item.hi, 0), t)
        if fname == "sum":
            return total
        less = vals[2]
        most = max(-less.lo, less.hi)
        return self.bounded(total.lo - a.size * most - most - 1, total.hi + a.size * most + most + 1, t)

    def _pick(self, fname: str, vals: list[Val], nodes: list[Any], t: Tree) -> Val:
        """max(), min() or first(): an item of the list argument, or one of the arguments."""
        if len(vals) == 1 and (vals[0].t.startswith("list:") or fname == "first"):
            ev = T.items(vals[0])
            if fname == "first":
                if vals[0].least and vals[0].none is None:
                    return ev
                return ev.maybe(self.text_of(t).strip(), "for an empty list")
            empty = True  # an empty list gives 0
        else:
            ev = vals[0]
            for v in vals[1:]:
                ev = T.unite(ev, v)
            empty = False
        if not (T.is_num(ev.t) or ev.t == T.STR):
            raise self.error(f"{fname}() needs numbers, not {T.words(ev.t)}", nodes[0] if nodes else None)
        if ev.t == T.STR:  # strings; 0 for none
            return T.unite(ev.sure(), T.num(0, 0)) if empty or ev.none is not None else ev
        if ev.t in (T.ANY, T.NONE):
            return T.ANY_VAL if ev.t == T.ANY else T.num(0, 0)
        lo, hi = ev.lo, ev.hi
        if empty or ev.none is not None:  # none counts for nothing; nothing at all gives 0
            lo, hi = min(lo, 0), max(hi, 0)
        return T.num(lo, hi)
