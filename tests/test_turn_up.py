"""The card turned for a deal (`deal.turn_up`): where it comes from, that it is checked when a deal is given, that
it survives every form a deal is stored in, and that views, worlds and bots know where it lies."""
from __future__ import annotations

import pickle
import random

import pytest

from ombre_rules.bots.sample import Knowledge, sample
from ombre_rules.engine import State
from ombre_rules.engine.deal import second_pack_card, shuffled
from ombre_rules.engine.view import seat_facts, turn_up_place, visible_cards
from ombre_rules.errors import OmbreError
from ombre_rules.records import replay, to_record
from ombre_rules.ruleset import load

FILE = "tests/data/turn_up.yaml"


def rules(kind: str = "talon_top"):
    return load(FILE, {"turn": kind})


def test_talon_top_is_the_first_card_of_the_talon_and_public():
    r = rules()
    for seed in range(20):
        s = State(r, seed=seed, dealer=seed % 3)
        assert s.turn_up == s.talon[0] == s.deal_talon[0]
        assert turn_up_place(s) == (None, True)
        for seat in range(3):
            assert visible_cards(s, seat) >> s.turn_up & 1
            assert seat_facts(s, seat).seen >> s.turn_up & 1  # lying on the talon: in no hand


def test_dealer_last_is_the_last_card_dealt_to_the_dealer():
    r = rules("dealer_last")
    # Préférence deals 3 to each, 2 to the talon, 4 and 3 to each from forehand: the dealer's last card is the
    # last card dealt
    for dealer in range(3):
        order = shuffled(r.deck.size, 11)
        s = State(r, seed=11, dealer=dealer)
        assert s.turn_up == order[31]
        assert s.hands[dealer] >> s.turn_up & 1
        v = s.view((dealer + 1) % 3)
        assert v["turn_up"] == r.deck.name(s.turn_up) and v["turn_up_holder"] == dealer
        assert not v["turn_up_on_talon"]
        assert not seat_facts(s, (dealer + 1) % 3).seen >> s.turn_up & 1  # in the dealer's hand: still to come


def test_dealer_last_is_his_until_played():
    r = rules("dealer_last")
    rng = random.Random(3)
    for seed in range(30):
        s = State(r, seed=seed, dealer=seed % 3)
        while not s.is_terminal:
            holder, _ = turn_up_place(s)
            # in his hand, or laid away by him out of sight
            assert holder == (s.dealer if (s.hands[s.dealer] | s.discards[s.dealer]) >> s.turn_up & 1 else None)
            acts = s.legal_actions()
            s.apply(acts[int(rng.random() * len(acts))])


def test_second_pack_card_comes_from_the_seed_and_is_no_card_of_the_deal():
    r = rules("second_pack")
    s = State(r, seed=5)
    assert s.turn_up == second_pack_card(r.deck.size, 5) == State(r, seed=5, dealer=2).turn_up
    assert turn_up_place(s) == (None, False)
    others = [s2 for s2 in range(3) if not s.hands[s2] >> s.turn_up & 1]
    for seat in range(3):
        holds = s.hands[seat] >> s.turn_up & 1
        assert bool(visible_cards(s, seat) >> s.turn_up & 1) == bool(holds)  # its twin is an ordinary card
    assert others
    assert {second_pack_card(32, k) for k in range(200)} == set(range(32))


def test_trump_turn_up_plays_the_turned_suit():
    r = rules("dealer_last")
    hands = [r.deck.mask_of(h) for h in (["AC", "QC", "JC", "10C", "AS", "KS", "QS", "AD", "KD", "QD"],
                                          ["9C", "8C", "JS", "10S", "9S", "JD", "10D", "9D", "AH", "KH"],
                                          ["8S", "7S", "8D", "7D", "QH", "JH", "10H", "9H", "8H", "7H"])]
    talon = [r.deck.parse("KC"), r.deck.parse("7C")]
    s = State(r, dealer=1, hands=hands, talon=talon, turn_up=r.deck.parse("9D"))
    assert s.turn_up == r.deck.parse("9D")
    # seat 2, forehand, has no four diamonds; seat 0 has three: nobody may bid `turned`
    assert "bid turned" not in [r.action_str(a) for a in s.legal_actions()]
    # dealt the eight of hearts last, seat 2 (six hearts) may bid it, and plays hearts
    s = State(r, dealer=2, hands=hands, talon=talon, turn_up=r.deck.parse("8H"))
    for text in ("pass", "pass", "bid turned"):
        s.apply_str(text)
    assert s.contract.name == "turned" and s.trump.name == "hearts"


