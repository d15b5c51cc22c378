"""The rulebook, the diff, the language reference, the payment account and why a card is illegal."""
from __future__ import annotations

import json
import os
import random

import pytest
import yaml
from lark.exceptions import LarkError

from ombre_rules import IllegalActionError, State, load
from ombre_rules.book import rulebook
from ombre_rules.book.keys import EXPECT_DOCS, FUNC_DOCS, KEY_DOCS, SCENARIO_DOCS, VAR_DOCS
from ombre_rules.book.reference import SCOPES, reference_md, schema_keys
from ombre_rules.envs import CONTEXT_FUNCS
from ombre_rules.explain.account import net
from ombre_rules.explain.evaluate import parse
from ombre_rules.explain.phrase import ARITH, COMPARE, FUNCS, phrase
from ombre_rules.lang.builtins import PURE
from ombre_rules.resources import variants_dir
from ombre_rules.scenario import EXPECT_KEYS, KEYS
from ombre_rules.spec.resolve import builtin_index, fmt_value

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILTINS = sorted({os.path.basename(p)[:-5] for p in builtin_index().values()})


def _play(state: State, seed: int) -> State:
    rng = random.Random(seed)
    while not state.is_terminal:
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    return state


def _variants_with_options():
    for v in BUILTINS:
        yield v, 40
        spec = load(v).spec
        for key, choices in spec.choices.items():
            for c in choices:
                if c != spec.defaults[key]:
                    yield f"{v}({key}={fmt_value(c)})", 6


@pytest.mark.parametrize("variant,deals", list(_variants_with_options()))
def test_account_sums_equal_payments(variant, deals):
    rules = load(variant)
    for seed in range(deals):
        st = _play(State(rules, seed=seed, pool=seed % 5 * 3), seed)
        pays, pool = net(st.account(), rules.players)
        assert tuple(pays) == st.result.payments, (variant, seed)
        assert pool == st.result.pool_after - st.result.pool_before, (variant, seed)


def test_account_lines_of_a_deal():
    st = _play(State(load("ombre"), seed=1), 1)
    assert st.result.payments == (25, -50, 10)
    assert [str(e) for e in st.account()] == [
        "ante: seat 1 pays 5 into the pool", "ante: seat 2 pays 5 into the pool", "ante: seat 0 pays 5 into the pool",
        "codille (the pool's worth): seat 1 pays seat 0: 15 (pool // len(leaders))",
        "codille: seat 1 pays seat 2: value 15 + estuches 0 = 15",
        "codille: seat 1 pays seat 0: value 15 + estuches 0 = 15"]


def test_account_in_play_log_and_record(capsys, tmp_path):
    from ombre_rules.cli import main

    out = tmp_path / "deal.json"
    assert main(["play", "ombre", "--seed", "1", "--record", str(out)]) == 0
    log = capsys.readouterr().out
    assert "  codille: seat 2 pays seat 1: value 15 + estuches 0 = 15\n" in log
    rec = json.loads(out.read_text())
    assert rec["account"][-1] == {"label": "codille", "from": 2, "to": 1, "amount": 15,
                                  "why": "value 15 + estuches 0 = 15"}
    assert main(["replay", str(out)]) == 0


