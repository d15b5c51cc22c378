"""Parse an expression with Lark, check every name and arity against its site, and compile it to Python.

The result is a plain Python function of one argument (the evaluation environment); the tree is never
walked again after loading.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import ExprError, Loc, did_you_mean
from ..resources import grammar_path
from ..spec.yamlpos import Source
from .builtins import PURE, RUNTIME

_TOKEN_TEXT = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COMMA": "','", "DOT": "'.'",
    "NAME": "a name", "INT": "a number", "CARD": "a card", "STRING": "a string", "ELSE": "'else'",
    "IF": "'if'", "IN": "'in'", "FOR": "'for'", "NOT": "'not'", "AND": "'and'", "OR": "'or'",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'", "MINUS": "'-'", "$END": "the end",
}

_parser: Lark | None = None


def parser() -> Lark:
    """The expression parser, built once from `grammar/expr.lark`."""
    global _parser
    if _parser is None:
        with open(grammar_path(), encoding="utf-8") as f:
            _parser = Lark(f.read(), parser="lalr", propagate_positions=True, maybe_placeholders=True)
    return _parser


@dataclass(frozen=True)
class Site:
    """Where an expression stands and what it may use there: context variables and context functions."""

    what: str
    vars: frozenset[str]
    funcs: frozenset[str] = frozenset()
    names: bool = True


@dataclass
class Namespace:
    """Everything an expression of one variant may name, fixed when the variant loads."""

    constants: dict[str, Any]
    names: set[str]
    options: dict[str, Any]
    attrs: set[str]
    context_funcs: dict[str, tuple[int, int | None]]
    card_literal: Callable[[str], Any]


@dataclass(frozen=True, eq=False)
class Expr:
    """A compiled expression: call it with an environment."""

    fn: Callable[[Any], Any]
    text: str
    loc: Loc | None
    uses: frozenset[str] = field(default=frozenset())
    constant: bool = False

    def __call__(self, env: Any) -> Any:
        return self.fn(env)

    @property
    def value(self) -> Any:
        """The value of a constant expression."""
        return self.fn(None)


def _safe_index(xs: Any, i: Any) -> Any:
    try:
        return xs[i]
    except (IndexError, KeyError, TypeError):
        return None


class Compiler:
    """Compiles expressions of one variant against its Namespace."""

    def __init__(self, ns: Namespace) -> None:
        self.ns = ns
        self.globals: dict[str, Any] = {"__builtins__": {}, "_ga": getattr, "_gi": _safe_index}
        for name, (fn, *_rest) in PURE.items():
            self.globals["_b_" + name] = fn
        self.globals.update(RUNTIME)
        self._consts: list[Any] = []
        self.globals["_k"] = self._consts

    # -- entry point -------------------------------------------------------------------------
    def code(self, value: Any, source: Source | None, site: Site,
             local_names: tuple[str, ...] = ()) -> tuple[str, frozenset[str]]:
        """Python source for a YAML value (an expression string, or a plain number/bool), and what it uses.
        `local_names` are names bound by the surrounding generated code (lets)."""
        if isinstance(value, bool) or isinstance(value, int) or value is None:
            return repr(value), frozenset()
        text = str(value)
        try:
            tree = parser().parse(text)
        except UnexpectedInput as e:
            raise self._syntax_error(e, text, source) from None
        job = _Job(self, text, source, site)
        job.locals.extend(local_names)
        return job.emit(tree), frozenset(job.uses)

    def compile(self, value: Any, source: Source | None, site: Site) -> Expr:
        """Compile a YAML value for a site into a function of the environment."""
        loc = source.loc if source else None
        code, uses = self.code(value, source, site)
        fn = eval(compile(f"lambda _e: {code}", f"<{loc or 'expr'}>", "eval"), self.globals)  # noqa: S307
        return Expr(fn, str(value), loc, uses, not uses)

    def block(self, name: str, params: str) -> Block:
        """Start a generated function that runs several compiled expressions in sequence."""
        return Block(self, name, params)

    def const_ref(self, value: Any) -> str:
        self._consts.append(value)
        return f"_k[{len(self._consts) - 1}]"

    def _syntax_error(self, e: UnexpectedInput, text: str, source: Source | None) -> ExprError:
        line, col = getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1
        if isinstance(e, UnexpectedCharacters):
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


class Block:
    """A generated Python function built line by line from compiled expressions; each line remembers the
    expression it came from, so a failure at run time is reported at its place in the YAML file."""

    def __init__(self, compiler: Compiler, name: str, params: str) -> None:
        self.compiler = compiler
        self.name = name
        self.lines = [f"def {name}({params}):"]
        self.origin: dict[int, tuple[Loc | None, str]] = {}

    def add(self, depth: int, line: str, loc: Loc | None = None, text: str = "") -> None:
        self.lines.append("    " * depth + line)
        if loc is not None or text:
            self.origin[len(self.lines)] = (loc, text)

    def build(self, live: frozenset[str] = frozenset(), direct: dict[str, str] | None = None) -> Callable:
        """Compile the function. Every environment value it reads, except those in `live` (which may change
        while it runs), is read once at its start into a local: from the source `direct[name]` when given,
        else from the environment `_e`."""
        body = self.lines[1:]
        found = sorted({m for line in body for m in _ENV_READ.findall(line)} - set(live))
        direct = direct or {}
        hoist = [f"    _h_{name} = {direct.get(name, '_e.' + name)}" for name in found]
        inline = sorted(set(live) & set(direct))  # read where used, but straight from the state
        if inline:
            pattern = re.compile(r"_e\.(" + "|".join(inline) + r")\b")
            body = [pattern.sub(lambda m: direct[m.group(1)], line) for line in body]
        if found:
            pattern = re.compile(r"_e\.(" + "|".join(found) + r")\b")
            body = [pattern.sub(r"_h_\1", line) for line in body]
            self.origin = {k + len(hoist): v for k, v in self.origin.items()}
        src = "\n".join([self.lines[0]] + hoist + body) + "\n"
        filename = f"<block {self.name} {id(self)}>"
        namespace: dict[str, Any] = {}
        exec(compile(src, filename, "exec"), self.compiler.globals, namespace)  # noqa: S102
        fn = namespace[self.name]
        fn.origin = self.origin
        fn.filename = filename
        fn.source = src
        return fn


_ENV_READ = re.compile(r"_e\.([A-Za-z_][A-Za-z0-9_]*)")


def block_error(fn: Callable, exc: BaseException) -> ExprError:
    """The expression of a generated block that raised `exc`, as an error at its place."""
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == fn.filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    loc, text = fn.origin.get(line, (None, ""))
    return ExprError(f"expression '{text}' failed: {exc}", loc)


def _end_pos(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1


def _place(source: Source | None, text: str, line: int, col: int) -> Loc | None:
    return source.at(text, line, col) if source else None


def _caret(text: str, line: int, col: int) -> str:
    lines = text.split("\n")
    src = lines[line - 1] if 0 < line <= len(lines) else text
    return f"    {src}\n    {' ' * (col - 1)}^"


class _Job:
    """Compiles one expression: a scope stack for comprehension variables, and what it uses."""

    def __init__(self, comp: Compiler, text: str, source: Source | None, site: Site) -> None:
        self.c = comp
        self.ns = comp.ns
        self.text = text
        self.source = source
        self.site = site
        self.locals: list[str] = []
        self.uses: set[str] = set()

    def error(self, msg: str, node: Any) -> ExprError:
        line = getattr(node, "line", None)
        col = getattr(node, "column", None)
        if line is None and isinstance(node, Tree) and not node.meta.empty:
            line, col = node.meta.line, node.meta.column
        line, col = line or 1, col or 1
        return ExprError(msg, _place(self.source, self.text, line, col), _caret(self.text, line, col))

    def emit(self, t: Any) -> str:
        if isinstance(t, Token):
            raise self.error(f"unexpected '{t}'", t)
        return getattr(self, "_" + t.data)(t)

    # -- atoms -------------------------------------------------------------------------------
    def _name(self, t: Tree) -> str:
        tok = t.children[0]
        name = str(tok)
        if name in self.locals:
            return "_v_" + name
        if name in self.site.vars:
            self.uses.add(name)
            return "_e." + name
        if name in self.ns.names:
            if not self.site.names:
                raise self.error(f"'{name}' cannot be used in {self.site.what}", tok)
            self.uses.add(name)
            return "_e." + name
        if name in self.ns.constants:
            return self.c.const_ref(self.ns.constants[name])
        if name in PURE or name in self.ns.context_funcs:
            raise self.error(f"'{name}' is a function: call it as {name}(...)", tok)
        raise self.error(f"unknown name '{name}'{did_you_mean(name, self._visible())}", tok)

    def _visible(self) -> list[str]:
        out = list(self.locals) + list(self.site.vars) + list(self.ns.constants)
        if self.site.names:
            out += list(self.ns.names)
        return out

    def _int(self, t: Tree) -> str:
        return str(int(t.children[0]))

    def _string(self, t: Tree) -> str:
        return repr(str(t.children[0])[1:-1])

    def _card(self, t: Tree) -> str:
        tok = t.children[0]
        try:
            card = self.ns.card_literal(str(tok))
        except ValueError as e:
            raise self.error(getattr(e, "message", str(e)), tok) from None
        return self.c.const_ref(card)

    def _list(self, t: Tree) -> str:
        items = [self.emit(x) for x in t.children if x is not None]
        return "[" + ", ".join(items) + "]"

    # -- comprehensions ----------------------------------------------------------------------
    def _comp(self, elt: Any, comp_for: Tree) -> str:
        var_tok, iterable, *conds = comp_for.children
        var = str(var_tok)
        it = self.emit(iterable)
        self.locals.append(var)
        try:
            body = self.emit(elt)
            ifs = "".join(f" if {self.emit(cif.children[0])}" for cif in conds)
        finally:
            self.locals.pop()
        return f"{body} for _v_{var} in {it}{ifs}"

    def _listcomp(self, t: Tree) -> str:
        return "[" + self._comp(t.children[0], t.children[1]) + "]"

    # -- operators ---------------------------------------------------------------------------
    def _cond(self, t: Tree) -> str:
        a, c, b = (self.emit(x) for x in t.children)
        return f"({a} if {c} else {b})"

    def _or_(self, t: Tree) -> str:
        return f"({self.emit(t.children[0])} or {self.emit(t.children[1])})"

    def _and_(self, t: Tree) -> str:
        return f"({self.emit(t.children[0])} and {self.emit(t.children[1])})"

    def _not_(self, t: Tree) -> str:
        return f"(not {self.emit(t.children[0])})"

    def _compare(self, t: Tree) -> str:
        parts = [self.emit(t.children[0])]
        for i in range(1, len(t.children), 2):
            op = " ".join(str(x) for x in t.children[i].children)
            parts.append(op)
            parts.append(self.emit(t.children[i + 1]))
        return "(" + " ".join(parts) + ")"

    def _binop(self, t: Tree) -> str:
        a, op, b = t.children
        left, right = self.emit(a), self.emit(b)
        if op == "//":
            return f"_div({left}, {right})"
        if op == "%":
            return f"_mod({left}, {right})"
        return f"({left} {op} {right})"

    def _neg(self, t: Tree) -> str:
        return f"(-{self.emit(t.children[0])})"

    def _index(self, t: Tree) -> str:
        return f"_gi({self.emit(t.children[0])}, {self.emit(t.children[1])})"

    def _attr(self, t: Tree) -> str:
        obj, attr_tok = t.children
        attr = str(attr_tok)
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "opt" \
                and "opt" not in self.locals:
            if attr not in self.ns.options:
                raise self.error(f"unknown option '{attr}'{did_you_mean(attr, self.ns.options)}", attr_tok)
            return self.c.const_ref(self.ns.options[attr])
        target = self.emit(obj)
        if attr.startswith("_") or attr not in self.ns.attrs:
            raise self.error(f"unknown attribute '{attr}'{did_you_mean(attr, self.ns.attrs)}", attr_tok)
        return f"_ga({target}, {attr!r}, None)"  # the name is known and public: getattr with a default

    def _call(self, t: Tree) -> str:
        callee, arguments = t.children
        if not (isinstance(callee, Tree) and callee.data == "name"):
            raise self.error("only named functions can be called", callee)
        tok = callee.children[0]
        fname = str(tok)
        # the function is checked before its arguments, so the leftmost error is the one reported
        if fname in PURE:
            lo, hi = PURE[fname][1:3]
            target = f"_b_{fname}"
        elif fname in self.ns.context_funcs:
            if fname not in self.site.funcs:
                raise self.error(f"'{fname}' cannot be used in {self.site.what}", tok)
            lo, hi = self.ns.context_funcs[fname]
            self.uses.add(fname + "()")
            target = f"_e.f_{fname}"
        else:
            known = list(PURE) + [f for f in self.ns.context_funcs if f in self.site.funcs]
            raise self.error(f"unknown function '{fname}'{did_you_mean(fname, known)}", tok)
        if arguments is None:
            args, nargs = "", 0
        elif arguments.data == "genexp":
            # a list, not a generator: expressions are pure and total, and a list comprehension runs faster
            args, nargs = "[" + self._comp(arguments.children[0], arguments.children[1]) + "]", 1
        else:
            items = [self.emit(x) for x in arguments.children if x is not None]
            args, nargs = ", ".join(items), len(items)
        self._arity(fname, nargs, lo, hi, tok)
        return f"{target}({args})"

    def _arity(self, fname: str, n: int, lo: int, hi: int | None, tok: Any) -> None:
        if n < lo or (hi is not None and n > hi):
            want = str(lo) if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
            plural = "" if (hi if hi is not None else lo) == 1 else "s"
            raise self.error(f"{fname}() takes {want} argument{plural}, got {n}", tok)
