"""The double-dummy solver (`ombre_rules.solve`): its legal cards are the engine's, its values those of a
plain minimax over the engine on small endings of every variant, hand-made endings give their known
answer, and the `ombre solve` command."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from badfiles import BAD_FILES, bad_records
from variant_choices import every_choice, rules_of

from ombre_rules import load
from ombre_rules.cli import main
from ombre_rules.engine import State
from ombre_rules.engine.phases import DONE, PLAY, XPLAY
from ombre_rules.engine.piles import piles
from ombre_rules.records import to_record, write
from ombre_rules.sim.runner import play_deal
from ombre_rules.sim.stats import Metrics, by_player
from ombre_rules.solve.analysis import Analyst, Limits, deal_loss, side_of
from ombre_rules.solve.search import NotInPlay, SearchLimit, Solver

CHOICES = every_choice()
IDS = [p.rsplit("/", 1)[-1].removesuffix(".yaml") + "".join(f"({k}={c})" for k, c in sel) for p, sel in CHOICES]


def _card_or_play_on(s: State, rng: random.Random) -> None:
    """A random card (never a stop or a concession; a concession to consent to is refused)."""
    legal = s.legal_actions()
    cards = [a for a in legal if a < s.nc]
    s.apply(rng.choice(cards) if cards else legal[-1])


def to_play(rules, seed: int) -> State | None:
    """A random deal played at random up to its first card (None if it never gets there)."""
    rng = random.Random(seed)
    for k in range(20):
        s = State(rules, seed=seed * 100 + k, dealer=k % rules.players)
        while s.phase not in (PLAY, XPLAY, DONE):
            s.apply(rng.choice(s.legal_actions()))
        if s.phase != DONE:
            return s
    return None


def ending(rules, seed: int, tricks_left: int, mid: bool) -> State | None:
    """A random position with `tricks_left` tricks to play (and, if `mid`, a card or two of the next one
    played), reached by random cards."""
    rng = random.Random(seed)
    s = to_play(rules, seed)
    if s is None:
        return None
    while s.phase != DONE and (s.trick or s.hands[s.to_move].bit_count() > tricks_left):
        _card_or_play_on(s, rng)
    if mid:
        for _ in range(rng.randrange(1, s.tn) if s.phase != DONE else 0):
            if s.phase not in (PLAY, XPLAY):
                break
            _card_or_play_on(s, rng)
    return s if s.phase in (PLAY, XPLAY) else None


def measured(s: State, side: tuple[int, ...], measure: str) -> int:
    if measure == "tricks":
        return sum(s.tricks[p] for p in side)
    pts = [c.points for c in s.rules.deck.cards]
    won = piles(s)
    return sum(pts[c] for p in side for c in range(s.nc) if won[p] >> c & 1)


def minimax(s: State, side: tuple[int, ...], measure: str, aim: int) -> int:
    """Plain minimax over the engine's own legal cards and apply, no pruning: the side's total at the end."""
    if s.phase == DONE:
        return measured(s, side, measure)
    legal = s.legal_actions()
    cards = [a for a in legal if a < s.nc]
    vals = []
    for a in cards or [legal[-1]]:
        t = s.clone()
        t.apply(a)
        vals.append(minimax(t, side, measure, aim))
    better = max if (s.to_move in side) == (aim > 0) else min
    return better(vals)


# tricks left in the endings the minimax checks, by the number of seats in a trick (it grows as (cards!)^seats)
ENDING = {2: 5, 3: 4, 4: 3, 5: 2, 6: 3}
DEFAULTS = [(p, sel) for p, sel in CHOICES if not sel]
OPTIONS = [(p, sel) for p, sel in CHOICES if sel]


def _check(s: State, measures: tuple[str, ...]) -> None:
    side = side_of(s)
    for measure in measures:
        for aim in (1, -1):
            want = minimax(s, side, measure, aim)
            assert Analyst(s, measure, aim).value(s) == want, (measure, aim, s.to_text())


@pytest.mark.parametrize(("path", "sel"), DEFAULTS, ids=[IDS[CHOICES.index(c)] for c in DEFAULTS])
def test_values_are_those_of_plain_minimax(path, sel):
    """On random endings of every variant (the last 5 tricks with two seats, 4 with three, 3 with four, 2
    with five; one from a trick's start, one from its middle), the solver's value equals an exhaustive
    minimax over the engine, for tricks and card points, for a side that wants more and one that wants
    fewer."""
    tn = rules_of(path, sel).active
    for mid in (False, True):
        s = _ending_of(path, sel, ENDING[tn], mid)
        _check(s, ("tricks", "points"))


@pytest.mark.parametrize(("path", "sel"), OPTIONS, ids=[IDS[CHOICES.index(c)] for c in OPTIONS])
def test_values_are_those_of_plain_minimax_with_each_option(path, sel):
    """The same with each other choice of each option, on one ending a trick shorter."""
    tn = rules_of(path, sel).active
    s = _ending_of(path, sel, ENDING[tn] - 1, True)
    _check(s, ("tricks", "points"))


def _ending_of(path: str, sel: tuple, tricks_left: int, mid: bool) -> State:
    rules = rules_of(path, sel)
    for seed in range(150):  # a variant whose play stops once decided reaches a late ending in few random deals
        s = ending(rules, seed, tricks_left, mid)
        if s is not None:
            return s
    raise AssertionError("no ending reached")


@pytest.mark.parametrize(("path", "sel"), CHOICES, ids=IDS)
def test_legal_cards_are_the_engines(path, sel):
    """At every card of random deals, the solver's legal cards are exactly the cards of legal_actions()."""
    rules = rules_of(path, sel)
    for seed in range(3 if rules.deck.size <= 40 else 1):  # a big deck's deal has cards enough for one
        rng = random.Random(seed)
        s = to_play(rules, seed)
        if s is None:
            continue
        while s.phase in (PLAY, XPLAY):
            if s.trump is None and s.contract.trump_mode == "first_lead":  # refused (see the test below)
                _card_or_play_on(s, rng)
                continue
            sol = Solver(s)
            seat, trick, _leader, led = sol.root()[:4]
            assert sol.legal_mask(seat, trick, led) == sum(1 << a for a in s.legal_actions() if a < s.nc)
            _card_or_play_on(s, rng)


def test_the_solver_refuses_a_deal_whose_trumps_the_first_lead_fixes():
    rules = load("preference(trump_by_first_lead=true)")
    s = next(s for s in (to_play(rules, seed) for seed in range(20))
             if s is not None and s.contract.trump_mode == "first_lead")
    assert s.trump is None and not s.trick_log
    with pytest.raises(NotInPlay, match="the trumps are not fixed yet: they are the suit of the first card led"):
        Solver(s)


# -- a hand-made ending whose answer is known -------------------------------------------------------------
# Entrada in spades by the dealer (seat 0). Trick 1 is led by forehand (seat 1); the Ombre wins the first six
# tricks with his trumps, is offered the stop after five and plays on (committed to the vole). Then, with
# him to lead: seat 0 KC QC 5H, seat 1 JC 6H 7H, seat 2 2C KH 3D. A club lead takes two more tricks (the second
# club squeezes nobody but keeps the lead: seat 2 keeps KH over 5H); 5H first loses the lead to KH, and
# seat 2's 3D then takes a trick nobody can follow: one trick less.
HANDS = (["AS", "2S", "AC", "KS", "QS", "JS", "KC", "QC", "5H"], ["3S", "4S", "5S", "6S", "7S", "JC", "6H", "7H", "2H"],
         ["2C", "KH", "3D", "4D", "5D", "6D", "7D", "JD", "QD"])
TALON = "3C 4C 5C 6C 7C AH 3H 4H JH QH AD 2D KD"
BIDS = ["pass", "pass", "bid entrada", "trump spades", "draw", "draw", "draw"]
SIX = "3S 4D AS 2S 4S 5D AC 5S 6D KS 6S 7D QS 7S JD JS 2H QD".split()
LAST = "5H 6H KH 3D QC 7H 2C KC JC".split()  # the Ombre leads 5H: seat 2 takes two tricks


def handmade(cards: list[str]) -> State:
    rules = rules_of("ombre", ())
    d = rules.deck
    s = State(rules, dealer=0, hands=[d.mask_of(h) for h in HANDS], talon=[d.parse(c) for c in TALON.split()])
    for a in BIDS + [f"play {c}" for c in cards]:
        s.apply_str(a)
    return s


def test_a_known_ending_its_value_and_its_cards():
    s = handmade(SIX)
    an = Analyst(s)
    assert (an.measure, an.aim, s.committed) == ("tricks", 1, True)
    assert an.value(s) == 8
    d = s.rules.deck
    assert {d.name(c): v for c, v in an.values(s).items()} == {"QC": 8, "KC": 8, "5H": 7}
    assert d.name(an.best_card(s)) == "QC"  # the first of the best, in the engine's order
    end = an.play_out(s)
    assert (end.result.outcome, end.result.tricks, end.result.payments) == ("vole_failed", (8, 0, 1), (-38, 19, 19))
    # a side that wants few tricks cashes one club first (taking seat 2's 2C), then gives up the lead with 5H
    # to KH, and 3D takes the last trick; 5H at once lets seat 2 lead 2C into his clubs
    fewer = Analyst(s, "tricks", -1)
    assert fewer.value(s) == 7
    assert {d.name(c): v for c, v in fewer.values(s).items()} == {"QC": 7, "KC": 7, "5H": 8}
    assert d.name(fewer.best_card(s)) == "QC"


def test_from_the_first_card_the_stop_is_taken_when_the_vole_cannot_be_forced():
    s = handmade([])
    an = Analyst(s)
    assert an.value(s) == 8  # played to the end, the cards are worth 8 tricks: not the vole
    end = an.play_out(s)
    assert (end.stopped, end.result.outcome, end.result.tricks, end.result.payments) == \
        (True, "sacada", (5, 0, 0), (38, -19, -19))


def test_equal_cards_are_searched_once():
    s = handmade(SIX)
    sol = Solver(s)
    seat, trick, _leader, led = sol.root()[:4]
    d = s.rules.deck
    high, low = sol._moves(sol.legal_mask(seat, trick, led), sol.live & ~s.hands[seat])
    assert [d.name(c) for c in high] == ["KC", "5H"]  # KC and QC: no card out between them
    assert [d.name(c) for c in low] == ["5H", "KC"]


def test_a_limit_stops_the_search_with_bounds():
    s = handmade([])
    an = Analyst(s, limits=Limits(max_nodes=50))
    with pytest.raises(SearchLimit) as e:
        an.value(s)
    lo, hi = e.value.bounds
    assert 0 <= lo <= 8 <= hi <= 9 and e.value.message == "the search passed 50 nodes"


# -- the command ------------------------------------------------------------------------------------------
def ombre(capsys, *args):
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def record(tmp_path) -> str:
    s = handmade(SIX + LAST)
    path = str(tmp_path / "deal.json")
    write(path, [to_record(s)])
    return path


def test_solve_a_record_and_explain_its_cards(capsys, record):
    rc, out, err = ombre(capsys, "solve", record, "--after-trick", "6", "--explain")
    assert (rc, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == (f"{record}: record 1: entrada by seat 0, trumps spades; side: seat 0 (wants more "
                        "tricks); from trick 7")
    assert lines[1] == ("aim: more tricks, learnt from the contract's settlement (24 random deals of entrada, each "
                        "played out 4 ways: of 44 pairs of play-outs of one deal, one won by the declarer's side and "
                        "one lost, the won one took more tricks in 44 and fewer in 0)")
    del lines[1]
    assert lines[1:5] == [
        "double-dummy: 8 tricks for the declarer's side",
        "principal variation (trick: leader's card first, -> winner): 7: seat 0 QC JC 2C -> 0; "
        "8: seat 0 KC 6H 3D -> 0; 9: seat 0 5H 7H KH -> 2",
        "play-out: outcome vole_failed, tricks 8 0 1, payments -38 +19 +19",
        "  trick 7: seat 0 5H: 8 -> 7 lost 1 (kept by QC, KC)"]
    assert lines[5:13] == [f"  trick {t}: seat {p} {c}: 7 -> 7 ok" for t, p, c in
                           [(7, 1, "6H"), (7, 2, "KH"), (8, 2, "3D"), (8, 0, "QC"), (8, 1, "7H"), (9, 2, "2C"),
                            (9, 0, "KC"), (9, 1, "JC")]]
    assert lines[13] == "lost to double-dummy: seat 0 1, seat 1 0, seat 2 0"
    assert re.fullmatch(r"searched [\d,]+ nodes in \d+\.\d\ds", lines[14]) and len(lines) == 15


def test_solve_json_from_the_first_card(capsys, record):
    rc, out, _err = ombre(capsys, "solve", record, "--json")
    got = json.loads(out)
    assert rc == 0
    assert {k: got[k] for k in ("value", "outcome", "tricks", "payments", "choices", "side", "measure", "aim",
                                "from_trick")} == {
        "value": 8, "outcome": "sacada", "tricks": [5, 0, 0], "payments": [38, -19, -19], "choices": ["stop"],
        "side": [0], "measure": "tricks", "aim": "more", "from_trick": 1}


def test_solve_seeds_and_a_limit(capsys):
    rc, out, _err = ombre(capsys, "solve", "ombre", "--seeds", "1..2", "--json", "--max-nodes", "40")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 3 and [r["deal"] for r in rows] == ["ombre seed 1", "ombre seed 2"]
    assert all(r["stopped"] == "the search passed 40 nodes" for r in rows)


@pytest.mark.parametrize(("args", "message"), [
    (["solve", "ombre", "--seeds", "5..1"], "ombre: error: bad --seeds '5..1' (expected A..B with A <= B, e.g. 1..20)"),
    (["solve", "ombre", "--max-nodes", "0"], "ombre: error: --max-nodes must be at least 1"),
    (["solve", "ombre", "--time", "-1"], "ombre: error: --time must be more than 0 and at most 86400 seconds"),
    (["solve", "nosuchgame"], None),
    (["solve", "RECORD", "--deal", "2"], "ombre: error: --deal 2: RECORD holds 1 record"),
    (["solve", "RECORD", "--at-action", "99"], "ombre: error: --at-action 99: the deal has 34 actions"),
    (["solve", "RECORD", "--at-action", "2"],
     "ombre: error: RECORD: record 1: no card is due at the point asked for (phase auction)"),
])
def test_bad_solve_arguments_end_in_one_line(capsys, record, args, message):
    rc, out, err = ombre(capsys, *[record if a == "RECORD" else a for a in args])
    assert rc == 1 and out == "" and len(err.splitlines()) == 1
    if message is not None:
        assert err.strip() == message.replace("RECORD", record)


# -- the measure in compare -------------------------------------------------------------------------------
def test_deal_loss_sums_what_each_seats_cards_lost():
    assert deal_loss(handmade(SIX + LAST)) == {"measure": "tricks", "value": 8, "lost": [1, 0, 0],
                                               "cards": [9, 9, 9], "from_trick": 1}
    assert deal_loss(handmade(SIX + LAST), max_nodes=10) is None  # past its limit: not measured
    # a deal of more cards than `max_cards` is judged from the first trick at which no more are in the hands
    assert deal_loss(handmade(SIX + LAST), max_cards=20) == {"measure": "tricks", "value": 8, "lost": [1, 0, 0],
                                                             "cards": [6, 6, 6], "from_trick": 4}


def test_compare_reports_the_double_dummy_loss_by_player():
    lines = [{"payments": [1, -1, 0], "double_dummy": {"measure": "tricks", "value": 5, "lost": [1, 0, 2],
                                                       "cards": [9, 9, 9]}},
             {"payments": [0, 0, 0], "double_dummy": {"measure": "tricks", "value": 4, "lost": [0, 1, 0],
                                                       "cards": [9, 9, 9]}},
             {"payments": [0, 0, 0], "double_dummy": None}]
    got = by_player(_metrics(lines), ["greedy", "random", "greedy"])
    assert got["greedy"]["double_dummy"]["lost_per_deal"]["mean"] == 0.75  # (1 + 2) / 2 and 0 / 2
    assert got["greedy"]["double_dummy"]["lost_per_card"]["mean"] == 3 / 36  # 3 lost in 4 x 9 cards
    assert got["random"]["double_dummy"]["lost_per_deal"]["mean"] == 0.5
    assert {k: got["random"]["double_dummy"][k] for k in ("measured", "skipped", "measure")} == \
        {"measured": 2, "skipped": 1, "measure": ["tricks"]}
    assert "double_dummy" not in by_player(_metrics([{"payments": [0, 0, 0]}]), ["random"] * 3)["random"]


def _metrics(lines: list[dict]) -> Metrics:
    """Result lines (only payments and the measure are given) added to a Metrics accumulator."""
    m = Metrics(3)
    for x in lines:
        m.add({"contract": None, "declarer": None, "outcome": "passed out", "tricks": [0, 0, 0], "pool_before": 0,
               "pool_after": 0, "actions": 3, "dealer": 0, "winners": [], "decisions": [], "choices": [], **x},
              {**{f"payment_position_{k}": 0 for k in range(3)}, "declarer_payment": 0.0,
               **{k: None for k in ("AdvantageP1", "LeadChange", "Drama", "DecisionMoves")}})
    return m


def test_a_dealt_deal_carries_the_measure_only_when_asked():
    rules = rules_of("ombre", ())
    plain = play_deal(rules, ["greedy"] * 3, 1, 0)
    measured = play_deal(rules, ["greedy"] * 3, 1, 0, double_dummy=True)
    assert "double_dummy" not in plain and {k: v for k, v in measured.items() if k != "double_dummy"} == plain
    assert measured["double_dummy"] == {"measure": "tricks", "value": 2, "lost": [1, 1, 0], "cards": [9, 9, 9],
                                        "from_trick": 1}


def test_solve_a_scenario_from_a_later_trick(capsys):
    path = str(Path(__file__).parent / "scenarios" / "ombre" / "outcome_sacada.yaml")
    rc, out, _err = ombre(capsys, "solve", path, "--after-trick", "4", "--explain", "--json")
    got = json.loads(out)
    assert rc == 0 and got["deal"] == f"{path}: sacada 5-2-2: Ombre (forehand) 5, defenders 2 and 2"
    assert (got["from_trick"], got["value"], got["outcome"], got["payments"]) == (5, 6, "sacada", [-10, 20, -10])
    assert got["explain"][0] == {"trick": 5, "seat": 1, "card": "KC", "best": 6, "after": 5, "lost": 1,
                                 "keep": ["KS"]}
    assert [v["lost"] for v in got["explain"]] == [1] + [0] * 14
    rc, _out, err = ombre(capsys, "solve", path, "--seed", "3")
    assert (rc, err) == (1, "ombre: error: --seed, --seeds, --dealer and --line are for a VARIANT, not a record or a "
                         "scenario\n")


def test_solve_refuses_every_bad_record_and_file_in_one_line(capsys, tmp_path, record):
    """The hostile records of `ombre replay` get the same one-line message from `ombre solve` (but for a
    record without a result: solve takes a deal that stopped part-way), and a hostile variant file its place."""
    good = json.loads(Path(record).read_text(encoding="utf-8"))
    for name, (content, message) in bad_records(good).items():
        if name == "result-null":
            continue
        path = tmp_path / f"{name}.json"
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        rc, out, err = ombre(capsys, "solve", str(path))
        want = message.format(f=path, outcome="vole_failed")
        assert (rc, out) == (1, ""), name
        if "backtracking" in name:  # the variant's own message, whatever its length
            assert err.startswith(f"ombre: error: {path}: record 1: cannot load variant 'a") and err.count("\n") == 1
        else:
            assert err == f"ombre: error: {want}\n", name
    bad = tmp_path / "bomb.yaml"
    body, where = BAD_FILES["alias-bomb"]
    bad.write_text("extends: ombre\n" + body, encoding="utf-8")
    rc, out, err = ombre(capsys, "solve", str(bad), "--seed", "1")
    assert (rc, out, err) == (1, "", f"ombre: error: {bad}:{where}\n")  # as `ombre play` says it


# -- a game taken over: the declarer's side changes within the deal ------------------------------------------
# greedy's auction and exchange of Tresillo's seed 1, dealer 0 (Rocambor deals it alike): an entrada by seat 3
TAKEN_OVER = ["pass", "pass", "bid entrada", "trump clubs", "discard 7H", "discard 5D", "discard 6S", "discard JS",
              "discard QS", "discard JD", "discard QD", "discard KH", "draw", "discard 6D", "discard 5H", "draw",
              "discard 2S", "discard 3S", "discard 6H", "draw"]


def _first_card(variant: str) -> State:
    r = load(variant)
    s = State(r, seed=1, dealer=0)
    for a in TAKEN_OVER:
        s.apply(r.parse_action(a))
    return s


def test_a_defender_who_takes_over_is_solved_for_his_own_side():
    """Where a refused concession makes a defender the declarer (Tresillo's takeover), the positions after it
    are solved for the new side, not with the tables of the old one (which ended in 'no card keeps the
    value' on most Tresillo and Rocambor deals)."""
    s = _first_card("tresillo")
    r = s.rules
    an = Analyst(s)
    assert (an.value(s), side_of(s)) == (4, (3,))
    t = s.clone()
    for a in ["play AC", "play 5C", "concede", "refuse"]:  # seat 3 concedes before his first card; seat 1 plays on
        t.apply(r.parse_action(a))
    assert (t.declarer, t.taken_from, t.to_move, side_of(t)) == (1, 3, 3, (1,))
    assert an.value(t) == 1 and r.action_str(an.best_card(t)) == "play AS"
    end = an.play_out(t)
    assert (end.result.outcome, end.result.tricks, end.result.payments) == \
        ("defended_saved", (0, 1, 2, 6), (2, -26, 7, 7))


@pytest.mark.parametrize(("variant", "payments"), [("tresillo", (2, 7, 7, -26)), ("rocambor", (0, 5, 5, -20))])
def test_tresillo_and_rocambor_deals_play_out_with_their_concessions(variant, payments):
    """The play-out weighs the declarer's concession (and each defender's consent or takeover) at every trick
    it may be made: it ends, here in a puesta by the declarer's 4 tricks."""
    s = _first_card(variant)
    an = Analyst(s)
    end = an.play_out(s)
    assert (an.value(s), end.result.outcome, end.result.tricks, end.result.payments) == \
        (4, "puesta", (0, 4, 1, 4), payments)
