"""greedy bids a contract played in the suit of the deal's turned card (`trump: turn_up`) on its hand in that
suit, not in the suit that would suit it best."""
from __future__ import annotations

from ombre_rules import State, load
from ombre_rules.bots.greedy import GreedyPlayer
from ombre_rules.players import act

# Euchre, W (seat 3) deals and turns the 9C up; N (seat 0) speaks first


def _first_call(hands: dict[int, str], talon: list[str]) -> str:
    rules = load("euchre")
    deck = rules.deck
    s = State(rules, hands=[deck.mask_of(hands[k].split()) for k in range(4)],
              talon=[deck.parse(c) for c in talon], dealer=3)
    return rules.action_str(act(GreedyPlayer(0, rules), s, 0))


def test_greedy_passes_a_turned_suit_it_lacks_however_strong_its_other_suits():
    # both red bowers: four tricks were hearts trumps, none in clubs
    hands = {0: "JH JD 10H 9H 9S", 1: "AS KS JS 10S KC", 2: "QC JC 10C AH KH", 3: "QH AD KD QD 9D"}
    assert _first_call(hands, ["9C", "AC", "10D", "QS"]) == "pass"


def test_greedy_orders_up_a_turned_suit_it_is_strong_in():
    hands = {0: "JC JS 10C QC 9H", 1: "AS KS 10S 9S AC", 2: "KC KH QH JH 10H", 3: "AD KD QD JD 9D"}
    assert _first_call(hands, ["9C", "AH", "10D", "QS"]) == "bid order"
