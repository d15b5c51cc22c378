"""simulate and compare: deterministic lines whatever the processes, a Dask cluster gives the same, reports."""
import json
import os

import pytest

from ombre_rules.bots.pimc import DEFAULT_ROLLOUTS
from ombre_rules.cli import main
from ombre_rules.sim.runner import play_chunk, run
from ombre_rules.sim.stats import metrics, wilson


def _lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(x) for x in f]


def test_simulate_same_lines_whatever_jobs(tmp_path, capsys):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["simulate", "ombre-a-dos", "--deals", "40", "--seed", "4", "--players", "greedy,random",
                 "--out", str(one)]) == 0
    out = capsys.readouterr().out
    assert main(["simulate", "ombre-a-dos", "--deals", "40", "--seed", "4", "--players", "greedy,random",
                 "--jobs", "2", "--out", str(two)]) == 0
    assert one.read_bytes() == two.read_bytes()
    lines = _lines(one)
    assert [x["deal"] for x in lines] == list(range(40))
    assert [x["dealer"] for x in lines] == [i % 2 for i in range(40)]
    assert all(sum(x["payments"]) + x["pool_after"] - x["pool_before"] == 0 for x in lines)
    assert "ombre-a-dos: 40 deals" in out and "40 lines written" in out
    played = sum(1 for x in lines if x["contract"])
    wins = sum(1 for x in lines if x["contract"] and x["payments"][x["declarer"]] > 0)
    assert f"declarer wins: {wins} of {played} played" in out


def test_simulate_lines_replay(tmp_path):
    """Each line's actions replay, from its seed and dealer, to the same result."""
    from ombre_rules.engine import State
    from ombre_rules.ruleset import load

    r = load("ombre")
    for x in play_chunk("ombre", {}, ["greedy"] * 3, 9, 0, 5):
        s = State(r, seed=x["seed"], dealer=x["dealer"])
        for a in x["history"]:
            s.apply_str(a)
        assert list(s.result.payments) == x["payments"] and s.result.outcome == x["outcome"]


def test_dask_local_cluster_same_as_one_process():
    distributed = pytest.importorskip("distributed")
    here = list(run("ombre", {}, ["greedy", "random", "greedy"], 5, 24))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as c:
        there = list(run("ombre", {}, ["greedy", "random", "greedy"], 5, 24, dask=c.scheduler_address))
    assert there == here


def test_compare_writes_report(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert main(["compare", "ombre", "ombre-a-dos", "--deals", "30", "--seed", "2", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    table = [x for x in text.splitlines() if not x.startswith("warning: ")]
    assert table[0].split()[:4] == ["variant", "deals", "passed", "out"]
    assert table[2].split()[0] == "ombre-a-dos"
    files = set(os.listdir(out))
    assert {"report.md", "report.html", "metrics.csv", "metrics.json"} <= files
    pytest.importorskip("matplotlib")
    assert {"contract_mix.png", "declarer_success.png", "position_payment.png"} <= files
    data = json.loads((out / "metrics.json").read_text())
    # common random numbers: the same deal seeds as simulate, so the numbers are those of the lines
    lines = play_chunk("ombre", {}, ["greedy"] * 3, 2, 0, 30)
    assert data["variants"]["ombre"] == json.loads(json.dumps(metrics(lines, 3)))
    m = data["variants"]["ombre"]
    assert sum(d["count"] for d in m["contract_mix"].values()) == 30
    assert m["pass_out_rate"]["count"] == sum(1 for x in lines if x["contract"] is None)


def test_wilson():
    assert [round(x, 4) for x in wilson(5, 10)] == [0.2366, 0.7634]
    assert wilson(0, 0) == (0.0, 1.0)
    # at k = 0 or k = n the interval holds its estimate exactly (charts draw the distances as error bars)
    assert all(lo <= k / n <= hi for n in range(1, 200) for k in (0, n) for lo, hi in [wilson(k, n)])


@pytest.mark.parametrize("argv,msg", [
    (["simulate", "ombre", "--players", "greedy,random"], "--players names 2 players; ombre has 3 seats"),
    (["simulate", "ombre", "--players", "greedie"], "unknown player 'greedie' (did you mean 'greedy'?)"),
    (["simulate", "ombre", "--deals", "0"], "--deals must be at least 1"),
    (["simulate", "ombre", "--jobs", "0"], "--jobs must be at least 1"),
    (["compare", "ombre", "nosuch", "--out", "x"], "unknown variant 'nosuch'"),
    (["bench-bots", "ombre", "--decisions", "0"], "--decisions must be at least 1"),
    (["bench-bots", "nosuch"], "unknown variant 'nosuch'"),
    (["bench-bots", "ombre", "--rollouts", "0"], "--rollouts must be from 1 to 100000"),
])
def test_cli_errors(argv, msg, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert msg in err and "Traceback" not in err


def test_dask_unreachable(capsys):
    pytest.importorskip("distributed")
    assert main(["simulate", "ombre", "--deals", "2", "--dask", "tcp://127.0.0.1:9"]) == 1
    assert "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in capsys.readouterr().err


def test_bench_bots_output_shape(capsys):
    """`ombre bench-bots --json`: one row per variant with the greedy rate and the pimc decision time (the
    timings themselves are not tested)."""
    assert main(["bench-bots", "ombre-a-dos", "ombre", "--deals", "3", "--decisions", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["deals"], data["decisions"], data["seed"], data["rollouts"]) == (3, 2, 1, DEFAULT_ROLLOUTS)
    assert [r["variant"] for r in data["variants"]] == ["ombre-a-dos", "ombre"]
    for r in data["variants"]:
        assert set(r) == {"variant", "players", "greedy", "random", "pimc"}
        assert set(r["greedy"]) == {"deals", "seconds", "deals_per_s"} and r["greedy"]["deals"] == 3
        assert set(r["random"]) == {"deals", "seconds"} and r["random"]["deals"] == 1000
        assert set(r["pimc"]) == {"decisions", "rollouts", "deals", "mean_ms", "max_ms", "greedy_fallbacks",
                                  "per_random_deals"}
        assert r["pimc"]["decisions"] == 2 and r["pimc"]["rollouts"] == DEFAULT_ROLLOUTS
        assert 0 <= r["pimc"]["greedy_fallbacks"] <= 2
        assert r["greedy"]["deals_per_s"] > 0 and 0 < r["pimc"]["mean_ms"] <= r["pimc"]["max_ms"]
        assert r["pimc"]["per_random_deals"] == round(r["pimc"]["mean_ms"] / (1000 * r["random"]["seconds"]), 3)
    assert main(["bench-bots", "ombre-a-dos", "--deals", "2", "--decisions", "1", "--rollouts", "6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["variants"][0]["pimc"]["rollouts"] == 6
    assert main(["bench-bots", "ombre-a-dos", "--deals", "2", "--decisions", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["variant", "greedy", "deals/s"] and lines[1].split()[0] == "ombre-a-dos"


def test_bench_bots_variants():
    from ombre_rules.sim.speed import builtin_variants

    assert builtin_variants() == ["bete", "boston", "cinquillo", "danish-lhombre", "euchre", "german-solo",
                                  "ombre-a-dos", "ombre", "preference", "quadrille", "rocambor", "sextille",
                                  "solo-whist", "swedish-vira", "taroc-lhombre", "tredrille", "tresillo"]
