"""Parse an expression with Lark, check every name, arity and type against its site, and compile it to Python.

The result is a plain Python function of one argument (the evaluation environment), built from `ast` nodes
(`block.py`); the tree is never walked again after loading.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import ExprError, Loc, did_you_mean
from ..resources import grammar_path
from ..spec.yamlpos import Source
from . import types as T
from .block import IDENT, USER, Block, block_error, call, checked, env_read, internal, lambda_of, literal, local
from .builtins import PURE, RUNTIME, attr_reader

_TOKEN_TEXT = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COMMA": "','", "DOT": "'.'",
    "NAME": "a name", "INT": "a number", "CARD": "a card", "STRING": "a string", "ELSE": "'else'",
    "IF": "'if'", "IN": "'in'", "FOR": "'for'", "NOT": "'not'", "AND": "'and'", "OR": "'or'",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'", "MINUS": "'-'", "$END": "the end",
}

__all__ = ["Block", "Compiler", "Expr", "Let", "Namespace", "Site", "block_error", "parse", "parser"]

_parser: Lark | None = None


def parser() -> Lark:
    """The expression parser, built once from `grammar/expr.lark`."""
    global _parser
    if _parser is None:
        with open(grammar_path(), encoding="utf-8") as f:
            _parser = Lark(f.read(), parser="lalr", propagate_positions=True, maybe_placeholders=True)
    return _parser


@lru_cache(maxsize=4096)
def parse(text: str) -> Tree:
    """The tree of an expression's text, parsed once: the same text stands in many places (a contract's
    settlement repeats the variant's), and trees are only read."""
    return parser().parse(text)


@dataclass(frozen=True)
class Site:
    """Where an expression stands and what it may use there: context variables and context functions, and
    the type its value must have (`types.py`)."""

    what: str
    vars: frozenset[str]
    funcs: frozenset[str] = frozenset()
    names: bool = True
    result: str = T.ANY


@dataclass
class Namespace:
    """Everything an expression of one variant may name, fixed when the variant loads."""

    constants: dict[str, Any]
    names: set[str]
    options: dict[str, Any]
    attrs: set[str]
    context_funcs: dict[str, tuple[int, int | None]]
    card_literal: Callable[[str], Any]
    types: dict[str, str] = field(default_factory=dict)  # the type of each name, once compiled
    attr_types: dict[str, dict[str, str]] = field(default_factory=dict)  # per object type: attribute -> type
    var_types: dict[str, str] = field(default_factory=dict)  # the type of each context variable
    func_types: dict[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)  # context functions
    option_types: dict[str, str] = field(default_factory=dict)  # of each option, over all its choices
    carried: dict[str, tuple[int, str]] = field(default_factory=dict)  # session values: name -> (index, type)
    lets: dict[str, Let] = field(default_factory=dict)  # the file's `let` names, usable where their inputs are
    let_scopes: str = ""  # where a let of deal-level inputs may be used, in words (for messages)


@dataclass(frozen=True)
class Let:
    """A named value of the file (`let:`, `scoring.let:`): its expression, where it stands and where defined."""

    value: Any  # its expression (or a plain number or truth value)
    source: Source | None
    where: str  # the section that defines it, as a message names it (`let:`)


@dataclass(frozen=True, eq=False)
class Expr:
    """A compiled expression: call it with an environment."""

    fn: Callable[[Any], Any]
    text: str
    loc: Loc | None
    uses: frozenset[str] = field(default=frozenset())
    constant: bool = False
    type: str = T.ANY

    def __call__(self, env: Any) -> Any:
        return self.fn(env)

    @property
    def value(self) -> Any:
        """The value of a constant expression."""
        return self.fn(None)


def _safe_index(xs: Any, i: Any) -> Any:
    if type(i) is not int or type(xs) not in (list, tuple):
        return None
    try:
        return xs[i]
    except IndexError:
        return None


