"""A contract's lay-away by named seats (`lay_away.who`) and hands of unequal size: a seat whose hand is empty
stops playing. tests/data/short_hand.yaml: three players, five cards each; in `misere` the declarer alone lays
one card away, in `deep` two (tests/scenarios/mechanics/named_lay_away.yaml has the exact deals). Here: the
fast loops, the kernel and the public loop play alike; the views, bots' facts, the sampler, the encoding and the
adapters follow the seats that stopped; the solvers decline; the load errors."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_playout import _both_ways, _picked_agree, _random_start

from ombre_rules import State, kernel, load
from ombre_rules.bots.sample import Knowledge, sample
from ombre_rules.bots.seat import from_state, from_view
from ombre_rules.engine.view import seat_facts
from ombre_rules.errors import SpecError
from ombre_rules.obs import layout
from ombre_rules.solve.analysis import Analyst, deal_loss
from ombre_rules.solve.fast import KernelSolver
from ombre_rules.solve.search import Solver, Unsearchable

DATA = Path(__file__).parent / "data"
SHORT = str(DATA / "short_hand.yaml")
HANDS = {0: ["AS", "KS", "QC", "JH", "10H"], 1: ["QS", "JS", "10S", "AC", "10C"], 2: ["KC", "JC", "AH", "KH", "QH"]}


def _given(*actions: str) -> State:
    """The deal of the scenarios (dealer 2) after the actions."""
    rules = load(SHORT)
    s = State(rules, dealer=2, hands=[rules.deck.mask_of(HANDS[p]) for p in range(3)], talon=[])
    for a in actions:
        s.apply_str(a)
    return s


TO_TRICK_FOUR = ("pass", "bid misere", "pass", "discard 10C", "play AS", "play QS", "play KC", "play KS", "play JS",
                 "play JC", "play QC", "play AC", "play QH")


def _short_deals(n: int) -> list[State]:
    """Finished seeded deals of a misère (the auction random, the contract one of the two misères)."""
    rules = load(SHORT)
    out = []
    seed = 0
    while len(out) < n:
        s = State(rules, seed=seed, dealer=seed % 3)
        s.random_playout(random.Random(seed).random)
        if s.contract is not None and s.contract.lay_away is not None:
            out.append(s)
        seed += 1
    return out


def test_tricks_left_and_played_follow_the_longest_hand():
    s = _given(*TO_TRICK_FOUR)
    env = s.env()
    assert (env.tricks_played, env.tricks_left, [h.bit_count() for h in s.hands]) == (3, 2, [2, 1, 2])
    s.apply_str("play 10S")  # the declarer's last card, mid-trick
    assert (s.env().tricks_left, s.uneven) == (2, True)
    s.apply_str("play KH")
    s.apply_str("play JH")  # the declarer won the trick with his last card: he leaves the ring
    assert (s.env().tricks_played, s.env().tricks_left, s.to_move, s.tn, s.uneven) == (4, 1, 2, 2, False)
    assert s.nxt[2] == 0 and s.nxt[0] == 2 and s.nxt[1] == 2


def test_the_public_loop_random_playout_and_play_tricks_agree():
    rules = load(SHORT)
    outcomes = _both_ways(rules, 200, 5)
    assert outcomes == {"won": 101, "lost": 99}  # seeded: the same deals every run
    picked = sum(_picked_agree(_random_start(rules, 9000 + i, i, i % 23), i) for i in range(60))
    assert picked > 200


@pytest.mark.skipif(not kernel.BUILT, reason="the kernel is not built here")
def test_the_kernel_plays_the_same_deals():
    """Seeded deals played at random with the kernel on and off: the same actions, tricks (two-seat tricks
    included), piles, results and random numbers used."""
    rules = load(SHORT)
    two_seat = 0
    for seed in range(80):
        got = []
        for on in (True, False):
            with kernel.use(on):
                s = State(rules, seed=seed, dealer=seed % 3)
                rand = random.Random(seed).random
                s.random_playout(rand)
                got.append((s.history, s.trick_log, s.tricks, s.won, s.hands, s.result.to_dict(), rand()))
        assert got[0] == got[1], seed
        two_seat += sum(len(cards) == 2 for _l, cards, _w in s.trick_log)
    assert two_seat > 100


def test_every_reader_finds_the_seats_of_the_trick():
    """A seat's facts from its view, from the state and from a sampled world agree (the trick's seats, the seats
    playing to it, the tricks of the deal); the encoding puts each card under the seat that played it."""
    rules = load(SHORT)
    lay = layout(rules)
    rng = random.Random(1)
    checked = 0
    for s0 in _short_deals(12):
        s = State(rules, seed=s0.seed, dealer=s0.dealer)
        for a in s0.history:
            if s.phase_name == "play":
                for seat in range(3):
                    f = seat_facts(s, seat)
                    assert from_view(rules, s.view(seat, actions=False)) == f
                    g = from_state(s, seat)
                    assert (g.trick, g.active, g.tricks_total) == (f.trick, f.active, f.tricks_total)
                    assert f.tricks_total == 5
                    assert f.active == sum(h.bit_count() > len(s.trick_log) for h in s.play_hands)
                me = s.to_move
                v = s.view(me)
                w = sample(Knowledge(rules, v), rng)
                assert w is not None and w.view(me) == v
                assert [h.bit_count() for h in w.hands] == v["hand_sizes"]
                assert lay.encode(w, me) == lay.encode(s, me)
                checked += 1
            s.apply(a)
    assert checked > 100


def test_the_encoding_of_a_trick_without_the_declarer():
    """Each card of the tricks is encoded under the seat that played it: the fourth trick round all three, the
    fifth led by seat 2 (the declarer, who won the fourth, has no card) and answered by seat 0."""
    s = _given(*TO_TRICK_FOUR, "play 10S", "play KH", "play JH", "play AH")
    lay = layout(s.rules)
    at, c, n = lay.offset("trick_cards"), s.rules.deck.size, 3
    cells = set()
    for i in lay.sparse(s, 0)[0]:
        if at <= i < at + lay.max_tricks * n * c:
            t, rest = divmod(i - at, n * c)
            cells.add((t, *divmod(rest, c)))
    deck = s.rules.deck
    assert {(t, p, deck.name(x)) for t, p, x in cells if t >= 3} == {(3, 1, "10S"), (3, 2, "KH"), (3, 0, "JH"),
                                                                    (4, 2, "AH")}
    assert len(cells) == 13


def test_the_solvers_decline_hands_of_unequal_size():
    s = _given("pass", "bid misere", "pass", "discard AC")
    with pytest.raises(Unsearchable, match="hands of unequal size"):
        Solver(s, "tricks", -1)
    with pytest.raises(Unsearchable, match="hands of unequal size"):
        Analyst(s)
    assert KernelSolver.make(s, "tricks", -1) is None
    done = _short_deals(1)[0]
    assert deal_loss(done) is None
    # once the declarer's hand is empty the two others hold equal hands: a plain position again
    t = _given(*TO_TRICK_FOUR, "play 10S", "play KH", "play JH")
    assert Solver(t, "tricks", -1).so_far() == 2


@pytest.mark.parametrize(("old", "new", "message"), [
    ("lay_away: {who: declarer, count: 1,", 'lay_away: {who: "card(A, spades)", count: 1,',
     "37:22: lay_away.who must be a seat or a list of seats, not a card"),
    ("lay_away: {who: declarer, count: 1,", 'lay_away: {who: "tricks(declarer)", count: 1,',
     "37:22: lay_away.who must be a seat (0 to 2), and 'tricks(declarer)' may be 15"),
    ('lay_away: {who: "[declarer]", count: 2,', 'lay_away: {who: "[declarer]", count: "3 + 2",',
     "45:42: lay_away.count '3 + 2' is at least 5, and a hand has 5 cards: a seat would lay every card away and "
     "have none to play (at most 4)"),
])
def test_load_errors(tmp_path, old, new, message):
    text = Path(SHORT).read_text()
    assert old in text
    f = tmp_path / "v.yaml"
    f.write_text(text.replace(old, new))
    with pytest.raises(SpecError) as e:
        load(str(f))
    assert f"{f}:{message}" in str(e.value)


@pytest.mark.filterwarnings("ignore:Observation")  # api_test's general advice for dict observations
def test_the_adapters_play_deals_with_a_seat_out_of_cards():
    pyspiel = pytest.importorskip("pyspiel")
    pz = pytest.importorskip("pettingzoo.test")
    pytest.importorskip("ombre_rules.openspiel")  # registers the game
    from ombre_rules.pettingzoo import env

    game = pyspiel.load_game("ombre_rules", {"variant": SHORT})
    pyspiel.random_sim_test(game, num_sims=6, serialize=True, verbose=False)
    pz.api_test(env(variant=SHORT, render_mode="ansi"), num_cycles=300)


def test_players_keep_forehand_first_after_his_hand_ran_out():
    """Forehand (seat 0) declares and runs out of cards: the ring of play passes him over (the dealer's next is
    seat 1), and `players` still lists the seats from forehand on, for the settlement."""
    s = _given("bid misere", "pass", "pass", "discard 10H")
    while s.hands[0]:
        s.apply(s.legal_actions()[0])
    assert s.trick == [] and len(s.trick_log) == 4 and not s.is_terminal
    assert (s.nxt[2], s.nxt[1], s.env().players) == (1, 2, [0, 1, 2])
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    assert s.env().players == [0, 1, 2] and [len(c) for _l, c, _w in s.trick_log] == [3, 3, 3, 3, 2]


def test_the_log_names_the_seat_of_each_card():
    from ombre_rules.log import format_deal

    s = _given(*TO_TRICK_FOUR, "play 10S", "play KH", "play JH", "play AH", "play 10H")
    assert [line for line in format_deal(s) if line.startswith("  trick ")] == [
        "  trick 1: 0:AS 1:QS 2:KC -> seat 0", "  trick 2: 0:KS 1:JS 2:JC -> seat 0",
        "  trick 3: 0:QC 1:AC 2:QH -> seat 1", "  trick 4: 1:10S 2:KH 0:JH -> seat 1",
        "  trick 5: 2:AH 0:10H -> seat 2"]
