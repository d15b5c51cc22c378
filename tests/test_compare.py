"""compare: rule coverage and its warnings, paired differences over common random numbers, the Ludii metrics,
the reports (Markdown, self-contained HTML, JSON, CSV) and an interrupted comparison."""
import json
import re

import pytest

from ombre_rules import load
from ombre_rules.cli import main
from ombre_rules.sim import compare
from ombre_rules.sim.charts import PASSED_OUT_COLOUR, contract_colours
from ombre_rules.sim.coverage import coverage, differing
from ombre_rules.sim.paired import differences
from ombre_rules.sim.runner import Progress, play_chunk
from ombre_rules.sim.stats import drama, lead_change, metrics, position_names

CB = "ombre(all_pass=contrabola)"


def _line(winners, payments, dealer=0, contract="entrada"):
    return {"winners": winners, "payments": payments, "dealer": dealer, "contract": contract}


def test_lead_change_and_drama():
    # leaders after each trick: (0,), (0, 1), (1,), (1,), (1,) -> changes after tricks 2 and 3 of 4 chances
    x = _line([0, 1, 1, 1, 2], [-10, 5, 5])
    assert lead_change(x, 3) == 2 / 4
    # before the last trick the lone leader was 0 (a loser) after trick 1, nobody alone after 2, 1 after 3, 4
    assert drama(x, 3) == 1 / 4
    assert lead_change(_line([], [0, 0, 0], contract=None), 3) == 0.0
    assert position_names(4) == ["forehand", "2nd after the dealer", "3rd after the dealer", "dealer"]


def test_differing_rules_of_two_variants():
    base = load("ombre")
    assert differing(base, load(CB)) == [("auction", "all_pass"), ("contracts", "contrabola")]
    # an option without a patch: the expressions that read it
    assert differing(base, load("ombre(tie_above_ombre=codille_shared)")) == [("outcomes", 5, "when")]
    assert differing(base, load("ombre(ante_mode=dealer)")) == [("scoring", "ante")]
    assert differing(base, load("ombre")) == []


def test_coverage_counts_match_the_lines():
    rules = load(CB)
    lines = play_chunk(CB, {}, ["greedy"] * 3, 3, 0, 60)
    cov = coverage(lines, rules)
    played = sum(1 for x in lines if x["contract"] == "contrabola")
    fell = sum(1 for x in lines if x["fallback"])
    assert (played, fell) == (5, 6)  # greedy bids the all-pass fallback on 5 of the 6 hands all passed
    assert cov["contracts"] == {c.name: sum(1 for x in lines if x["contract"] == c.name) for c in rules.contracts}
    assert set(cov["outcomes"]) == set(rules.outcome_names)
    assert cov["all_pass"] == {"rule": "auction", "reached": 6}
    assert cov["options"]["all_pass=contrabola"] == {"all-pass rule (every seat passed)": 6,
                                                     "contract contrabola": 5}
    assert cov["options"]["allow_concede=false"] == {"concession offered": 0}
    assert cov["claims"]["offered"] == sum(1 for x in lines if "stop" in x["offered"])


def test_warning_first_on_stdout_and_in_the_report(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["compare", "ombre", CB, "--deals", "60", "--seed", "3", "--out", str(out), "--min-reached",
                 "10"]) == 0
    text = capsys.readouterr().out.splitlines()
    want = [f"warning: all-pass rule (every seat passed): reached in 6 of 60 deals of ombre (it differs between "
            f"ombre and {CB}) — this comparison says little about it; try --players random or more deals",
            f"warning: contract contrabola: reached in 5 of 60 deals of {CB} (it differs between ombre and {CB}) — "
            "this comparison says little about it; try --players random or more deals",
            f"warning: {CB} and ombre end differently in only 5 of 60 deals dealt alike — this comparison says "
            "little about what sets them apart; try --players random or more deals"]
    assert text[:3] == want
    md = (out / "report.md").read_text().splitlines()
    assert md[0] == "# Variant comparison" and md[2:5] == ["- **" + w[len("warning: "):] + "**" for w in want]
    data = json.loads((out / "metrics.json").read_text())
    assert data["warnings"] == [w[len("warning: "):] for w in want]
    assert data["coverage"][CB]["contracts"]["contrabola"] == 5


