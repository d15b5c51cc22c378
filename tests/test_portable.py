"""States as Python objects: deepcopy is clone, pickling by variant name and actions, the one-line text form."""
import copy
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

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
     "session, talon)"),
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


# -- the text form is read strictly: only the line to_text writes --------------------------------------------
def _given_hands(variant: str = "tredrille", seed: int = 1) -> State:
    rules = load(variant)
    seeded = State(rules, seed=seed)
    s = State(rules, hands=list(seeded.deal_hands), talon=list(seeded.deal_talon))
    s.apply_str("pass")
    return s


def test_a_card_named_twice_is_refused_not_read_as_another():
    text = _given_hands().to_text()
    first, second = text.split(" | hands ")[1].split(" ")[:2]
    bad = text.replace(f"hands {first} {second}", f"hands {first} {first}")
    with pytest.raises(OmbreError) as e:
        State.from_text(bad)
    assert e.value.message.startswith(f"card {first} is named twice in the deal, in 'tredrille | dealer 0 | ")


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace("pool 0", "pool 00"), "'pool' wants a number, not '00', in "),
    (lambda t: t.replace("pool 0", "pool +0"), "'pool' wants a number, not '+0', in "),
    (lambda t: t.replace("dealer 0", "dealer ٠"), "'dealer' wants a number, not '٠', in "),
    (lambda t: t.replace("actions pass", "actions PASS"),
     "field 'actions' reads 'actions PASS', but the position it gives is written 'actions pass', in "),
    (lambda t: t.replace(" | dealer 0", ""), "field 'dealer' is missing (it reads 'dealer 0') in "),
    (lambda t: t.replace(" | talon", ""), "field 'talon' is missing (it reads 'talon') in "),
    (lambda t: t.replace(" | talon", " | talon | seed 1"), "field 'seed' comes before 'talon' in a position, in "),
    (lambda t: t.replace("hands ", "hands  "), "'' in hand 1 is not a card of the deck, in "),
    (lambda t: t.replace(" / ", " /  ", 1), "'' in hand 2 is not a card of the deck, in "),
    (lambda t: t.replace("hands 6S", "hands 6s"), "'6s' in hand 1 is not a card of the deck, in "),
    (lambda t: t.replace("tredrille |", "tredrille() |"), "the position names variant 'tredrille()', not 'tredrille'"),
])
def test_a_line_not_written_by_to_text_is_refused(change, message):
    text = _given_hands().to_text()
    assert text.startswith("tredrille | dealer 0 | pool 0 | hands 6S ")
    with pytest.raises(OmbreError) as e:
        State.from_text(change(text))
    assert e.value.message.startswith(message)
    assert "\n" not in e.value.message


def test_hands_and_a_seed_together_are_refused():
    with pytest.raises(OmbreError) as e:
        State.from_text(State(load("ombre"), seed=3).to_text().replace(" | actions", " | hands AS | actions"))
    assert e.value.message == ("a position gives 'seed N' or 'hands …', not both: 'ombre | dealer 0 | pool 0 | "
                               "seed 3 | hands AS | actions'")
    with pytest.raises(OmbreError) as e:
        State.from_text("ombre | dealer 0 | pool 0 | hands AS | talon | actions")
    assert e.value.message == "a deal needs 3 hands, not 1"


_VOCAB = [" ", "|", " | ", "/", " / ", ",", ", ", "0", "1", "-1", "00", "+1", "AS", "KC", "as", "seed", "hands",
          "talon", "pool", "dealer", "actions", "next", "session", "{}", '{"beasts": [15]}', "pass", "PASS", "\n",
          "\t", "é", "١", "null", "[", "]", '"', "\\u007c"]
_LINES = [_given_hands().to_text(), _given_hands("cinquillo(scoring=cg_new)", 4).to_text()]
for _variant, _seed in (("ombre", 7), ("german-solo", 2), ("quadrille(no_hold=true)", 3)):
    _LINES += [p.to_text() for p in positions(load(_variant), _seed, every=9)[-2:]]


@st.composite
def _mutated(draw) -> str:
    line = draw(st.sampled_from(_LINES))
    for _ in range(draw(st.integers(1, 3))):
        words = line.split(" ")
        i = draw(st.integers(0, len(line)))
        j = draw(st.integers(i, min(len(line), i + 12)))
        piece = draw(st.sampled_from(_VOCAB) | st.sampled_from(words))  # a word of the line: a card named twice
        kind = draw(st.sampled_from(["replace", "insert", "delete", "swap"]))
        if kind == "replace":
            line = line[:i] + piece + line[j:]
        elif kind == "insert":
            line = line[:i] + piece + line[i:]
        elif kind == "delete":
            line = line[:i] + line[j:]
        else:
            a, b = sorted(draw(st.lists(st.integers(0, len(words) - 1), min_size=2, max_size=2)))
            words[a], words[b] = words[b], words[a]
            line = " ".join(words)
    return line


@settings(max_examples=max(300, settings.default.max_examples), suppress_health_check=[HealthCheck.too_slow])
@given(_mutated())
def test_mutated_lines_give_the_state_they_write_or_a_clean_error(line):
    """A line read back is exactly the line its state writes (so no card named twice becomes another and no
    two lines give one state); anything else is a one-line OmbreError."""
    try:
        s = State.from_text(line)
    except OmbreError as e:
        assert e.message and "\n" not in e.message
        event("refused")
        return
    event("read back")
    assert s.to_text() == line.strip()
