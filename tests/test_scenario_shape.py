"""Scenario files are untrusted input: a value of the wrong kind anywhere is a message at its place (from
`ombre test` and `ombre solve` alike), never a TypeError in the code that reads it."""
import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from ombre_rules.cli import main
from ombre_rules.errors import SpecError
from ombre_rules.scenario import run_file, scenario_deal

# file body -> the message at its place (line:col), for the first scenario of the file
BAD = {
    "variant: ombre\nscenarios: {a: 1}\n": "2:12: 'scenarios' is a list of scenarios (mappings), not {'a': 1}",
    "variant: ombre\nscenarios: 3\n": "2:12: 'scenarios' is a list of scenarios (mappings), not 3",
    "variant: ombre\nscenarios: [{seed: 1}, x]\n": "2:24: each scenario is a mapping, not 'x'",
    "[1, 2]\n": "1:1: a scenario file is a mapping, not [1, 2]",
    "variant: ombre\nseed: 1\ndealer: x\n": "3:9: 'dealer' must be a whole number, not 'x'",
    "variant: ombre\nseed: 1\ndealer: true\n": "3:9: 'dealer' must be a whole number, not True",
    "variant: ombre\nseed: 1\ndealer: 9\n": "3:9: no seat 9 in a 3-player game",
    "variant: ombre\nseed: 1.5\n": "2:7: 'seed' must be a whole number, not 1.5",
    "variant: ombre\nseed: 1\npool: x\n": "3:7: 'pool' must be a whole number, not 'x'",
    "variant: ombre\nseed: 1\noptions: [a]\n": "3:10: 'options' must be a mapping of names to single values, "
                                               "not ['a']",
    "variant: ombre\nseed: 1\nactions: pass\n": "3:10: 'actions' must be a list of single values, not 'pass'",
    "variant: ombre\nseed: 1\nexpect: [1]\n": "3:9: 'expect' must be a mapping, not [1]",
    "variant: ombre\nseed: 1\nexpect: {legal: x}\n": "3:17: each 'legal' check is a mapping, not 'x'",
    "variant: ombre\nseed: 1\nexpect: {legal: [{after: x}]}\n": "3:26: 'expect.legal.0.after' must be a whole "
                                                                  "number, not 'x'",
    "variant: ombre\nseed: 1\nexpect: {view: [{hand: []}]}\n": "3:17: a 'view' check needs 'seat'",
    "variant: ombre\nseed: 1\nexpect: {illegal: [{message: x}]}\n": "3:20: a 'illegal' check needs 'action'",
    "variant: ombre\nseed: 1\nexpect: {hand: [1]}\n": "3:16: 'expect.hand' must be a mapping of seats to lists of "
                                                      "cards, not [1]",
    "variant: ombre\nhands: {0: 5}\n": "2:8: 'hands' must be a mapping of seats to lists of cards, not {'0': 5}",
    "variant: ombre\nhands: {0.5: [AS]}\n": "2:14: seat '0.5' is not a seat number",
    "variant: ombre\nseed: 1\nsession: x\n": "3:10: 'session' must be a mapping, not 'x'",
}
# found while the scenario runs (the deal is made first): `ombre test` reports them, `ombre solve` has no need
LATE = {
    "variant: ombre\nseed: 1\nexpect: {view: [{seat: 9}]}\n": "3:24: no seat 9 in a 3-player game",
    "variant: ombre\nseed: 1\nexpect: {hand: {9: [AS]}}\n": "3:20: no seat 9 in a 3-player game",
}


def _file(tmp_path, body: str) -> str:
    p = tmp_path / "sc.yaml"
    p.write_text(body, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("body", sorted(BAD) + sorted(LATE))
def test_a_bad_scenario_is_refused_at_its_place(tmp_path, body):
    path = _file(tmp_path, body)
    want = f"{path}:{(BAD | LATE)[body]}"
    try:
        rep = run_file(path)
    except SpecError as e:
        got = str(e)
    else:
        assert not rep.passed and len(rep.failures) == 1
        f = rep.failures[0]
        got = f"{f.loc}: {f.message}"
    assert got == want
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert main(["test", path]) == 1
    assert "Traceback" not in err.getvalue() and (BAD | LATE)[body].split(": ", 1)[1] in err.getvalue()


@pytest.mark.parametrize("body", sorted(BAD))
def test_solve_refuses_a_bad_scenario_at_its_place(tmp_path, body):
    path = _file(tmp_path, body)
    with pytest.raises(SpecError) as e:
        scenario_deal(path)
    assert str(e.value) == f"{path}:{BAD[body]}"
