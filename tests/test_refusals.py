"""Every refusal leaves the state untouched: random illegal and malformed actions at random points of random deals
of every built-in variant and option choice change nothing, and the next legal actions stay the same."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from variant_choices import every_choice, rules_of

from ombre_rules import IllegalActionError, InvalidActionError, State, load
from ombre_rules.errors import ArgumentError

_CACHES = {"lm", "lc", "ex_acts"}  # worked out on demand; what they hold is checked through legal_actions()


CHOICES = every_choice()


def _rules(i):
    return rules_of(*CHOICES[i])


def _frozen(v):
    if isinstance(v, (list, tuple)):
        return tuple(_frozen(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _frozen(x)) for k, x in v.items()))
    return v if isinstance(v, (int, str, bool, type(None))) else id(v)


def snapshot(s: State):
    """Every field of the state (caches aside), as plain comparable values."""
    out = {}
    for name in State.__slots__:
        if name in _CACHES or not hasattr(s, name):
            continue
        v = getattr(s, name)
        out[name] = _frozen(v.to_dict()) if name == "result" and v is not None else _frozen(v)
    return out


_MALFORMED = [87.0, True, False, None, "3", 1.5, [1], -1, -10**20, 10**20]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(CHOICES) - 1), seed=st.integers(0, 10**6), data=st.data())
def test_a_refused_action_changes_nothing(which, seed, data):
    rules = _rules(which)
    s = State(rules, seed=seed, dealer=seed % rules.players)
    rnd = random.Random(seed)
    while not s.is_terminal:
        legal = s.legal_actions()
        if rnd.random() < 0.3:
            before, legal_before = snapshot(s), list(legal)
            bad = [a for a in range(-3, rules.num_actions + 3) if a not in legal]
            a = data.draw(st.sampled_from(bad + _MALFORMED))
            with pytest.raises((IllegalActionError, InvalidActionError)):
                s.apply(a)
            assert snapshot(s) == before, f"{rules.variant}: refusing {a!r} changed the state"
            assert s.legal_actions() == legal_before
        s.apply(legal[rnd.randrange(len(legal))])
    assert s.result is not None


@pytest.mark.parametrize("part", range(4))
def test_every_variant_and_option_is_covered_by_a_sweep(part):
    # the property test samples; this sweep tries every illegal id once per phase of one deal of each choice
    # (in four parts, one choice in four each, so that the workers share it)
    for i in range(part, len(CHOICES), 4):
        rules = _rules(i)
        s = State(rules, seed=i)
        rnd = random.Random(i)
        seen = set()
        while not s.is_terminal:
            legal = s.legal_actions()
            if s.phase not in seen:
                seen.add(s.phase)
                before = snapshot(s)
                for a in [*range(0, rules.num_actions, 7), rules.num_actions - 1, rules.num_actions]:
                    if a not in legal:
                        with pytest.raises(IllegalActionError):
                            s.apply(a)
                assert snapshot(s) == before and s.legal_actions() == legal
            s.apply(legal[rnd.randrange(len(legal))])


def test_an_illegal_excuse_card_leaves_the_phase_as_it_was():
    rules = load("taroc-lhombre")
    exc = rules.excuse.card
    tried = 0
    for seed in range(40):
        s = State(rules, seed=seed)
        rnd = random.Random(seed)
        while not s.is_terminal:
            legal = s.legal_actions()
            if exc not in legal and s.hands[s.to_move] >> exc & 1 and s.phase_name != "auction":
                before = snapshot(s)
                with pytest.raises(IllegalActionError):
                    s.apply(exc)
                assert snapshot(s) == before and s.legal_actions() == legal
                tried += 1
            s.apply(legal[rnd.randrange(len(legal))])
    assert tried > 0


@pytest.mark.parametrize("bad, message", [
    (87.0, "an action is an id (a whole number), not 87.0"),
    (True, "an action is an id (a whole number), not True"),
    ("pass", "an action is an id (a whole number), not 'pass'"),
])
def test_a_value_that_is_not_an_id_is_invalid_in_every_phase(bad, message):
    rules = load("ombre")
    s = State(rules, seed=3)
    with pytest.raises(InvalidActionError) as ei:
        s.apply(bad)
    assert str(ei.value) == message
    for text in ["bid entrada", "pass", "pass", "trump spades", "draw", "draw", "draw"]:
        s.apply_str(text)
    with pytest.raises(InvalidActionError):
        s.apply(float(s.legal_actions()[0]))
    assert s.history[-1] == rules.parse_action("draw")


def test_view_and_action_str_refuse_what_is_not_there():
    rules = load("ombre")
    s = State(rules, seed=3)
    with pytest.raises(ArgumentError) as ei:
        s.view(3)
    assert str(ei.value) == "no seat 3 (seats are 0 to 2)"
    with pytest.raises(ArgumentError) as ei:
        s.view("0")
    assert str(ei.value) == "a seat is a whole number, not '0'"
    with pytest.raises(InvalidActionError) as ei:
        rules.action_str(-1)
    assert str(ei.value) == f"no action -1 (ids are 0 to {rules.num_actions - 1})"
    with pytest.raises(InvalidActionError):
        rules.action_str(rules.num_actions)
    assert rules.action_str(0) == "play " + rules.deck.name(0)
