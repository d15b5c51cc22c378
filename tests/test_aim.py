"""What a contract's declarer plays for (`ombre_rules.solve.aim`): fewer tricks in every built-in contract whose
outcomes reward fewer (contrabola, the Danish nolos, betl), more in every other contract that random deals
reach, not known where the payments do not follow the play; and `ombre solve` prints that basis, reads a
`simulate` line and takes a dealer."""
from __future__ import annotations

import json
import random
import re
from itertools import pairwise

import pytest
from variant_choices import rules_of

from ombre_rules.cli import main
from ombre_rules.sim.runner import play_deal
from ombre_rules.solve.aim import contract_aim, first_card
from ombre_rules.solve.analysis import AimUnknown, Analyst

# every built-in contract whose outcomes reward fewer tricks (its declarer wins with none), by the variant and
# option choice that has it; and the default variants whose contracts are all played for more
FEWER = {
    ("danish-lhombre", ()): {"simple_nolo", "pure_nolo", "nolo_ouvert"},
    ("danish-lhombre", (("scale", "pagat_isl"),)): {"simple_nolo", "pure_nolo", "nolo_ouvert"},
    ("preference", ()): {"betl"},
    ("preference", (("hand_for_all", True),)): {"betl", "betl_hand"},
    ("ombre", (("all_pass", "contrabola"),)): {"contrabola"},
    ("tresillo", (("all_pass", "contrabola"),)): {"contrabola"},
    ("rocambor", ()): {"contrabola"},
    ("rocambor", (("contrabola_trumps", "named"),)): {"contrabola"},
}
ALL_MORE = ["cinquillo", "german-solo", "ombre", "ombre-a-dos", "quadrille", "taroc-lhombre", "tredrille", "tresillo"]
CASES = list(FEWER.items()) + [((v, ()), set()) for v in ALL_MORE]


@pytest.mark.parametrize(("where", "fewer"), CASES, ids=[f"{v}{dict(sel) or ''}" for (v, sel), _f in CASES])
def test_each_contract_is_played_for_what_its_outcomes_reward(where, fewer):
    """Contracts its random deals never reach in play (a forced contract of another option, a bid the auction
    never allows) are not known; every other one is known: fewer for those that reward fewer, where a won
    play-out never gave the declarer a trick, and more for the rest."""
    rules = rules_of(*where)
    measure = "points" if any(c.points for c in rules.deck.cards) else "tricks"
    aims = {c.name: contract_aim(rules, c, measure) for c in rules.contracts}
    reached = {n for n, a in aims.items() if a.deals}
    assert {n for n, a in aims.items() if a.sign == -1} == fewer
    assert {n for n, a in aims.items() if a.sign == 1} == reached - fewer
    assert all(aims[n].most_paid == 0 for n in fewer)


def test_a_contract_announced_in_its_place_is_not_taken_for_it():
    """A gask of Swedish Vira may be turned into a misère after the exchange (`announce`): the deals in which
    it was are left out of the gask's own aim (more tricks: at least 11 to win at gask på 4), and the misère,
    never bid, is reached by no deal of its own."""
    rules = rules_of("swedish-vira", ())
    by_name = {c.name: c for c in rules.contracts}
    gask = contract_aim(rules, by_name["gask_4"], "tricks")
    assert (gask.sign, gask.least_won, gask.most_paid) == (1, 11, None)
    assert contract_aim(rules, by_name["gask_4_misere"], "tricks").deals == 0
    start = first_card(rules, by_name["gask_4"], random.Random(2), 0)
    assert start is not None and start.contract is by_name["gask_4"]


def test_the_aim_is_not_known_where_the_payments_do_not_follow_the_play():
    """Under Rocambor's race points a deal pays nothing (the points are session values): the aim is not guessed
    but asked for, and a given aim is used."""
    rules = rules_of("rocambor", (("scoring_model", "race_points"),))
    s = first_card(rules, rules.contracts[0], random.Random(1), 0)
    with pytest.raises(AimUnknown) as e:
        Analyst(s)
    assert e.value.message == (
        "the aim of entrada is not known (not clear from 96 random deals of entrada, each played out 4 ways: the "
        "declarer's side was paid the same however much it took (payments that do not follow the play)): give "
        "--aim more or --aim fewer")
    an = Analyst(s, aim=1)
    assert (an.aim, an.basis) == (1, "given (--aim)")


def ombre(capsys, *args):
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


DK = "danish-lhombre"


@pytest.fixture
def lines(tmp_path) -> str:
    """Deals 0 to 29 of a run of Danish L'Hombre, random players at every seat (greedy bids no nolo: its
    defenders beat it), as `simulate --out` writes them."""
    rules = rules_of(DK, ())
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(json.dumps(play_deal(rules, ["random"] * 3, 1, i)) + "\n" for i in range(30)))
    return str(path)


def _nolo(lines: str) -> int:
    """The first line of an open nolo."""
    return next(i for i, x in enumerate(open(lines), 1) if json.loads(x)["contract"] == "nolo_ouvert")


def test_solve_reads_a_simulate_line_and_says_why_its_side_wants_fewer_tricks(capsys, lines):
    k = _nolo(lines)
    x = json.loads(open(lines).read().splitlines()[k - 1])
    rc, out, err = ombre(capsys, "solve", DK, "--line", lines, "--deal", str(k), "--json", "--after-trick", "3")
    got = json.loads(out)
    assert (rc, err) == (0, "")
    assert (got["deal"], got["contract"], got["declarer"], got["aim"]) == \
        (f"{lines}: line {k}", "nolo_ouvert", x["declarer"], "fewer")
    assert got["aim_basis"].startswith("fewer tricks, learnt from the contract's settlement (24 random deals of "
                                       "nolo_ouvert, each played out 4 ways: of ")
    rc, out, _err = ombre(capsys, "solve", DK, "--line", lines, "--deal", str(k), "--aim", "more", "--json",
                          "--after-trick", "3")
    assert rc == 0 and json.loads(out)["aim_basis"] == "given (--aim)"


