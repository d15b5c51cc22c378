"""Generated code is built from checked data only: every tree compiled for every built-in variant and option
choice holds nothing but the compiler's own helpers, checked names and plain literals; no YAML key or name can
reach it as code."""
import ast
import re

import pytest
from variant_choices import every_choice, rules_of

from ombre_rules import SpecError, load
from ombre_rules.lang.block import HOIST, LOCAL

_NODES = (ast.Expression, ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Lambda, ast.Return, ast.Assign,
          ast.If, ast.Expr, ast.Pass, ast.Name, ast.Load, ast.Store, ast.Attribute, ast.Call, ast.Constant, ast.List,
          ast.Tuple, ast.ListComp, ast.comprehension, ast.IfExp, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not,
          ast.USub, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.BinOp,
          ast.Add, ast.Sub, ast.Mult, ast.IsNot)
_IDENT = r"[A-Za-z][A-Za-z0-9_]{0,62}"
_STATE_ATTRS = {"dealer", "declarer", "contract", "committed", "stopped", "conceded", "pool", "ctx",
                "trump_order_cards"}


def audit(tree: ast.AST, helpers: set[str]) -> None:
    """Assert that a generated tree uses only allowed nodes, names, attributes, calls and literals."""
    for node in ast.walk(tree):
        assert isinstance(node, _NODES), ast.dump(node)
        if isinstance(node, ast.Name):
            ok = node.id in helpers or node.id in ("_e", "_st", "_o") or \
                re.fullmatch(f"({re.escape(LOCAL)}|{re.escape(HOIST)}){_IDENT}", node.id)
            assert ok, node.id
        elif isinstance(node, ast.Attribute):
            base = node.value
            while isinstance(base, ast.Attribute):
                assert base.attr in _STATE_ATTRS, base.attr
                base = base.value
            assert isinstance(base, ast.Name) and base.id in ("_e", "_st"), ast.dump(node)
            if base.id == "_e":
                assert re.fullmatch(f"[a-z][a-z0-9_]*|u_{_IDENT}|f_[a-z_]+", node.attr), node.attr
            else:
                assert node.attr in _STATE_ATTRS, node.attr
        elif isinstance(node, ast.Call):
            f = node.func
            assert not node.keywords
            assert (isinstance(f, ast.Name) and (f.id in helpers or re.fullmatch(f"{HOIST}f_[a-z_]+", f.id))) or \
                (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "_e"
                 and f.attr.startswith("f_")), ast.dump(f)
        elif isinstance(node, ast.Constant):
            assert node.value is None or type(node.value) in (bool, int, str), repr(node.value)


@pytest.mark.parametrize("path, sel", every_choice(), ids=lambda x: str(x).rsplit("/", 1)[-1])
def test_every_generated_tree_holds_only_helpers_and_checked_names(path, sel):
    rules = rules_of(path, sel)
    g = rules.compiler.globals
    assert g["__builtins__"] == {}
    assert getattr not in g.values() and eval not in g.values()
    helpers = {k for k in g if k != "__builtins__"}
    assert all(re.fullmatch(r"_[a-z][a-z0-9_]*", k) for k in helpers), sorted(helpers)
    assert len(rules.compiler.generated) > 10
    for tree in rules.compiler.generated:
        audit(tree, helpers)
        compile(tree, "<audit>", "exec" if isinstance(tree, ast.Module) else "eval")  # still valid as built


def _load_text(tmp_path, text):
    p = tmp_path / "house.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p), lambda: load(str(p))


@pytest.mark.parametrize("section, key", [
    ("let", "a\\nimport os"), ("let", "a b"), ("let", "_private"), ("names", "__class__"),
    ("options", "x y"), ("let", "é"),
], ids=["newline", "space", "underscore", "dunder", "option-space", "non-ascii"])
def test_a_key_that_is_not_a_plain_name_is_refused_at_its_place(tmp_path, section, key):
    body = {"let": f'let:\n  "{key}": "1"\n', "names": f'names:\n  "{key}": "1"\n',
            "options": f'options:\n  "{key}": {{default: a, choices: [a]}}\n'}[section]
    path, go = _load_text(tmp_path, "extends: ombre\n" + body)
    with pytest.raises(SpecError) as ei:
        go()
    first = str(ei.value).split("\n")[0]
    assert first.startswith(f"{path}:3:3: ") and "is not a valid name" in first


@pytest.mark.parametrize("key", ["f_card", "bidder", "trump", "none", "opt"])
def test_a_name_may_not_be_an_attribute_of_the_environment(tmp_path, key):
    path, go = _load_text(tmp_path, f"extends: ombre\nnames:\n  {key}: \"1\"\n")
    with pytest.raises(SpecError) as ei:
        go()
    assert str(ei.value).split("\n")[0] == f"{path}:3:3: '{key}' is a built-in name and cannot be defined in names"


def test_string_literals_are_kept_as_written_and_a_failure_names_its_place(tmp_path):
    path, go = _load_text(tmp_path, "extends: ombre\nscoring:\n  let:\n    tag: \"'_e.pool' + '_e.dealer'\"\n")
    rules = go()
    tree = rules.contracts[0].finish.tree
    consts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    assert "_e.pool" in consts and "_e.dealer" in consts


def test_a_let_that_could_fail_at_the_end_of_a_deal_is_refused_at_load(tmp_path):
    path, go = _load_text(tmp_path, "extends: ombre\noptions:\n  mix: {default: a, choices: [a, 1]}\n"
                                    "let:\n  x: \"opt.mix + 1\"\n")
    with pytest.raises(SpecError) as ei:
        go()
    assert str(ei.value).split("\n")[0] == f"{path}:5:15: '+' cannot add a string and a number"


def test_a_statement_that_fails_at_the_end_of_a_deal_is_reported_at_its_place(tmp_path):
    import random

    from ombre_rules import State
    from ombre_rules.errors import ExprError

    path, go = _load_text(tmp_path, "extends: ombre\nlet:\n  x: \"abs(tricks(declarer) - 5)\"\n")
    rules = go()

    def broken(x):
        raise RuntimeError("broken")

    rules.compiler.globals["_b_abs"] = broken  # no checked file gets here: a helper that fails stands for it
    s = State(rules, seed=1)
    with pytest.raises(ExprError) as ei:
        s.random_playout(random.Random(1).random)
    assert str(ei.value).startswith(f"{path}:3:6: expression 'abs(tricks(declarer) - 5)' failed: broken")
