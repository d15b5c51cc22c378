"""Per-deal rows (`simulate --rows`, `compare --rows`: CSV, JSON lines, Parquet), `ombre_rules.analysis` giving
the report's own figures from them, option sweeps (`compare --sweep`) and the duplicate match (`ombre match`)."""
import csv
import json

import pytest

from ombre_rules.cli import main
from ombre_rules.errors import OmbreError
from ombre_rules.sim.match import lineups, match
from ombre_rules.sim.rows import columns, row
from ombre_rules.sim.runner import play_chunk, run
from ombre_rules.sim.stats import per_deal

SF = "ombre(all_pass=spadille_force)"


def test_a_row_holds_the_deal_by_seat_and_by_position():
    x = play_chunk("ombre", {}, ["greedy"] * 3, 1, 1, 1)[0]  # dealt by seat 1: forehand is seat 2
    r = row("ombre", x, 3)
    assert list(r) == [c for c in columns(3) if c in r] and len(r) == len(columns(3))
    assert (r["deal"], r["seed"], r["dealer"], r["contract"], r["declarer"]) == \
        (1, x["seed"], 1, x["contract"], x["declarer"])
    assert [r[f"pay_seat_{k}"] for k in range(3)] == x["payments"]
    assert [r[f"pay_pos_{k}"] for k in range(3)] == [x["payments"][(1 + 1 + k) % 3] for k in range(3)]
    assert r["declarer_position"] == (x["declarer"] - 2) % 3
    assert r["declarer_payment"] == x["payments"][x["declarer"]] and r["declarer_success"] == \
        int(x["payments"][x["declarer"]] > 0)
    assert r["Duration"] == x["actions"] and r["LeadChange"] == per_deal(x, 3)["LeadChange"]


def test_rows_in_every_format_hold_the_same_deals(tmp_path, capsys):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    import ombre_rules.analysis as oa

    frames = []
    for ext in ("csv", "jsonl", "parquet"):
        path = tmp_path / f"rows.{ext}"
        assert main(["simulate", SF, "--deals", "30", "--seed", "4", "--rows", str(path), "-q"]) == 0
        assert capsys.readouterr().out.splitlines()[-1] == f"30 rows written to {path}"
        frames.append(oa.load(str(path)))
    lines = play_chunk(SF, {}, ["greedy"] * 3, 4, 0, 30)
    for df in frames:
        assert list(df.columns) == columns(3) and len(df) == 30
        assert df["declarer_payment"].tolist() == [x["payments"][x["declarer"]] if x["contract"] else 0 for x in lines]
        assert df["contract"].fillna("-").tolist() == [x["contract"] or "-" for x in lines]
    pd.testing.assert_frame_equal(frames[0], frames[2], check_dtype=False)
    with open(tmp_path / "rows.csv", newline="") as f:
        assert next(csv.reader(f)) == columns(3)


def test_the_analysis_api_gives_the_reports_figures(tmp_path, capsys):
    pytest.importorskip("pandas")
    import ombre_rules.analysis as oa

    out, rows = tmp_path / "r", tmp_path / "rows.csv"
    assert main(["compare", "ombre", SF, "--deals", "60", "--seed", "5", "--out", str(out), "--rows", str(rows),
                 "-q"]) == 0
    report = json.loads((out / "metrics.json").read_text())
    df = oa.load(str(rows))
    assert oa.variants(df) == ["ombre", SF] and len(df) == 120
    got = oa.differences(df)
    assert len(got) == len(_tests(report["paired"][SF])) and got["significant"].sum() == sum(
        t["significant"] for t in _tests(report["paired"][SF]))
    p = report["paired"][SF]
    for k, label in oa.PAIRED.items():
        t, g = p["measures"][k], got[got.test == label]
        if t["pairs"]:
            assert (g.difference.iloc[0], g.ci_low.iloc[0], g.ci_high.iloc[0], g.p_holm.iloc[0]) == \
                pytest.approx((t["mean"], *t["ci"], t["p_holm"]), abs=1e-12)
    b = got[got.test == "Balance"].iloc[0]
    assert [b.difference, b.ci_low, b.ci_high] == [p["Balance"]["value"], *p["Balance"]["ci"]]
    assert oa.balance(df, "ombre") == {k: report["variants"]["ombre"]["Balance"][k] for k in ("value", "ci", "p",
                                                                                               "bias")}
    s = oa.success_rate(df, SF)
    assert (s["count"], s["rate"]) == (report["variants"][SF]["declarer_success"]["count"],
                                       report["variants"][SF]["declarer_success"]["rate"])
    shares = oa.contract_shares(df, "ombre", SF)
    assert shares.loc["spadille_forced", "mean"] == pytest.approx(p["contract_shares"]["spadille_forced"]["mean"])
    t = oa.transitions(df, "ombre", SF)
    assert t.loc["passed out", "spadille_forced"] == p["transitions"]["passed out"]["spadille_forced"]
    with pytest.raises(OmbreError, match=r"^no rows of 'nosuch' \(variants: ombre, "):
        oa.pair(df, "ombre", "nosuch")


