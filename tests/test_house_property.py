"""The property "check ok => plays" (issue 32): house files made by mutating the built-in variants (their keys,
expressions, scalars, options and carried values) either fail to load with messages, or play 50 random
deals in a row (pool and carried values passed on) without an exception but a clean refusal: an OmbreError that
is not a SpecError (a session value past its limit), never a failed expression, a bad seat or a traceback.

The suite runs a small fixed number of files (derandomized); a long run:
    OMBRE_PROPERTY_EXAMPLES=2000 python -m pytest tests/test_house_property.py
"""
import copy
import os
import random
import re

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ombre_rules import State, load
from ombre_rules.envs import DEAL_VARS
from ombre_rules.errors import OmbreError, SpecError
from ombre_rules.log import summary_lines
from ombre_rules.spec.resolve import builtin_index, resolve

EXAMPLES = int(os.environ.get("OMBRE_PROPERTY_EXAMPLES", "30"))
DEALS = 50
VARIANTS = sorted(set(builtin_index().values()))
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _resolved(path: str, options: dict) -> dict:
    """The variant's data with these options applied, each option left with its one chosen value (so that check
    compiles the file once)."""
    spec = resolve(path, options)
    data = copy.deepcopy(spec.data)
    if spec.options:  # their changes are made: each keeps its choices' values, the chosen one as the default
        data["options"] = {k: {"default": v, "choices": spec.choices[k]} for k, v in spec.options.items()}
    return data


def _paths(v, path=()):
    yield path, v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, path + (i,))


def _is_expr(v) -> bool:
    return isinstance(v, str) and any(ch in v for ch in "()[]+-*<>=.% ") and len(v) < 400


def _replace_token(text: str, draw) -> str:
    names = list(_NAME.finditer(text))
    if not names:
        return text
    m = draw(st.sampled_from(names))
    new = draw(st.sampled_from(sorted(DEAL_VARS) + ["none", "0", "1", "-1", "999999999999", "true", "[]",
                                                     "first(defenders)", "sitters[0]", "partner", "declarer + 1",
                                                     "contract.value", "session", "hand(declarer)"]))
    return text[:m.start()] + new + text[m.end():]


def _mutate_expr(text: str, draw) -> str:
    kind = draw(st.sampled_from(["token", "plus", "times", "wrap", "guard", "negate", "number"]))
    if kind == "token":
        return _replace_token(text, draw)
    if kind == "plus":
        return f"({text}) + {draw(st.sampled_from(['1', 'declarer', 'partner', 'pool', 'tricks(declarer)']))}"
    if kind == "times":
        return f"({text}) * {draw(st.sampled_from(['2', 'pool', '1000000000', '(' + text + ')']))}"
    if kind == "wrap":
        return draw(st.sampled_from([f"first([{text}])", f"max({text}, 0)", f"[{text}][1]", f"-({text})"]))
    if kind == "guard":
        return f"({text}) if declarer != none else none"
    if kind == "negate":
        return f"not ({text})"
    return re.sub(r"\d+", lambda m: draw(st.sampled_from(["0", "1", "7", "200", "999999999999999"])), text, count=1)


def _mutate_scalar(v, draw, strings: list[str]):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return draw(st.sampled_from([0, 1, -1, v + 1, v - 1, 2 * v, 200, 10**15]))
    if _is_expr(v):
        return _mutate_expr(v, draw)
    if isinstance(v, str):
        return draw(st.sampled_from(strings + ["", "rest", "none", "a b"]))
    return v


def _carried(draw) -> dict:
    kind = draw(st.sampled_from(["int", "bool", "str", "suit", "list"]))
    start = draw(st.sampled_from({"int": [0, 5, -3, None], "bool": [True, False], "str": ["", "x", None],
                                  "suit": [None], "list": [[], [1, 2], [10**15]]}[kind]))
    out = {"type": kind, "once": draw(st.booleans())}
    if start is not None or draw(st.booleans()):
        out["start"] = start
    return out


@st.composite
def house_files(draw):
    """A built-in variant (with an option choice), mutated at one to three places."""
    path = draw(st.sampled_from(VARIANTS))
    choices = resolve(path).choices
    options = {}
    if choices and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(choices)))
        options[key] = str(draw(st.sampled_from(choices[key]))).lower()
    data = _resolved(path, options)
    strings = sorted({v for _p, v in _paths(data) if isinstance(v, str) and _NAME.fullmatch(v)})[:200]
    for _ in range(draw(st.integers(1, 3))):
        places = [(p, v) for p, v in _paths(data) if p]
        kind = draw(st.sampled_from(["expr", "expr", "scalar", "remove", "swap", "carry", "transplant"]))
        if kind == "transplant":  # a part of another built-in: mechanics met together nowhere else
            other = _resolved(draw(st.sampled_from(VARIANTS)), {})
            donor = [(q, x) for q, x in _paths(other) if 1 <= len(q) <= 3 and q[0] not in ("id", "options")
                     and all(isinstance(k, str) for k in q)]
            q, x = draw(st.sampled_from(donor))
            node = data
            for k in q[:-1]:
                node = node.setdefault(k, {}) if isinstance(node, dict) else None
                if node is None:
                    break
            if isinstance(node, dict):
                node[q[-1]] = copy.deepcopy(x)
            continue
        if kind == "carry":
            carry = data.setdefault("session", {}).setdefault("carry", {})
            name = draw(st.sampled_from(["score", "mark", "last"] + list(carry)))
            carry[name] = _carried(draw)
            if draw(st.booleans()):  # a step that sets it
                step = {"set": {name: draw(st.sampled_from(["session." + name, "tricks(declarer)", "none", "[1]",
                                                            "trump", "'won'", f"session.{name} + 1"]))}}
                outs = data.get("scoring", {}).get("outcomes") or {}
                if outs:
                    (outs[draw(st.sampled_from(sorted(outs)))] or []).append(step)
            continue
        if kind == "expr":
            exprs = [(p, v) for p, v in places if _is_expr(v)]
            places = exprs or places
        p, v = draw(st.sampled_from(places))
        parent = data
        for k in p[:-1]:
            parent = parent[k]
        if kind == "remove" and isinstance(parent, dict):
            del parent[p[-1]]
        elif kind == "swap":
            same_kind = [x for _q, x in places if type(x) is type(v) and x is not v]
            if same_kind:
                parent[p[-1]] = copy.deepcopy(draw(st.sampled_from(same_kind[:300])))
        else:
            parent[p[-1]] = _mutate_scalar(v, draw, strings)
    return data


def _play(path: str) -> None:
    """Play DEALS random deals of a checked file in a row; a clean refusal ends the run early."""
    rules = load(path)
    pool, carry = 0, None
    for i in range(DEALS):
        try:
            s = State(rules, seed=i, dealer=i % rules.players, pool=pool, session=carry)
            s.random_playout(random.Random(i).random)
            assert s.result is not None
            s.account()
            summary_lines(s)
        except SpecError:
            raise
        except OmbreError:
            return
        pool, carry = s.pool, s.carry_after


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(house_files())
def test_a_house_file_that_check_accepts_plays(tmp_path_factory, data):
    path = str(tmp_path_factory.mktemp("house") / "house.yaml")
    with open(path, "w", encoding="utf-8") as f:
        yaml.safe_dump(data, f, allow_unicode=True, sort_keys=False)
    try:
        load(path)  # what check compiles first: the file with its default options (the others are alike)
    except SpecError:
        return
    _play(path)
