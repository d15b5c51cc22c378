"""How `pimcdd` chooses its card from the summed double-dummy results of its worlds (`bots.pimcdd.best_card`):
the expected payment first, the value (tricks or card points) only between cards paid alike, greedy's card
among the best, else the cheapest."""
from ombre_rules.bots.pimcdd import best_card

POWER = {10: 3, 11: 1, 12: 2}


def test_the_payment_outweighs_the_tricks():
    # card 10 takes more tricks over the worlds, card 11 wins the contract in more of them
    worth = {10: 30.0, 11: 44.0, 12: 30.0}
    total = {10: 120, 11: 101, 12: 110}
    assert best_card([10, 11, 12], worth, total, True, 12, POWER) == 11
    # against the declarer's side: the least payment to it
    assert best_card([10, 11, 12], worth, total, False, 11, POWER) == 12


def test_between_cards_paid_alike_the_value_decides_then_greedy_then_the_cheapest():
    worth = {10: 44.0, 11: 44.0, 12: 44.0}
    assert best_card([10, 11, 12], worth, {10: 100, 11: 102, 12: 102}, True, 10, POWER) == 11
    assert best_card([10, 11, 12], worth, {10: 100, 11: 102, 12: 102}, True, 12, POWER) == 12
    assert best_card([10, 11, 12], worth, {10: 100, 11: 100, 12: 100}, False, 99, POWER) == 11
