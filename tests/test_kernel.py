"""The compiled play kernel (`ombre_rules.kernel`): both paths, in one process, give the same deals (random
play-outs of every variant and option: the same actions, tricks and results from the same random numbers) and
the same double-dummy values (the kernel's search against the Python `Solver`, on endings of every variant and
option and on whole deals); whatever malformed tables or positions it is given, it refuses them with a
message; OMBRE_KERNEL=0 turns it off. With OMBRE_KERNEL=1 (CI) a kernel that is not built fails the tests
instead of skipping them."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from test_solve import _first_card
from variant_choices import every_choice, rules_of

from ombre_rules import State, kernel, load
from ombre_rules.bots.estimate import tricks_allowed
from ombre_rules.engine.phases import AUCTION, DONE, PLAY, XPLAY
from ombre_rules.players import act, make_player
from ombre_rules.ruleset.fields import reads_winner
from ombre_rules.solve.analysis import Analyst, exact, explain, play_start
from ombre_rules.solve.fast import KernelSolver, runs_in_kernel, solver
from ombre_rules.solve.search import SearchLimit, Solver

ROOT = Path(__file__).resolve().parent.parent
CHOICES = every_choice()
IDS = [p.rsplit("/", 1)[-1].removesuffix(".yaml") + "".join(f"({k}={c})" for k, c in sel) for p, sel in CHOICES]

if os.environ.get("OMBRE_KERNEL", "").strip() == "1":
    assert kernel.BUILT, "OMBRE_KERNEL=1 but the kernel is not built (python hatch_build.py builds it in place)"
built = pytest.mark.skipif(not kernel.BUILT, reason="the kernel is not built here")


def test_the_kernel_is_on_when_built():
    assert kernel.ON == kernel.BUILT
    with kernel.use(False):
        assert not kernel.ON
    assert kernel.ON == kernel.BUILT


# -- random play: both paths ---------------------------------------------------------------------------------
def _play(rules, seed: int, dealer: int, pool: int, on: bool) -> tuple[State, float]:
    with kernel.use(on):
        s = State(rules, seed=seed, dealer=dealer, pool=pool)
        rand = random.Random(seed).random
        s.random_playout(rand)
    return s, rand()


@built
@pytest.mark.parametrize(("path", "sel"), CHOICES, ids=IDS)
def test_random_deals_are_the_same_through_the_kernel(path, sel):
    """Deals played at random with the kernel and without it, from the same seeds and random numbers: the same
    actions, tricks, piles, results and random numbers used, in every variant and with every option."""
    rules = rules_of(path, sel)
    pool = 0
    ran = 0
    for i in range(30):
        a, ra = _play(rules, 7000 + i, i % rules.players, pool, False)
        b, rb = _play(rules, 7000 + i, i % rules.players, pool, True)
        assert b.history == a.history, (i, a.history)
        assert (b.trick_log, b.tricks, b.won, b.hands, b.hl) == (a.trick_log, a.tricks, a.won, a.hands, a.hl)
        assert (b.result.to_dict(), rb) == (a.result.to_dict(), ra)
        ran += bool(a.trick_log)
        pool = a.result.pool_after
    assert ran >= 10  # most deals were played, not passed out


@built
def test_the_kernel_plays_the_tricks_of_a_deal():
    """The kernel is what plays them: with it on, no trick is played by the Python loop."""
    rules = load("ombre")
    calls = []
    real = kernel.random_tricks

    def counted(*args):
        calls.append(args[-1])
        return real(*args)

    kernel.random_tricks = counted
    try:
        s = State(rules, seed=3)
        s.random_playout(random.Random(3).random)
    finally:
        kernel.random_tricks = real
    assert s.trick_log and calls and sum(1 for _ in calls) <= len(s.trick_log)


def test_random_tricks_from_the_middle_of_a_deal_and_after_a_claim():
    """A claim's trick and the end of the deal are read between the kernel's runs of tricks: mid-deal starts
    give the same deals both ways."""
    rules = load("ombre")
    for i in range(60):
        r0 = random.Random(-i)
        a = State(rules, seed=i)
        for _ in range(i % 40):
            if a.is_terminal:
                break
            a.apply(r0.choice(a.legal_actions()))
        b = a.clone()
        with kernel.use(False):
            a.random_playout(random.Random(i).random)
        b.random_playout(random.Random(i).random)
        assert (b.history, b.trick_log, b.result.to_dict()) == (a.history, a.trick_log, a.result.to_dict())


def test_turned_off_by_the_environment():
    """OMBRE_KERNEL=0: the module is not loaded, and `ombre bench` plays the same deals."""
    code = ("import sys, json; from ombre_rules import kernel, load, bench; "
            "print(json.dumps([kernel.BUILT, kernel.ON, 'ombre_rules.kernel._ckernel' in sys.modules, "
            "bench.run(load('quadrille'), 40, 5, warmup=0)['outcomes']]))")
    outs = []
    for flag in ("0", ""):
        env = dict(os.environ, PYTHONPATH=str(ROOT), OMBRE_KERNEL=flag)
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
        assert p.returncode == 0, p.stderr
        outs.append(json.loads(p.stdout))
    assert outs[0][:3] == [False, False, False]
    assert outs[1][:3] == [kernel.BUILT] * 3
    assert outs[0][3] == outs[1][3]


# -- double dummy: the kernel's search against the Python solver -------------------------------------------
def _to_play(rules, seed: int) -> tuple[State, random.Random] | None:
    rng = random.Random(seed)
    for k in range(20):
        s = State(rules, seed=seed * 100 + k, dealer=k % rules.players)
        while s.phase not in (PLAY, XPLAY, DONE):
            s.apply(rng.choice(s.legal_actions()))
        if s.phase == PLAY and not s.trump_open and not s.uneven:  # unequal hands: not searched
            return s, rng
    return None


def _card(s: State, rng: random.Random) -> None:
    legal = s.legal_actions()
    cards = [a for a in legal if a < s.nc]
    s.apply(rng.choice(cards) if cards else legal[-1])


def _ending(rules, seed: int, left: int) -> State | None:
    """A random position with `left` cards a hand (sometimes a card or two of the trick played)."""
    got = _to_play(rules, seed)
    if got is None:
        return None
    s, rng = got
    while s.phase in (PLAY, XPLAY) and (s.trick or s.hands[s.to_move].bit_count() > left or s.trump_open):
        _card(s, rng)
    for _ in range(rng.randrange(s.tn)):
        if s.phase in (PLAY, XPLAY):
            _card(s, rng)
    return s if s.phase == PLAY and not s.trump_open and not s.uneven else None  # unequal hands: not searched


def _same_values(s: State, measure: str, aim: int) -> int:
    k = KernelSolver.make(s, measure, aim)
    assert k is not None
    want = exact(Solver(s, measure, aim).value)
    assert k.exact() == want, (measure, aim, s.to_text())
    assert exact(k.value) == want
    py = Solver(s, measure, aim)
    vals = k.values()
    assert vals == {c: exact(lambda a, b, c=c: py.after(c, a, b)) for c in py.root_cards()}, s.to_text()
    for guess in (want, want + 3, -abs(want) - 2):  # the first guess of the search changes no value
        again = KernelSolver.make(s, measure, aim)
        assert again is not None and again.values(guess) == vals, (guess, s.to_text())
    return want


ENDING = {2: 5, 3: 4, 4: 3, 5: 2, 6: 3}  # cards a hand in the endings, by the seats in a trick


@built
@pytest.mark.parametrize(("path", "sel"), CHOICES, ids=IDS)
def test_double_dummy_values_are_the_python_solvers(path, sel):
    """On endings of every variant and option (two of them, one a card shorter), for tricks and card points, for
    a side that wants more and one that wants fewer: the value and each card's value are the Python solver's.
    A deck the kernel does not play (the excuse card) and follow rules that read the card winning the trick are
    left to the Python solver."""
    rules = rules_of(path, sel)
    if rules.excuse is not None or any(map(reads_winner, rules.follow_lists)):
        s = State(rules, seed=1)
        rng = random.Random(1)
        while s.phase not in (PLAY, XPLAY):
            s.apply(rng.choice(s.legal_actions()))
        assert not runs_in_kernel(s) and isinstance(solver(s), Solver)
        assert kernel.tables(s.ctx, s.contract.follow_id) is None
        return
    tn = rules.active
    met = 0
    for seed, left in ((0, ENDING[tn] + 1), (1, ENDING[tn])):
        # (a variant whose play stops once decided reaches a late ending in few random deals: up to 150 tried)
        s = next((e for e in (_ending(rules, seed * 150 + k, left) for k in range(150)) if e is not None), None)
        assert s is not None
        assert runs_in_kernel(s) and isinstance(solver(s), KernelSolver)
        for measure in ("tricks", "points"):
            for aim in (1, -1):
                _same_values(s, measure, aim)
                met += 1
    assert met == 8


FULL = ("ombre", "tresillo", "preference", "danish-lhombre", "ombre-a-dos", "tredrille")


@built
@pytest.mark.parametrize("variant", FULL)
def test_double_dummy_values_of_whole_deals_are_the_python_solvers(variant):
    """From the first card of whole deals, with the aim of the contract played."""
    rules = load(variant)
    done = 0
    for seed in range(12):
        got = _to_play(rules, seed)
        if got is None:
            continue
        s = got[0]
        aim = -1 if tricks_allowed(rules, s.contract) is not None else 1
        k = KernelSolver.make(s, "tricks", aim)
        assert k.exact() == exact(Solver(s, "tricks", aim).value), s.to_text()
        done += 1
        if done == 2:
            break
    assert done == 2


@built
@pytest.mark.parametrize("variant", ["quadrille", "ombre", "tresillo", "sextille", "euchre"])
def test_many_endings_of_trump_games_are_the_python_solvers(variant):
    """Sure tricks bound the search: in a suit every hand must follow, the leader's top cards count as long as
    every hand that holds a trump still has a card of the suit. On 12 endings of 4 to 6 cards a hand (some with
    the trick begun) of games with trumps, teams and partners, each card's value is the Python solver's."""
    rules = load(variant)
    done = 0
    for seed in range(200):
        s = _ending(rules, 1000 + seed, 4 + seed % 3)
        if s is None:
            continue
        _same_values(s, "tricks", 1)
        done += 1
        if done == 12:
            break
    assert done == 12


@built
@pytest.mark.parametrize("variant", ["quadrille", "ombre", "preference", "danish-lhombre"])
def test_the_steps_each_card_reaches_are_counted_from_its_exact_value(variant):
    """`reached(xs)`: for each legal card, how many of the values xs (rising) its exact value reaches, for a
    side that wants more and one that wants fewer, on endings and a first card; bad xs are refused."""
    rules = load(variant)
    positions = [e for e in (_ending(rules, 300 + k, 3 + k % 3) for k in range(40)) if e is not None][:6]
    positions.append(_to_play(rules, 2)[0])
    checked = 0
    for s in positions:
        for aim in (1, -1):
            k = KernelSolver.make(s, "tricks", aim)
            vals = k.values()
            lo, hi = min(vals.values()), max(vals.values())
            for xs in ([lo], [hi + 1], [lo - 1, hi + 1], list(range(lo - 1, hi + 3))):
                assert k.reached(xs) == {c: sum(v >= x for x in xs) for c, v in vals.items()}, (xs, s.to_text())
                checked += 1
    assert checked == 8 * len(positions) == 56
    k = KernelSolver.make(positions[0], "tricks", 1)
    for bad, message in (([], "1 to"), ([3, 3], "must rise"), (["x"], "value"), (5, "sequence")):
        with pytest.raises((ValueError, TypeError), match=message):
            k.reached(bad)


@built
def test_quadrille_from_its_sixth_trick():
    """A four-handed deal with a partner, five tricks from its end."""
    rules = load("quadrille")
    s = _ending(rules, 4, 5)
    for aim in (1, -1):
        _same_values(s, "tricks", aim)


@built
def test_an_early_end_is_read_once_per_trick_count():
    """An early end (`play.end_when` over trick counts) is asked of Python, and the values hold (danish-lhombre
    ends a deal once the declarer has lost it)."""
    rules = load("danish-lhombre")
    for seed in range(40):
        got = _to_play(rules, seed)
        if got is not None and got[0].end_when is not None:
            break
    s = got[0]
    assert runs_in_kernel(s)
    _same_values(s, "tricks", 1)


@built
def test_the_analyst_uses_the_kernel_and_a_limit_stops_it_with_bounds():
    rules = load("ombre")
    s = _to_play(rules, 2)[0]
    an = Analyst(s, "tricks", 1)
    v = an.value(s)
    assert isinstance(an._last[an.side], KernelSolver) and an.nodes > 0
    with kernel.use(False):
        assert Analyst(s, "tricks", 1).value(s) == v
    an = Analyst(s, "tricks", 1)
    an.limits.max_nodes = 30
    with pytest.raises(SearchLimit, match="^the search passed 30 nodes$") as e:
        an.value(s)
    lo, hi = e.value.bounds
    assert 0 <= lo <= v <= hi <= 9


def _bid_deal(variant: str, seed: int, contract: str) -> State:
    """A deal (dealer 0) in which the first seat that may bids `contract` and every other seat passes; random
    players (seeded by seat) take every later decision. Greedy bids no nolo of its own accord (its defenders
    beat one), so the deal is made to reach it."""
    rules = load(variant)
    s = State(rules, seed=seed, dealer=0)
    bid, pass_ = rules.parse_action(f"bid {contract}"), rules.parse_action("pass")
    players = [make_player("random", k) for k in range(rules.players)]
    while s.phase != DONE:
        legal = s.legal_actions()
        s.apply((bid if bid in legal else pass_) if s.phase == AUCTION else act(players[s.to_move], s, s.to_move))
    return s


def _analysed(s: State, rest: list[int]) -> tuple:
    """What `ombre solve` reports of a position: the aim learnt, the value, each card's verdict, the play-out."""
    an = Analyst(s)
    r = s.rules
    verdicts = [(v.seat, r.action_str(v.card), v.best, v.after) for v in explain(an, s, rest)]
    end = an.play_out(s)
    assert end.result is not None
    return an.aim, an.value(s), verdicts, (end.result.outcome, end.result.tricks, end.result.payments)