def _tests(p: dict) -> list[dict]:
    return ([t for t in p["measures"].values() if t["pairs"]] + list(p["positions"].values())
            + list(p["contract_shares"].values()) + [p["declarer_success"], p["Balance"]])


@pytest.mark.parametrize(("args", "message"), [
    (["--rows", "x.txt"], "--rows 'x.txt': name a .csv, .jsonl or .parquet file (the extension gives the format)"),
    (["--sweep", "nosuch"], "--sweep: ombre has no option 'nosuch'"),
    (["--sweep", "fish=11"], "--sweep: '11' is not a choice of fish (choices: 10, 12)"),
    (["--sweep", "fish=20..30"], "--sweep fish=20..30: no choice of fish in that range (choices: 10, 12)"),
    (["--sweep", "players=greedy"], "--sweep players needs two line-ups or more, separated by '/'"),
])
def test_bad_rows_and_sweeps_end_in_one_line(capsys, tmp_path, args, message):
    assert main(["compare", "ombre", "--deals", "2", "--out", str(tmp_path / "r"), *args]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"ombre: error: {message}") and err.count("\n") == 1


def test_a_sweep_compares_each_value_against_the_first(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["compare", "ombre", "--sweep", "all_pass", "--deals", "20", "--seed", "2", "--out", str(out),
                 "-q"]) == 0
    data = json.loads((out / "metrics.json").read_text())
    assert data["meta"]["sweep"] == {"option": "all_pass", "values": ["redeal", "spadille_force", "contrabola"]}
    assert list(data["variants"]) == ["ombre(all_pass=redeal)", "ombre(all_pass=spadille_force)",
                                      "ombre(all_pass=contrabola)"]
    md = (out / "report.md").read_text()
    assert "## Trend over all_pass" in md and "| all_pass | declarer's success rate |" in md
    assert main(["compare", "ombre(ante_mode=dealer)", "--sweep", "fish=8..12", "--deals", "2", "--out",
                 str(tmp_path / "f"), "-q"]) == 0
    assert list(json.loads((tmp_path / "f" / "metrics.json").read_text())["variants"]) == \
        ["ombre(ante_mode=dealer,fish=10)", "ombre(ante_mode=dealer,fish=12)"]
    assert main(["compare", "ombre", "--sweep", "players=greedy/random", "--deals", "6", "--out",
                 str(tmp_path / "p"), "-q"]) == 0
    data = json.loads((tmp_path / "p" / "metrics.json").read_text())
    assert list(data["variants"]) == ["ombre [players greedy]", "ombre [players random]"]
    assert data["meta"]["players_by_variant"]["ombre [players random]"] == ["random"] * 3
    assert data["paired"]["ombre [players random]"]["same_deals"]["alike"] == 20