def test_no_warning_when_every_differing_rule_is_reached_enough(capsys, tmp_path):
    assert main(["compare", "ombre", CB, "--deals", "60", "--seed", "3", "--out", str(tmp_path / "r"),
                 "--min-reached", "5"]) == 0
    assert not capsys.readouterr().out.startswith("warning")


def test_an_option_read_by_an_expression_is_judged_by_the_deals_it_changed(capsys, tmp_path):
    tie = "ombre(tie_above_ombre=codille_shared)"
    a = play_chunk("ombre", {}, ["greedy"] * 3, 1, 0, 100)
    b = play_chunk(tie, {}, ["greedy"] * 3, 1, 0, 100)
    changed = [x["deal"] for x, y in zip(a, b, strict=True) if (x["outcome"], x["payments"]) !=
               (y["outcome"], y["payments"])]
    assert changed == []  # no deal of these came to the tie the option settles
    assert main(["compare", "ombre", tie, "--deals", "100", "--seed", "1", "--out", str(tmp_path / "r")]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        f"warning: outcome puesta: reached in 17 of 100 deals of ombre (it differs between ombre and {tie}) — this "
        "comparison says little about it; try --players random or more deals",
        f"warning: {tie} and ombre end alike in all 100 deals dealt alike — this comparison says nothing about "
        "what sets them apart; try --players random or more deals"]


def test_paired_differences_are_deal_by_deal():
    a = play_chunk("ombre", {}, ["greedy"] * 3, 5, 0, 80)
    b = play_chunk(CB, {}, ["greedy"] * 3, 5, 0, 80)
    d = differences(a, b, 3, 3)
    diffs = [y["actions"] - x["actions"] for x, y in zip(a, b, strict=True)]
    assert d["Duration"]["mean"] == pytest.approx(sum(diffs) / 80)
    assert d["Duration"]["pairs"] == 80
    lo, hi = d["Duration"]["ci"]
    assert lo <= d["Duration"]["mean"] <= hi and d["Duration"]["significant"] == (lo > 0 or hi < 0)
    played = [(x, y) for x, y in zip(a, b, strict=True) if x["contract"] and y["contract"]]
    assert d["declarer_payment"]["pairs"] == len(played)
    po = [float(y["contract"] is None) - float(x["contract"] is None) for x, y in zip(a, b, strict=True)]
    assert d["pass_out_rate"]["mean"] == pytest.approx(sum(po) / 80)
    # the same variant twice: every deal is the same, so every difference is exactly 0 and none is marked
    same = differences(a, play_chunk("ombre", {}, ["greedy"] * 3, 5, 0, 80), 3, 3)
    assert same.pop("deals_differing") == {"pairs": 80, "play": 0, "result": 0}
    assert all(v["mean"] == 0 and v["ci"] == [0, 0] and not v["significant"] for v in same.values())
    assert d["deals_differing"]["result"] == sum(1 for x, y in zip(a, b, strict=True) if x["payments"] !=
                                                 y["payments"] or x["outcome"] != y["outcome"])


