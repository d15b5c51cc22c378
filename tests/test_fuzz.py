"""Fuzzing with hypothesis: the expression compiler (expressions built from the productions of
`grammar/expr.lark`, token soup, and mutations of the built-in files' expressions), the loader (variant documents
mutated from the built-in ones, and raw text mutations), records, and the command line's arguments.

Each asserts that only the project's own errors come out, each with a place, that nothing hangs (a deadline),
and that generated code calls nothing but the compiler's helpers (the AST audit of test_codegen).

The default run keeps to a small fixed budget (profile `ombre`, see conftest.py); a long run:
    pytest tests/test_fuzz.py --hypothesis-profile=fuzz
"""
import copy
import io
import json
import os
import random
from contextlib import redirect_stderr, redirect_stdout

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_codegen import audit

from ombre_rules import State, load
from ombre_rules.cli import main
from ombre_rules.envs import DEAL_FUNCS, DEAL_VARS
from ombre_rules.errors import ExprError, SpecError
from ombre_rules.lang import Site
from ombre_rules.records import ReplayError, read, replay, to_record
from ombre_rules.spec.resolve import builtin_index

RULES = load("ombre")
SITE = Site("a fuzzed expression", DEAL_VARS, DEAL_FUNCS)
_HELPERS = None
_SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.function_scoped_fixture])


def _helpers() -> set[str]:
    return {k for k in RULES.compiler.globals if k != "__builtins__"}


def compile_checked(text: str) -> None:
    """Compile an expression: it compiles to audited code, or an ExprError with a place and a caret."""
    before = len(RULES.compiler.generated)
    try:
        RULES.compiler.compile(text, None, SITE)
    except ExprError as e:
        assert e.message and "Traceback" not in str(e)
        assert e.context == "" or "^" in e.context  # the caret under the place in the expression
        return
    for tree in RULES.compiler.generated[before:]:
        audit(tree, _helpers())
    del RULES.compiler.generated[before:]


# -- expressions from the grammar's productions ---------------------------------------------------------------
_NAMES = sorted(DEAL_VARS) + ["spadille", "basto", "none", "true", "false", "opt", "x", "xs", "__class__",
                              "_e", "f_card", "getattr", "eval"]
_FUNCS = ["max", "min", "sum", "count", "len", "any", "all", "first", "abs", "prefix_len", "group_points",
          "tricks", "hand", "holder", "card", "suit", "is_trump", "points", "won", "getattr", "__import__"]
_ATTRS = ["name", "rank", "suit", "points", "value", "level", "index", "colour", "__class__", "__globals__"]
_atoms = st.one_of(
    st.sampled_from(_NAMES),
    st.integers(-10, 10**20).map(str),
    st.sampled_from(["AS", "7D", "10H", "KC", "99Z", "1X"]),
    st.sampled_from(["'spades'", '"x"', "''", "'_e.pool'", "'\\n'"]),
    st.sampled_from(["opt.all_pass", "opt.nope", "opt"]),
)


def _compound(inner):
    two = st.tuples(inner, inner)
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner).map(" ".join),
        st.tuples(inner, st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "in", "not in"]), inner).map(" ".join),
        two.map(lambda t: f"{t[0]} and {t[1]}"), two.map(lambda t: f"{t[0]} or {t[1]}"),
        inner.map(lambda x: f"not {x}"), inner.map(lambda x: f"-{x}"),
        st.tuples(inner, inner, inner).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        st.tuples(st.sampled_from(_FUNCS), st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(inner, st.sampled_from(_ATTRS)).map(lambda t: f"{t[0]}.{t[1]}"),
        two.map(lambda t: f"{t[0]}[{t[1]}]"),
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(inner, st.sampled_from(["p", "c", "x"]), inner, st.none() | inner).map(
            lambda t: f"[{t[0]} for {t[1]} in {t[2]}" + (f" if {t[3]}]" if t[3] else "]")),
        st.tuples(st.sampled_from(["max", "sum", "any"]), inner, inner).map(
            lambda t: f"{t[0]}({t[1]} for p in {t[2]})"),
        inner.map(lambda x: f"({x})"),
    )


EXPRESSIONS = st.recursive(_atoms, _compound, max_leaves=12)
_TOKENS = ["(", ")", "[", "]", ",", ".", "+", "-", "*", "//", "%", "==", "<", "in", "not", "and", "or", "if",
           "else", "for", "1", "AS", "'s'", "x", "max", "opt", "\n", "'", '"', "@", "$", "é", "\x00"]


@given(EXPRESSIONS)
def test_grammar_expressions_compile_or_fail_at_a_place(text):
    compile_checked(text)


@given(st.lists(st.sampled_from(_TOKENS), max_size=30).map(" ".join))
def test_token_soup_fails_at_a_place(text):
    compile_checked(text)


def _builtin_expressions() -> list[str]:
    out = []

    def walk(v):
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str) and any(ch in v for ch in "()[]+=<>.") and len(v) < 300:
            out.append(v)

    for path in sorted(set(builtin_index().values())):
        with open(path, encoding="utf-8") as f:
            walk(yaml.safe_load(f))
    return sorted(set(out))