@built
def test_the_analyst_learns_the_aim_and_answers_alike_on_both_paths():
    """A Danish simple nolo (its declarer wants fewer tricks, learnt from its settlement) from its fourth trick,
    and Tresillo's and Rocambor's game taken over by a defender: the kernel's answers are the Python solver's."""
    done = _bid_deal("danish-lhombre", 2, "simple_nolo")
    s, i = play_start(done)
    while len(s.trick_log) < 3:
        s.apply(done.history[i])
        i += 1
    assert (s.contract.name, s.declarer, s.to_move) == ("simple_nolo", 1, 2)
    with kernel.use(True):
        on = _analysed(s, done.history[i:])
    with kernel.use(False):
        off = _analysed(s, done.history[i:])
    assert on == off
    aim, value, verdicts, end = on
    assert (aim, value, end) == (-1, 2, ("codille", (1, 2, 2), (3, -6, 3)))
    assert len(verdicts) == 18
    assert [v for v in verdicts if v[2] != v[3]] == [(0, "play KD", 2, 0)]  # a defender's card gave up 2 tricks
    for variant, pays in (("tresillo", (2, 7, 7, -26)), ("rocambor", (0, 5, 5, -20))):
        s = _first_card(variant)
        got = []
        for flag in (True, False):
            with kernel.use(flag):
                an = Analyst(s)
                end = an.play_out(s)
                assert end.result is not None
                got.append((an.aim, an.value(s), end.result.outcome, end.result.payments))
        assert got == [(1, 4, "puesta", pays)] * 2