MAX_EXPR_CHARS = 4000  # characters in one expression
MAX_DEPTH = 60  # nesting of operators, calls, lists and attributes in one expression
MAX_COMPREHENSIONS = 3  # comprehensions nested in one another
MAX_INT_DIGITS = 18  # digits of an integer literal

CARRIED = "session"  # `session.NAME` reads a value carried between deals

_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE,
            "in": ast.In, "not in": ast.NotIn}
_CLASS_TYPES = {"Card": T.CARD, "Suit": T.SUIT, "Contract": T.CONTRACT}
# argument types and result type of each pure function (max, min and first are worked out from their arguments)
_PURE_TYPES: dict[str, tuple[tuple[str, ...], str]] = {
    "sum": ((T.list_of(T.INT),), T.INT), "count": ((T.list_of(T.ANY),), T.INT),
    "len": ((T.list_of(T.ANY),), T.INT), "any": ((T.list_of(T.ANY),), T.BOOL),
    "all": ((T.list_of(T.ANY),), T.BOOL), "prefix_len": ((T.list_of(T.ANY), T.list_of(T.ANY)), T.INT),
    "first": ((T.list_of(T.ANY),), T.ANY), "group_points": ((T.list_of(T.INT), T.INT, T.INT), T.INT),
    "abs": ((T.INT,), T.INT), "rest": ((T.list_of(T.ANY),), T.ANY),
}


def _const_type(v: Any) -> str:
    t = T.of_value(v)
    return _CLASS_TYPES.get(type(v).__name__, T.ANY) if t == T.ANY else t


