"""Paths read from the command line or from a record are regular files: a FIFO or a device would block the
reader for ever (or never end), a folder cannot be read; each is refused at once with a message naming it."""
import contextlib
import io
import json
import os
import signal
from contextlib import redirect_stderr, redirect_stdout

import pytest

from ombre_rules import OmbreError, State, load
from ombre_rules.cli import main
from ombre_rules.infile import read_bytes
from ombre_rules.records import to_record


@contextlib.contextmanager
def at_most(seconds: int):
    """Fail (instead of hanging the suite) if the block takes longer: a reader blocked on a FIFO."""
    def expired(*_):
        raise TimeoutError(f"blocked for {seconds}s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with at_most(60), redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "house.yaml"
    os.mkfifo(path)
    return str(path)


def test_read_bytes_takes_regular_files_only(tmp_path, fifo):
    good = tmp_path / "a.txt"
    good.write_bytes(b"abc")
    assert read_bytes(str(good), 10) == b"abc"
    for path, kind in ((fifo, "a FIFO"), ("/dev/zero", "a device"), (str(tmp_path), "a folder")):
        with pytest.raises(OmbreError) as e, at_most(30):
            read_bytes(path, 10)
        assert e.value.message == f"cannot read '{path}': it is {kind}, not a regular file"
    with pytest.raises(OmbreError) as e:
        read_bytes(str(good), 2)
    assert e.value.message == f"cannot read '{good}': larger than 2 bytes"
    link = tmp_path / "link.yaml"
    link.symlink_to(fifo)
    with pytest.raises(OmbreError) as e, at_most(30):
        read_bytes(str(link), 10)
    assert e.value.message == f"cannot read '{link}': it is a FIFO, not a regular file"


def test_commands_refuse_a_fifo_or_a_device_as_a_variant(fifo):
    for argv in (["check", fifo], ["play", fifo], ["rules", fifo], ["bench", fifo, "--deals", "1"],
                 ["simulate", fifo, "--deals", "1"], ["compare", "ombre", fifo, "--deals", "1", "--out", "-"]):
        code, _out, err = run(*argv)
        assert code == 1, argv
        assert f"cannot read '{fifo}': it is a FIFO, not a regular file" in err, (argv, err)
    code, _out, err = run("check", "/dev/zero")
    assert (code, err) == (1, "/dev/zero: cannot read '/dev/zero': it is a device, not a regular file\n")


def test_a_variant_file_that_extends_a_fifo_is_refused(tmp_path, fifo):
    child = tmp_path / "child.yaml"
    child.write_text(f"extends: {fifo}\n", encoding="utf-8")
    code, _out, err = run("check", str(child))
    assert code == 1 and f"cannot read '{fifo}': it is a FIFO, not a regular file" in err


def test_replay_refuses_a_fifo_and_a_record_whose_variant_is_one(tmp_path, fifo):
    code, _out, err = run("replay", fifo)
    assert (code, err) == (1, f"ombre: error: cannot read '{fifo}': it is a FIFO, not a regular file\n")
    s = State(load("ombre"), seed=1)
    stdin = [] if os.path.isfile("/dev/stdin") else ["/dev/stdin"]  # a pipe, a terminal or /dev/null here
    for variant in [fifo, "/dev/zero"] + stdin:
        rec = to_record(s) | {"variant": variant, "ruleset_hash": None}
        path = tmp_path / "rec.json"
        path.write_text(json.dumps(rec), encoding="utf-8")
        code, _out, err = run("replay", str(path))
        assert code == 1 and err.startswith(f"ombre: error: {path}: record 1: cannot load variant '"), err
        assert f"': cannot read '{variant}': it is a " in err and err.endswith(", not a regular file\n"), err


def test_scenarios_refuse_a_fifo(tmp_path, fifo):
    code, _out, err = run("test", fifo)
    assert code == 1 and f"cannot read '{fifo}': it is a FIFO, not a regular file" in err
    sc = tmp_path / "sc.yaml"
    sc.write_text(f"variant: {fifo}\nseed: 1\n", encoding="utf-8")
    code, _out, err = run("test", str(sc))
    assert code == 1 and f"cannot read '{fifo}': it is a FIFO, not a regular file" in err
