"""Options that take a whole number within a range (`range: {min, max}` besides the listed choices): the loader's
checks at their place, values given as text, the messages for a value outside, `ombre variants`, the rulebook and
`compare --sweep`."""
import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from ombre_rules import SpecError, load
from ombre_rules.book import build
from ombre_rules.book.model import Table
from ombre_rules.cli import main
from ombre_rules.errors import OmbreError
from ombre_rules.sim.sweep import parse
from ombre_rules.spec.resolve import resolve

REFUSED = "'{}' is not a choice of option 'enchilada' (choices: 0, or a whole number from 25 to 100)"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_a_number_in_the_range_is_a_choice(write, mini):
    path = write(f"extends: {mini}\noptions:\n  bonus: {{default: 0, choices: [0], range: {{min: 5, max: 9}}}}\n")
    spec = resolve(path)
    assert (spec.options["bonus"], spec.choices["bonus"], spec.listed("bonus")) == (0, [0, 5, 9], [0])
    assert spec.accepted("bonus") == "0, or a whole number from 5 to 9"
    seven = resolve(path, {"bonus": "7"})
    assert (seven.options["bonus"], seven.variant) == (7, f"{path}(bonus=7)")
    assert resolve(f"{path}(bonus=+7)").variant == f"{path}(bonus=7)"
    assert load(path, {"bonus": 7}).spec.options["bonus"] == 7
    for bad in ("4", "10", "7.0", "true", "seven"):
        with pytest.raises(SpecError) as ei:
            resolve(path, {"bonus": bad})
        assert str(ei.value) == f"'{bad}' is not a choice of option 'bonus' (choices: 0, or a whole number from 5 to 9)"


def test_an_option_of_a_range_alone_defaults_inside_it(write, mini):
    path = write(f"extends: {mini}\noptions:\n  bonus: {{default: 6, choices: null, range: {{min: 5, max: 9}}}}\n")
    spec = resolve(path)
    assert (spec.options["bonus"], spec.choices["bonus"], spec.accepted("bonus")) == (6, [5, 6, 9],
                                                                                      "a whole number from 5 to 9")


@pytest.mark.parametrize("option, expected", [
    ("{default: 0, choices: [0], range: {min: 9, max: 5}}",
     "3:50: the range of option 'extra' is empty: min 9 is above max 5"),
    ("{default: 4, choices: [0], range: {min: 5, max: 9}}",
     "3:20: default '4' of option 'extra' is not one of its choices (0, or a whole number from 5 to 9)"),
    ("{default: 6, range: {min: 5}}", "3:30: missing key 'max' in options.extra.range"),
    ("{default: 6, range: {min: 5, max: x}}", '3:44: options.extra.range.max must be integer, not "x"'),
    ("{default: 6, range: {min: 5, max: 9.5}}", "3:44: options.extra.range.max must be integer, not 9.5"),
    ("{default: 6, range: {min: 5, max: true}}", "3:44: options.extra.range.max must be integer, not true"),
    ("{default: 6}", "3:3: option 'extra' has neither choices nor a range"),
])
def test_a_bad_range_is_refused_at_its_place(write, mini, option, expected):
    path = write(f"extends: {mini}\noptions:\n  extra: {option}\n")
    with pytest.raises(SpecError) as ei:
        resolve(path)
    assert str(ei.value) == f"{path}:{expected}"


def test_the_cli_takes_a_number_in_the_range_and_refuses_one_outside():
    code, out, err = run("play", "tresillo", "--option", "enchilada=101")
    assert (code, out) == (1, "") and err == "ombre: error: " + REFUSED.format(101) + "\n"
    code, out, err = run("play", "tresillo", "--option", "enchilada=24", "--players", "random", "--seed", "1")
    assert code == 1 and err == "ombre: error: " + REFUSED.format(24) + "\n"
    code, out, err = run("play", "tresillo", "--option", "enchilada=40", "--players", "random", "--seed", "1")
    assert code == 0 and err == ""
    code, out, _ = run("variants")
    assert "    enchilada=0  [0|25..100]  at a deal's start" in out


def _option_rows(rules) -> dict[str, tuple[str, ...]]:
    book = build(rules, examples=False, payments=False)
    options = next(s for s in book.sections if s.key == "options")
    table = next(i for i in options.items if isinstance(i, Table))
    return {r[0]: r for r in table.rows}


def test_the_rulebook_shows_the_range():
    assert _option_rows(load("tresillo"))["enchilada"][2:] == ("0 (the default)", "a whole number from 25 to 100")
    assert _option_rows(load("tresillo", {"enchilada": 40}))["enchilada"][2:] == \
        ("40 (default 0)", "0, a whole number from 25 to 100")


@pytest.mark.parametrize("text, values", [
    ("enchilada", [0, 25, 100]),
    ("enchilada=0..100:25", [0, 25, 50, 75, 100]),
    ("enchilada=20..60:10", [30, 40, 50, 60]),
    ("enchilada=0,40,77", [0, 40, 77]),
])
def test_a_sweep_takes_the_numbers_of_the_range(text, values):
    sweep = parse(text, "tresillo", load("tresillo"))
    assert sweep.values == values
    assert sweep.runs[1] == (f"tresillo(enchilada={values[1]})", None)


@pytest.mark.parametrize("text, message", [
    ("enchilada=24", "--sweep: '24' is not a choice of enchilada (choices: 0, or a whole number from 25 to 100)"),
    ("enchilada=-1000..1000", "--sweep enchilada=-1000..1000: more than 50 values"),
    ("enchilada=1..20", "--sweep enchilada=1..20: no choice of enchilada in that range (choices: 0, or a whole "
                        "number from 25 to 100)"),
])
def test_a_sweep_refuses_numbers_outside_the_range(text, message):
    with pytest.raises(OmbreError) as ei:
        parse(text, "tresillo", load("tresillo"))
    assert str(ei.value) == message
