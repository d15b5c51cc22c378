"""States as Python objects: deepcopy is clone, pickling by variant name and actions, the one-line text form."""
import copy
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ombre_rules import IllegalActionError, OmbreError, State, load
from ombre_rules.engine import portable
from ombre_rules.sim.speed import builtin_variants

ROOT = Path(__file__).resolve().parent.parent


def positions(rules, seed: int, every: int = 7):
    """States along one random deal (a fresh one every `every` actions, and the end)."""
    rng = random.Random(seed)
    s = State(rules, seed=seed)
    out = [s.clone()]
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
        if len(s.history) % every == 0 or s.is_terminal:
            out.append(s.clone())
    return out


def same(a: State, b: State) -> None:
    assert a.to_text() == b.to_text()
    assert a.legal_actions() == b.legal_actions()
    assert a.result == b.result
    for seat in range(a.n):
        assert a.view(seat) == b.view(seat)


def test_deepcopy_is_a_clone_sharing_the_ruleset():
    rules = load("quadrille")
    s = State(rules, seed=3)
    s.apply_str("pass")
    c = copy.deepcopy(s)
    assert c.rules is s.rules
    same(c, s)
    c.apply(c.legal_actions()[0])
    assert len(c.history) == 2 and len(s.history) == 1
    assert copy.copy(s).hands is not s.hands


@pytest.mark.parametrize("variant", builtin_variants())
def test_pickle_round_trip_on_every_variant(variant):
    rules = load(variant)
    for s in positions(rules, 11):
        data = pickle.dumps(s)
        assert len(data) < 1500  # names, deal and actions only, never the compiled ruleset
        back = pickle.loads(data)
        assert back.rules is portable.rules_for(rules.variant)
        same(back, s)


@pytest.mark.parametrize("variant", builtin_variants())
def test_text_round_trip_on_every_variant(variant):
    rules = load(variant)
    for s in positions(rules, 5):
        text = s.to_text()
        assert "\n" not in text
        same(State.from_text(text, rules), s)
        same(State.from_text(text), s)


def test_text_form_of_a_seeded_position():
    s = State(load("ombre"), seed=7)
    s.apply_str("pass")
    s.apply_str("bid entrada")
    assert s.to_text() == "ombre | dealer 0 | pool 0 | seed 7 | actions pass, bid entrada"
    assert State(load("ombre"), seed=7, dealer=2, pool=6).to_text() == "ombre | dealer 2 | pool 6 | seed 7 | actions"


def test_text_form_of_given_hands():
    rules = load("tredrille")
    seeded = State(rules, seed=1)
    s = State(rules, hands=list(seeded.deal_hands), talon=list(seeded.deal_talon))
    s.apply_str("pass")
    hands = " / ".join(" ".join(rules.deck.names(h)) for h in seeded.deal_hands)
    assert s.to_text() == f"tredrille | dealer 0 | pool 0 | hands {hands} | talon | actions pass"
    same(State.from_text(s.to_text()), s)


def test_options_in_the_text_form():
    s = State(load("quadrille(no_hold=true)"), seed=2)
    assert s.to_text().startswith("quadrille(no_hold=true) | dealer 0")
    assert State.from_text(s.to_text()).rules.variant == "quadrille(no_hold=true)"


@pytest.mark.parametrize("text, message", [
    ("ombre", "not a position: 'ombre' (expected 'VARIANT | dealer N | pool N | seed N | actions …')"),
    ("ombre | dealer x | seed 1", "'dealer' wants a number, not 'x', in 'ombre | dealer x | seed 1'"),
    ("ombre | colour red | seed 1",
     "unknown field 'colour' in 'ombre | colour red | seed 1' (fields: actions, dealer, hands, next, pool, seed, "
     "session, talon, turn_up)"),
    ("ombre | seed 1 | seed 2", "field 'seed' given twice in 'ombre | seed 1 | seed 2'"),
    ("ombre | dealer 0", "a position needs 'seed N' or 'hands …': 'ombre | dealer 0'"),
])
def test_bad_text_is_refused_with_a_message(text, message):
    with pytest.raises(OmbreError) as e:
        State.from_text(text)
    assert e.value.message == message


def test_an_illegal_action_in_the_text_names_its_place():
    with pytest.raises(IllegalActionError) as e:
        State.from_text("ombre | seed 7 | actions pass, play AS")
    assert e.value.message.startswith("action 2 of 'ombre | seed 7 | actions pass, play AS': 'play AS' is not legal "
                                      "for seat 2 in auction")


def test_a_changed_ruleset_is_refused_when_unpickling():
    s = State(load("ombre"), seed=1)
    fn, args = s.__reduce__()
    with pytest.raises(OmbreError) as e:
        fn(args[0], args[1], "0" * 16, *args[3:])
    assert e.value.message == "variant 'ombre' is not the one this state was saved with (its rules changed)"


def test_unpickled_in_another_process_from_the_variant_name():
    s = State(load("cinquillo(scoring=cg_new)"), seed=4)
    for _ in range(6):
        s.apply(s.legal_actions()[-1])
    code = ("import pickle, sys; s = pickle.loads(sys.stdin.buffer.read()); "
            "print(s.to_text()); print(s.legal_actions())")
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(s), capture_output=True, check=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT)}).stdout.decode().splitlines()
    assert out == [s.to_text(), str(s.legal_actions())]
