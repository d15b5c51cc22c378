"""`compare --option` applies to every variant compared, and is refused as `play --option` is; a `--dask` address
Dask cannot use ends with the one-line error, with no traceback at exit."""
import io
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from ombre_rules.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("option, message", [
    ("nope=1", "unknown option 'nope' for variant 'ombre' (options: all_pass, "),
    ("all_pass=nope", "'nope' is not a choice of option 'all_pass' (choices: "),
    ("all_pass", "bad --option 'all_pass' (expected key=value)"),
])
def test_compare_refuses_a_bad_option_as_play_does(option, message):
    play = run("play", "ombre", "--option", option)
    compare = run("compare", "ombre", "quadrille", "--option", option, "--deals", "2", "--out", "-", "-q")
    assert play[0] == compare[0] == 1
    assert play[2] == compare[2] and play[2].startswith("ombre: error: " + message)


def test_compare_applies_the_option_to_every_variant():
    code, out, err = run("compare", "quadrille(no_hold=true)", "quadrille", "--option", "roi_rendu=true",
                         "--deals", "2", "--out", "-", "-q")
    assert code == 0
    rows = [line.split()[0] for line in err.splitlines() if line.startswith("quadrille")]
    assert rows == ["quadrille(roi_rendu=true,no_hold=true)", "quadrille(roi_rendu=true)"]


def test_a_bad_dask_address_ends_without_a_traceback():
    """(An address without a port, a scheme Dask does not know, a TLS one without its context: each used to
    print a traceback at exit, 10 s after the error, from the client that never connected.)"""
    address, message = "127.0.0.1", "missing port number in address '127.0.0.1'"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "ombre_rules", "simulate", "ombre", "--deals", "2", "-q", "--dask",
                        address], capture_output=True, text=True, env=env, timeout=120, stdin=subprocess.DEVNULL)
    assert p.returncode == 1
    assert p.stderr == f"ombre: error: cannot reach the Dask scheduler at '{address}': {message}\n"