@pytest.mark.parametrize(("args", "message"), [
    (["--deal", "31"], "--deal 31: 'LINES' holds 30 line(s)"),
    (["--seed", "3"], "--line gives the deal's seed and dealer: no --seed, --seeds or --dealer with it"),
    (["--deal", "0"], "--deal must be at least 1"),
])
def test_bad_line_arguments_end_in_one_line(capsys, lines, args, message):
    rc, out, err = ombre(capsys, "solve", DK, "--line", lines, *args)
    assert (rc, out, err) == (1, "", f"ombre: error: {message.replace('LINES', lines)}\n")


def test_a_line_of_another_variant_or_no_line_is_refused(capsys, lines, tmp_path):
    k = _nolo(lines)
    rc, out, err = ombre(capsys, "solve", "ombre", "--line", lines, "--deal", str(k))
    assert (rc, out) == (1, "") and re.fullmatch(
        rf"ombre: error: {re.escape(lines)}: line {k}: action \d+ '[^']+': .* \(is ombre the variant it was played "
        r"in\?\)\n", err)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seed": 1, "dealer": 0}\n')
    rc, out, err = ombre(capsys, "solve", "ombre", "--line", str(bad))
    assert (rc, out, err) == (1, "", f"ombre: error: {bad}: line 1: not a result line of 'ombre simulate' (its "
                                     "seed, dealer and history)\n")


def test_solve_deals_a_variants_seed_from_the_dealer_asked_for(capsys):
    rc, out, _err = ombre(capsys, "solve", "ombre", "--seed", "3", "--dealer", "2", "--json", "--players", "random")
    got = json.loads(out)
    assert rc == 0 and got["deal"] == "ombre seed 3, dealer 2"
    rc, out, err = ombre(capsys, "solve", "ombre", "--seed", "3", "--dealer", "3")
    assert (rc, out, err) == (1, "", "ombre: error: --dealer must be a seat from 0 to 2\n")


def test_the_payment_by_amount_is_made_monotone_by_pooling_the_amounts_that_go_the_wrong_way():
    from ombre_rules.solve.aim import monotone

    seen = {0: [-10, -10], 1: [-5], 2: [-8], 3: [10, 20]}
    assert monotone(seen, 1) == ((0, -10.0), (1, -6.5), (2, -6.5), (3, 15.0))
    # a side that wants fewer: the payment falls as the amount rises; 1 and 2 go the wrong way and are pooled
    assert monotone({0: [4, 4], 1: [-4], 2: [-2, -2, -2], 3: [-6]}, -1) == (
        (0, 4.0), (1, -2.5), (2, -2.5), (3, -6.0))


def test_worth_reads_the_nearest_amount_at_or_below():
    from ombre_rules.solve.aim import Aim

    a = Aim(1, 24, 10, 0, "tricks", "x", "won", None, 5, ((1, -3.0), (4, 0.5), (5, 2.0)))
    assert [a.worth(g) for g in range(7)] == [-3.0, -3.0, -3.0, -3.0, 0.5, 2.0, 2.0]
    assert Aim(None, 0, 0, 0, "tricks", "x", "won").worth(3) is None


@pytest.mark.parametrize(("variant", "contract", "won"), [
    ("ombre", "entrada", 5), ("ombre", "solo", 5), ("quadrille", "ask", 6), ("danish-lhombre", "simple", 4),
    ("danish-lhombre", "simple_nolo", 0),
])
def test_the_payment_table_is_positive_just_where_the_contract_is_won(variant, contract, won):
    """The table learnt from a contract's settlement rises (falls, for a side that wants fewer) with the amount
    taken, and is positive from the amount that wins on: Ombre's declarer needs 5 of 9 tricks (4 win only when
    the defenders split theirs, and are worth less than nothing on average), Quadrille's partners 6 of 10,
    Danish L'Hombre's declarer 4 (the play ends once the outcome is sure); a nolo's declarer must take none."""
    rules = rules_of(variant, ())
    c = next(c for c in rules.contracts if c.name == contract)
    aim = contract_aim(rules, c, "tricks")
    amounts = range(aim.paid_by[0][0], aim.paid_by[-1][0] + 1)
    pay = [aim.worth(g) for g in amounts]
    assert all(aim.sign * (b - a) >= 0 for a, b in pairwise(pay))
    assert [g for g, p in zip(amounts, pay, strict=True) if p > 0] == [g for g in amounts if aim.sign * (g - won) >= 0]


@pytest.mark.parametrize(("variant", "split"), [
    ("ombre", {"entrada": True, "vuelta": True, "solo": True}),
    ("quadrille", {"ask": False, "solo": False, "vole": False}),
    ("preference", {"one": True, "betl": False, "sans": True}),
    ("solo-whist", {"proposal": False, "solo": False, "misere": False}),
])
def test_a_split_defence_is_read_off_the_settlement(variant, split):
    """`Aim.split`: the seats against the declarer's side are paid for more than the side's amount where two
    play-outs of one deal with as many tricks for the side paid them differently: Ombre's codille goes to the
    defender who took the most, Preference's whisters are paid for their own tricks; Quadrille's and Solo
    Whist's defenders are paid alike whoever of them took the tricks."""
    rules = rules_of(variant, ())
    assert {name: contract_aim(rules, rules.contract_by_name[name]).split for name in split} == split
