"""The limits of a variant file and of the command line, each refused with a message at its place; a hostile
file never hangs, never runs out of memory and never ends in a traceback."""
import time

import pytest
from badfiles import BAD_FILES

from ombre_rules import SpecError, load
from ombre_rules.errors import OmbreError
from ombre_rules.players import make_player
from ombre_rules.spec.resolve import parse_variant_string


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_hostile_file_is_refused_at_its_place(write, name):
    body, expected = BAD_FILES[name]
    path = write("extends: ombre\n" + body)
    t0 = time.thread_time()  # this thread's CPU time: a hang guard that neither a loaded machine nor another
    with pytest.raises(SpecError) as ei:  # thread of the process (a web test's server or bots) trips
        load(path)
    assert time.thread_time() - t0 < 10
    assert str(ei.value).split("\n")[0] == f"{path}:{expected}"


def test_a_file_past_the_size_limit_is_refused_before_it_is_parsed(write):
    path = write("extends: ombre\n" + "# padding\n" * 110_000)
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value) == f"cannot read '{path}': larger than 1000000 bytes"


def test_an_extends_chain_is_bounded(tmp_path):
    (tmp_path / "f0.yaml").write_text("extends: ombre\n", encoding="utf-8")
    for i in range(1, 30):
        (tmp_path / f"f{i}.yaml").write_text(f"extends: f{i - 1}.yaml\n", encoding="utf-8")
    with pytest.raises(SpecError) as ei:
        load(str(tmp_path / "f29.yaml"))
    assert str(ei.value) == f"{tmp_path / 'f9.yaml'}:1:10: more than 20 files in the 'extends' chain"


def test_a_file_that_is_not_utf8(tmp_path):
    p = tmp_path / "house.yaml"
    p.write_bytes(b"extends: ombre\ntitle: \xff\xfe\n")
    with pytest.raises(SpecError) as ei:
        load(str(p))
    assert str(ei.value) == f"cannot read '{p}': not UTF-8 text"


@pytest.mark.parametrize("n", [2_000, 100_000])
def test_the_variant_string_is_read_in_linear_time(n):
    t0 = time.thread_time()
    with pytest.raises(SpecError):
        parse_variant_string("a" + " " * n + "(")
    assert time.thread_time() - t0 < 0.5


@pytest.mark.parametrize("text, expected", [
    ("ombre", ("ombre", {})), ("ombre()", ("ombre", {})), (" h.yaml ( a=b, c = d ) ", ("h.yaml", {"a": "b", "c": "d"})),
])
def test_variant_strings_that_parse(text, expected):
    assert parse_variant_string(text) == expected


@pytest.mark.parametrize("text", ["a(b", "a)b", "(x=1)", "a(b=(c))", "", "a(b)c"])
def test_variant_strings_that_do_not(text):
    with pytest.raises(SpecError) as ei:
        parse_variant_string(text)
    assert str(ei.value) == f"bad variant string '{text}' (expected NAME or NAME(key=value,...))"


@pytest.mark.parametrize("name", ["pimc:infs", "pimc:nans", "pimc:1e9s", "pimc:0", "pimc:1000001", "pimc:-5",
                                  "pimc:" + "9" * 5000])
def test_monte_carlo_budgets_are_bounded(name):
    with pytest.raises(OmbreError) as ei:
        make_player(name, 0, load("ombre"))
    assert str(ei.value).startswith("bad budget in '")
    assert str(ei.value).endswith("(expected pimc:N play-outs, 0 < N <= 100000, or pimc:Xs seconds, 0 < X <= 600)")


def test_check_parses_each_file_once_for_all_option_choices(tmp_path, monkeypatch):
    from ombre_rules import cli
    from ombre_rules.spec import resolve

    base = (tmp_path / "base.yaml")
    base.write_text("extends: ombre\ntitle: base\n", encoding="utf-8")
    house = tmp_path / "house.yaml"
    house.write_text("extends: base.yaml\ntitle: house\n", encoding="utf-8")
    calls = []
    real = resolve.load_file
    monkeypatch.setattr(resolve, "load_file", lambda path, display=None: calls.append(path) or real(path, display))
    assert cli.check_variant(str(house)) == []
    # once each, though the check loads the file once per option choice of ombre (ombre may be parsed already)
    assert [str(p) for p in calls if str(p) in (str(house), str(base))] == [str(house), str(base)]
    assert len(calls) == len(set(calls))


def test_an_exchange_limit_from_an_option_of_words_is_refused_at_load(write):
    path = write('id: h\nextends: ombre\noptions:\n  first_defender_max: {choices: [8, "x"], default: "x"}\n')
    with pytest.raises(SpecError) as e:
        load(path)
    assert "an exchange limit must be a number, not a string" in str(e.value)
