"""Output files: `-` is standard output; a FIFO, a device or a symlink is written through, never replaced; a
folder or a missing folder is refused before any work; a regular file is replaced whole, keeping its mode."""
import json
import os
import stat
import threading

import pytest

from ombre_rules import outfile
from ombre_rules.cli import main
from ombre_rules.errors import OmbreError


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, encoding="utf-8").read()))
    reader.start()
    outfile.write_text(outfile.target(str(fifo)), "hello\n")
    reader.join(5)
    assert got == ["hello\n"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_dev_null_and_a_symlink_to_it_stay_what_they_are(tmp_path):
    link = tmp_path / "null"
    link.symlink_to(os.devnull)
    for path in (os.devnull, str(link)):
        t = outfile.target(path)
        assert t.kind == "in_place"
        outfile.write_text(t, "x\n")
    assert os.path.islink(link) and os.readlink(link) == os.devnull
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_symlink_to_a_regular_file_is_written_through(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    outfile.write_text(outfile.target(str(link)), "new")
    assert os.path.islink(link) and real.read_text(encoding="utf-8") == "new"


def test_a_regular_file_is_replaced_whole_and_keeps_its_mode(tmp_path):
    f = tmp_path / "out.json"
    f.write_text("old", encoding="utf-8")
    os.chmod(f, 0o640)
    t = outfile.target(str(f))
    assert t.kind == "replace"
    outfile.write_text(t, "new")
    assert f.read_text(encoding="utf-8") == "new" and stat.S_IMODE(os.stat(f).st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["out.json"]  # no temporary file left


@pytest.mark.parametrize("make, message", [
    (lambda p: p.mkdir() or str(p), "it is a folder"),
    (lambda p: str(p / "sub" / "x.json"), "no folder '{tmp}/d/sub'"),
    (lambda p: (p.with_name("dangling")).symlink_to(p / "nothing") or str(p.with_name("dangling")),
     "a symlink to nothing"),
])
def test_targets_that_cannot_be_written_are_refused_at_once(tmp_path, make, message):
    path = make(tmp_path / "d")
    with pytest.raises(OmbreError) as ei:
        outfile.target(path)
    assert str(ei.value) == f"cannot write '{path}': " + message.format(tmp=tmp_path)


def test_stdout(capsys):
    t = outfile.target("-")
    assert t.is_stdout
    outfile.write_text(t, "to the terminal\n")
    assert capsys.readouterr().out == "to the terminal\n"


def test_play_record_to_stdout_and_simulate_out_to_stdout(capsys):
    assert main(["play", "ombre", "--seed", "7", "--record", "-"]) == 0
    out = capsys.readouterr().out
    rec = json.loads(out[out.index("\n{") + 1:])
    assert rec["format"] == "ombre-record/1" and rec["seed"] == 7 and "record written" not in out
    assert main(["simulate", "ombre", "--deals", "3", "--out", "-"]) == 0
    cap = capsys.readouterr()
    lines = [json.loads(x) for x in cap.out.splitlines()]
    assert len(lines) == 3 and cap.err.startswith("ombre: 3 deals in ")


def test_a_folder_as_out_is_refused_before_the_run(tmp_path, capsys):
    assert main(["simulate", "ombre", "--deals", "100000", "--out", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"ombre: error: cannot write '{tmp_path}': it is a folder\n"
    assert os.listdir(tmp_path) == []
    f = tmp_path / "file"
    f.write_text("", encoding="utf-8")
    assert main(["compare", "ombre", "--deals", "100000", "--out", str(f)]) == 1
    assert capsys.readouterr().err == f"ombre: error: cannot write '{f}': it is not a folder\n"
    assert main(["play", "ombre", "--record", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"ombre: error: cannot write '{tmp_path}': it is a folder\n"
