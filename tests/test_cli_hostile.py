"""End to end: every command of the `ombre` program run (as a subprocess) on hostile variant files, records and
arguments ends with its exit code and a one-line message, never a traceback."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from badfiles import BAD_FILES, bad_records

ROOT = Path(__file__).resolve().parent.parent


def ombre(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "ombre_rules", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300, stdin=subprocess.DEVNULL)


def _no_traceback(p: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout, p.stderr[-2000:]


@pytest.fixture(scope="module")
def bad_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    for name, (body, _msg) in BAD_FILES.items():
        (d / f"{name}.yaml").write_text("extends: ombre\n" + body, encoding="utf-8")
    return d


# files refused as they are read (each checked once); those refused by the compiler are checked with every option
# choice of ombre, so only a few of them run here (test_limits loads every one)
_READ = ["alias-bomb", "recursive-alias", "deep-nesting", "merge-key", "python-tag", "local-tag", "binary",
         "timestamp", "huge-int", "big-packet", "let-newline", "let-space"]
_COMPILED = ["exchange-list", "suit-vs-string", "long-chain"]


def _head(p: subprocess.CompletedProcess) -> list[str]:
    """The message lines (quoted expressions and carets aside), without the program's prefix."""
    return [x.removeprefix("ombre: error: ") for x in p.stderr.splitlines() if not x.startswith("    ")]


def test_check_reports_every_hostile_file_at_its_place(bad_dir):
    files = _READ + _COMPILED
    p = ombre("check", *[f"{n}.yaml" for n in files], cwd=bad_dir)
    _no_traceback(p)
    assert p.returncode == 1
    assert _head(p) == [f"{n}.yaml:{BAD_FILES[n][1]}" for n in files]


@pytest.mark.parametrize("command", [["play"], ["simulate", "--deals", "2"], ["bench", "--deals", "2"],
                                     ["compare", "--deals", "2", "--out", "report"], ["replay"], ["test"]])
@pytest.mark.parametrize("name", ["alias-bomb", "exchange-list"])
def test_every_command_refuses_a_hostile_file_in_one_line(bad_dir, command, name):
    if command[0] in ("replay", "test"):  # a record naming the file as its variant; the file as a scenario
        args = [command[0], f"{name}.yaml"] if command[0] == "test" else [command[0], _record_of(bad_dir, name)]
    else:
        args = [command[0], f"{name}.yaml", *command[1:]]
    p = ombre(*args, cwd=bad_dir)
    _no_traceback(p)
    assert p.returncode == 1
    head = _head(p)
    if command[0] == "test":  # a scenario file is read with the same loader: the same place, counted as failed
        assert head[0].startswith(f"{name}.yaml:") and p.stdout.strip() == "0 passed, 1 failed"
    elif command[0] == "replay":
        assert len(head) == 1 and head[0].startswith(f"rec-{name}.json: record 1: cannot load "
                                                     f"variant '{name}.yaml': {name}.yaml:")
    else:
        assert head == [f"{name}.yaml:{BAD_FILES[name][1]}"]
    assert not (bad_dir / "report").exists()


def _record_of(d: Path, name: str) -> str:
    rec = {"format": "ombre-record/1", "variant": f"{name}.yaml", "deal": {"hands": [], "talon": []}, "actions": []}
    (d / f"rec-{name}.json").write_text(json.dumps(rec), encoding="utf-8")
    return f"rec-{name}.json"


@pytest.fixture(scope="module")
def good_record(tmp_path_factory):
    d = tmp_path_factory.mktemp("rec")
    assert ombre("play", "ombre", "--seed", "3", "--record", "good.json", cwd=d).returncode == 0
    return json.loads((d / "good.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(bad_records({"deal": {"talon": [0]}, "actions": [0] * 4})))
def test_replay_refuses_every_bad_record_in_one_line(tmp_path, good_record, name):
    content, message = bad_records(good_record)[name]
    f = tmp_path / "rec.json"
    if isinstance(content, bytes):
        f.write_bytes(content)
    else:
        f.write_text(content, encoding="utf-8")
    p = ombre("replay", "rec.json", cwd=tmp_path)
    _no_traceback(p)
    assert p.returncode == 1
    assert p.stderr == "ombre: error: " + message.format(f="rec.json", outcome=good_record["result"]["outcome"]) + "\n"


@pytest.mark.parametrize("args, code, message", [
    (["play", "nope"], 1, "ombre: error: unknown variant 'nope'"),
    (["play", "ombre("], 1, "ombre: error: bad variant string 'ombre(' (expected NAME or NAME(key=value,...))"),
    (["play", "a" + " " * 1500 + "("], 1, "ombre: error: bad variant string 'a" + " " * 56 + "...' (expected NAME "
     "or NAME(key=value,...))"),
    (["play", "ombre", "--players", "pimc:infs"], 1, "ombre: error: bad budget in 'pimc:infs' (expected pimc:N "
     "play-outs, 0 < N <= 100000, or pimc:Xs seconds, 0 < X <= 600)"),
    (["play", "ombre", "--dealer", "9"], 1, "ombre: error: --dealer must be a seat from 0 to 2"),
    (["play", "ombre", "--option", "x"], 1, "ombre: error: bad --option 'x' (expected key=value)"),
    (["play", "ombre", "--record", "."], 1, "ombre: error: cannot write '.': it is a folder"),
    (["play", "ombre", "--record", "no/such/x.json"], 1, "ombre: error: cannot write 'no/such/x.json': no folder "
     "'no/such'"),
    (["simulate", "ombre", "--jobs", "1000"], 1, "ombre: error: --jobs must be at most 256"),
    (["simulate", "ombre", "--deals", "0"], 1, "ombre: error: --deals must be at least 1"),
    (["simulate", "ombre", "--out", "."], 1, "ombre: error: cannot write '.': it is a folder"),
    (["compare", "ombre", "--out", "no/such/dir"], 1, "ombre: error: cannot write 'no/such/dir': no folder 'no/such'"),
    (["replay", "missing.json"], 1, "ombre: error: cannot read 'missing.json': No such file or directory"),
    (["check", "missing.yaml"], 1, "missing.yaml: no such variant file 'missing.yaml'"),
    (["check", "./"], 1, "ombre: error: no .yaml or .yml files in folder './'"),
    (["bench", "ombre", "--deals", "0"], 1, "ombre: error: --deals must be at least 1"),
    (["bench-bots", "nope"], 1, "ombre: error: unknown variant 'nope'"),
    (["test", "missing.yaml"], 1, None),
    (["play", "ombre", "--seed", "x"], 2, "ombre play: error: argument --seed: invalid int value: 'x'"),
    (["nope"], 2, None),
])
def test_bad_arguments_end_in_a_one_line_message(tmp_path, args, code, message):
    p = ombre(*args, cwd=tmp_path)
    _no_traceback(p)
    assert p.returncode == code
    if message is not None:
        lines = [x for x in p.stderr.splitlines() if not x.startswith("usage:") and not x.startswith("  ")
                 and not x.startswith("(see ")]
        assert lines == [message]
