"""Parse an expression with Lark, check every name, arity and type against its site, and compile it to Python.

The result is a plain Python function of one argument (the evaluation environment), built from `ast` nodes
(`block.py`); the tree is never walked again after loading.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import ExprError, Loc
from ..resources import grammar_path
from ..spec.yamlpos import Source
from . import types as T
from .block import IDENT, Block, block_error, internal, lambda_of, literal
from .builtins import PURE, RUNTIME, attr_reader
from .guards import known
from .job import CARRIED, MAX_INT_DIGITS, Job, const_val
from .types import Val
from .values import MAX_COMPREHENSIONS, MAX_DEPTH, caret, place

_TOKEN_TEXT = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COMMA": "','", "DOT": "'.'",
    "NAME": "a name", "INT": "a number", "CARD": "a card", "STRING": "a string", "ELSE": "'else'",
    "IF": "'if'", "IN": "'in'", "FOR": "'for'", "NOT": "'not'", "AND": "'and'", "OR": "'or'",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'", "MINUS": "'-'", "$END": "the end",
}

__all__ = ["Block", "Compiler", "Expr", "Let", "Namespace", "Site", "Val", "block_error", "parse", "parser",
           "CARRIED", "MAX_COMPREHENSIONS", "MAX_DEPTH", "MAX_INT_DIGITS"]

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
    """Where an expression stands and what it may use there: context variables and context functions, the
    type its value must have (`types.py`), the types of variables of its own (`choice`), when the variables
    the namespace calls `unset` (the declarer, the contract) are none here ("" where they never are), and the
    variables that hold one object known at load (`contract` where a contract's own rules are compiled)."""

    what: str
    vars: frozenset[str]
    funcs: frozenset[str] = frozenset()
    names: bool = True
    result: str = T.ANY
    types: tuple[tuple[str, str], ...] = ()
    unset: str = "before the contract is fixed"
    objects: tuple[tuple[str, str], ...] = ()  # variables whose value is one known object here: (name, its key)
    guard: str = ""  # a condition that holds wherever the expression is evaluated (what it tests is not none)


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
    # what is known of values beyond their types (`types.Val`): of each name, context variable, context
    # function's result, attribute (per object type) and carried value; the variables none where a site's
    # `unset` says; the number of seats (0: seats are not checked); the attributes of the objects a site may
    # know a variable holds (`Site.objects`)
    vals: dict[str, Val] = field(default_factory=dict)
    var_vals: dict[str, Val] = field(default_factory=dict)
    func_vals: dict[str, Val] = field(default_factory=dict)
    attr_vals: dict[str, dict[str, Val]] = field(default_factory=dict)
    carried_vals: dict[str, Val] = field(default_factory=dict)
    unset: frozenset[str] = frozenset()
    seats: int = 0
    objects: dict[str, dict[str, Val]] = field(default_factory=dict)  # the attributes of each known object


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
    val: Val = T.ANY_VAL  # what is known of its value
    tree: ast.Expression | None = field(default=None, compare=False, repr=False)  # `lambda _e: ...`, as compiled

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
MAX_COMPILED = 1_000_000  # characters of expressions one variant compiles (a let is compiled for every contract)
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
        self._lets: dict[tuple[str, str], tuple[ast.expr, frozenset[str], Val]] = {}  # each let compiled once
        self._inlining: list[str] = []  # the lets being compiled, innermost last (to refuse a circle)
        self.compiled = 0  # characters compiled so far (at most MAX_COMPILED)

    # -- entry point -------------------------------------------------------------------------
    def code(self, value: Any, source: Source | None, site: Site,
             local_names: Mapping[str, str | Val] | tuple[str, ...] = ()) -> tuple[ast.expr, frozenset[str], Val]:
        """The tree of a YAML value (an expression string, or a plain number/bool), what it uses and what is known
        of its value. `local_names` are names bound by the surrounding generated code (lets), with their types
        or what is known of them."""
        if isinstance(value, bool) or isinstance(value, int) or value is None:
            if isinstance(value, int) and not isinstance(value, bool) and len(str(abs(value))) > MAX_INT_DIGITS:
                raise ExprError(f"number too large (at most {MAX_INT_DIGITS} digits)", source.loc if source else None)
            v = const_val(value)
            self._check_result(site, v, source, None, None)
            return literal(value), frozenset(), v
        text = str(value)
        if len(text) > MAX_EXPR_CHARS:
            raise ExprError(f"expression of {len(text)} characters (at most {MAX_EXPR_CHARS})",
                            source.loc if source else None)
        if self.compiled > MAX_COMPILED:  # refused once (below); what follows stands for nothing
            return literal(0), frozenset(), T.QUIET
        self.compiled += len(text)
        if self.compiled > MAX_COMPILED:
            raise ExprError(f"the file makes the loader compile more than {MAX_COMPILED:,} characters of expressions "
                            f"(each contract compiles the lets, outcomes, scoring and play rules again): fewer "
                            f"contracts or shorter lets", source.loc if source else None)
        try:
            tree = parse(text)
        except UnexpectedInput as e:
            raise self._syntax_error(e, text, source) from None
        job = Job(self, text, source, site)
        job.check_depth(tree)
        if site.guard:
            try:
                job.facts = known(parse(site.guard), True)
            except UnexpectedInput:  # the guard's own error is reported at its place
                pass
        named = local_names if isinstance(local_names, Mapping) else dict.fromkeys(local_names, T.ANY)
        job.locals.extend((n, x if isinstance(x, Val) else T.default(x)) for n, x in named.items())
        node, v = job.emit(tree)
        if isinstance(node, ast.Constant):  # a value fixed at load (an option's choice): all of it is known
            v = const_val(node.value)
        self._check_result(site, v, source, job, tree)
        return node, frozenset(job.uses), v

    def _check_result(self, site: Site, v: Val, source: Source | None, job: Job | None, tree: Any) -> None:
        """Refuse a value that is not what its site takes: of another type, possibly none where none cannot
        stand, a seat outside the table."""
        want, t = site.result, v.t

        def fail(msg: str) -> ExprError:
            return job.error(msg, tree) if job is not None else ExprError(msg, source.loc if source else None)

        strict = want in (T.INT, T.SEAT) or want.startswith("list:")
        if not T.fits(want, t) or (t == T.NONE and (strict or want == T.CARD)):
            raise fail(f"{site.what} must be {T.words(want)}, not {T.words(t)}")
        if want in (T.ANY, T.COND):
            return
        if v.quiet:
            return
        if t == T.ANY and job is not None:
            raise fail(f"{site.what} must be {T.words(want)}, and '{job.text_of(tree).strip()}' is not known to be "
                       f"one (its type differs from case to case)")
        if job is None:
            if want in (T.SEAT, T.SEATS) and self.ns.seats and isinstance(v.lo, int) and t == T.INT \
                    and not 0 <= v.lo < self.ns.seats:
                raise fail(f"{site.what} must be a seat (0 to {self.ns.seats - 1}), not {v.lo}")
            return
        if strict:
            job.value(v, tree)
        item = T.items(v)
        if want.startswith("list:") and T.elem(want) != T.ANY:
            if item.t == T.ANY and v.size and not item.quiet:
                raise fail(f"{site.what} must be {T.words(want)}, and the items of '{job.text_of(tree).strip()}' "
                           f"are not known to be")
            if want == T.list_of(T.INT) and item.none is not None:
                raise fail(f"{site.what} must be {T.words(want)}, and an item of '{job.text_of(tree).strip()}' may "
                           f"be none ('{item.none[0]}' is none {item.none[1]})")
        if want == T.SEAT or (want == T.SEATS and t in (T.INT, T.BOOL)):
            job.seat(v, tree, site.what)
        elif want == T.SEATS and t.startswith("list:"):
            if item.t == T.ANY and v.size and not item.quiet:
                raise fail(f"{site.what} must be seats, and the items of '{job.text_of(tree).strip()}' are not "
                           f"known to be")
            job.seat(item, tree, f"each of {site.what}")

    def compile(self, value: Any, source: Source | None, site: Site) -> Expr:
        """Compile a YAML value for a site into a function of the environment."""
        loc = source.loc if source else None
        node, uses, v = self.code(value, source, site)
        tree = lambda_of(node)
        self.generated.append(tree)
        fn = eval(compile(tree, f"<{loc or 'expr'}>", "eval"), self.globals)  # noqa: S307 - built from ast
        return Expr(fn, str(value), loc, uses, not uses, v.t, v, tree)

    def let_code(self, name: str, unset: str = "") -> tuple[ast.expr, frozenset[str], Val]:
        """A let's tree, what it reads and what is known of its value, compiled once where every variable and
        function is known (and the declarer and contract are none when `unset` says)."""
        got = self._lets.get((name, unset))
        if got is not None:
            return got
        d = self.ns.lets[name]
        if name in self._inlining:
            chain = self._inlining[self._inlining.index(name):] + [name]
            raise ExprError(f"lets refer to each other in a circle: {' -> '.join(chain)}",
                            d.source.loc if d.source else None)
        self._inlining.append(name)
        try:
            everything = Site(f"let '{name}'", frozenset(self.ns.var_types), frozenset(self.ns.context_funcs),
                              unset=unset)
            got = self._lets[(name, unset)] = self.code(d.value, d.source, everything)
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
        return ExprError(msg, place(source, text, line, col), caret(text, line, col))


def _end_pos(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1
