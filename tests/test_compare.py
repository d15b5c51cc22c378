"""compare: rule coverage and its warnings (with advice only where it helps), paired differences over every deal
(measures, positions, contract shares and which contract each deal became, the declarer's success rate,
Balance), Holm's correction, the "same deals" wording, the Ludii metrics, the reports (Markdown, HTML, JSON,
CSV) and an interrupted comparison."""
import json
import re

import pytest

from ombre_rules import kernel, load
from ombre_rules.cli import main
from ombre_rules.sim import compare
from ombre_rules.sim.charts import PASSED_OUT_COLOUR, contract_colours, palette, variant_colours
from ombre_rules.sim.coverage import coverage, differing
from ombre_rules.sim.inference import holm
from ombre_rules.sim.paired import differences
from ombre_rules.sim.players_info import budget, judged, players_info
from ombre_rules.sim.runner import Progress, play_chunk
from ombre_rules.sim.stats import drama, lead_change, metrics, position_names

SF = "ombre(all_pass=spadille_force)"  # when all pass, the holder of spadille must play: a contract greedy plays
CB = "ombre(all_pass=contrabola)"  # when all pass, a round for contrabola: one greedy learnt never to bid


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
    rules = load(SF)
    lines = play_chunk(SF, {}, ["greedy"] * 3, 3, 0, 60)
    cov = coverage(lines, rules)
    forced = [x for x in lines if x["contract"] == "spadille_forced"]
    assert (len(forced), sum(1 for x in lines if x["fallback"])) == (6, 6)  # every hand all passed is forced
    assert not any(x["declarer_chose"] for x in forced) and all(x["declarer_chose"] for x in lines
                                                              if x["contract"] not in (None, "spadille_forced"))
    assert cov["contracts"] == {c.name: sum(1 for x in lines if x["contract"] == c.name) for c in rules.contracts}
    assert set(cov["outcomes"]) == set(rules.outcome_names)
    assert cov["all_pass"] == {"rule": "force", "reached": 6}
    assert cov["claims"]["offered"] == sum(1 for x in lines if "stop" in x["offered"])


def test_warnings_give_the_advice_that_helps(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["compare", "ombre", SF, "--deals", "60", "--seed", "3", "--out", str(out), "--min-reached",
                 "10", "-q"]) == 0
    text = capsys.readouterr().out.splitlines()
    want = [f"warning: all-pass rule (every seat passed): reached in 6 of 60 deals of ombre (it differs between "
            f"ombre and {SF}) — this comparison says little about it; about 100 deals would reach it 10 times at "
            "this rate",
            f"warning: {SF} and ombre end differently in only 6 of 60 deals dealt alike — this comparison says "
            "little about what sets them apart; about 100 deals would end differently 10 times at this rate"]
    assert text[:2] == want
    md = (out / "report.md").read_text().splitlines()
    assert md[0] == "# Variant comparison" and md[2:4] == ["- **" + w[len("warning: "):] + "**" for w in want]
    assert json.loads((out / "metrics.json").read_text())["warnings"] == [w[len("warning: "):] for w in want]