def test_a_duplicate_match_rotates_the_seats_over_the_same_deals():
    assert lineups("A", "B", 2) == [("all B", ["B", "B"]), ("all A", ["A", "A"]), ("A at 0", ["A", "B"]),
                                    ("B at 0", ["B", "A"]), ("A at 1", ["B", "A"]), ("B at 1", ["A", "B"])]
    got = match("ombre-a-dos", {}, "greedy", "random", 12, 3)
    lines = {nm: list(run("ombre-a-dos", {}, names, 3, 12)) for nm, names in lineups("greedy", "random", 2)}
    gain = [sum(lines[f"greedy at {s}"][i]["payments"][s] - lines["all random"][i]["payments"][s]
                for s in range(2)) / 2 for i in range(12)]
    assert got["gain"]["greedy"]["mean"] == pytest.approx(sum(gain) / 12) and got["gain"]["greedy"]["pairs"] == 12
    assert got["gain"]["greedy"]["better"] == sum(g > 0 for g in gain)
    assert (got["deals"], got["seats"], got["interrupted"]) == (12, 2, False)


def test_the_match_command(capsys):
    assert main(["match", "ombre-a-dos", "greedy", "random", "--deals", "6", "--seed", "3", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "ombre-a-dos: 6 deals, each played 6 ways (seed 3)"
    assert lines[1].startswith("greedy in a field of random: gains ") and lines[2].startswith(
        "random in a field of greedy: gains ")
    assert main(["match", "ombre-a-dos", "greedy", "greedy"]) == 1
    assert capsys.readouterr().err == "ombre: error: match two different players (A and B are the same)\n"


def test_the_match_rows_give_the_gains_back(tmp_path, capsys):
    """`match --rows`: one row per deal and line-up, whose payments give the printed gain again (what a
    notebook pooling runs of other seeds does)."""
    path = tmp_path / "m.csv"
    assert main(["match", "ombre-a-dos", "greedy", "random", "--deals", "7", "--seed", "3", "-q", "--json",
                 "--rows", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    with open(path, newline="") as f:
        got = list(csv.DictReader(f))
    names = [nm for nm, _ in lineups("greedy", "random", 2)]
    assert [r["lineup"] for r in got] == [nm for nm in names for _ in range(7)]
    assert [int(r["deal"]) for r in got] == list(range(7)) * 6
    assert {r["variant"] for r in got} == {"ombre-a-dos"}
    pay = {(r["lineup"], int(r["deal"])): [int(r["pay_seat_0"]), int(r["pay_seat_1"])] for r in got}
    for x, y in (("greedy", "random"), ("random", "greedy")):
        gain = [sum(pay[f"{x} at {s}", i][s] - pay[f"all {y}", i][s] for s in range(2)) / 2 for i in range(7)]
        assert out["gain"][x]["mean"] == pytest.approx(sum(gain) / 7)
        assert out["gain"][x]["better"] == sum(g > 0 for g in gain)
    assert main(["match", "ombre-a-dos", "greedy", "random", "--rows", str(tmp_path / "m.txt")]) == 1
    assert "name a .csv, .jsonl or .parquet file" in capsys.readouterr().err


def test_matches_of_other_seeds_pool_by_the_inverse_of_their_variance():
    from ombre_rules.sim.inference import Z95
    from ombre_rules.sim.match import from_text, pool, pooled_text, text

    runs = [match("ombre-a-dos", {}, "greedy", "random", n, seed) for n, seed in ((8, 3), (12, 4))]
    got = pool(runs)
    assert (got["deals"], got["seeds"], got["players"]) == (20, [3, 4], ["greedy", "random"])
    for x in ("greedy", "random"):
        w = [(2 * Z95 / (r["gain"][x]["ci"][1] - r["gain"][x]["ci"][0])) ** 2 for r in runs]
        mean = sum(wi * r["gain"][x]["mean"] for wi, r in zip(w, runs, strict=True)) / sum(w)
        assert got["gain"][x]["mean"] == pytest.approx(mean)
        assert got["gain"][x]["ci"] == pytest.approx([mean - Z95 / sum(w) ** 0.5, mean + Z95 / sum(w) ** 0.5])
    back = [from_text(text(r)) for r in runs]  # the printed text read back, to 3 decimals
    assert [(b["variant"], b["players"], b["seed"], b["deals"]) for b in back] == \
        [("ombre-a-dos", ["greedy", "random"], 3, 8), ("ombre-a-dos", ["greedy", "random"], 4, 12)]
    for b, r in zip(back, runs, strict=True):
        assert b["gain"]["random"]["mean"] == pytest.approx(r["gain"]["random"]["mean"], abs=6e-4)
    assert pool(back)["gain"]["greedy"]["mean"] == pytest.approx(got["gain"]["greedy"]["mean"], abs=2e-3)
    g = got["gain"]["greedy"]
    assert pooled_text(got).splitlines()[:2] == [
        "ombre-a-dos: 2 matches, 20 deals (seeds 3, 4), pooled",
        f"greedy in a field of random: gains {g['mean']:+.3f} a deal and seat [{g['ci'][0]:+.3f}, "
        f"{g['ci'][1]:+.3f}], p {'< 0.001' if g['p'] < 0.001 else format(g['p'], '.3f')}"]
    with pytest.raises(OmbreError, match=r"^two matches with seed 3 play the same deals"):
        pool([runs[0], runs[0]])
    with pytest.raises(OmbreError, match=r"^pool matches of one variant and one pair of players: ombre-a-dos "
                                         r"greedy against random, not ombre-a-dos random against greedy$"):
        pool([runs[0], {**runs[1], "players": ["random", "greedy"]}])
    with pytest.raises(OmbreError, match="^not the text of a match"):
        from_text("ombre: 3 deals\n")


def test_a_match_of_the_card_play_alone_shares_every_decision_before_the_first_card():
    """With `before`, every line-up plays the same auction and exchange (those of the named player at every
    seat) and differs from the first card on; the gains are computed from those line-ups as without it."""
    from ombre_rules.engine import State
    from ombre_rules.engine.phases import PLAY
    from ombre_rules.ruleset import load
    from ombre_rules.sim.runner import deal_seed, play_deal

    r = load("ombre")
    for i in range(6):
        alike = play_deal(r, ["greedy"] * 3, 5, i)
        s = State(r, seed=deal_seed(5, i), dealer=i % 3)
        first = 0  # the actions before the first card of greedy's deal
        for text in alike["history"]:
            if s.phase == PLAY:
                break
            s.apply(r.parse_action(text))
            first += 1
        for names in (["random"] * 3, ["greedy", "random", "pimc:8"]):
            line = play_deal(r, names, 5, i, before="greedy")
            assert line["history"][:first] == alike["history"][:first]
            assert (line["declarer"], line["contract"], line["trump"]) == \
                (alike["declarer"], alike["contract"], alike["trump"])
    got = match("ombre-a-dos", {}, "greedy", "random", 10, 3, before="greedy")
    lines = {nm: list(run("ombre-a-dos", {}, names, 3, 10, before="greedy"))
             for nm, names in lineups("greedy", "random", 2)}
    gain = [sum(lines[f"greedy at {s}"][i]["payments"][s] - lines["all random"][i]["payments"][s]
                for s in range(2)) / 2 for i in range(10)]
    assert got["gain"]["greedy"]["mean"] == pytest.approx(sum(gain) / 10) and got["before_play"] == "greedy"


def test_the_match_command_of_the_card_play_alone(capsys):
    assert main(["match", "ombre", "greedy", "random", "--deals", "300", "--before-play", "greedy", "-q",
                 "--jobs", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "ombre: 300 deals, each played 8 ways (seed 1)",
        "the card play alone: greedy made every decision before the first card, the same in every line-up",
        "greedy in a field of random: gains +3.742 a deal and seat over random [+2.851, +4.633], p < 0.001; "
        "better on 145 deals, worse on 34; by seat +4.603, +3.253, +3.370"]
    assert main(["match", "ombre", "greedy", "random", "--before-play", "nobody"]) == 1
    assert "unknown player 'nobody'" in capsys.readouterr().err
