"""The `ombre` command: check, play, record and replay, variants, bench, and bad arguments without tracebacks."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ombre_rules import State, load
from ombre_rules.cli import main
from ombre_rules.records import to_record, write
from ombre_rules.resources import variants_dir

ROOT = Path(__file__).resolve().parent.parent


def ombre(capsys, *args):
    """Run the CLI in-process: (exit code, stdout, stderr)."""
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


# -- check ----------------------------------------------------------------------------------------------


def test_check_good_files(capsys, mini):
    builtin = str(variants_dir() / "ombre.yaml")
    assert ombre(capsys, "check", mini, builtin) == (0, f"{mini}: ok\n{builtin}: ok\n", "")


def test_check_bad_file_prints_positions_and_fails(capsys, write, mini):
    bad = write("extends: ombre\nplayerz: 4\nauction:\n  form: sealed\n")
    rc, out, err = ombre(capsys, "check", mini, bad)
    assert (rc, out) == (1, f"{mini}: ok\n")
    assert err == (f"{bad}:2:1: unknown key 'playerz' in the file (did you mean 'players'?)\n"
                   f"{bad}:4:9: 'sealed' is not allowed for auction.form (expected one of: rotation, duel, none)\n")


def test_check_reports_expression_errors_with_caret(capsys, write):
    bad = write('extends: ombre\nnames: {x: "card(2, trmp)"}\n')
    assert ombre(capsys, "check", bad) == (
        1, "", f"{bad}:2:21: unknown name 'trmp' (did you mean 'trump'?)\n    card(2, trmp)\n            ^\n")


def test_check_tries_every_option_choice(capsys, write, mini):
    # the error is only in a non-default choice of an option
    bad = write(f"extends: {mini}\noptions:\n  pay_mode:\n    choices: {{double: {{scoring: {{let: {{V: vv}}}}}}}}\n")
    assert ombre(capsys, "check", bad) == (1, "", f"{bad}:4:43: unknown name 'vv'\n    vv\n    ^\n")


def test_check_malformed_yaml(capsys, write):
    bad = write("id: x\nid: y\n")
    assert ombre(capsys, "check", bad) == (1, "", f"{bad}:2:1: duplicate key 'id'\n")


# -- play, record, replay -------------------------------------------------------------------------------


def test_play_prints_the_log_deterministically(capsys, tmp_path):
    rec = tmp_path / "deal.json"
    rc, out, err = ombre(capsys, "play", "ombre", "--seed", "3", "--record", str(rec))
    assert (rc, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Ombre (classic three-hand) — ombre, seed 3"
    assert lines[-1] == f"record written to {rec}"
    result = json.loads(rec.read_text())["result"]
    outcome = next(x for x in lines if x.startswith("outcome:"))
    payments = next(x for x in lines if x.startswith("payments:"))
    assert outcome.startswith(f"outcome: {result['outcome']} ")
    assert payments.startswith("payments: " + ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(result["payments"])))
    assert ombre(capsys, "play", "ombre", "--seed", "3")[1] == "\n".join(lines[:-1]) + "\n"


def test_play_then_replay_verifies_the_record(capsys, tmp_path):
    rec = tmp_path / "deal.json"
    assert ombre(capsys, "play", "ombre(all_pass=spadille_force)", "--seed", "5", "--record", str(rec))[0] == 0
    data = json.loads(rec.read_text())
    assert data["variant"] == "ombre(all_pass=spadille_force)" and data["seed"] == 5
    res = data["result"]
    assert ombre(capsys, "replay", str(rec)) == (
        0, f"{rec}: record 1: ombre(all_pass=spadille_force): {len(data['actions'])} actions replayed; "
           f"outcome {res['outcome']}, payments {res['payments']}: identical\n", "")


@pytest.fixture
def record(tmp_path):
    """A record of a scripted deal of Ombre (seed 3): all three pass."""
    state = State(load("ombre"), seed=3)
    for text in ["pass", "pass", "pass"]:
        state.apply_str(text)
    return to_record(state)


def _replay_error(capsys, tmp_path, rec):
    path = tmp_path / "tampered.json"
    write(str(path), [rec])
    rc, out, err = ombre(capsys, "replay", str(path))
    assert (rc, out) == (1, "")
    prefix = f"ombre: error: {path}: record 1: "
    assert err.startswith(prefix) and err.endswith("\n")
    return err[len(prefix):-1]


def test_replay_untampered(capsys, tmp_path, record):
    path = tmp_path / "deal.json"
    write(str(path), [record])
    assert ombre(capsys, "replay", str(path)) == (
        0, f"{path}: record 1: ombre: 3 actions replayed; outcome all_pass, payments {record['result']['payments']}: "
           "identical\n", "")


def test_replay_changed_payment(capsys, tmp_path, record):
    want = record["result"]["payments"]
    record["result"]["payments"] = [want[0] + 1] + want[1:]
    assert _replay_error(capsys, tmp_path, record) == (
        f"result differs: payments: record {record['result']['payments']}, replay {want}")


def test_replay_illegal_action(capsys, tmp_path, record):
    record["actions"][1] = "hold"
    assert _replay_error(capsys, tmp_path, record) == (
        "diverges at action 2 'hold': 'hold' is not legal for seat 2 in auction; "
        "legal: pass, bid entrada, bid vuelta, bid solo")


def test_replay_unparseable_action(capsys, tmp_path, record):
    record["actions"][0] = "bid vuelt"
    assert _replay_error(capsys, tmp_path, record) == (
        "diverges at action 1 'bid vuelt': unknown contract 'vuelt' (did you mean 'vuelta'?)")


def test_replay_deal_of_another_seed(capsys, tmp_path, record):
    record["seed"] = 4
    assert _replay_error(capsys, tmp_path, record) == "the deal differs from what seed 4 deals"


def test_replay_truncated_actions(capsys, tmp_path, record):
    record["actions"] = record["actions"][:2]
    assert _replay_error(capsys, tmp_path, record) == (
        f"the actions end before the deal does (phase auction); the record says {record['result']}")


def test_replay_other_rules(capsys, tmp_path, record):
    record["variant"] = "ombre(all_pass=spadille_force)"
    other = load("ombre(all_pass=spadille_force)").digest
    assert _replay_error(capsys, tmp_path, record) == (
        f"ruleset differs: the record was made with rules {record['ruleset_hash']}, "
        f"'ombre(all_pass=spadille_force)' is now {other}")


def test_replay_not_a_record(capsys, tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text('{"format": "other"}')
    assert ombre(capsys, "replay", str(bad)) == (
        1, "", f"ombre: error: {bad}: record 1 is not an ombre-record/1 record\n")
    bad.write_text("{oops")
    assert ombre(capsys, "replay", str(bad)) == (
        1, "", f"ombre: error: {bad}:1:2: not valid JSON: Expecting property name enclosed in double quotes\n")


# -- bad arguments ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["play", "ombr"], "unknown variant 'ombr' (did you mean 'ombre'?)"),
    (["play", "ombre", "--option", "all_pas=redeal"],
     "unknown option 'all_pas' for variant 'ombre' (did you mean 'all_pass'?)"),
    (["play", "ombre", "--option", "all_pass"], "bad --option 'all_pass' (expected key=value)"),
    (["play", "ombre(all_pass=x)"],
     "'x' is not a choice of option 'all_pass' (choices: redeal, spadille_force, contrabola)"),
    (["play", "ombre", "--human", "3"], "--human must be a seat from 0 to 2"),
    (["play", "ombre", "--dealer", "-1"], "--dealer must be a seat from 0 to 2"),
    (["bench", "ombre", "--deals", "0"], "--deals must be at least 1"),
    (["replay", "/nonexistent/deal.json"], "cannot read '/nonexistent/deal.json': No such file or directory"),
])
def test_bad_arguments(capsys, args, message):
    assert ombre(capsys, *args) == (1, "", f"ombre: error: {message}\n")


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as ei:
        main(["play", "ombre", "--seed", "x"])
    err = capsys.readouterr().err
    assert ei.value.code == 2
    assert err.endswith("ombre play: error: argument --seed: invalid int value: 'x'\n(see 'ombre play --help')\n")


@pytest.mark.parametrize("args, code, last", [
    (["play", "ombr"], 1, "ombre: error: unknown variant 'ombr' (did you mean 'ombre'?)"),
    (["play", "ombre", "--human", "7"], 1, "ombre: error: --human must be a seat from 0 to 2"),
    (["bogus"], 2, "(see 'ombre --help')"),
])
def test_no_traceback_from_the_real_command(args, code, last):
    proc = subprocess.run([sys.executable, "-m", "ombre_rules", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert (proc.returncode, proc.stdout) == (code, "")
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1] == last


# -- variants, bench ----------------------------------------------------------------------------------------


def test_variants_lists_ombre_with_its_options(capsys):
    rc, out, err = ombre(capsys, "variants")
    lines = out.splitlines()
    assert (rc, err) == (0, "")
    assert "ombre            Ombre (classic three-hand)  (aliases: lhombre, renegado, hombre)" in lines
    assert "    all_pass=redeal  [redeal|spadille_force|contrabola]  what happens when all three pass" in lines
    assert any(re.fullmatch(r" {4}estuches_min_run=1  \[1\|3\]  .+", x) for x in lines)


def test_bench_json(capsys):
    rc, out, err = ombre(capsys, "bench", "ombre", "--deals", "50", "--seed", "1", "--json")
    assert (rc, err) == (0, "")
    stats = json.loads(out.splitlines()[-1])
    assert (stats["variant"], stats["deals"], stats["seed"]) == ("ombre", 50, 1)
    assert stats["deals_per_s"] > 0
    assert sum(stats["outcomes"].values()) == 50 == sum(stats["contracts"].values())
    again = json.loads(ombre(capsys, "bench", "ombre", "--deals", "50", "--seed", "1", "--json")[1])
    assert (again["outcomes"], again["contracts"]) == (stats["outcomes"], stats["contracts"])


def test_bench_loops_play_the_same_deals(capsys):
    """The playout and the public loop take the same actions for the same seed: the same counts."""
    got = {}
    for loop in ("playout", "api"):
        rc, out, err = ombre(capsys, "bench", "danish-lhombre", "--deals", "60", "--seed", "4", "--json",
                             "--loop", loop)
        assert (rc, err) == (0, "")
        stats = json.loads(out.splitlines()[-1])
        assert stats["loop"] == loop
        got[loop] = (stats["actions_per_deal"], stats["contracts"], stats["outcomes"])
    assert got["playout"] == got["api"]
    assert sum(got["api"][2].values()) == 60
