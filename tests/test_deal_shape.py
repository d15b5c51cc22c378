"""The deal's shape (`deal.packets` with packets to the talon between the seats' packets): which position of the
deck order goes where, the load errors, the rulebook's sentence and a record's replay."""
from __future__ import annotations

import pytest

from ombre_rules.book import rulebook
from ombre_rules.engine import State
from ombre_rules.engine.deal import shuffled
from ombre_rules.errors import SpecError, SpecErrors
from ombre_rules.records import ReplayError, replay, to_record
from ombre_rules.ruleset import load


def test_preference_deals_three_the_talon_four_three():
    """Préférence's default (rules/preference.md § 4): 3 to each from forehand, 2 to the talon, 4 to each, 3 to
    each. With seat 2 dealing, forehand is seat 0."""
    r = load("preference")
    _masks, hands, talon = r.deal(list(range(32)), 2)
    assert hands == [[0, 1, 2, 11, 12, 13, 14, 23, 24, 25], [3, 4, 5, 15, 16, 17, 18, 26, 27, 28],
                     [6, 7, 8, 19, 20, 21, 22, 29, 30, 31]]
    assert talon == [9, 10]


def test_preference_option_deals_the_talon_first():
    r = load("preference", {"deal_packets": "T-3-2-3-2"})
    _masks, hands, talon = r.deal(list(range(32)), 0)  # seat 1 is forehand
    assert talon == [0, 1]
    assert hands[1] == [2, 3, 4, 11, 12, 17, 18, 19, 26, 27]
    assert hands[0] == [8, 9, 10, 15, 16, 23, 24, 25, 30, 31]


def test_the_talon_keeps_its_cards_in_the_order_dealt():
    r = load("tests/data/talon_packets.yaml", {"shape": "split"})
    _masks, _hands, talon = r.deal(list(range(39, -1, -1)), 1)  # the deck order reversed
    assert talon == [30, 29, 28, 27, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert r.turn_up_at == [9, 9, 9]  # the talon's top card is the first card of its first packet


def test_a_seeded_preference_deal_replays_from_its_record(tmp_path):
    """A record's deal is checked against what its seed deals in the variant's shape."""
    r = load("preference")
    s = State(r, seed=12, dealer=1)
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    rec = to_record(s)
    report = replay(rec, r)
    assert report.actions == len(s.history) and report.result == rec["result"]
    order = shuffled(32, 12)
    assert rec["deal"]["talon"] == [r.deck.name(c) for c in order[9:11]]  # after the first round of packets
    # the talon dealt last (the shape before 3-T-4-3) is not this seed's deal
    old = tmp_path / "old.yaml"
    old.write_text("extends: preference\ndeal: {packets: [3, 4, 3], talon: 2}\n")
    masks, _hands, talon = load(str(old)).deal(order, 1)
    assert talon == order[30:]
    rec["deal"] = {"hands": [r.deck.names(m) for m in masks], "talon": [r.deck.name(c) for c in talon]}
    with pytest.raises(ReplayError, match="the deal differs from what seed 12 deals"):
        replay(rec, r)


def test_a_talon_that_does_not_add_up_is_refused_at_its_place(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text("extends: ombre\ndeal:\n  packets: [3, {talon: 2}, 3, 3]\n  talon: 4\n")
    with pytest.raises((SpecError, SpecErrors)) as ei:
        load(str(f))
    assert str(ei.value) == (f"{f}:4:10: the deal gives out 27 cards to the seats, 2 to the talon between them, "
                             f"and a talon of 4; the deck has 40")


@pytest.mark.parametrize("options, words", [
    ({}, "in packets of 3, 4 and 3, starting with forehand; after the first round 2 cards go face down to the "
         "talon."),
    ({"deal_packets": "T-3-2-3-2"}, "in packets of 3, 2, 3 and 2, starting with forehand; before the first round "
                                    "2 cards go face down to the talon."),
])
def test_the_rulebook_says_where_the_talon_is_dealt(options, words):
    book = rulebook(load("preference", options), examples=False)
    deal = next(s for s in book.sections if s.key == "deal")
    text = " ".join(getattr(i, "text", "") for i in deal.items)
    assert words in text
