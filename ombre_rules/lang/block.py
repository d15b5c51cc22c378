"""Generated Python built as `ast` nodes, never as text: names only from checked identifiers, constants only as
literals of checked values. A Block is one generated function made of several compiled expressions."""
from __future__ import annotations

import ast
import copy
import re
from typing import Any, Protocol

from ..errors import ExprError, Loc, quoted

IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,62}")
LOCAL = "_v_"  # a name bound in generated code (a `let`, a comprehension variable)
USER = "u_"  # a user name (`names:`) as an attribute of the evaluation environment
HOIST = "_h_"  # an environment value read once at the start of a block
ENV, STATE = "_e", "_st"  # the parameters of generated functions


def checked(name: str) -> str:
    """A user's identifier, refused unless it is a plain name (letters, digits, `_`, not first)."""
    if not isinstance(name, str) or not IDENT.fullmatch(name):
        raise ExprError(f"{quoted(name)} is not a valid name (letters, digits and '_', starting with a letter, "
                        f"at most 63 characters)")
    return name


def local(name: str, store: bool = False) -> ast.Name:
    """A user-named local of generated code (in its own namespace, `_v_NAME`)."""
    return ast.Name(LOCAL + checked(name), ast.Store() if store else ast.Load())


def internal(name: str) -> ast.Name:
    """A name of the compiler's own (a helper or a parameter); always starts with '_'."""
    if not re.fullmatch(r"_[a-z][a-z0-9_]*", name):
        raise ValueError(f"not an internal name: {name!r}")
    return ast.Name(name, ast.Load())


def env_read(attr: str) -> ast.Attribute:
    """`_e.ATTR`: a value of the evaluation environment (the name is checked by the caller's table)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", attr):
        raise ValueError(f"not an environment attribute: {attr!r}")
    return ast.Attribute(ast.Name(ENV, ast.Load()), attr, ast.Load())


def call(fn: str | ast.expr, *args: ast.expr) -> ast.Call:
    return ast.Call(internal(fn) if isinstance(fn, str) else fn, list(args), [])


def literal(value: Any) -> ast.Constant:
    """A constant of generated code: only none, a bool, an int or a string."""
    if value is not None and type(value) not in (bool, int, str):
        raise ValueError(f"not a literal: {type(value).__name__}")
    return ast.Constant(value)


def assign(target: ast.Name, value: ast.expr) -> ast.Assign:
    return ast.Assign([ast.Name(target.id, ast.Store())], value)


def lambda_of(body: ast.expr) -> ast.Expression:
    """`lambda _e: BODY`."""
    args = ast.arguments(posonlyargs=[], args=[ast.arg(ENV)], kwonlyargs=[], kw_defaults=[], defaults=[])
    return ast.fix_missing_locations(ast.Expression(ast.Lambda(args, body)))


class Generated(Protocol):
    """A function a Block built: `fn(_e, _st)`, with where each of its lines' expressions stands in the file."""

    origin: dict[int, tuple[Loc | None, str]]  # by line of the generated code: the expression's place and text
    filename: str
    tree: ast.Module
    where: Loc | None  # the place reported for a failure no expression accounts for

    def __call__(self, _e: Any, _st: Any, /) -> Any: ...


class Block:
    """A generated function `NAME(_e, _st)` built from statements; each statement that evaluates an
    expression remembers where the expression stands, so a failure at run time is reported there."""

    def __init__(self, compiler: Any, name: str) -> None:
        self.compiler = compiler
        self.name = internal(name).id
        self.body: list[ast.stmt] = []
        self.where: Loc | None = None  # the place reported for a failure no expression accounts for

    def mark(self, node: ast.stmt, loc: Loc | None, text: str) -> ast.stmt:
        """Remember the expression a statement evaluates."""
        node._ombre_origin = (loc, text)  # type: ignore[attr-defined]  # our own mark on the node, read by _number
        return node

    def build(self, live: frozenset[str] = frozenset(), direct: dict[str, ast.expr] | None = None) -> Generated:
        """Compile the function. Every environment value it reads, except those in `live` (which may change
        while it runs), is read once at its start into a local: from `direct[name]` (an expression over the
        state) when given, else from the environment `_e`."""
        reads: dict[str, ast.expr] = direct or {}
        hoisted: list[str] = []

        class Reads(ast.NodeTransformer):
            def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
                self.generic_visit(node)
                if isinstance(node.value, ast.Name) and node.value.id == ENV:
                    if node.attr in live:
                        return copy.deepcopy(reads[node.attr]) if node.attr in reads else node
                    if node.attr not in hoisted:
                        hoisted.append(node.attr)
                    return ast.Name(HOIST + node.attr, ast.Load())
                return node

        body = [Reads().visit(s) for s in self.body]
        head = [ast.Assign([ast.Name(HOIST + a, ast.Store())],
                           copy.deepcopy(reads[a]) if a in reads else env_read(a)) for a in sorted(hoisted)]
        args = ast.arguments(posonlyargs=[], args=[ast.arg(ENV), ast.arg(STATE)], kwonlyargs=[], kw_defaults=[],
                             defaults=[])
        fdef = ast.FunctionDef(self.name, args, head + body, [], None)
        origin: dict[int, tuple[Loc | None, str]] = {}
        _number(fdef, [1], origin)
        module = ast.Module([fdef], [])
        filename = f"<block {self.name} {id(self)}>"
        namespace: dict[str, Any] = {}
        exec(compile(module, filename, "exec"), self.compiler.globals, namespace)  # noqa: S102 - built from ast
        fn: Generated = namespace[self.name]
        fn.origin = origin
        fn.filename = filename
        fn.tree = module
        fn.where = self.where
        self.compiler.generated.append(module)
        return fn


def _number(node: ast.AST, counter: list[int], origin: dict[int, tuple[Loc | None, str]]) -> None:
    """Give each statement a line of its own (and its expressions the same line), in order."""
    line = counter[0]
    counter[0] += 1
    if hasattr(node, "_ombre_origin"):
        origin[line] = node._ombre_origin
    for field in ("body", "orelse"):
        for child in getattr(node, field, ()) or ():
            if isinstance(child, ast.stmt):
                _number(child, counter, origin)
    for name, value in ast.iter_fields(node):
        if name in ("body", "orelse"):
            continue
        for part in value if isinstance(value, list) else [value]:
            for sub in ast.walk(part) if isinstance(part, ast.AST) else ():
                _place(sub, line)
    _place(node, line)


def _place(node: ast.AST, line: int) -> None:
    if "lineno" in node._attributes:  # a node with a place (ast.AST itself declares none)
        node.lineno = node.end_lineno = line  # type: ignore[attr-defined]  # its _attributes name them
        node.col_offset, node.end_col_offset = 0, 1  # type: ignore[attr-defined]  # its _attributes name them


def block_error(fn: Generated, exc: BaseException) -> ExprError:
    """The expression of a generated block that raised `exc`, as an error at its place."""
    tb = exc.__traceback__
    line = 0  # no line of the block (they are numbered from 1)
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == fn.filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    loc, text = fn.origin.get(line, (None, ""))
    if not text:
        return ExprError(f"the end of the deal could not be worked out: {exc}", loc or fn.where)
    return ExprError(f"expression '{text}' failed: {exc}", loc or fn.where)