BUILTIN_EXPRESSIONS = _builtin_expressions()


@st.composite
def mutated(draw, texts: list[str], alphabet: str = "()[]'\" ,.+-*/%<>=!_aZ09\n"):
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "insert", "duplicate", "swap"]))
        if op == "delete":
            text = text[:i] + text[i + 1:]
        elif op == "insert":
            text = text[:i] + draw(st.sampled_from(alphabet)) + text[i:]
        elif op == "duplicate":
            j = draw(st.integers(i, min(len(text), i + 20)))
            text = text[:j] + text[i:j] + text[j:]
        else:
            j = draw(st.integers(0, len(text)))
            a, b = sorted((i, j))
            text = text[b:] + text[a:b] + text[:a]
    return text


@given(mutated(BUILTIN_EXPRESSIONS))
def test_mutated_builtin_expressions_compile_or_fail_at_a_place(text):
    compile_checked(text)


# -- the loader ---------------------------------------------------------------------------------------------------
with open(builtin_index()["ombre"], encoding="utf-8") as _f:
    OMBRE_TEXT = _f.read()
OMBRE_DATA = yaml.safe_load(OMBRE_TEXT)
_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.text(max_size=20),
                    st.sampled_from(["max(", "1 +", "trump == 'x'", "[1] * 9", "hand(declarer)", "&a", "*a", "!!x"]),
                    st.lists(st.integers(0, 5), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(),
                                                                            max_size=2))


def _paths(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, path + (i,))


OMBRE_PATHS = list(_paths(OMBRE_DATA))[1:]


def edit(data, edits):
    """A copy of `data` with a value put at each path (a path an earlier edit removed is skipped)."""
    data = copy.deepcopy(data)
    for path, value in edits:
        node = data
        try:
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    return data


def load_checked(path: str) -> None:
    """Load a file: it loads, or a SpecError whose every line starts with the file (a place in it)."""
    try:
        load(path)
    except SpecError as e:
        for line in str(e).split("\n"):
            if line.startswith("    "):  # the quoted expression and its caret
                continue
            assert line.startswith(path) or line.startswith(f"cannot read '{path}'"), line


@_SLOW
@given(st.lists(st.tuples(st.sampled_from(OMBRE_PATHS), _VALUES), min_size=1, max_size=3))
def test_documents_mutated_from_a_builtin_one_load_or_fail_at_a_place(tmp_path_factory, edits):
    data = edit(OMBRE_DATA, edits)
    p = tmp_path_factory.mktemp("doc") / "house.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    load_checked(str(p))


@_SLOW
@given(mutated([OMBRE_TEXT[i:i + 600] for i in range(0, len(OMBRE_TEXT) - 600, 600)],
               alphabet=":-&*!|>{}[]#'\" \n\tx1<"))
def test_raw_yaml_mutations_load_or_fail_at_a_place(tmp_path_factory, chunk):
    p = tmp_path_factory.mktemp("raw") / "house.yaml"
    p.write_text("extends: ombre\n" + chunk, encoding="utf-8")
    load_checked(str(p))


# -- records -------------------------------------------------------------------------------------------------------
def _good_record() -> dict:
    s = State(RULES, seed=5)
    s.random_playout(random.Random(5).random)
    return to_record(s)


GOOD = _good_record()
RECORD_PATHS = list(_paths(GOOD))[1:]


@_SLOW
@given(st.lists(st.tuples(st.sampled_from(RECORD_PATHS), _VALUES), min_size=1, max_size=3))
def test_mutated_records_replay_or_fail_in_one_line(tmp_path_factory, edits):
    rec = edit(GOOD, edits)
    p = tmp_path_factory.mktemp("rec") / "rec.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    try:
        for r in read(str(p)):
            replay(r)
    except ReplayError as e:
        assert "\n" not in str(e) and str(e)


# -- the command line ------------------------------------------------------------------------------------------------
_ARGS = ["--seed", "--dealer", "--option", "--players", "--record", "--deals", "--jobs", "--out", "--json", "--loop",
         "-1", "0", "1", "3", "99999999999999999999", "x", "-", "ombre", "ombre(", "nope", "ombre(all_pass=x)",
         "pimc:infs", "pimc:0", "random", "greedy,random", "all_pass=x", "=", "/dev/null", "", "é", "d/x.json"]
_COMMANDS = ["variants", "check", "play", "replay", "bench", "simulate", "compare", "test", "nope"]


@settings(deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(_COMMANDS), st.lists(st.sampled_from(_ARGS), max_size=6))
def test_command_line_arguments_end_in_an_exit_code(tmp_path_factory, command, args):
    argv = [command] + args
    if command in ("bench", "simulate", "compare"):
        argv += ["--deals", "2"]  # the last --deals wins: the run stays short
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cli"))  # files the commands write land here
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:  # argparse: a usage error
                code = e.code
    finally:
        os.chdir(here)
    assert code in (0, 1, 2, 130), (argv, code)
    assert "Traceback" not in err.getvalue()
    if code == 1:
        assert err.getvalue().strip(), argv
