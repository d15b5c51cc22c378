"""Fuzzing with hypothesis of the surfaces that take data from outside: records (mutated valid records are
replayed, or refused in one line), the adapters' actions (random values and types: applied when legal, else
refused with the state as it was) and OpenSpiel's serialised states (mutated texts are read back exactly, or
refused, and nothing is unpickled).

A small fixed budget by default (about 20 s in all); a long run, OMBRE_FUZZ_EXAMPLES examples a test:
    OMBRE_FUZZ_EXAMPLES=5000 pytest tests/test_fuzz_surfaces.py --hypothesis-profile=fuzz
"""
import copy
import io
import json
import random
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pyspiel
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import ombre_rules.openspiel as osp
from ombre_rules import OmbreError, State, load
from ombre_rules.cli import main
from ombre_rules.pettingzoo import env
from ombre_rules.records import to_record
from ombre_rules.session import Session


def budget(n: int) -> settings:
    """`n` examples in the default run, the profile's number in a long one (`--hypothesis-profile=fuzz`)."""
    return settings(max_examples=max(n, settings.default.max_examples), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large])


# -- records ------------------------------------------------------------------------------------------------------
def _records() -> list[dict]:
    out = []
    for variant, seed in (("ombre", 5), ("quadrille", 2), ("cinquillo(scoring=cg_new)", 3)):
        s = State(load(variant), seed=seed)
        s.random_playout(random.Random(seed).random)
        out.append(to_record(s))
    rules = load("german-solo(scoring=pot)")  # amounts beyond 2**53 - 1, written as digits
    sess = Session(rules, seed=1)
    from ombre_rules.players import make_player

    sess.play([make_player("random", i, rules) for i in range(rules.players)], 70)
    out.append(to_record(max(sess.deals, key=lambda d: d.pool)))
    return out


RECORDS = _records()


def _paths(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, path + (i,))


_RECORD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
    st.sampled_from(["AS", "KC", "as", "pass", "bid entrada", "play AS", "discard 2S", "ombre", "quadrille",
                     "9007199254740992", "-9007199254740993", "0", "01", "1e3", "", "\n", "/dev/stdin", "won",
                     "ante", "x" * 300]),
    st.text(max_size=12), st.lists(st.sampled_from(["AS", "2S", "KC", 1, None]), max_size=4),
    st.dictionaries(st.sampled_from(["amount", "from", "to", "label", "why", "x"]), st.integers(-2, 9), max_size=3))


@st.composite
def _mutated_record(draw) -> dict:
    rec = copy.deepcopy(draw(st.sampled_from(RECORDS)))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(rec))[1:]
        path = draw(st.sampled_from(paths))
        parent = rec
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        kind = draw(st.sampled_from(["set", "set", "delete", "copy", "swap"]))
        if kind == "set":
            parent[key] = draw(_RECORD_VALUES)
        elif kind == "delete":
            del parent[key]
        elif kind == "copy":  # another value of the record put here: a card, an action, a transfer met twice
            other = draw(st.sampled_from(paths))
            node = rec
            for k in other:
                node = node[k]
            parent[key] = copy.deepcopy(node)
        elif isinstance(parent, list) and len(parent) > 1:
            j = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[j] = parent[j], parent[key]
    return rec


@budget(100)
@given(_mutated_record())
def test_mutated_records_replay_exactly_or_are_refused_in_one_line(tmp_path_factory, rec):
    """`ombre replay` of a mutated record: it replays to the record's own result and account (exit 0), or is
    refused in one line (exit 1); any other exception fails the test."""
    p = tmp_path_factory.mktemp("rec") / "rec.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["replay", str(p)])
    assert code in (0, 1)
    assert (code == 1) == bool(err.getvalue()) and err.getvalue().count("\n") == code
    event("refused" if code else "replayed")


# -- the adapters' actions ------------------------------------------------------------------------------------------
_ODD = st.one_of(st.booleans(), st.floats(allow_nan=True), st.text(max_size=4), st.none(),
                 st.integers(-2**80, 2**80), st.sampled_from([np.bool_(True), np.float32(3), np.array([1, 2]),
                                                                np.array(2), [1], (1,), {1: 2}, b"1", 1j]))


def _action(draw, legal: list[int], size: int):
    """A legal action, an id out of the legal list (numpy's or Python's) or a value of another type."""
    pick = draw(st.sampled_from(["legal", "legal numpy", "id", "odd"]))
    if pick.startswith("legal") and legal:
        a = draw(st.sampled_from(legal))
        return np.int64(a) if pick == "legal numpy" else a
    if pick == "id":
        return draw(st.integers(-3, size + 3))
    return draw(_ODD)


