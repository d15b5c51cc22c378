"""`ombre bench-bots --yardstick PATH`: the yardstick script's runs, their median, the ratio a pimc decision's
time makes with it, and the errors of a missing or failing script (with a small stand-in script)."""
from __future__ import annotations

import json
import sys

import pytest

from ombre_rules.cli import main
from ombre_rules.sim import speed

# a stand-in yardstick: 1,000 deals take 0.1 s times its seed; it appends its arguments to calls.txt
FAKE = '''
import argparse, json, os, sys
ap = argparse.ArgumentParser()
for a in ("--deals", "--reps", "--warmup", "--seed"):
    ap.add_argument(a, type=int)
ap.add_argument("--json")
a = ap.parse_args()
with open(os.path.join(os.path.dirname(__file__), "calls.txt"), "a") as f:
    f.write(" ".join(sys.argv[1:-1]) + "\\n")
MODE
with open(a.json, "a") as f:
    f.write(json.dumps({"games_per_s_median": a.deals / (0.1 * a.seed)}) + "\\n")
'''

ARGS = ["bench-bots", "ombre-a-dos", "--deals", "1", "--decisions", "1", "--rollouts", "2", "--seed", "2"]


def _fake(tmp_path, mode: str = "") -> str:
    path = tmp_path / "yard.py"
    path.write_text(FAKE.replace("MODE", mode))
    return str(path)


def test_yardstick_median_and_ratio(tmp_path, capsys):
    path = _fake(tmp_path)
    assert main(ARGS + ["--yardstick", path, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["yardstick"] == path
    row = data["variants"][0]
    # seeds 2, 3, 4: 0.2, 0.3 and 0.4 s for 1,000 deals, the median 0.3 s
    assert row["yardstick"] == {"deals": 1000, "runs": 3, "seconds": 0.3}
    assert row["pimc"]["per_yardstick_1000"] == round(row["pimc"]["mean_ms"] / 300, 3)
    assert (tmp_path / "calls.txt").read_text().splitlines() == [
        f"--deals 1000 --reps 1 --warmup 500 --seed {s} --json" for s in (2, 3, 4)]
    assert main(ARGS + ["--yardstick", path]) == 0
    assert capsys.readouterr().out.splitlines()[0].split()[-2:] == ["x", "yardstick"]


def test_table_with_yardstick():
    row = {"variant": "ombre", "players": 3, "greedy": {"deals": 200, "seconds": 0.25, "deals_per_s": 800.0},
           "random": {"deals": 1000, "seconds": 0.1}, "yardstick": {"deals": 1000, "runs": 3, "seconds": 0.08},
           "pimc": {"decisions": 40, "rollouts": 500, "deals": 4, "mean_ms": 72.0, "max_ms": 150.0,
                    "greedy_fallbacks": 0, "per_random_deals": 0.72, "per_yardstick_1000": 0.9}}
    assert speed.table([row]).splitlines() == [
        "variant          greedy deals/s pimc ms/decision   max ms decisions fallbacks x random x yardstick",
        "ombre                     800.0             72.0    150.0        40         0     0.72        0.90",
        "x random: a pimc decision's time over the time of 1000 random deals (ombre bench) of the same variant, in "
        "the same run",
        "x yardstick: the same over the yardstick script's time for 1000 deals (the median of 3 runs), in the same "
        "run"]


def test_no_yardstick_no_column(capsys):
    assert main(ARGS + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "yardstick" not in data and "yardstick" not in data["variants"][0]
    assert "per_yardstick_1000" not in data["variants"][0]["pimc"]


def test_missing_yardstick_is_a_usage_error(tmp_path, capsys):
    missing = str(tmp_path / "nope.py")
    with pytest.raises(SystemExit) as ei:
        main(ARGS + ["--yardstick", missing])
    assert ei.value.code == 2
    err = capsys.readouterr().err
    assert f"ombre bench-bots: error: argument --yardstick: no script file '{missing}'" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("mode,msg", [
    ("sys.exit('boom')", "failed (exit 1): boom"),
    ("sys.exit(0)", "wrote no 'games_per_s_median' to its --json file"),
    ("a.seed = float('inf')", "reported 0.0 deals per second"),
])
def test_failing_yardstick(tmp_path, capsys, mode, msg):
    path = _fake(tmp_path, mode)
    assert main(ARGS + ["--yardstick", path]) == 1
    err = capsys.readouterr().err
    assert err == f"ombre: error: yardstick '{path}' {msg}\n"


def test_yardstick_runs_with_this_python(tmp_path, monkeypatch):
    seen = []

    def run(cmd, **kw):
        seen.append(cmd[0])
        raise speed.subprocess.TimeoutExpired(cmd, 1)

    monkeypatch.setattr(speed.subprocess, "run", run)
    with pytest.raises(speed.OmbreError, match="took more than 600 s"):
        speed.yardstick_time(_fake(tmp_path), 1)
    assert seen == [sys.executable]


def test_the_monte_carlo_seat_is_one_that_plays():
    """In a game where the dealer sits out, pimc is seated among the seats that take part (it used to sit at the
    dealer's seat in every deal, had nothing to decide, and the measure never ended)."""
    from ombre_rules.sim.runner import _rules

    rules = _rules("tresillo", {})
    assert rules.players == 4 and all(d in rules.sitters[d] for d in range(4))
    got = speed.pimc_decision_time("tresillo", 3, 1, 4)
    assert (got["decisions"], got["deals"], got["rollouts"]) == (3, 1, 4)


def test_a_seat_without_choices_is_an_error_not_a_hang(monkeypatch):
    monkeypatch.setattr(speed, "MAX_DEALS_PER_DECISION", 2)
    monkeypatch.setattr(speed.State, "legal_actions", lambda self: [self.rules.A_PASS])
    monkeypatch.setattr(speed, "act", lambda player, state, seat: state.rules.A_PASS)
    with pytest.raises(speed.OmbreError, match="ombre: the Monte-Carlo seat had no choice to make in 2 deals"):
        speed.pimc_decision_time("ombre", 1, 1, 4)
