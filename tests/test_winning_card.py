"""Play obligations that read the card winning the trick (`winning_card`): the rows built for each card that may
win, the row a trick answers as cards are played (the engine, the fast loops, the solver and the sampler read
it alike), the kernel's hand-back to Python, and Bête's over-trumping, its first use."""
from __future__ import annotations

import random

from ombre_rules import State, kernel, load
from ombre_rules.bots.sample import Knowledge
from ombre_rules.engine.phases import PLAY
from ombre_rules.ruleset.fields import reads_winner, row_after
from ombre_rules.solve.fast import runs_in_kernel, solver
from ombre_rules.solve.search import Solver

# the deal of tests/scenarios/bete/over_trumping.yaml: clubs trumps (the 10C turned), B (seat 1) plays and leads
HANDS = {0: "9C 7C 9H 8H 7H", 1: "AS 8S KH QH JD", 2: "JC 8C KD QD 9D"}
TALON = "10C KS QS JS 10S 9S 7S KC QC AC JH AH 10H AD 10D 8D 7D"


def _deal(options: str = "") -> State:
    r = load("bete" + (f"({options})" if options else ""))
    d = r.deck
    s = State(r, dealer=0, hands=[d.mask_of(HANDS[p].split()) for p in range(3)],
              talon=[d.parse(n) for n in TALON.split()])
    s.apply(r.parse_action("bid play"))
    assert s.phase == PLAY and s.to_move == 1
    return s


def _legal(s: State) -> list[str]:
    return [s.rules.action_str(a) for a in s.legal_actions()]


def test_rows_by_winning_card_and_the_row_a_trick_answers():
    s = _deal()
    d = s.rules.deck
    nc = d.size
    c = {n: d.parse(n) for n in ("8S", "8C", "9C", "JC", "KC", "QC")}
    rows = s.follow_rows
    assert reads_winner(s.rules.follow_lists[s.contract.follow_id])
    assert len(rows) == nc * (nc + 1)
    # the 8S led and the 8C winning: the third obligation (over-trump) allows the trumps above the 8C only
    third = rows[c["8S"] + nc * (c["8C"] + 1)][2]
    assert d.names(third[1]) == d.names(third[0]) == ["KC", "QC", "JC", "AC", "10C", "9C"]
    # the 8S led and winning: every trump beats it
    assert d.names(rows[c["8S"]][2][1]) == ["KC", "QC", "JC", "AC", "10C", "9C", "8C", "7C"]
    eff = s.ctx.eff
    assert row_after(c["8S"], c["8C"], nc, False, eff, True) == c["8S"] + nc * (c["8C"] + 1)
    assert row_after(c["8S"] + nc * (c["8C"] + 1), c["JC"], nc, False, eff, True) == c["8S"] + nc * (c["JC"] + 1)
    assert row_after(c["8S"], c["8C"], nc, False, eff, False) == c["8S"]
    # the highest of the suit led answered (follow_answers = highest), and winning
    assert row_after(c["8S"] + nc * (c["8C"] + 1), c["KC"], nc, True, eff, True) == c["8S"] + nc * (c["KC"] + 1)


def test_the_engine_answers_the_card_winning_the_trick():
    s = _deal()
    s.apply(s.rules.parse_action("play 8S"))
    assert _legal(s) == ["play JC", "play 8C"]
    s.apply(s.rules.parse_action("play 8C"))
    assert _legal(s) == ["play 9C"]
    t = _deal()
    for a in ("play 8S", "play JC"):
        t.apply(t.rules.parse_action(a))
    assert _legal(t) == ["play 9C", "play 7C"]


def test_the_kernel_hands_rules_reading_the_winning_card_back_to_python():
    s = _deal()
    assert kernel.tables(s.ctx, s.contract.follow_id) is None
    assert not runs_in_kernel(s) and isinstance(solver(s), Solver)
    # without over-trumping the kernel plays Bête (when it is built)
    t = _deal("must_trump=false")
    assert not reads_winner(t.rules.follow_lists[t.contract.follow_id])
    assert (kernel.tables(t.ctx, t.contract.follow_id) is not None) == kernel.BUILT


def test_random_play_is_the_same_with_the_kernel_on_and_off():
    """With the kernel on, Bête's tricks are played by the Python loop: the same deals as with it off."""
    r = load("bete")
    for seed in range(20):
        got = []
        for on in (True, False):
            with kernel.use(on):
                s = State(r, seed=seed)
                s.random_playout(random.Random(seed).random)
                got.append((s.history, s.tricks, s.trick_log, s.payments))
        assert got[0] == got[1]


def test_the_solver_values_an_over_trumping_ending():
    """B leads the 8S: C's 8C would be over-trumped by A's 9C, his JC not; the solver plays by the same rows."""
    s = _deal()
    s.apply(s.rules.parse_action("play 8S"))
    sv = Solver(s, "tricks", 1)
    want = {}
    for name in ("JC", "8C"):
        c = s.rules.deck.parse(name)
        t = s.clone()
        t.apply(c)
        want[name] = [t.rules.action_str(a) for a in t.legal_actions()]
        assert set(sv.root_cards()) == {s.rules.deck.parse(n) for n in ("JC", "8C")}
    assert want == {"JC": ["play 9C", "play 7C"], "8C": ["play 9C"]}
    t = s.clone()
    t.apply(s.rules.deck.parse("8C"))
    assert [t.rules.action_str(a) for a in Solver(t, "tricks", 1).root_cards()] == ["play 9C"]


def test_the_sampler_reads_the_winning_card_for_voids():
    """A plays the 7C under C's JC: he holds no spade and no trump above the JC (the KC and QC), the 9C he may."""
    s = _deal()
    for a in ("play 8S", "play JC", "play 7C"):
        s.apply(s.rules.parse_action(a))
    k = Knowledge(s.rules, s.view(1))
    assert s.rules.deck.names(k.voids[0]) == ["KS", "QS", "JS", "AS", "10S", "9S", "8S", "7S", "KC", "QC"]
