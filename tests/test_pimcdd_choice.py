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


class _Reach:
    """A stand-in for the kernel's search: each card's rest value, and `reached` counted from it."""

    def __init__(self, vals):
        self.vals = vals
        self.asked = []

    def reached(self, xs):
        self.asked.append(list(xs))
        return {c: sum(v >= x for x in xs) for c, v in self.vals.items()}


def test_banded_values_end_the_side_on_the_highest_step_each_card_reaches():
    from ombre_rules.bots.pimcdd import banded

    # Ombre's entrada: the payment steps at 4 and 5 tricks; the side has 2 and takes 1, 2, 3 or 6 more
    s = _Reach({10: 1, 11: 2, 12: 3, 13: 6})
    assert banded(s, (4, 5), 2, 1) == {10: 1, 11: 2, 12: 3, 13: 3}  # ends on 3 (below 4), 4, 5, 5
    assert s.asked == [[2, 3]]
    # a side that wants fewer (values are its tricks negated): steps at 1 and 2, none taken so far
    s = _Reach({10: 0, 11: -1, 12: -4})
    assert banded(s, (1, 2), 0, -1) == {10: 0, 11: -1, 12: -2}  # ends on 0, 1, 2 or more
    assert s.asked == [[-1, 0]]


def test_every_choice_but_a_card_is_made_with_greedy_play_outs():
    """A bid is `pimc`'s with 25N greedy play-outs in plain worlds, in Quadrille (hands of 40 cards) as in Ombre
    (27): the very bid a `pimc` player with that budget and generator makes."""
    from ombre_rules import State, load
    from ombre_rules.bots import PimcPlayer
    from ombre_rules.bots.pimcdd import PimcddPlayer
    from ombre_rules.bots.sample import sample

    for variant in ("quadrille", "ombre"):
        rules = load(variant)
        s = State(rules, seed=3)
        p = PimcddPlayer(1, rules, worlds=4)
        p.prepare(rules)
        legal = s.legal_actions()
        view = s.view(s.to_move, True)
        assert len(legal) > 1
        got = p.act(view, legal)
        twin = PimcddPlayer(1, rules, worlds=4)
        assert p._greedy is not None and p._greedy.rollouts == 100 and p._greedy.sampler is sample
        assert got == PimcPlayer(twin.rng.getrandbits(32), rules, 100).act(view, legal)


def test_a_deal_too_large_to_search_is_left_to_greedy_play_outs(monkeypatch):
    """A world's search that passes `WORLD_NODES` gives the decision to `pimc`'s play-outs, and so do the later
    decisions of deals with as many cards in the hands (a 52-card deal's first tricks)."""
    from ombre_rules import State, load
    from ombre_rules.bots import pimcdd
    from ombre_rules.engine.phases import PLAY
    from ombre_rules.players import act, make_player

    rules = load("ombre")
    greedy = [make_player("greedy", k, rules) for k in range(rules.players)]
    s = State(rules, seed=11)
    while s.phase != PLAY or s.to_move != s.declarer or len(s.legal_actions()) < 2:  # the declarer's card
        s.apply(act(greedy[s.to_move], s, s.to_move))
    legal = s.legal_actions()
    view = s.view(s.to_move, True)
    p = pimcdd.PimcddPlayer(1, rules, worlds=3)
    p.prepare(rules)
    assert p.act(view, legal) in legal and p._big == 0 and p._pimc is None  # searched
    monkeypatch.setattr(pimcdd, "WORLD_NODES", 5)
    p = pimcdd.PimcddPlayer(1, rules, worlds=3)
    p.prepare(rules)
    assert p.act(view, legal) in legal
    assert p._big == sum(h.bit_count() for h in s.hands) and p._pimc is not None and p._pimc.rollouts == 3 * len(legal)


def test_a_defender_paid_for_more_than_the_sides_amount_plays_by_greedy_play_outs():
    """In Ombre a codille pays the defender who took the most: the defenders' cards are `pimc`'s with 25N greedy
    play-outs (the very card a `pimc` player with that budget and generator picks), the declarer's double-dummy;
    in Quadrille, whose defenders are paid alike, every seat's cards are double-dummy."""
    from ombre_rules import State, load
    from ombre_rules.bots import PimcPlayer
    from ombre_rules.bots.pimcdd import PimcddPlayer
    from ombre_rules.engine.phases import PLAY
    from ombre_rules.players import act, make_player

    for variant, split in (("ombre", True), ("quadrille", False)):
        rules = load(variant)
        greedy = [make_player("greedy", k, rules) for k in range(rules.players)]
        roles = set()
        for seed in range(40):
            s = State(rules, seed=seed)
            while s.phase not in (PLAY,) and not s.is_terminal:
                s.apply(act(greedy[s.to_move], s, s.to_move))
            if s.is_terminal:
                continue
            while not s.is_terminal and len(s.legal_actions()) == 1:
                s.apply(s.legal_actions()[0])
            if s.is_terminal or s.phase != PLAY:
                continue
            legal = s.legal_actions()
            view = s.view(s.to_move, True)
            defends = s.to_move != s.declarer and view.get("partner") != s.to_move
            if defends in roles:
                continue
            roles.add(defends)
            p = PimcddPlayer(3, rules, worlds=2)
            got = p.act(view, legal)
            assert (p._greedy is not None) == (defends and split)
            if defends and split:
                twin = PimcddPlayer(3, rules, worlds=2)
                q = PimcPlayer(twin.rng.getrandbits(32), rules, 50)
                assert p._greedy.rollouts == 50 and got == q.act(view, legal)
            if len(roles) == 2:
                break
        assert roles == {True, False}
