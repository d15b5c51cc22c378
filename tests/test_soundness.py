"""What the compiler accepts never fails (issue 32): expressions built at random from the language's names,
functions, attributes and literals either are refused with a message at a place, or evaluate without an
exception in every deal state their site can see, to the value the account's evaluator finds walking the tree;
random YAML documents load or fail at a place.

The suite keeps to a small fixed budget (profile `ombre`, conftest.py); a long run:
    python -m pytest tests/test_soundness.py --hypothesis-profile=fuzz
"""
import random
from dataclasses import replace

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import compile_checked, load_checked

from ombre_rules import State, load
from ombre_rules.engine.phases import AUCTION, PLAY
from ombre_rules.envs import AUCTION as IN_AUCTION
from ombre_rules.envs import DEAL_FUNCS, DEAL_VARS
from ombre_rules.errors import ExprError
from ombre_rules.explain.evaluate import Evaluator
from ombre_rules.lang import Site
from ombre_rules.ruleset.settlement import ALL_PASSED

RULES = load("preference")  # called-off defenders, doubling, a pot: many values that may be none
_SLOW = settings(suppress_health_check=list(HealthCheck), deadline=None)


def _states() -> dict[str, list[State]]:
    """Deal states of each kind a site may see: in the auction, in play, and at the end (played or passed)."""
    out: dict[str, list[State]] = {"auction": [], "play": [], "end": []}
    for seed in range(40):
        s = State(RULES, seed=seed, dealer=seed % RULES.players)
        rand = random.Random(seed).random
        while seed < 6 and s.phase == AUCTION and RULES.A_PASS in s.legal_actions():  # every seat passes
            s.apply(RULES.A_PASS)
        while s.result is None:
            if s.phase == AUCTION and len(out["auction"]) < 12:
                out["auction"].append(s.clone())
            if s.phase == PLAY and not s.trick and len(out["play"]) < 12:
                out["play"].append(s.clone())
            acts = s.legal_actions()
            s.apply(acts[int(rand() * len(acts))])
        out["end"].append(s)
    assert any(s.result.outcome == "all_pass" for s in out["end"]) and out["auction"] and out["play"]
    return out


STATES = _states()
# a site and the states it is evaluated in: a settlement's (also when every seat passed), a bid condition's (in
# the auction), a play condition's (a contract is fixed)
SITES = [(Site("a fuzzed settlement value", DEAL_VARS, DEAL_FUNCS, unset=ALL_PASSED), "end"),
         (Site("a fuzzed bid condition", DEAL_VARS | {"bidder"}, DEAL_FUNCS, unset=IN_AUCTION), "auction"),
         (Site("a fuzzed play condition", DEAL_VARS, DEAL_FUNCS, unset=""), "play")]

_NAMES = sorted(DEAL_VARS - {"session"}) + ["none", "true", "false", "opt", "spades", "hearts", "K", "A", "one",
                                               "sans", "session.played", "opt.pot_stake", "AS", "7H"]
_FUNCS = [("max", 2), ("min", 1), ("sum", 1), ("count", 1), ("len", 1), ("any", 1), ("all", 1), ("first", 1),
          ("abs", 1), ("rest", 1), ("prefix_len", 2), ("group_points", 3), ("tricks", 1), ("hand", 1),
          ("holder", 1), ("card", 2), ("suit", 1), ("is_trump", 1), ("points", 1), ("won", 1), ("early_tricks", 2),
          ("play_holder", 1), ("outranks", 2), ("final_hand", 1), ("pile", 1), ("discards", 1)]
_ATTRS = ["name", "rank", "suit", "points", "value", "level", "index", "colour", "number", "floor", "bid_suit",
          "quotas"]
_atoms = st.one_of(st.sampled_from(_NAMES), st.integers(-3, 12).map(str),
                   st.sampled_from(["999999999999999999", "1000000000", "'x'", "[]", "[1, 2]"]))


def _compound(inner):
    two = st.tuples(inner, inner)
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner).map(" ".join),
        st.tuples(inner, st.sampled_from(["==", "!=", "<", ">=", "in", "not in"]), inner).map(" ".join),
        two.map(lambda t: f"{t[0]} and {t[1]}"), two.map(lambda t: f"{t[0]} or {t[1]}"),
        inner.map(lambda x: f"not {x}"), inner.map(lambda x: f"-{x}"), inner.map(lambda x: f"({x})"),
        st.tuples(inner, inner, inner).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]} if {t[0]} != none else {t[1]}"),
        st.tuples(st.sampled_from(_FUNCS), st.lists(inner, min_size=1, max_size=3)).map(
            lambda t: f"{t[0][0]}({', '.join(t[1][:t[0][1]])})"),
        st.tuples(inner, st.sampled_from(_ATTRS)).map(lambda t: f"{t[0]}.{t[1]}"),
        two.map(lambda t: f"{t[0]}[{t[1]}]"),
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(inner, st.sampled_from(["p", "c"]), inner).map(lambda t: f"[{t[0]} for {t[1]} in {t[2]}]"),
        st.tuples(inner, inner).map(lambda t: f"sum({t[0]} for p in {t[1]})"),
    )


EXPRESSIONS = st.recursive(_atoms, _compound, max_leaves=10)


@_SLOW
@given(EXPRESSIONS, st.sampled_from(range(len(SITES))))
def test_an_expression_the_compiler_accepts_never_fails_where_it_stands(text, which):
    site, kind = SITES[which]
    try:
        e = RULES.compiler.compile(text, None, site)
    except ExprError as err:
        assert err.message and "Traceback" not in str(err)
        return
    for s in STATES[kind]:
        env = s.env()
        got = e.fn(env)  # any exception here is a hole in the checks
        # the account's evaluator walks the tree: the same value (a second reading of the language)
        assert Evaluator(RULES, env).value(text) == got, (text, s.history)


@_SLOW
@given(EXPRESSIONS)
def test_an_expression_of_every_site_compiles_or_fails_at_a_place(text):
    compile_checked(text)
    try:
        RULES.compiler.compile(text, None, replace(SITES[0][0], result="int"))
    except ExprError as err:
        assert err.context == "" or "^" in err.context


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.sampled_from(
    ["rest", "named", "forehand", "declarer", "solo", "spades", "1 +", "tricks(declarer)", "\ud800", "a b", ""]))
_DOCS = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.sampled_from(
                                                           ["players", "deck", "deal", "play", "auction", "contracts",
                                                            "scoring", "let", "names", "options", "session", "carry",
                                                            "who", "when", "amount", "start", "type", "x", "id"]),
                                                           inner, max_size=4)), max_leaves=20)


@_SLOW
@given(st.dictionaries(st.sampled_from(["id", "players", "deck", "deal", "auction", "contracts", "play", "outcomes",
                                        "scoring", "let", "names", "options", "session", "lay_away", "exchange"]),
                       _DOCS, max_size=6), st.booleans())
def test_random_documents_load_or_fail_at_a_place(tmp_path_factory, doc, extends):
    if extends:
        doc = {"extends": "ombre", **doc}
    p = tmp_path_factory.mktemp("doc") / "house.yaml"
    p.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8", errors="backslashreplace")
    load_checked(str(p))