def test_random_players_are_advised_only_when_they_reach_more(capsys, tmp_path):
    """Greedy never bids contrabola (it learnt it seldom makes it): random players do, and the advice says so
    with their count; an option no deal of either kind reaches is said to be perhaps unreachable."""
    assert main(["compare", "ombre", CB, "--deals", "40", "--seed", "3", "--out", str(tmp_path / "a"), "-q"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert (f"warning: contract contrabola: reached in 0 of 40 deals of {CB} (it differs between ombre and {CB}) — "
            "this comparison says nothing about it; random players reach it in 12 of 400 deals (--players random)"
            ) in text
    assert main(["compare", "ombre", "ombre(fish=12)", "--deals", "40", "--seed", "1", "--out", str(tmp_path / "b"),
                 "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "warning: ombre(fish=12) and ombre end alike in all 40 deals dealt alike — this comparison says nothing "
        "about what sets them apart; so do 400 deals with random players: the rules by which they differ may not "
        "be reachable with these options")


def test_session_rules_are_out_of_reach_without_advice(capsys, tmp_path):
    v = "preference(pot_session_end=carry)"
    assert main(["compare", "preference", v, "--deals", "20", "--seed", "1", "--out", str(tmp_path / "r"), "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        f"warning: session rules differ between preference and {v} — compare plays single deals, each with an empty "
        "pool and nothing carried from deal to deal, so it does not measure them",
        f"warning: {v} and preference differ only in session rules, which compare's single deals do not reach: "
        "their 20 deals end alike"]


def test_no_warning_when_every_differing_rule_is_reached_enough(capsys, tmp_path):
    assert main(["compare", "ombre", SF, "--deals", "60", "--seed", "3", "--out", str(tmp_path / "r"),
                 "--min-reached", "5"]) == 0
    assert not capsys.readouterr().out.startswith("warning")


def test_paired_differences_are_deal_by_deal_over_every_deal():
    a = play_chunk("ombre", {}, ["greedy"] * 3, 5, 0, 80)
    b = play_chunk(SF, {}, ["greedy"] * 3, 5, 0, 80)
    d = differences(a, b, 3, 3)
    m = d["measures"]
    diffs = [y["actions"] - x["actions"] for x, y in zip(a, b, strict=True)]
    assert m["Duration"]["mean"] == pytest.approx(sum(diffs) / 80) and m["Duration"]["pairs"] == 80
    # the declarer's payment over every deal, 0 when nobody declares: the passed-out deals count
    pay = [(y["payments"][y["declarer"]] if y["contract"] else 0) - (x["payments"][x["declarer"]] if x["contract"]
                                                                   else 0) for x, y in zip(a, b, strict=True)]
    assert m["declarer_payment"]["pairs"] == 80 and m["declarer_payment"]["mean"] == pytest.approx(sum(pay) / 80)
    assert sum(p != 0 for p in pay) == sum(x["contract"] is None for x in a) > 0
    both = sum(1 for x, y in zip(a, b, strict=True) if x["contract"] and y["contract"])
    assert m["LeadChange"]["pairs"] == both < 80
    # which contract each deal became, and each contract's share from it
    passed = sum(x["contract"] is None for x in a)
    assert d["transitions"][None] == {"spadille_forced": passed}
    shares = d["contract_shares"]
    assert shares["spadille_forced"]["mean"] == pytest.approx(passed / 80) == -shares[None]["mean"]
    assert shares["entrada"]["mean"] == 0 and shares["entrada"]["base"] == shares["entrada"]["other"]
    # positions by name, each paired over every deal
    fh = [y["payments"][(y["dealer"] + 1) % 3] - x["payments"][(x["dealer"] + 1) % 3]
          for x, y in zip(a, b, strict=True)]
    assert d["positions"]["forehand"]["mean"] == pytest.approx(sum(fh) / 80)
    assert set(d) >= {"declarer_success", "Balance"} and d["unpaired"] == {}
    # the same variant twice: every deal is the same, so every difference is exactly 0
    same = differences(a, play_chunk("ombre", {}, ["greedy"] * 3, 5, 0, 80), 3, 3)
    assert same["deals_differing"] == {"pairs": 80, "play": 0, "result": 0}
    assert all(v["mean"] == 0 and v["ci"] == [0, 0] for v in same["measures"].values())
    assert d["deals_differing"]["result"] == sum(1 for x, y in zip(a, b, strict=True) if x["payments"] !=
                                                 y["payments"] or x["outcome"] != y["outcome"])


def test_balance_cannot_be_paired_across_tables_of_different_size():
    a = play_chunk("quadrille", {}, ["greedy"] * 4, 5, 0, 30)
    b = play_chunk("tredrille", {}, ["greedy"] * 3, 5, 0, 30)
    d = differences(a, b, 4, 3)
    assert "Balance" not in d
    assert d["unpaired"] == {
        "Balance": "not paired: 4 and 3 positions (Balance compares the positions' win rates within a variant)",
        "positions": "3rd after the dealer: a position only one of the variants has"}
    assert set(d["positions"]) == {"forehand", "2nd after the dealer", "dealer"}


def test_holm():
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([]) == [] and holm([0.2]) == [0.2]


def test_cross_game_pairs_are_not_called_the_same_deals(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["compare", "quadrille", "tredrille", "--deals", "30", "--seed", "2", "--out", str(out), "-q"]) == 0
    md = (out / "report.md").read_text()
    assert ("tredrille deals other cards than quadrille from the same seeds (0 of the first 20 deals alike): its "
            "pairs are pairs of seeds, not of deals") in md
    assert "the same cards, in every variant" not in md and "Which contract each deal became" not in md
    assert ("Not paired: tredrille: positions — 3rd after the dealer: a position only one of the variants has; "
            "tredrille: Balance — not paired: 4 and 3 positions (Balance compares the positions' win rates within a "
            "variant).") in md
    data = json.loads((out / "metrics.json").read_text())
    assert data["paired"]["tredrille"]["same_deals"] == {"alike": 0, "checked": 20}


def test_report_files_html_tables_version_and_digests(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "r"
    assert main(["compare", "ombre", SF, "--deals", "40", "--seed", "2", "--out", str(out), "--players",
                 "greedy,random,greedy"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == (f"written to {out}: report.md, report.html, metrics.json, metrics.csv, contract_mix.png, "
                    "declarer_success.png, position_payment.png, contract_shares.png, differences.png, "
                    "differences_length_payment.png")
    html = (out / "report.html").read_text()
    assert html.count('src="data:image/png;base64,') == 6 and "src=\"contract_mix.png\"" not in html
    # the headline is a table (in a box that scrolls sideways on a narrow screen), not preformatted text
    assert "<pre>" not in html and re.search(r'<div class="table"><table><tr><th>variant</th><th>deals</th>', html)
    digests = {v: load(v).digest for v in ("ombre", SF)}
    from ombre_rules import __version__

    assert f"ombre_rules {__version__}; ruleset digests: ombre {digests['ombre']}, {SF} {digests[SF]}." in html
    md = (out / "report.md").read_text()
    assert "## Differences from ombre" in md and "## Contracts against ombre" in md and "## Rule coverage" in md
    assert "## Bots" in md and "ombre match \"ombre\" greedy random --deals 2000 --double-dummy" in md
    for name in ("LeadChange", "Drama", "DecisionMoves", "Balance", "AdvantageP1", "WinnerShare", "Duration"):
        assert f"- {name}: " in md
    assert "- WinnerShare: share of deals in which some seat gains (a net payment above zero); not Ludii's " \
           "Decisiveness" in md and "(Ludii: Decisiveness)" not in md
    assert "| 1 | greedy,random,greedy" not in md and "| 1 | random |" in md  # seat 1's player
    data = json.loads((out / "metrics.json").read_text())
    assert data["meta"]["players_by_variant"][SF] == ["greedy", "random", "greedy"]
    assert data["meta"]["version"] == __version__ and data["digests"] == digests
    p = data["paired"][SF]
    assert set(p["measures"]) >= {"Duration", "LeadChange", "Drama", "DecisionMoves", "declarer_payment"}
    tested = [t for t in _tests(p) if t["ci"] != [0.0, 0.0]]
    assert data["tests"] == len(tested) and all(t["p_holm"] >= t["p"] for t in tested)
    assert [t["p_holm"] for t in tested] == pytest.approx(holm([t["p"] for t in tested]))
    assert all(t["significant"] == (t["p_holm"] < 0.05) for t in _tests(p))


def test_each_bot_is_described_with_its_budget_and_where_its_strength_is_measured():
    assert [budget(nm) for nm in ("random", "greedy", "pimc", "pimc:40", "pimc:2s", "pimcdd", "pimcdd:8",
                                  "pimcdd:3s")] == [
        "uniform over the legal actions (no budget)",
        "greedy: hand evaluation and cheap tricks, no search (no budget)",
        "Monte-Carlo over greedy play-outs, 200 play-outs a decision",
        "Monte-Carlo over greedy play-outs, 40 play-outs a decision",
        "Monte-Carlo over greedy play-outs, 2 seconds a decision",
        "Monte-Carlo over double-dummy solves, 20 worlds a card (500 greedy play-outs for another choice, and for a "
        "defender's card where the defenders are paid apart; worlds weighed by the others' bids and cards where the "
        "hands hold at most 30)",
        "Monte-Carlo over double-dummy solves, 8 worlds a card (200 greedy play-outs for another choice, and for a "
        "defender's card where the defenders are paid apart; worlds weighed by the others' bids and cards where the "
        "hands hold at most 30)",
        "Monte-Carlo over double-dummy solves, 3 seconds a decision"]
    rules = load("ombre-a-dos")
    info = players_info([compare.Run("ombre-a-dos", {}, rules, ["pimcdd:8", "pimcdd:8"])])
    assert info["players"] == {"pimcdd:8": {"budget": budget("pimcdd:8"), "seats": {"ombre-a-dos": [0, 1]}}}
    assert list(info["greedy_learnt"]) == ["ombre-a-dos"]  # pimcdd bids and plays out as greedy does
    assert info["strength"].startswith("measured on the same deals with the seats rotated, so that the cards' "
                                       "luck cancels: ombre match \"ombre-a-dos\" pimcdd:8 pimc --deals 2000 "
                                       "--double-dummy (")


def _tests(p: dict) -> list[dict]:
    return ([t for t in p["measures"].values() if t["pairs"]] + list(p["positions"].values())
            + list(p["contract_shares"].values()) + [p["declarer_success"], p["Balance"]])


def test_interrupted_compare_reports_the_deals_played(tmp_path, capsys, monkeypatch):
    real = compare.run

    def stops(variant, options, names, seed, deals, jobs, dask, judged=0):
        for line in real(variant, options, names, seed, deals, jobs, dask, judged):
            if variant == SF and line["deal"] == 12:
                raise KeyboardInterrupt
            yield line

    monkeypatch.setattr(compare, "run", stops)
    out = tmp_path / "r"
    assert main(["compare", "ombre", SF, "--deals", "30", "--seed", "2", "--out", str(out)]) == 130
    text = capsys.readouterr().out
    assert f"interrupted: ombre 30 of 30 deals, {SF} 12 of 30 deals" in text
    data = json.loads((out / "metrics.json").read_text())
    assert data["meta"]["played"] == {"ombre": 30, SF: 12} and data["meta"]["interrupted"] is True
    assert data["paired"][SF]["measures"]["Duration"]["pairs"] == 12
    assert f"played: ombre 30, {SF} 12. The run was interrupted" in (out / "report.md").read_text()


def test_interrupted_in_the_first_variant(tmp_path, capsys, monkeypatch):
    real = compare.run

    def stops(variant, options, names, seed, deals, jobs, dask, judged=0):
        for line in real(variant, options, names, seed, deals, jobs, dask, judged):
            if line["deal"] == 7:
                raise KeyboardInterrupt
            yield line

    monkeypatch.setattr(compare, "run", stops)
    assert main(["compare", "ombre", SF, "--deals", "30", "--seed", "2", "--out", str(tmp_path / "r")]) == 130
    assert f"interrupted: ombre 7 of 30 deals, {SF} 0 of 30 deals" in capsys.readouterr().out
    assert f"played: ombre 7, {SF} 0. The run was interrupted" in (tmp_path / "r" / "report.md").read_text()


def test_compare_markdown_to_stdout(capsys):
    assert main(["compare", "ombre", SF, "--deals", "20", "--seed", "2", "--out", "-", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("# Variant comparison\n") and "## Rule coverage" in out
    assert err.splitlines()[-4].split()[0] == "ombre" and "written to" not in err
    # every report states the bots' strength: here greedy's cards judged double-dummy in all 20 deals
    assert err.splitlines()[-2:] == [
        f"strength, {v}: greedy lost 0.0996 tricks a card against double-dummy play (20 deals judged)"
        for v in ("ombre", SF)]
    assert "| ombre | greedy | tricks | 0.0996 [" in out and "first 20 deals (--strength;" in out


def test_compare_strength_can_be_turned_off_or_set(capsys):
    assert main(["compare", "ombre", "--deals", "6", "--seed", "2", "--out", "-", "-q", "--strength", "0"]) == 0
    out, err = capsys.readouterr()
    assert "strength," not in err and "Strength not measured in this run (--strength 0)" in out
    assert main(["compare", "ombre", "--deals", "6", "--seed", "2", "--out", "-", "-q", "--strength", "3"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines()[-1].endswith("(3 deals judged)") and "first 3 deals (--strength;" in out
    assert main(["compare", "ombre", "--deals", "6", "--out", "-", "--strength", "-1"]) == 1
    assert capsys.readouterr().err == "ombre: error: --strength must be 0 (no measure) or more\n"


def test_metrics_shape():
    m = metrics(play_chunk("ombre", {}, ["random"] * 3, 1, 0, 50), 3)
    assert set(m["Balance"]) == {"value", "ci", "p", "bias"} and m["Balance"]["ci"][0] <= m["Balance"]["ci"][1]
    assert 0 <= m["DecisionMoves"]["mean"] <= 1 and 0 <= m["Drama"]["mean"] <= 1
    assert sum(d["count"] for d in m["contract_mix"].values()) == 50
    # the seats' payments add up to minus what the pool keeps
    total = sum(d["mean"] for d in m["position_payment"])
    assert total == pytest.approx(-m["pool_net"])
    assert "Decisiveness" not in m and 0 <= m["WinnerShare"]["rate"] <= 1


def test_colours_one_per_contract_and_per_variant():
    c = contract_colours(["entrada", "passed out", "vuelta"])
    assert c == {"entrada": "#1f77b4", "vuelta": "#ff7f0e", "passed out": PASSED_OUT_COLOUR}
    thirty = palette(30)
    assert len(set(thirty)) == 30 and PASSED_OUT_COLOUR not in thirty
    # any two of the thirty and the grey differ clearly (at least 38 in one of red, green, blue)
    rgb = [tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) for h in thirty + [PASSED_OUT_COLOUR]]
    assert min(max(abs(x - y) for x, y in zip(a, b, strict=True)) for i, a in enumerate(rgb) for b in rgb[i + 1:]) \
        == 38
    assert variant_colours(["a", "b"]) == {"a": "#000000", "b": "#e69f00"}


def test_progress_line():
    p = Progress(200, "ombre")
    assert p.line(50, 2.0) == "ombre [#######                       ] 50/200 25 deals/s ETA 0:06"
    assert p.line(200, 65.0) == "ombre [##############################] 200/200 3 deals/s in 1:05"
    assert re.search(r"ETA --:--$", p.line(0, 0.0))


def test_how_many_deals_are_judged_for_the_bots_strength():
    with kernel.use(False):  # pure Python: a deal's judging takes seconds
        assert judged(None, False, 1000) == 10
    if kernel.BUILT:
        with kernel.use(True):
            assert judged(None, False, 1000) == 50
            assert judged(None, False, 30) == 30  # never more than the run's deals
    assert (judged(7, False, 1000), judged(0, False, 1000), judged(None, True, 1000)) == (7, 0, 1000)