@built
def test_a_line_keeps_the_value():
    """`line` plays the rest of the deal double-dummy: played out by the engine, the side takes the value."""
    rules = load("ombre")
    for seed in range(5):
        s = _to_play(rules, seed)[0]
        k = KernelSolver.make(s, "tricks", 1)
        v = k.exact()
        side = [p for p in range(s.n) if k.side[p]]
        t = s.clone()
        for c in k.line():
            if t.phase != PLAY:
                break
            legal = t.legal_actions()
            if legal[-1] >= t.nc:  # a claim offered: played on
                assert c in legal
            t.apply(c)
        assert sum(t.tricks[p] for p in side) == v


# -- what the kernel refuses ---------------------------------------------------------------------------------
@built
@pytest.mark.parametrize(("args", "error", "message"), [
    (([0] * 65, [[0] * 65], [()] * 65, [0] * 65), ValueError, "the kernel plays decks of 1 to 64 cards, not 65"),
    (([0, 2], [[1, 2], [1, 2]], [(), ()], [1, 2]), ValueError, "effective suit must be from 0 to 1"),
    (([0, 0], [[1]], [(), ()], [1, 2]), ValueError, "key row: 1 items, expected 2"),
    (([0, 0], [[1, 2]], [(), ()], [1]), ValueError, "powers: 1 items, expected 2"),
    (([0, 0], [[1, 2]], [((4, 1),), ()], [1, 2]), ValueError, "follow bind mask: a card beyond the deck"),
    (([0, 0], [[1, 2]], [((-1, 1),), ()], [1, 2]), ValueError, "follow bind mask: not a mask of the deck's cards"),
    (([0, 0], [[1, 2]], [((1, 1, 1),), ()], [1, 2]), ValueError, "follow obligation: 3 items, expected 2"),
    (([0, 0], [[1, "x"]], [(), ()], [1, 2]), TypeError, "rank key must be an int, not str"),
    (([0, 0], [[1, 2]], [(), ()], [1, 1 << 40]), ValueError, "power must be from"),
    (([0, 0], [[1, 2]], 5, [1, 2]), TypeError, "rows must be a sequence"),
])
def test_bad_tables_are_refused(args, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        kernel._ckernel.Tables(*args)


def _tables():
    rules = load("ombre")
    s = _to_play(rules, 1)[0]
    return s, kernel.tables(s.ctx, s.contract.follow_id)


@built
def test_bad_random_tricks_are_refused_and_change_nothing():
    s, t = _tables()
    rand = random.Random(1).random

    def call(**kw):
        a = dict(hands=list(s.hands), hl=[h[:] for h in s.hl], history=[], tricks=[0] * 3, won=[0] * 3, log=[],
                 nxt=s.nxt, tn=3, high=False, seat=s.to_move, rand=rand, max_tricks=1)
        a.update(kw)
        return kernel.random_tricks(t, *a.values())

    for kw, error, message in [
        ({"seat": 3}, ValueError, "seat must be from 0 to 2"),
        ({"tn": 4}, ValueError, "seats in a trick must be from 1 to 3"),
        ({"nxt": (1, 2, 7)}, ValueError, "next seat must be from 0 to 2"),
        ({"hands": s.hands[:2]}, ValueError, "random_tricks: 1 to 8 seats"),
        ({"hands": [1 << 40, 0, 0]}, ValueError, "hand: a card beyond the deck"),
        ({"hl": [[], [], []]}, ValueError, "each seat's sorted list must hold its hand's cards"),
        ({"won": (0, 0, 0)}, TypeError, "must be lists"),
        ({"rand": lambda: 1.5}, ValueError, r"rand\(\) must give floats in \[0, 1\)"),
        ({"rand": 3}, TypeError, "rand must be callable"),
        ({"max_tricks": 0}, ValueError, "tricks to play must be from 1"),
    ]:
        with pytest.raises(error, match=message):
            call(**kw)
    hands = list(s.hands)
    assert call() in range(3) and hands == s.hands  # the lists given were changed, not the state's


@built
def test_bad_positions_are_refused():
    s, t = _tables()
    search = kernel.Search(t, s.nxt, 3, False, (True, False, False), 1)
    with pytest.raises(ValueError, match="the search has no position"):
        search.exact()
    h = list(s.hands)
    for args, message in [
        ((h[:2], [0] * 3, [], 0), "a hand and a trick count for each seat"),
        (([h[0], h[0], h[2]], [0] * 3, [], 0), "a card is in two hands"),
        ((h, [0] * 3, [next(c for c in range(40) if h[1] >> c & 1)], 0), "a card of the trick is also held"),
        ((h, [0] * 3, [], 5), "leader must be from 0 to 2"),
        (([h[0] | h[1], 0, h[2]], [0] * 3, [], 0), "the hands in play do not hold as many cards each"),
        ((h, [0] * 3, [0, 1, 2], 0), "the trick in hand holds a card of every seat"),
    ]:
        with pytest.raises(ValueError, match=message):
            search.position(*args)
    with pytest.raises(ValueError, match="aim must be 1 or -1"):
        kernel.Search(t, s.nxt, 3, False, (True, False, False), 0)
    with pytest.raises(ValueError, match="1 to 8 seats, 1 to all of them in a trick"):
        kernel.Search(t, s.nxt, 4, False, (True, False, False), 1)
    search.position(h, [0] * 3, [], s.to_move)
    with pytest.raises(ValueError, match="is not legal for the seat to move"):
        search.after(next(c for c in range(40) if not h[s.to_move] >> c & 1), 0, 1)


# -- scale-out: worker processes and Dask workers use it, with the results of one process ------------------
@built
def test_the_kernel_in_worker_processes_and_dask_workers():
    """`--jobs 2` (forked processes) and a Dask worker (a process of its own, spawned: it loads the module
    afresh) play pimcdd deals, with the double-dummy measure, as one process does."""
    from ombre_rules.sim.runner import run

    names = ["pimcdd:3", "greedy", "greedy"]
    here = list(run("ombre", {}, names, 5, 4, judged=4))
    assert all(x["double_dummy"] is not None for x in here if x["contract"])
    assert list(run("ombre", {}, names, 5, 4, jobs=2, judged=4)) == here
    assert list(run("ombre", {}, names, 5, 4, dask="local:1", judged=4)) == here