def _expressions():
    """Every string of every built-in variant file (option patches included) that parses as an expression."""
    found = []

    def visit(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k not in ("doc", "title", "cite", "tag", "label", "id", "extends"):
                    visit(v)
        elif isinstance(node, list):
            for v in node:
                visit(v)
        elif isinstance(node, str):
            try:
                parse(node)
            except LarkError:
                return
            found.append(node)

    for name in sorted(os.listdir(variants_dir())):
        with open(os.path.join(variants_dir(), name), encoding="utf-8") as f:
            visit(yaml.safe_load(f))
    return found


def test_renderer_has_a_phrase_for_every_expression():
    exprs = _expressions()
    assert len(exprs) > 300
    for e in exprs:
        text = phrase(e)
        assert "unknown" not in text, (e, text)
    assert set(FUNCS) == set(PURE) | set(CONTEXT_FUNCS)
    assert set(COMPARE) == {"==", "!=", "<", "<=", ">", ">=", "in", "not in"}
    assert set(ARITH) == {"+", "-", "*", "//", "%"}


@pytest.mark.parametrize("expr,words", [
    ("tricks(declarer) > max(tricks(p) for p in defenders)",
     "the number of tricks of the declarer is more than the largest number of tricks of p for any p of the defenders"),
    ("[p for p in defenders if tricks(p) == best]", "each p of the defenders where the number of tricks of p is best"),
    ("sum(tricks(p) for p in side if p != declarer)",
     "the sum of the number of tricks of p, for each p of the declarer's side where p is not the declarer"),
    ("W // 2 if W >= 0 else 0 - (0 - W) // 2",
     "W divided by (rounded down) 2 if W is at least 0, else 0 minus (0 minus W) divided by (rounded down) 2"),
    ("count(c.rank == K for c in hand(declarer)) == 4",
     "the number of c of the hand of the declarer for which the rank of c is K is 4"),
    ("a and (b or c)", "a and (b, or c)"),
    ("(a + b) * c - d", "(a plus b) times c minus d"),
    ("min(P, 3, abs(x - 1))", "the smallest of P, 3 and the absolute value of (x minus 1)"),
    ("30 - (V - 5) - E", "30 minus (V minus 5) minus E"),
    ("sitters[0] if not stopped else -1",
     "the first of the seats sitting out if not (the declarer stopped on his claim), else minus 1"),
])
def test_phrases(expr, words):
    assert phrase(expr) == words


def test_reference_is_committed_and_complete():
    with open(os.path.join(ROOT, "docs", "reference.md"), encoding="utf-8") as f:
        assert f.read() == reference_md(), "docs/reference.md is stale: run `ombre reference --out docs/reference.md`"
    assert [p for p, d in schema_keys() if not (KEY_DOCS.get(p) or d)] == []
    assert set(KEY_DOCS) - {p for p, _d in schema_keys()} == set()
    names = set().union(*(v for _w, v, _f in SCOPES.values())) | {"opt"}
    assert names - set(VAR_DOCS) == set() and set(VAR_DOCS) - names == set()
    assert set(FUNC_DOCS) == set(PURE) | set(CONTEXT_FUNCS)
    assert set(SCENARIO_DOCS) == KEYS and set(EXPECT_DOCS) == EXPECT_KEYS


def test_why_illegal_names_the_obligation():
    st = State(load("ombre"), seed=1)
    rng = random.Random(1)
    while st.phase_name != "play" or not st.trick:
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    with pytest.raises(IllegalActionError) as e:
        st.apply_str("play 2S")
    assert e.value.message == (
        "'play 2S' is not legal for seat 2 in play (must follow suit: AC led (trumps (diamonds)) and you hold 2D); "
        "legal: play AS, play 2D")


def test_human_prompt_names_the_obligation():
    from ombre_rules.tty import human_turn

    st = State(load("ombre"), seed=1)
    rng = random.Random(1)
    while st.phase_name != "play" or not st.trick:
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    answers = iter(["play 2S", "play 2D"])
    said: list[str] = []
    assert st.rules.action_str(human_turn(st, 2, lambda _prompt: next(answers), said.append)) == "play 2D"
    assert said[-1] == ("'play 2S' is not legal now (must follow suit: AC led (trumps (diamonds)) and you hold 2D) "
                        "(type help or ?)")


def test_the_result_carries_the_account_and_compares_by_it():
    import pickle

    st = State(load("ombre"), seed=3)
    rng = random.Random(3)
    while not st.is_terminal:
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    res = st.result
    assert tuple(res.account) == st.account() and len(res.account) > 0
    pays, pool = net(tuple(res.account), 3)
    assert tuple(pays) == res.payments and pool == res.pool_after - res.pool_before
    back = pickle.loads(pickle.dumps(res))
    assert back == res and back.account == res.account


def test_cite_may_name_any_citable_section_even_one_the_book_leaves_out(tmp_path):
    # the books that options are compared by leave the options section out; a cite of it is still valid
    from ombre_rules.book.build import build

    p = tmp_path / "house.yaml"
    p.write_text("extends: taroc-lhombre\ncite: {options: [SEED-RU], play: [SEED-RU]}\n", encoding="utf-8")
    rules = load(str(p))
    bare = {s.key: s.sources for s in build(rules, options=False, examples=False).sections}
    assert "options" not in bare and "SEED-RU" in bare["play"]
    assert {s.key: s.sources for s in rulebook(rules).sections}["options"] == ["SEED-RU"]
    # a section no book has is named under the sources, not an error: a book renders whatever `ombre check` accepts
    p.write_text("extends: taroc-lhombre\ncite: {sesion: [X]}\n", encoding="utf-8")
    src = {s.key: s for s in rulebook(load(str(p)), examples=False).sections}["sources"]
    assert src.items[-1].text == ("The file cites sources for sections no rulebook has: sesion (did you mean "
                                  "'session'?).")
