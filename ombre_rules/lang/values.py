"""What a value of an expression must be, checked where it stands: the state one expression is compiled with
(`ValueChecks`, the base of `job.Job`), its errors at their place with a caret under the column, its nesting,
and the refusals of a value that may be none, that is not a number or a list, that may pass `MAX_NUMBER` or fall
outside the table's seats, and of a call with the wrong number of arguments."""
from __future__ import annotations

from typing import Any

from lark import Token, Tree

from ..errors import ExprError, Loc
from ..spec.yamlpos import Source
from . import types as T
from .guards import Facts
from .types import Val

MAX_DEPTH = 60  # nesting of operators, calls, lists and attributes in one expression
MAX_COMPREHENSIONS = 3  # comprehensions nested in one another


class ValueChecks:
    """One expression's text, place and compile-time state, and the checks of its values."""

    def __init__(self, comp: Any, text: str, source: Source | None, site: Any) -> None:
        self.c = comp
        self.ns = comp.ns
        self.text = text
        self.source = source
        self.site = site
        self.locals: list[tuple[str, Val]] = []
        self.uses: set[str] = set()
        self.facts: Facts = {}
        self.seen: dict[int, Val] = {}  # what is known of each subtree compiled so far (for guards)

    def error(self, msg: str, node: Any) -> ExprError:
        line = getattr(node, "line", None)
        col = getattr(node, "column", None)
        if line is None and isinstance(node, Tree) and not node.meta.empty:
            line, col = node.meta.line, node.meta.column
        line, col = line or 1, col or 1
        return ExprError(msg, place(self.source, self.text, line, col), caret(self.text, line, col))

    def text_of(self, node: Any) -> str:
        """The expression's own text for a node (its spaces kept)."""
        if isinstance(node, Token):
            return str(node)
        if isinstance(node, Tree) and not node.meta.empty:
            return self.text[node.meta.start_pos:node.meta.end_pos]
        return self.text

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

    # -- what a value must be ----------------------------------------------------------------------
    def none_error(self, v: Val, node: Any) -> ExprError:
        use = self.text_of(node).strip()
        what, when = v.none or ("none", "")
        if v.t == T.NONE and what == "none":
            return self.error(f"'{use}' is none, where a value is needed", node)
        if what == "none":
            msg = f"'{use}' may be none"
        elif what == use:
            msg = f"'{use}' is none {when}"
        else:
            msg = f"'{use}' may be none ('{what}' is none {when})"
        return self.error(f"{msg}: guard it with '{use} != none'", node)

    def value(self, v: Val, node: Any) -> None:
        """Refuse a value that may be none where none cannot stand."""
        if v.none is not None and not v.quiet:
            raise self.none_error(v, node)

    def number(self, v: Val, node: Any, op: Any) -> None:
        """Refuse anything but a number (or true/false) where arithmetic or an order needs one (a value of
        another type is refused at the operator, one that may be none or of no known type at itself)."""
        if v.quiet:
            return
        if v.t == T.ANY:
            raise self.error(f"'{op}' needs numbers, and '{self.text_of(node).strip()}' is not known to be one (its "
                             f"type differs from case to case)", node)
        if v.t == T.NONE and v.none is not None and v.none[0] != "none":  # always none here, and why
            raise self.none_error(v, node)
        if v.t == T.NONE or not T.is_num(v.t):
            raise self.error(f"'{op}' needs numbers, not {T.words(v.t)}", op)
        self.value(v, node)

    def bounded(self, lo: int, hi: int, node: Any) -> Val:
        """A number of that range, refused if it may pass MAX_NUMBER."""
        if max(-lo, hi) > T.MAX_NUMBER:
            raise self.error(f"'{self.text_of(node).strip()}' may reach {T.magnitude(max(-lo, hi))}, past "
                             f"{T.magnitude(T.MAX_NUMBER)}, the largest number an expression may make (the pool, "
                             f"a session's numbers and scores count as up to {T.magnitude(T.SESSION_NUMBER)})", node)
        return T.num(lo, hi)

    def seat(self, v: Val, node: Any, what: str) -> None:
        """Refuse a number that may fall outside the table's seats."""
        n = self.ns.seats
        if n and v.t in (T.INT, T.BOOL) and (v.lo < 0 or v.hi > n - 1):
            bad = v.lo if v.lo < 0 else v.hi
            raise self.error(f"{what} must be a seat (0 to {n - 1}), and '{self.text_of(node).strip()}' may be "
                             f"{T.magnitude(bad) if bad >= 0 else '-' + T.magnitude(bad)}", node)

    def known_list(self, v: Val, node: Any, what: str) -> None:
        """Refuse a value that may not be a list where one is walked through."""
        if v.quiet:
            return
        if v.t == T.ANY:
            raise self.error(f"{what} needs a list, and '{self.text_of(node).strip()}' is not known to be one", node)
        self.value(v, node)

    def _arity(self, fname: str, n: int, lo: int, hi: int | None, tok: Any) -> None:
        if n < lo or (hi is not None and n > hi):
            want = str(lo) if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
            plural = "" if (hi if hi is not None else lo) == 1 else "s"
            raise self.error(f"{fname}() takes {want} argument{plural}, got {n}", tok)


def place(source: Source | None, text: str, line: int, col: int) -> Loc | None:
    return source.at(text, line, col) if source else None


def caret(text: str, line: int, col: int) -> str:
    """The line of the expression with a caret under the column (a long line cut to a window round it)."""
    lines = text.split("\n")
    src = lines[line - 1] if 0 < line <= len(lines) else text
    start = max(0, min(col - 40, len(src) - 80))
    if start or len(src) > 80:
        src = src[start:start + 80]
    return f"    {src}\n    {' ' * (col - 1 - start)}^"
