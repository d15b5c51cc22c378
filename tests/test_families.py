"""Contract families (`families`, ruleset/families.py) expand at load into ordinary contracts: names, titles,
levels from the formula, the variables as attributes, the cases merged over the template; and a family that
would make a bad contract is refused at its place (file:line:col). Play with the members is checked by
tests/scenarios/mechanics/families.yaml."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from housefiles import load_errors

from ombre_rules import load

DATA = Path(__file__).parent / "data"
LADDER = str(DATA / "ladder.yaml")


def test_a_family_makes_one_contract_per_combination_after_the_files_own():
    rules = load(LADDER)
    made = [(c.name, c.level, c.title, getattr(c, "n"), getattr(c, "kind"))  # noqa: B009 - attributes the file made
            for c in rules.contracts if c.name[0] == "t"]
    assert made[:4] == [("t2_plain", 8, "2 in plain", 2, "plain"), ("t2_colour", 9, "2 in colour", 2, "colour"),
                        ("t2_preference", 10, "2 in preference", 2, "preference"),
                        ("t3_plain", 12, "3 in plain", 3, "plain")]
    assert len(made) == 12
    assert [c.name for c in rules.contracts[:4]] == ["misery", "spread", "royal", "partout"]
    by = rules.contract_by_name
    assert (by["t4_preference"].trump_mode, by["t4_colour"].trump_mode) == ("turn_up", "named")
    assert by["t4_colour"].trump_allowed is not None and by["t4_preference"].trump_allowed is None


def _house(tmp_path: Path, body: str) -> str:
    for name in ("misery.yaml", "ladder.yaml"):
        shutil.copy(DATA / name, tmp_path / name)
    path = tmp_path / "house.yaml"
    path.write_text("extends: ladder.yaml\nid: house\n" + body)
    return str(path)


@pytest.mark.parametrize("body, expected", [
    ("families:\n  tricks:\n    name: \"{kind}\"\n    vars: {n: [2], kind: [misery]}\n",
     ["5:11: family 'tricks' makes a contract 'misery': the name of another contract"]),
    ("families:\n  tricks:\n    level: \"4 * n + kind + bonus\"\n",
     ["5:12: a level formula holds integers, the family's variables, + - * // and parentheses only"]),
    ("families:\n  tricks:\n    level: \"n - 3\"\n",
     ["5:12: the level formula gives -1 for t2_plain: a level is 1 or more"]),
    ("families:\n  big:\n    vars: {n: {from: 1, to: 200}, kind: [a, b, c]}\n    name: \"b{n}{kind}\"\n    level: n\n",
     ["5:5: family 'big' makes 600 contracts, more than 500"]),
    # an error in the template is said once, at the template's place
    ("families:\n  tricks:\n    contract:\n      outcomes: [{name: won, when: \"tricks(declarer) >= contract.m\"}, "
     "{name: lost}]\n",
     ["6:66: unknown attribute 'm'"]),
])
def test_a_bad_family_is_refused_at_its_place(tmp_path, body, expected):
    assert load_errors(_house(tmp_path, body)) == expected