def _is_legal(a, legal: list[int]) -> bool:
    """Whether a value is a legal action id: a whole number (Python's or numpy's, a 0-d integer array too), never
    a bool, and in the legal list."""
    whole = (isinstance(a, (int, np.integer)) and not isinstance(a, bool)) or \
        (isinstance(a, np.ndarray) and a.ndim == 0 and np.issubdtype(a.dtype, np.integer))
    return whole and int(a) in legal


def _snapshot(state) -> tuple:
    return str(state), state.history(), state.move_number(), state.serialize()


@budget(60)
@given(st.data(), st.sampled_from(["ombre_rules_ombre", "ombre_rules_tredrille(seed=3)",
                                   "ombre_rules_cinquillo(scoring=cg_new)"]), st.integers(0, 60))
def test_openspiel_actions_of_any_value_are_applied_when_legal_else_change_nothing(data, name, steps):
    game = pyspiel.load_game(name)
    rng = random.Random(steps)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < steps:
        state.apply_action(rng.choice(state.legal_actions()))
    size = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
    for _ in range(8):
        legal = state.legal_actions()
        a = _action(data.draw, legal, size)
        before = _snapshot(state)
        if _is_legal(a, legal):
            state.apply_action(a)
            assert state.history()[-1] == int(a)
            event("applied")
            continue
        try:
            state.apply_action(a)
        except OmbreError as e:
            assert e.message and "\n" not in e.message
        else:
            raise AssertionError(f"{a!r} was taken; legal: {legal}")
        assert _snapshot(state) == before
        event("refused")


_ENVS: dict = {}


@budget(60)
@given(st.data(), st.sampled_from(["ombre", "tredrille", "german-solo"]), st.integers(0, 2**31))
def test_pettingzoo_steps_of_any_value_are_applied_when_legal_else_change_nothing(data, variant, seed):
    if variant not in _ENVS:
        _ENVS[variant] = env(variant=variant)
    e = _ENVS[variant]
    e.reset(seed=seed)
    u = e.unwrapped
    for _ in range(8):
        if u.deal.is_terminal:
            return
        legal = u.deal.legal_actions()
        a = _action(data.draw, legal, u.rules.num_actions)
        before = (u.deal.to_text(), u.agent_selection, dict(u.rewards), dict(u._cumulative_rewards))
        if _is_legal(a, legal):
            e.step(a)
            assert u.deal.history[-1] == int(a)
            event("applied")
            continue
        try:
            e.step(a)
        except OmbreError as err:
            assert err.message and "\n" not in err.message
        else:
            raise AssertionError(f"{a!r} was taken; legal: {legal}")
        assert (u.deal.to_text(), u.agent_selection, dict(u.rewards), dict(u._cumulative_rewards)) == before
        event("refused")


# -- OpenSpiel's serialised states -------------------------------------------------------------------------------------
def _texts() -> list[str]:
    out = []
    for name, steps in (("ombre_rules_ombre", 12), ("ombre_rules_ombre", 48), ("ombre_rules_quadrille(seed=2)", 6),
                        ("ombre_rules_cinquillo(scoring=cg_new)", 60)):
        game = pyspiel.load_game(name)
        rng = random.Random(steps)
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.history()) < steps:
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(pyspiel.serialize_game_and_state(game, state))
    return out


TEXTS = _texts()
_PIECES = ["\n", " ", "#", "[Game]", "[State]", "[Meta]", "dealt", "AS", "2S", "history=-1:0", "__dict__=gASVAA==",
           "ombre_rules(seed=-5)", "ombre_rules_ombre(dealer=9)", "tic_tac_toe()", " | ", "pass", "seed 1", ","]


@budget(80)
@given(st.data())
def test_mutated_serialised_states_are_read_back_exactly_or_refused(data):
    text = data.draw(st.sampled_from(TEXTS))
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 10)))
        piece = data.draw(st.sampled_from(_PIECES) | st.sampled_from(text.split()))
        text = text[:i] + piece + text[j:]
    try:
        game, state = pyspiel.deserialize_game_and_state(text)
    except (OmbreError, pyspiel.SpielError) as e:
        assert str(e)
        event("refused")
        return
    event("read")
    if isinstance(game, osp.OmbreGame):  # read back exactly: the text is what serialising its state writes
        assert pyspiel.serialize_game_and_state(game, state).split("[State]\n")[1].rstrip("\n") == \
            "\n".join(x for x in text.split("[State]\n")[1].split("\n") if x and not x.startswith("#"))
