"""The bots' decisions pinned: whole deals played by greedy at every seat, and by a Monte-Carlo player at one
seat, give the action sequences recorded in `data/bot_decisions.json` (recorded before the bots were made
faster, so a speed-up that changes a decision fails here; the variants added after that were recorded when they
were added)."""
import json
from pathlib import Path

import pytest

from ombre_rules.sim.runner import _rules, play_deal

PINNED = json.loads((Path(__file__).parent / "data" / "bot_decisions.json").read_text())
VARIANTS = sorted(PINNED["greedy"])


def test_every_builtin_variant_is_pinned():
    from ombre_rules.sim.speed import builtin_variants

    assert VARIANTS == sorted(builtin_variants()) == sorted(PINNED["pimc"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_greedy_decisions(variant):
    """Deals 0-3 of a run with seed 5, greedy at every seat."""
    r = _rules(variant, {})
    got = [", ".join(play_deal(r, ["greedy"] * r.players, 5, i)["history"]) for i in range(4)]
    assert got == PINNED["greedy"][variant]


@pytest.mark.parametrize("variant", VARIANTS)
def test_pimc_decisions(variant):
    """Deals 0-1 of a run with seed 5, 12 play-outs a decision at seat i mod players, greedy elsewhere."""
    r = _rules(variant, {})
    got = []
    for i in range(2):
        names = ["greedy"] * r.players
        names[i % r.players] = "pimc:12"
        got.append(", ".join(play_deal(r, names, 5, i)["history"]))
    assert got == PINNED["pimc"][variant]


@pytest.mark.parametrize("variant", VARIANTS + ["quadrille(all_pass=redeal)", "ombre(all_pass=contrabola)"])
def test_seat_facts_are_what_the_view_shows(variant):
    """The masks greedy reads (`seat_facts`) are exactly what it would read from the seat's view, for every
    seat at every step of random deals: they show a seat nothing its view does not."""
    import random

    from ombre_rules.bots.seat import from_view
    from ombre_rules.engine import DONE, State
    from ombre_rules.engine.view import seat_facts
    from ombre_rules.ruleset import load

    r = load(variant)
    rng = random.Random(3)
    checked = 0
    for d in range(25):
        s = State(r, seed=rng.getrandbits(32), dealer=d % r.players)
        while True:
            for seat in range(r.players):
                assert seat_facts(s, seat) == from_view(r, s.view(seat, False)), (d, seat, s.history)
                checked += 1
            if s.phase == DONE:
                break
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 25 * r.players * 10


# options that change what a seat sees or whom it plays with in the play: a stock shown, a called partner, a
# sitter who may declare, defenders out of play
FAST_PLAY = VARIANTS + ["ombre(four_players=opposite_sits_out_with_takeover)",
                        "danish-lhombre(four_players=opposite_sits_out)", "taroc-lhombre(type=new)",
                        "ombre(leftover_stock=all)", "ombre(leftover_stock=last_exchanger)",
                        "danish-lhombre(leftover_talon_visible=true)"]


@pytest.mark.parametrize("variant", FAST_PLAY)
def test_greedy_tables_play_their_tricks_as_each_seat_would(variant, monkeypatch):
    """A table of greedy players plays its plain tricks in the engine's loop with `trick_picker`: at every card
    with a choice it names the card `GreedyPlayer.act` chooses from the seat's facts, and whole deals give the
    same result lines, decisions and choices counted, as the public loop."""
    from ombre_rules.bots.greedy import GreedyPlayer, trick_picker
    from ombre_rules.engine import DONE, PLAY, State
    from ombre_rules.engine.view import seat_facts
    from ombre_rules.ruleset import load
    from ombre_rules.sim.runner import deal_seed

    r = load(variant)
    player = GreedyPlayer(1, r)
    asked = i = 0
    while asked < 20 and i < 150:  # an excuse card still to come keeps its holder's game out of plain play
        i += 1
        s = State(r, seed=deal_seed(3, i), dealer=i % r.players)
        while s.phase != DONE:
            legal = s.legal_actions()
            f = seat_facts(s, s.to_move)
            a = player.act(f, legal)
            if s.phase == PLAY and len(legal) > 1 and max(legal) < r.A_DISCARD and not s.trump_open:
                played = 0
                for w in s.won:
                    played |= w
                for c in s.trick:
                    played |= 1 << c
                assert trick_picker(s)(s.to_move, legal, f.trick, played) == a
                asked += 1
            s.apply(a)
    assert asked >= 20
    fast = [play_deal(r, ["greedy"] * r.players, 11, i) for i in range(12)]
    monkeypatch.setattr(GreedyPlayer, "trick_picker", None)
    assert [play_deal(r, ["greedy"] * r.players, 11, i) for i in range(12)] == fast


# options that change the exchange or what a seat sees in it: the stock shown, a partner's draw, ceding
FAST_EXCHANGE = VARIANTS + ["ombre(leftover_stock=all)", "ombre(leftover_stock=last_exchanger)",
                            "danish-lhombre(leftover_talon_visible=true)", "taroc-lhombre(type=new)",
                            "ombre(four_players=opposite_sits_out_with_takeover)"]


# the variants whose greedy tables exchange cards with a choice (the others play without one, or lay cards away):
# in 40 deals Euchre's dealer discards for the turned card 36 times, Préférence's declarer 50 times, Swedish Vira's
# declarer 43 times, the others 259 times or more
EXCHANGING = {"danish-lhombre", "euchre", "ombre", "ombre-a-dos", "preference", "rocambor", "swedish-vira", "tresillo"}


@pytest.mark.parametrize("variant", FAST_EXCHANGE)
def test_greedy_tables_take_their_exchanges_as_each_seat_would(variant, monkeypatch):
    """A table of greedy players plays its exchanges with `exchange_picker` (`State.play_exchange`): at every
    choice of the exchange, given the cards the seat may discard and whether it may draw or cede as the legal
    list has them, it names the action `GreedyPlayer.act` chooses from the seat's facts; whole deals give the
    same result lines as without it."""
    from ombre_rules.bots.greedy import GreedyPlayer, exchange_picker
    from ombre_rules.engine import DONE, EXCHANGE, State
    from ombre_rules.engine.view import seat_facts
    from ombre_rules.ruleset import load
    from ombre_rules.sim.runner import deal_seed

    r = load(variant)
    nd = r.A_DISCARD
    player = GreedyPlayer(1, r)
    picked = 0
    for i in range(40):
        s = State(r, seed=deal_seed(4, i), dealer=i % r.players)
        pick = exchange_picker(s)
        while s.phase != DONE:
            legal = s.legal_actions()
            a = player.act(seat_facts(s, s.to_move), legal)
            if s.phase == EXCHANGE and len(legal) > 1:
                may = sum(1 << (x - nd) for x in legal if nd <= x < r.A_BID)
                got = pick(s.to_move, may, r.A_DRAW in legal, r.A_CEDE in legal)
                assert got == (a if a == r.A_DRAW else a - nd), (i, s.history)
                picked += 1
            s.apply(a)
    # greedy bids no contract with an exchange where none is listed
    assert (picked >= 30) == (variant.partition("(")[0] in EXCHANGING)
    fast = [play_deal(r, ["greedy"] * r.players, 12, i) for i in range(15)]
    monkeypatch.setattr(GreedyPlayer, "exchange_picker", None)
    assert [play_deal(r, ["greedy"] * r.players, 12, i) for i in range(15)] == fast