class Compiler:
    """Compiles expressions of one variant against its Namespace."""

    def __init__(self, ns: Namespace) -> None:
        self.ns = ns
        self.globals: dict[str, Any] = {"__builtins__": {}, "_gi": _safe_index}
        for name, (fn, *_rest) in PURE.items():
            self.globals["_b_" + name] = fn
        self.globals.update(RUNTIME)
        for attr in ns.attrs:
            if IDENT.fullmatch(attr) and not attr.startswith("_"):
                self.globals["_a_" + attr] = attr_reader(attr)
        self._consts: dict[int, str] = {}
        self.generated: list[ast.AST] = []  # every tree compiled, for audits
        self._lets: dict[str, tuple[ast.expr, frozenset[str], str]] = {}  # each let compiled once, where all is known
        self._inlining: list[str] = []  # the lets being compiled, innermost last (to refuse a circle)

    # -- entry point -------------------------------------------------------------------------
    def code(self, value: Any, source: Source | None, site: Site,
             local_names: Mapping[str, str] | tuple[str, ...] = ()) -> tuple[ast.expr, frozenset[str], str]:
        """The tree of a YAML value (an expression string, or a plain number/bool), what it uses and its type.
        `local_names` are names bound by the surrounding generated code (lets), with their types."""
        if isinstance(value, bool) or isinstance(value, int) or value is None:
            if isinstance(value, int) and not isinstance(value, bool) and len(str(abs(value))) > MAX_INT_DIGITS:
                raise ExprError(f"number too large (at most {MAX_INT_DIGITS} digits)", source.loc if source else None)
            t = _const_type(value)
            self._check_result(site, t, source, None, None)
            return literal(value), frozenset(), t
        text = str(value)
        if len(text) > MAX_EXPR_CHARS:
            raise ExprError(f"expression of {len(text)} characters (at most {MAX_EXPR_CHARS})",
                            source.loc if source else None)
        try:
            tree = parse(text)
        except UnexpectedInput as e:
            raise self._syntax_error(e, text, source) from None
        job = _Job(self, text, source, site)
        job.check_depth(tree)
        types = local_names if isinstance(local_names, Mapping) else dict.fromkeys(local_names, T.ANY)
        job.locals.extend(types.items())
        node, t = job.emit(tree)
        if isinstance(node, ast.Constant):  # a value fixed at load (an option's choice): its own type, exactly
            t = _const_type(node.value)
        self._check_result(site, t, source, job, tree)
        return node, frozenset(job.uses), t

    def _check_result(self, site: Site, t: str, source: Source | None, job: _Job | None, tree: Any) -> None:
        if not T.fits(site.result, t) or (t == T.NONE and site.result in (T.INT, T.CARD)):
            msg = f"{site.what} must be {T.words(site.result)}, not {T.words(t)}"
            if job is not None:
                raise job.error(msg, tree)
            raise ExprError(msg, source.loc if source else None)

    def compile(self, value: Any, source: Source | None, site: Site) -> Expr:
        """Compile a YAML value for a site into a function of the environment."""
        loc = source.loc if source else None
        node, uses, t = self.code(value, source, site)
        tree = lambda_of(node)
        self.generated.append(tree)
        fn = eval(compile(tree, f"<{loc or 'expr'}>", "eval"), self.globals)  # noqa: S307 - built from ast
        return Expr(fn, str(value), loc, uses, not uses, t)

    def let_code(self, name: str) -> tuple[ast.expr, frozenset[str], str]:
        """A let's tree, what it reads and its type, compiled once where every variable and function is known."""
        got = self._lets.get(name)
        if got is not None:
            return got
        d = self.ns.lets[name]
        if name in self._inlining:
            chain = self._inlining[self._inlining.index(name):] + [name]
            raise ExprError(f"lets refer to each other in a circle: {' -> '.join(chain)}",
                            d.source.loc if d.source else None)
        self._inlining.append(name)
        try:
            everything = Site(f"let '{name}'", frozenset(self.ns.var_types), frozenset(self.ns.context_funcs))
            got = self._lets[name] = self.code(d.value, d.source, everything)
        finally:
            self._inlining.pop()
        return got

    def block(self, name: str) -> Block:
        """Start a generated function that runs several compiled expressions in sequence."""
        return Block(self, name)

    def const_ref(self, value: Any) -> ast.Name:
        """A global of the generated code holding a value of the variant (a card, a suit, a contract)."""
        name = self._consts.get(id(value))
        if name is None:
            name = self._consts[id(value)] = f"_k{len(self._consts)}"
            self.globals[name] = value
        return internal(name)

    def _syntax_error(self, e: UnexpectedInput, text: str, source: Source | None) -> ExprError:
        line, col = getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1
        if isinstance(e, UnexpectedCharacters):
            assert e.pos_in_stream is not None  # Lark's lexer gives where it stopped
            msg = f"unexpected character '{text[e.pos_in_stream]}' in expression"
        elif isinstance(e, UnexpectedEOF):
            msg = "expression ends too early"
            line, col = _end_pos(text)
        elif isinstance(e, UnexpectedToken):
            tok = e.token
            if tok.type == "$END":
                msg = "expression ends too early"
                line, col = _end_pos(text)
            else:
                msg = f"unexpected '{tok}' in expression"
            expected = sorted({_TOKEN_TEXT.get(t, t) for t in e.expected if not t.startswith("__")})
            if expected and len(expected) <= 6:
                msg += f"; expected {', '.join(expected)}"
        else:
            msg = "syntax error in expression"
        return ExprError(msg, _place(source, text, line, col), _caret(text, line, col))


