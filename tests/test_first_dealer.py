"""The draw for a session's first dealer (`session.first_dealer`): the cards drawn from a seed, ties drawn again,
the session's first dealer, and the draw in the first deal's view, record, replay, pickle and rulebook."""
from __future__ import annotations

import pickle

import pytest

from ombre_rules.book import rulebook
from ombre_rules.engine import State
from ombre_rules.engine.deal import draw_first_dealer, drawn_words
from ombre_rules.errors import OmbreError, SpecError, SpecErrors
from ombre_rules.records import ReplayError, replay, to_record
from ombre_rules.ruleset import load
from ombre_rules.session import Session

TIES = "tests/data/first_dealer.yaml"


def named(r, drawn):
    return [(s, r.deck.name(c)) for s, c in drawn]


@pytest.mark.parametrize("seed, dealer, drawn", [
    (0, 1, [(0, "7C"), (1, "7D"), (2, "JC")]),  # diamonds (3) over clubs (1), whatever the rank
    (3, 2, [(0, "10D"), (1, "8C"), (2, "7H")]),  # a heart seven beats a diamond ten
    (2, 1, [(0, "9C"), (1, "JD"), (2, "10C")]),
])
def test_preference_draws_suit_first_then_rank(seed, dealer, drawn):
    r = load("preference")
    got_dealer, got = draw_first_dealer(r, seed)
    assert (got_dealer, named(r, got)) == (dealer, drawn)


@pytest.mark.parametrize("seed, dealer, drawn", [
    (0, 0, [(0, "7H"), (1, "7S"), (2, "KS"), (0, "QS"), (1, "AH")]),  # two sevens tie: a queen beats an ace low
    (1, 0, [(0, "KH"), (1, "AS"), (2, "KS"), (0, "QS"), (2, "AH")]),  # the kings tie, seats 0 and 2 draw again
    (4, 2, [(0, "AH"), (1, "QH"), (2, "7S")]),
])
def test_seats_that_tie_draw_again(seed, dealer, drawn):
    r = load(TIES)
    got_dealer, got = draw_first_dealer(r, seed)
    assert (got_dealer, named(r, got)) == (dealer, drawn)


def test_a_session_starts_with_the_drawn_dealer_and_shows_the_draw_in_its_first_deal():
    r = load("preference")
    session = Session(r, seed=3)
    assert session.dealer == 2 and named(r, session.dealer_draw) == [(0, "10D"), (1, "8C"), (2, "7H")]
    first = session.new_deal()
    assert first.dealer == 2
    want = [{"seat": 0, "card": "10D"}, {"seat": 1, "card": "8C"}, {"seat": 2, "card": "7H"}]
    for seat in (0, 1, None):  # public: every seat and a spectator see it
        assert first.view(seat)["dealer_draw"] == want
    assert drawn_words(r, first.dealer_draw) == "seat 0 10D, seat 1 8C, seat 2 7H; seat 2 deals first"
    while not first.is_terminal:
        first.apply(first.legal_actions()[0])
    session.record(first)
    second = session.new_deal()
    assert second.dealer == 0 and second.dealer_draw == () and second.view(1)["dealer_draw"] == []
    assert Session(r, seed=3, dealer=1).dealer_draw == ()  # a dealer given: no draw
    assert Session(load("ombre"), seed=3).dealer == 0  # a variant without a draw: seat 0


def test_the_draw_is_in_the_record_and_checked_on_replay():
    r = load("preference")
    session = Session(r, seed=0)
    s = session.new_deal()
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    rec = to_record(s)
    assert rec["dealer"] == 1 and rec["draw"] == [{"seat": 0, "card": "7C"}, {"seat": 1, "card": "7D"},
                                                  {"seat": 2, "card": "JC"}]
    assert replay(rec, r).result == rec["result"]
    rec["draw"][2]["card"] = "JH"  # hearts now beat the diamond seven: seat 2 would deal
    with pytest.raises(ReplayError, match="bad deal: the draw for the first dealer makes seat 2 the dealer, not "
                                          "seat 1"):
        replay(rec, r)
    rec["draw"] = rec["draw"][:2]
    with pytest.raises(ReplayError, match="must go on with seats"):
        replay(rec, r)
    other = to_record(State(load("ombre"), seed=1))
    other["draw"] = [{"seat": 0, "card": "AS"}]
    with pytest.raises(ReplayError, match="record field 'draw': 'ombre' draws for no first dealer"):
        replay(other)


def test_clones_pickles_and_rewinds_keep_the_draw():
    r = load("preference")
    s = Session(r, seed=3).new_deal()
    s.apply(s.legal_actions()[0])
    assert s.clone().dealer_draw == s.dealer_draw
    back = pickle.loads(pickle.dumps(s))
    assert back.dealer_draw == s.dealer_draw and back.history == s.history
    with pytest.raises(OmbreError, match="makes seat 2 the dealer, not seat 0"):
        State(r, seed=1, dealer=0, dealer_draw=s.dealer_draw)


def test_a_suit_order_by_number_needs_numbers(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text("extends: ombre\nsession:\n  first_dealer: {draw: highest, by: [suit], "
                 "suit_order: number}\n")
    with pytest.raises((SpecError, SpecErrors)) as ei:
        load(str(f))
    assert str(ei.value) == (f"{f}:3:57: session.first_dealer.suit_order is number, but suit 'spades' has no "
                             f"whole number (deck.suits.spades.number)")


def test_the_rulebook_tells_the_draw():
    book = rulebook(load(TIES), examples=False)
    session = next(s for s in book.sections if s.key == "session")
    assert ("Before the first deal everyone draws a card; the lowest card deals first, compared by rank; those "
            "who tie draw again.") in [getattr(i, "text", "") for i in session.items]
