"""Command-line conventions, end to end: --version, folders for check and test, every error of a file, JSON and
JUnit output, '-' for standard output, progress only on a terminal (and --quiet), bench's table."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ombre_rules import __version__, kernel
from ombre_rules.cli import main

ROOT = Path(__file__).resolve().parent.parent
ALL_PASS = """
variant: ombre
dealer: 0
hands:
  0: [5S, 6S, 5C, 6C, 7C, 2H, 3H, 2D, 3D]
  1: [AS, 2S, QS, KS, KC, QH, KH, QD, KD]
  2: [7S, JS, AC, JC, QC, AH, JH, AD, JD]
talon: [3S, 4S, 2C, 3C, 4C, 4H, 5H, 6H, 7H, 4D, 5D, 6D, 7D]
actions: [pass, pass, pass]
"""


def ombre(capsys, *args):
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def _cli(*args, **kw):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "ombre_rules", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120, **kw)


def test_version():
    p = _cli("--version")
    assert (p.returncode, p.stdout, p.stderr) == (0, f"ombre {__version__}\n", "")


def test_help_has_no_doubled_percent():
    p = _cli("compare", "--help")
    assert p.returncode == 0 and "%%" not in p.stdout and "95 percent" in p.stdout


def test_check_a_folder(capsys, tmp_path, write):
    folder = tmp_path / "house"
    (folder / "sub").mkdir(parents=True)
    good = folder / "a.yaml"
    good.write_text("extends: ombre\nid: a\n")
    bad = folder / "sub" / "b.yaml"
    bad.write_text('extends: ombre\nid: b\nnames: {x: "card(2, trmp)"}\n')
    (folder / "notes.txt").write_text("not a variant")
    rc, out, err = ombre(capsys, "check", str(folder))
    assert (rc, out) == (1, f"{good}: ok\n")
    assert err == f"{bad}:3:21: unknown name 'trmp' (did you mean 'trump'?)\n    card(2, trmp)\n            ^\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert ombre(capsys, "check", str(empty)) == (1, "", f"ombre: error: no .yaml or .yml files in folder "
                                                        f"'{empty}'\n")


def test_check_every_error_of_a_file_as_json(capsys, write):
    bad = write("id: two\nextends: ombre\noutcomes:\n  - {name: sacada, when: \"tricks(declarer) > nosuch1\"}\n"
                "  - {name: codille, when: \"tricks(declarer) < nosuch2\"}\n  - {name: puesta}\n")
    rc, out, err = ombre(capsys, "check", bad, "--format", "json")
    assert rc == 1 and err == ""
    msgs = [json.loads(x) for x in out.splitlines()]
    assert msgs[:2] == [
        {"file": bad, "line": 4, "column": 46, "code": "expression", "message": "unknown name 'nosuch1'"},
        {"file": bad, "line": 5, "column": 47, "code": "expression", "message": "unknown name 'nosuch2'"}]
    rc, out, err = ombre(capsys, "check", "variants/ombre.yaml", "--format", "json")
    assert (rc, json.loads(out), err) == (0, {"file": "variants/ombre.yaml", "line": None, "column": None,
                                              "code": "ok", "message": "ok"}, "")


def test_test_json_and_junit(capsys, tmp_path):
    folder = tmp_path / "sc"
    folder.mkdir()
    (folder / "good.yaml").write_text("name: all pass\n" + ALL_PASS + "expect: {pool: 18}\n")
    (folder / "bad.yaml").write_text("name: wrong pool\n" + ALL_PASS + "expect: {pool: 17}\n")
    junit = tmp_path / "out.xml"
    rc, out, err = ombre(capsys, "test", str(folder), "--format", "json", "--junit", str(junit))
    assert rc == 1 and err == ""
    msgs = [json.loads(x) for x in out.splitlines()]
    bad = str(folder / "bad.yaml")
    assert msgs == [
        {"file": bad, "line": 11, "column": 16, "code": "failed", "message": "wrong pool: pool is 18, expected 17"},
        {"file": str(folder / "good.yaml"), "line": None, "column": None, "code": "passed", "message": "all pass"}]
    root = ET.parse(junit).getroot()
    assert (root.tag, root.get("tests"), root.get("failures")) == ("testsuites", "2", "1")
    suites = {s.get("name"): s for s in root}
    case = suites[bad].find("testcase")
    assert case.get("name") == "wrong pool"
    assert case.find("failure").get("message") == "wrong pool: pool is 18, expected 17"
    assert suites[str(folder / "good.yaml")].find("testcase").find("failure") is None
    # text output, and the JUnit report on standard output
    rc, out, err = ombre(capsys, "test", str(folder), "--junit", "-")
    assert rc == 1 and out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')
    assert err == f"{bad}:11:16: wrong pool: pool is 18, expected 17\n1 passed, 1 failed\n"


def test_simulate_to_stdout(capsys):
    rc, out, err = ombre(capsys, "simulate", "ombre", "--deals", "4", "--seed", "3", "--out", "-")
    lines = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and [x["deal"] for x in lines] == [0, 1, 2, 3]
    assert err.splitlines()[0].startswith("ombre: 4 deals in ") and "4 lines written to standard output" in err
    assert not os.path.exists("-")


def _on_terminal(*args):
    """Run the CLI with standard error on a pseudo-terminal; what it wrote there."""
    master, slave = os.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "ombre_rules", *args], stdout=subprocess.DEVNULL, stderr=slave,
                         env=env, cwd=ROOT)
    os.close(slave)
    chunks = []
    while True:
        try:
            b = os.read(master, 4096)
        except OSError:
            break
        if not b:
            break
        chunks.append(b)
    p.wait(timeout=120)
    os.close(master)
    return b"".join(chunks).decode()


def test_progress_only_on_a_terminal_and_not_when_quiet(capsys):
    shown = _on_terminal("simulate", "ombre", "--deals", "60", "--seed", "1")
    assert "ombre [##############################] 60/60 " in shown and " deals/s in 0:0" in shown
    assert "deals/s" not in _on_terminal("simulate", "ombre", "--deals", "60", "--seed", "1", "--quiet")
    rc, out, err = ombre(capsys, "simulate", "ombre", "--deals", "5")
    assert rc == 0 and err == ""  # not a terminal: no bar


def test_bench_table(capsys):
    rc, out, err = ombre(capsys, "bench", "ombre", "--deals", "300", "--seed", "1")
    lines = out.splitlines()
    assert rc == 0 and lines[0].startswith("ombre: 300 deals in ")
    if kernel.BUILT:  # two of its deals reach a claim: the engine plays them
        assert lines[1] == "played by whole deals in the kernel (2 handed back to Python)"
    else:
        assert lines[1].startswith("played by the engine")
    assert lines[3].split() == ["contract", "deals", "share"]
    data = json.loads(ombre(capsys, "bench", "ombre", "--deals", "300", "--seed", "1", "--json")[1])
    assert data["played_by"] == lines[1].removeprefix("played by ")
    rows = {x.rsplit(None, 2)[0].strip(): int(x.split()[-2]) for x in lines[4:4 + len(data["contracts"])]}
    assert rows == data["contracts"] and "passed out" in rows


@pytest.mark.parametrize("argv,msg", [
    (["play", "ombre", "--deals", "0"], "--deals must be at least 1"),
    (["compare", "ombre", "--min-reached", "0", "--out", "x"], "--min-reached must be at least 1"),
])
def test_argument_errors(argv, msg, capsys):
    rc, out, err = ombre(capsys, *argv)
    assert rc == 1 and msg in err


def test_check_goes_past_unknown_keys_to_the_expressions(capsys, write):
    bad = write('id: a6\nextends: ombre\nplayerz: 4\ncontracts:\n  entrada: {valeu: 3, bid_when: "nosuch > 1"}\n')
    rc, out, err = ombre(capsys, "check", bad)
    assert (rc, out) == (1, "")
    assert err == (f"{bad}:3:1: unknown key 'playerz' in the file (did you mean 'players'?)\n"
                   f"{bad}:5:13: unknown key 'valeu' in contracts.entrada (did you mean 'value'?)\n"
                   f"{bad}:5:34: unknown name 'nosuch'\n    nosuch > 1\n    ^\n")
    # loading the file (not checking it) still stops at its unknown keys
    rc, out, err = ombre(capsys, "play", bad)
    assert rc == 1 and "unknown key 'playerz'" in err and "nosuch" not in err