def test_report_files_html_self_contained(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "r"
    assert main(["compare", "ombre", CB, "--deals", "40", "--seed", "2", "--out", str(out), "--players",
                 "greedy,random,greedy"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == (f"written to {out}: report.md, report.html, metrics.json, metrics.csv, contract_mix.png, "
                    "declarer_success.png, position_payment.png, differences.png, differences_length_payment.png")
    html = (out / "report.html").read_text()
    assert html.count('src="data:image/png;base64,') == 5 and "src=\"contract_mix.png\"" not in html
    md = (out / "report.md").read_text()
    assert "## Differences from ombre" in md and "## Rule coverage" in md
    for name in ("LeadChange", "Drama", "DecisionMoves", "Balance", "AdvantageP1", "Decisiveness", "Duration"):
        assert f"- {name}: " in md
    assert "| 1 | greedy,random,greedy" not in md and "| 1 | random |" in md  # seat 1's player
    data = json.loads((out / "metrics.json").read_text())
    assert data["meta"]["players_by_variant"][CB] == ["greedy", "random", "greedy"]
    assert set(data["paired"][CB]) >= {"Duration", "LeadChange", "Drama", "DecisionMoves", "Balance"}


def test_interrupted_compare_reports_the_deals_played(tmp_path, capsys, monkeypatch):
    real = compare.run

    def stops(variant, options, names, seed, deals, jobs, dask, double_dummy=False):
        for line in real(variant, options, names, seed, deals, jobs, dask, double_dummy):
            if variant == CB and line["deal"] == 12:
                raise KeyboardInterrupt
            yield line

    monkeypatch.setattr(compare, "run", stops)
    out = tmp_path / "r"
    assert main(["compare", "ombre", CB, "--deals", "30", "--seed", "2", "--out", str(out)]) == 130
    text = capsys.readouterr().out
    assert f"interrupted: ombre 30 of 30 deals, {CB} 12 of 30 deals" in text
    data = json.loads((out / "metrics.json").read_text())
    assert data["meta"]["played"] == {"ombre": 30, CB: 12} and data["meta"]["interrupted"] is True
    assert data["paired"][CB]["Duration"]["pairs"] == 12
    assert f"played: ombre 30, {CB} 12. The run was interrupted" in (out / "report.md").read_text()


def test_interrupted_in_the_first_variant(tmp_path, capsys, monkeypatch):
    real = compare.run

    def stops(variant, options, names, seed, deals, jobs, dask, double_dummy=False):
        for line in real(variant, options, names, seed, deals, jobs, dask, double_dummy):
            if line["deal"] == 7:
                raise KeyboardInterrupt
            yield line

    monkeypatch.setattr(compare, "run", stops)
    assert main(["compare", "ombre", CB, "--deals", "30", "--seed", "2", "--out", str(tmp_path / "r")]) == 130
    assert f"interrupted: ombre 7 of 30 deals, {CB} 0 of 30 deals" in capsys.readouterr().out
    assert f"played: ombre 7, {CB} 0. The run was interrupted" in (tmp_path / "r" / "report.md").read_text()


def test_compare_markdown_to_stdout(capsys):
    assert main(["compare", "ombre", CB, "--deals", "20", "--seed", "2", "--out", "-", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("# Variant comparison\n") and "## Rule coverage" in out
    assert err.splitlines()[-2].split()[0] == "ombre" and "written to" not in err


def test_metrics_shape():
    m = metrics(play_chunk("ombre", {}, ["random"] * 3, 1, 0, 50), 3)
    assert m["Balance"]["ci"][0] <= m["Balance"]["value"] <= m["Balance"]["ci"][1]
    assert 0 <= m["DecisionMoves"]["mean"] <= 1 and 0 <= m["Drama"]["mean"] <= 1
    assert sum(d["count"] for d in m["contract_mix"].values()) == 50
    # the seats' payments add up to minus what the pool keeps
    total = sum(d["mean"] for d in m["position_payment"])
    assert total == pytest.approx(-m["pool_net"])


def test_contract_colours_and_progress_line():
    c = contract_colours(["entrada", "passed out", "vuelta"])
    assert c == {"entrada": "#1f77b4", "vuelta": "#ff7f0e", "passed out": PASSED_OUT_COLOUR}
    p = Progress(200, "ombre")
    assert p.line(50, 2.0) == "ombre [#######                       ] 50/200 25 deals/s ETA 0:06"
    assert p.line(200, 65.0) == "ombre [##############################] 200/200 3 deals/s in 1:05"
    assert re.search(r"ETA --:--$", p.line(0, 0.0))