def _end_pos(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1


def _place(source: Source | None, text: str, line: int, col: int) -> Loc | None:
    return source.at(text, line, col) if source else None


def _caret(text: str, line: int, col: int) -> str:
    """The line of the expression with a caret under the column (a long line cut to a window round it)."""
    lines = text.split("\n")
    src = lines[line - 1] if 0 < line <= len(lines) else text
    start = max(0, min(col - 40, len(src) - 80))
    if start or len(src) > 80:
        src = src[start:start + 80]
    return f"    {src}\n    {' ' * (col - 1 - start)}^"


class _Job:
    """Compiles one expression: a scope stack for comprehension variables, what it uses, and the type of
    every node."""

    def __init__(self, comp: Compiler, text: str, source: Source | None, site: Site) -> None:
        self.c = comp
        self.ns = comp.ns
        self.text = text
        self.source = source
        self.site = site
        self.locals: list[tuple[str, str]] = []
        self.uses: set[str] = set()

    def error(self, msg: str, node: Any) -> ExprError:
        line = getattr(node, "line", None)
        col = getattr(node, "column", None)
        if line is None and isinstance(node, Tree) and not node.meta.empty:
            line, col = node.meta.line, node.meta.column
        line, col = line or 1, col or 1
        return ExprError(msg, _place(self.source, self.text, line, col), _caret(self.text, line, col))

    def check_depth(self, tree: Tree) -> None:
        """Refuse an expression nested deeper than MAX_DEPTH (walked without recursion)."""
        stack = [(tree, 1, 0)]
        while stack:
            node, depth, comps = stack.pop()
            if not isinstance(node, Tree):
                continue
            comps += node.data in ("listcomp", "genexp")
            if depth > MAX_DEPTH:
                raise self.error(f"expression nested more than {MAX_DEPTH} levels deep", node)
            if comps > MAX_COMPREHENSIONS:
                raise self.error(f"more than {MAX_COMPREHENSIONS} comprehensions nested in one another", node)
            stack.extend((child, depth + 1, comps) for child in node.children)

    def emit(self, t: Any) -> tuple[ast.expr, str]:
        if isinstance(t, Token):
            raise self.error(f"unexpected '{t}'", t)
        out: tuple[ast.expr, str] = getattr(self, "_" + t.data)(t)  # the method of the node's rule
        return out

    def _local(self, name: str) -> str | None:
        for n, t in reversed(self.locals):
            if n == name:
                return t
        return None

    # -- atoms -------------------------------------------------------------------------------
    def _name(self, t: Tree) -> tuple[ast.expr, str]:
        tok = t.children[0]
        name = str(tok)
        lt = self._local(name)
        if lt is not None:
            return local(name), lt
        if name == CARRIED:
            raise self.error(f"'{CARRIED}' holds the values carried between deals: name one as {CARRIED}.NAME", tok)
        if name in self.site.vars:
            self.uses.add(name)
            return env_read(name), self.ns.var_types.get(name, T.ANY)
        if name in self.ns.names:
            if not self.site.names:
                raise self.error(f"'{name}' cannot be used in {self.site.what}", tok)
            self.uses.add(name)
            return env_read(USER + checked(name)), self.ns.types.get(name, T.ANY)
        if name in self.ns.constants:
            v = self.ns.constants[name]
            return self.c.const_ref(v), _const_type(v)
        if name in self.ns.lets:
            return self._let(name, tok)
        if name in PURE or name in self.ns.context_funcs:
            raise self.error(f"'{name}' is a function: call it as {name}(...)", tok)
        raise self.error(f"unknown name '{name}'{did_you_mean(name, self._visible())}", tok)

    def _let(self, name: str, tok: Any) -> tuple[ast.expr, str]:
        """A `let` name outside the block that binds it: its expression, inlined, if this site knows every input."""
        node, uses, t = self.c.let_code(name)
        known = set(self.site.vars) | {f + "()" for f in self.site.funcs}
        if self.site.names:
            known |= self.ns.names
        missing = sorted(uses - known)
        if missing:
            d = self.ns.lets[name]
            at = f" ({d.source.loc})" if d.source is not None and d.source.loc is not None else ""
            raise self.error(f"'{name}' is defined under {d.where}{at} and reads {', '.join(missing)}, which "
                             f"{self.site.what} does not know; it may be used where its inputs are known"
                             f"{self.ns.let_scopes}", tok)
        self.uses |= uses
        return copy.deepcopy(node), t

    def _visible(self) -> list[str]:
        out = [n for n, _t in self.locals] + list(self.site.vars) + list(self.ns.constants)
        if self.site.names:
            out += list(self.ns.names)
        return out

    def _int(self, t: Tree) -> tuple[ast.expr, str]:
        digits = str(t.children[0])
        if len(digits) > MAX_INT_DIGITS:
            raise self.error(f"number too large (at most {MAX_INT_DIGITS} digits)", t.children[0])
        return literal(int(digits)), T.INT

    def _string(self, t: Tree) -> tuple[ast.expr, str]:
        return literal(str(t.children[0])[1:-1]), T.STR

    def _card(self, t: Tree) -> tuple[ast.expr, str]:
        tok = t.children[0]
        try:
            card = self.ns.card_literal(str(tok))
        except ValueError as e:
            raise self.error(getattr(e, "message", str(e)), tok) from None
        return self.c.const_ref(card), _const_type(card)

    def _list(self, t: Tree) -> tuple[ast.expr, str]:
        items = [self.emit(x) for x in t.children if x is not None]
        et = T.NONE
        for _n, it in items:
            et = T.join(et, it)
        return ast.List([n for n, _t in items], ast.Load()), T.list_of(T.ANY if et == T.NONE else et)

    # -- comprehensions ----------------------------------------------------------------------
    def _comp(self, elt: Any, comp_for: Tree) -> tuple[ast.ListComp, str]:
        var_tok, iterable, *conds = comp_for.children
        var = str(var_tok)
        if not IDENT.fullmatch(var):
            raise self.error(f"'{var}' is not a valid name", var_tok)
        it, itype = self.emit(iterable)
        et = T.elem(itype)
        if et is None:
            raise self.error(f"'for' needs a list, not {T.words(itype)}", iterable)
        self.locals.append((var, et))
        try:
            body, bt = self.emit(elt)
            ifs = [self.emit(cif.children[0])[0] for cif in conds]
        finally:
            self.locals.pop()
        gen = ast.comprehension(local(var, store=True), it, ifs, 0)
        return ast.ListComp(body, [gen]), T.list_of(bt)

    def _listcomp(self, t: Tree) -> tuple[ast.expr, str]:
        return self._comp(t.children[0], t.children[1])

    # -- operators ---------------------------------------------------------------------------
    def _cond(self, t: Tree) -> tuple[ast.expr, str]:
        (a, at), (c, _ct), (b, bt) = (self.emit(x) for x in t.children)
        return ast.IfExp(c, a, b), T.join(at, bt)

    def _or_(self, t: Tree) -> tuple[ast.expr, str]:
        (a, at), (b, bt) = self.emit(t.children[0]), self.emit(t.children[1])
        return ast.BoolOp(ast.Or(), [a, b]), T.join(at, bt)

    def _and_(self, t: Tree) -> tuple[ast.expr, str]:
        (a, at), (b, bt) = self.emit(t.children[0]), self.emit(t.children[1])
        return ast.BoolOp(ast.And(), [a, b]), T.join(at, bt)

    def _not_(self, t: Tree) -> tuple[ast.expr, str]:
        return ast.UnaryOp(ast.Not(), self.emit(t.children[0])[0]), T.BOOL

    def _compare(self, t: Tree) -> tuple[ast.expr, str]:
        left, lt = self.emit(t.children[0])
        first = left
        ops, rights = [], []
        for i in range(1, len(t.children), 2):
            op = " ".join(str(x) for x in t.children[i].children)
            right, rt = self.emit(t.children[i + 1])
            self._check_compare(op, lt, rt, t.children[i])
            ops.append(_COMPARE[op]())
            rights.append(right)
            lt = rt
        return ast.Compare(first, ops, rights), T.BOOL

    def _check_compare(self, op: str, lt: str, rt: str, where: Any) -> None:
        if op in ("==", "!="):
            if not T.comparable(lt, rt):
                always = "false" if op == "==" else "true"
                raise self.error(f"'{op}' compares {T.words(lt)} with {T.words(rt)}: always {always}", where)
        elif op in ("in", "not in"):
            et = T.elem(rt)
            if et is None and rt != T.STR:
                raise self.error(f"'{op}' needs a list on its right, not {T.words(rt)}", where)
            if et is not None and not T.comparable(lt, et):
                raise self.error(f"'{op}' looks for {T.words(lt)} in {T.words(rt)}: never there", where)
        elif not ((T.is_num(lt) and T.is_num(rt)) or (lt in (T.STR, T.ANY, T.NONE) and rt in (T.STR, T.ANY, T.NONE))):
            raise self.error(f"'{op}' cannot order {T.words(lt)} and {T.words(rt)}", where)

    def _binop(self, t: Tree) -> tuple[ast.expr, str]:
        a, op, b = t.children
        (left, lt), (right, rt) = self.emit(a), self.emit(b)
        nums = T.is_num(lt) and T.is_num(rt)
        known = T.ANY not in (lt, rt) and T.NONE not in (lt, rt)
        if op == "+":
            if nums and known:
                return ast.BinOp(left, ast.Add(), right), T.INT
            if nums:
                return call("_add", left, right), T.INT
            res = T.join(lt, rt)
            if res == T.STR or res.startswith("list:") or (res == T.ANY and not known):
                return call("_add", left, right), res
            raise self.error(f"'+' cannot add {T.words(lt)} and {T.words(rt)}", op)
        if not nums:
            raise self.error(f"'{op}' needs numbers, not {T.words(lt if not T.is_num(lt) else rt)}", op)
        if op == "//":
            return call("_div", left, right), T.INT
        if op == "%":
            return call("_mod", left, right), T.INT
        if op == "*":
            return (ast.BinOp(left, ast.Mult(), right) if known else call("_mul", left, right)), T.INT
        return ast.BinOp(left, ast.Sub(), right), T.INT

    def _neg(self, t: Tree) -> tuple[ast.expr, str]:
        node, nt = self.emit(t.children[0])
        if not T.is_num(nt):
            raise self.error(f"'-' needs a number, not {T.words(nt)}", t)
        return ast.UnaryOp(ast.USub(), node), T.INT

    def _index(self, t: Tree) -> tuple[ast.expr, str]:
        (xs, xt), (i, it) = self.emit(t.children[0]), self.emit(t.children[1])
        et = T.elem(xt)
        if et is None:
            raise self.error(f"only a list can be indexed, not {T.words(xt)}", t.children[0])
        if not T.is_num(it):
            raise self.error(f"a list index must be a number, not {T.words(it)}", t.children[1])
        return call("_gi", xs, i), et

    def _attr(self, t: Tree) -> tuple[ast.expr, str]:
        obj, attr_tok = t.children
        attr = str(attr_tok)
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "opt" \
                and self._local("opt") is None:
            if attr not in self.ns.options:
                raise self.error(f"unknown option '{attr}'{did_you_mean(attr, self.ns.options)}", attr_tok)
            v = self.ns.options[attr]
            node = literal(v) if v is None or type(v) in (bool, int, str) else self.c.const_ref(v)
            return node, self.ns.option_types.get(attr, _const_type(v))
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == CARRIED \
                and self._local(CARRIED) is None:
            return self._carried(attr, attr_tok)
        target, ot = self.emit(obj)
        if "_a_" + attr not in self.c.globals:
            raise self.error(f"unknown attribute '{attr}'{did_you_mean(attr, self.ns.attrs)}", attr_tok)
        table = self.ns.attr_types.get(ot)
        if ot in (T.ANY, T.NONE) or not self.ns.attr_types:
            at = T.ANY
        elif table is None or attr not in table:
            raise self.error(f"{T.words(ot)} has no attribute '{attr}'", attr_tok)
        else:
            at = table[attr]
        return call("_a_" + attr, target), at

    def _carried(self, attr: str, tok: Any) -> tuple[ast.expr, str]:
        """`session.NAME`: a value carried between deals, as the deal began (deal-level sites only)."""
        if attr not in self.ns.carried:
            known = self.ns.carried
            raise self.error(f"unknown session value '{attr}'{did_you_mean(attr, known)}"
                             + ("" if known else " (the file declares none under session.carry)"), tok)
        if CARRIED not in self.site.vars:
            raise self.error(f"the session's values cannot be used in {self.site.what} (only where a deal is known: "
                             f"outcomes, scoring, bid, call and play conditions)", tok)
        self.uses.add(CARRIED)
        i, t = self.ns.carried[attr]
        return call("_gi", env_read(CARRIED), literal(i)), t

    def _call(self, t: Tree) -> tuple[ast.expr, str]:
        callee, arguments = t.children
        if not (isinstance(callee, Tree) and callee.data == "name"):
            raise self.error("only named functions can be called", callee)
        tok = callee.children[0]
        fname = str(tok)
        # the function is checked before its arguments, so the leftmost error is the one reported
        if fname in PURE:
            lo, hi = PURE[fname][1:3]
            target: ast.expr = internal("_b_" + fname)
            sig = _PURE_TYPES.get(fname)
        elif fname in self.ns.context_funcs:
            if fname not in self.site.funcs:
                raise self.error(f"'{fname}' cannot be used in {self.site.what}", tok)
            lo, hi = self.ns.context_funcs[fname]
            self.uses.add(fname + "()")
            target = env_read("f_" + checked(fname))
            sig = self.ns.func_types.get(fname)
        else:
            known = list(PURE) + [f for f in self.ns.context_funcs if f in self.site.funcs]
            raise self.error(f"unknown function '{fname}'{did_you_mean(fname, known)}", tok)
        if arguments is None:
            args: list[tuple[ast.expr, str]] = []
            nodes: list[Any] = []
        elif arguments.data == "genexp":
            # a list, not a generator: expressions are pure and total, and a list comprehension runs faster
            args, nodes = [self._comp(arguments.children[0], arguments.children[1])], [arguments]
        else:
            nodes = [x for x in arguments.children if x is not None]
            args = [self.emit(x) for x in nodes]
        self._arity(fname, len(args), lo, hi, tok)
        result = sig[1] if sig else T.ANY
        if sig:
            for (_n, at), want, node in zip(args, sig[0], nodes, strict=False):
                if not T.fits(want, at):
                    raise self.error(f"{fname}() needs {T.words(want)}, not {T.words(at)}", node)
        if fname in ("max", "min", "first"):
            result = self._pick_type(fname, [at for _n, at in args], nodes)
        elif fname == "rest":  # a list of the same items as its argument
            result = args[0][1] if args[0][1].startswith("list:") else T.list_of(T.ANY)
        return ast.Call(target, [n for n, _t in args], []), result

    def _pick_type(self, fname: str, types: list[str], nodes: list[Any]) -> str:
        """The type of max(), min() or first(): an item of the list argument, or one of the arguments."""
        if len(types) == 1 and (types[0].startswith("list:") or fname == "first"):
            et = T.elem(types[0]) or T.ANY
        else:
            et = T.NONE
            for x in types:
                et = T.join(et, x)
        if fname != "first" and not (T.is_num(et) or et == T.STR):
            raise self.error(f"{fname}() needs numbers, not {T.words(et)}", nodes[0] if nodes else None)
        return T.INT if fname != "first" and et in (T.BOOL, T.NONE) else et

    def _arity(self, fname: str, n: int, lo: int, hi: int | None, tok: Any) -> None:
        if n < lo or (hi is not None and n > hi):
            want = str(lo) if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
            plural = "" if (hi if hi is not None else lo) == 1 else "s"
            raise self.error(f"{fname}() takes {want} argument{plural}, got {n}", tok)