@pytest.mark.parametrize("kind, card, message", [
    ("dealer_last", None, "turns the dealer's last card for the deal: give the turned card with the hands"),
    ("dealer_last", "AS", "the turned card AS is not in the dealer's hand (seat 1)"),
    ("second_pack", None, "turns the card of the second pack for the deal: give the turned card with the hands"),
    ("talon_top", "7C", "the turned card 7C is not the talon's first, KC"),
])
def test_a_given_deal_must_name_its_turned_card(kind, card, message):
    r = rules(kind)
    d = r.deck
    hands = [d.mask_of(h.split()) for h in ("AC QC JC 10C AS KS QS AD KD QD", "9C 8C JS 10S 9S JD 10D 9D AH KH",
                                             "8S 7S 8D 7D QH JH 10H 9H 8H 7H")]
    with pytest.raises(OmbreError) as e:
        State(r, dealer=1, hands=hands, talon=[d.parse("KC"), d.parse("7C")],
              turn_up=d.parse(card) if card else None)
    assert message in e.value.message


def test_a_variant_without_a_turned_card_refuses_one():
    r = load("preference")
    s = State(r, seed=1)
    with pytest.raises(OmbreError, match="turns no card"):
        State(r, hands=list(s.deal_hands), talon=list(s.deal_talon), turn_up=0)


def test_given_hands_of_a_seeds_own_deal_take_its_turned_card():
    r = rules("dealer_last")
    s = State(r, seed=9, dealer=2)
    t = State(r, seed=9, dealer=2, hands=list(s.deal_hands), talon=list(s.deal_talon))
    assert t.turn_up == s.turn_up


@pytest.mark.parametrize("kind", ["talon_top", "dealer_last", "second_pack"])
def test_the_turned_card_survives_records_text_and_pickles(kind):
    r = rules(kind)
    rng = random.Random(1)
    for seed in range(6):
        s = State(r, seed=seed, dealer=seed % 3)
        s.random_playout(rng.random)
        rec = to_record(s)
        assert rec["deal"]["turn_up"] == r.deck.name(s.turn_up)
        replay(rec, r)
        unseeded = dict(rec, seed=None)
        replay(unseeded, r)
        if kind != "talon_top":
            bad = dict(unseeded, deal=dict(rec["deal"], turn_up=None))
            with pytest.raises(OmbreError, match="give the turned card"):
                replay(bad, r)
        u = State(r, dealer=s.dealer, hands=list(s.deal_hands), talon=list(s.deal_talon), turn_up=s.turn_up)
        for a in s.history:
            u.apply(a)
        text = u.to_text()
        assert "turn_up " + r.deck.name(s.turn_up) in text
        assert State.from_text(text, r).turn_up == s.turn_up
        assert pickle.loads(pickle.dumps(u)).turn_up == s.turn_up


@pytest.mark.parametrize("kind", ["talon_top", "dealer_last", "second_pack"])
def test_sampled_worlds_keep_the_turned_card_where_the_view_says(kind):
    r = rules(kind)
    rng = random.Random(4)
    checked = 0
    for seed in range(25):
        s = State(r, seed=seed, dealer=seed % 3)
        while not s.is_terminal:
            seat = s.current_player
            v = s.view(seat)
            k = Knowledge(r, v)
            w = sample(k, random.Random(seed))
            if w is not None:
                checked += 1
                assert w.turn_up == s.turn_up
                assert turn_up_place(w) == turn_up_place(s)
                assert w.view(seat, False)["turn_up_holder"] == v["turn_up_holder"]
            acts = s.legal_actions()
            s.apply(acts[int(rng.random() * len(acts))])
    assert checked > 100
