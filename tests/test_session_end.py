"""The end of a session (`session.end_when`, `session.close`): compiled at load with errors at their place; a
Session plays until the end and closes once; `ombre play --session` plays a whole session."""
import os

import pytest
from housefiles import house, load_errors

from ombre_rules import load
from ombre_rules.cli import main
from ombre_rules.players import make_player
from ombre_rules.session import Session

HOUSE = "tests/data/session_end.yaml"




def _players(rules):
    return [make_player("random", 7 + i, rules) for i in range(rules.players)]


def test_errors_name_their_place(tmp_path):
    path = house(tmp_path, """extends: ombre
session:
  end_when: "tricks(declarer) > 3"
  close:
    - {set: {x: 1}}
    - {pay: {from: players, to: declarer, amount: "session.nope"}}
""")
    assert load_errors(path) == [
        "3:14: 'tricks' cannot be used in the session's end (session.end_when)",
        "5:13: set: has no next deal to give values to here",
        "6:33: unknown name 'declarer' (did you mean 'dealer'?)",
        "6:60: unknown session value 'nope' (the file declares none under session.carry)",
    ]


def test_the_session_names_are_not_deal_names(tmp_path):
    path = house(tmp_path, """extends: ombre
let:
  late: "deals_played > 1"
  ahead: "score(declarer) > 0"
""")
    errs = load_errors(path)
    assert errs[0] == "3:10: unknown name 'deals_played' (did you mean 'tricks_played'?)"
    assert errs[1] == "4:11: 'score' cannot be used in let 'ahead'"


def test_a_session_plays_until_its_end_and_closes_once():
    rules = load(HOUSE)
    assert (rules.session_end.deals, rules.session_end.limit) == (3, 30)
    for seed in range(6):
        s = Session(rules, seed=seed)
        s.play_out(_players(rules))
        n = len(s.deals)
        pools = [d.result.pool_after for d in s.deals]
        # end_when: deals_played >= 6 or deals_played >= 3 and pool < 20, checked after each deal
        ends = [k >= 6 or k >= 3 and pools[k - 1] < 20 for k in range(1, n + 1)]
        assert ends[-1] and not any(ends[:-1])
        # the close shares the pool out: three equal shares and the rest to the last dealer
        share, rest = divmod(pools[-1], 3)
        net = [share + (rest if seat == s.deals[-1].dealer else 0) for seat in range(3)]
        before = [sum(d.result.payments[seat] for d in s.deals) for seat in range(3)]
        fee = [0, 0, 0]
        top = max(before)
        for p in range(3):
            if before[p] < 0:
                for q in range(3):
                    if before[q] == top and q != p:
                        fee[p] -= 1
                        fee[q] += 1
        assert list(s.closed.payments) == [a + b for a, b in zip(net, fee, strict=True)]
        assert (s.closed.pool_before, s.closed.pool_after, s.pool) == (pools[-1], 0, 0)
        assert s.ledger == [b + c for b, c in zip(before, s.closed.payments, strict=True)]
        assert s.close() is s.closed  # closed once
        assert sum(s.ledger) == 0


def test_a_session_that_never_meets_its_end_stops_at_ten_times_its_deals(tmp_path):
    rules = load(house(tmp_path, "extends: ombre\nsession: {deals: 2, end_when: \"false\"}\n"))
    s = Session(rules, seed=1)
    s.play_out(_players(rules))
    assert len(s.deals) == 20 and s.over and s.closed.payments == (0, 0, 0)


def test_without_an_end_a_session_ends_after_its_deals():
    rules = load("ombre")
    s = Session(rules, seed=2)
    s.play(_players(rules), 11)
    assert not s.over
    s.play(_players(rules), 1)
    assert s.over and len(s.deals) == 12


def test_a_variant_that_names_no_end_needs_a_number_of_deals():
    rules = load("taroc-lhombre")
    assert rules.session_end is None
    s = Session(rules, seed=2)
    with pytest.raises(ValueError, match="does not say when a session ends"):
        s.play_out(_players(rules))
    s.play_out(_players(rules), deals=2)
    assert len(s.deals) == 2 and s.closed.payments == (0, 0, 0)


def test_play_session_on_the_command_line(capsys):
    assert main(["play", HOUSE, "--session", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    # pools 30, 45, 120, 0 after the deals: the fourth ends it; nothing to share, the leader's fee from 0 and 2
    assert "the session ends after 4 deals; its close pays seat 0 -1, seat 1 +2, seat 2 -1 (pool 0 -> 0)" in out
    assert out.count("=== deal ") == 4
    assert out.endswith("4      0       solo      1         sacada      -20    +160     -20     0\n"
                        "close                                           -1      +2      -1     0\n"
                        "total                                         -158    +175     -17     0\n")
    assert main(["play", "taroc-lhombre", "--session"]) == 1
    err = capsys.readouterr().err
    assert "taroc-lhombre does not say when a session ends (no session.deals or session.end_when): give --deals N " \
           "instead of --session" in err


def test_scenario_keys_are_checked(tmp_path):
    from ombre_rules.scenario import run_file

    sc = tmp_path / "sc.yaml"
    sc.write_text(f"""variant: {os.path.abspath(HOUSE)}
seed: 1
deals_played: 0
actions: [pass, pass, pass]
expect:
  session_end: {{ends: true}}
""", encoding="utf-8")
    report = run_file(str(sc))
    assert [f.message for f in report.failures] == ["deals_played must be a whole number from 1, not 0"]
