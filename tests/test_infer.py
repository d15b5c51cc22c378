"""Worlds weighed by the others' choices (`bots.infer.Inferred`): they agree with the view as plain worlds do,
they deal the other seats hands with which greedy players would have bid as those seats bid (far more often
than plain worlds), and the sampler's hook changes nothing when it keeps every world."""
import random

import pytest

from ombre_rules.bots.greedy import GreedyPolicy
from ombre_rules.bots.infer import CARD_MATCH, INFERRED, Inferred
from ombre_rules.bots.sample import Knowledge, sample
from ombre_rules.bots.seat import from_state
from ombre_rules.engine import State
from ombre_rules.engine.phases import PLAY
from ombre_rules.players import act, make_player
from ombre_rules.ruleset import load


def _first_cards(r, deals: int, seed: int = 0) -> list[State]:
    """The state at the first card of each of `deals` greedy deals played with a contract."""
    out = []
    i = 0
    while len(out) < deals:
        s = State(r, seed=seed + i, dealer=i % r.players)
        ps = [make_player("greedy", k, r) for k in range(r.players)]
        i += 1
        while not s.is_terminal and s.phase != PLAY:
            s.apply(act(ps[s.to_move], s, s.to_move))
        if s.phase == PLAY and s.declarer >= 0:
            out.append(s)
    return out


def _greedy_agrees(w: State, me: int) -> bool:
    """Whether greedy players with the world's cards make every open choice of the other seats (the bids, the
    trump) that the world's history records: the deal replayed from its start."""
    r = w.rules
    policy = GreedyPolicy(seed=0)
    x = State(r, dealer=w.dealer, pool=w.pool_before, hands=list(w.deal_hands), talon=list(w.deal_talon))
    for a in w.history:
        if x.phase == PLAY:
            break
        seat = x.to_move
        legal = x.legal_actions()
        if seat != me and x.phase in INFERRED and len(legal) > 1 and policy.choose(from_state(x, seat), legal) != a:
            return False
        x.apply(a)
    return True


def test_a_hook_that_keeps_every_world_changes_nothing():
    """`sample` with a check that keeps every world draws the very worlds it draws without one; a check that
    keeps none finds none once another seat has chosen in the open."""
    r = load("ombre")
    for s in _first_cards(r, 4):
        k = Knowledge(r, s.view(s.to_move))
        a = sample(k, random.Random(9))
        b = sample(k, random.Random(9), check=lambda w, seat, act: True)
        assert a is not None and b is not None
        assert (a.hands, a.talon, a.history) == (b.hands, b.talon, b.history)
        assert sample(k, random.Random(9), check=lambda w, seat, act: False) is None


@pytest.mark.parametrize("variant", ["ombre", "quadrille", "preference", "tresillo"])
def test_inferred_worlds_agree_with_the_view(variant):
    """At the first card of greedy deals, a world of the weighed sampler has the seat's public state, its own
    hand and the same legal actions, as a plain world has."""
    r = load(variant)
    rng = random.Random(4)
    inferred = Inferred(seed=1)
    for s in _first_cards(r, 5, seed=40):
        me = s.to_move
        w = inferred(Knowledge(r, s.view(me)), rng)
        assert w is not None
        assert (w.phase, w.to_move, w.trump, w.contract, w.declarer, w.hands[me], len(w.talon)) == \
            (s.phase, s.to_move, s.trump, s.contract, s.declarer, s.hands[me], len(s.talon))
        assert [h.bit_count() for h in w.hands] == [h.bit_count() for h in s.hands]
        assert w.legal_actions() == s.legal_actions()


def test_inferred_worlds_give_the_others_hands_they_would_have_bid_with():
    """Over 30 worlds at each of 8 first cards of greedy ombre deals (played by greedy players, so the real
    cards agree with greedy's model), the weighed worlds deal the other two seats cards with which greedy
    players make every bid and trump they made in 200 of 240 worlds, plain worlds in 148 (a seat that passed
    agrees with most hands; one that bid, with few)."""
    r = load("ombre")
    counts = {}
    for name, draw in (("plain", sample), ("inferred", Inferred(seed=2, slack=0.1))):
        rng = random.Random(5)
        agree = 0
        for s in _first_cards(r, 8, seed=70):
            me = s.to_move
            k = Knowledge(r, s.view(me))
            for _ in range(30):
                w = draw(k, rng)
                assert w is not None
                agree += _greedy_agrees(w, me)
        counts[name] = agree
    assert counts == {"plain": 148, "inferred": 200}


def test_a_view_no_weighed_world_fits_gets_a_plain_world():
    """With no attempt left (`tries` 0) the world is the plain sampler's, from the same draws; a slack outside
    [0, 1] is refused."""
    r = load("ombre")
    s = _first_cards(r, 1, seed=3)[0]
    k = Knowledge(r, s.view(s.to_move))
    inferred = Inferred(seed=0, tries=0)
    w = inferred(k, random.Random(6))
    p = sample(k, random.Random(6))
    assert w is not None and p is not None
    assert (w.hands, w.talon) == (p.hands, p.talon)
    assert inferred.plain == 1
    with pytest.raises(ValueError, match="slack"):
        Inferred(slack=1.5)


def test_pimcdd_weighs_its_worlds_in_deals_of_at_most_30_cards(monkeypatch):
    """`pimcdd`'s own worlds are weighed in Ombre (27 cards in the hands), plain in Quadrille (40), where weighing
    would make a decision dearer than a `pimc:500` one; a sampler given to it is used everywhere, and with
    `WEIGHED` off (`examples/duplicate.py --plain-worlds`) every world is plain."""
    from ombre_rules.bots import pimcdd
    from ombre_rules.bots.pimcdd import PimcddPlayer

    for variant, weighed in (("ombre", True), ("quadrille", False)):
        r = load(variant)
        s = _first_cards(r, 1, seed=12)[0]
        p = PimcddPlayer(1, r, worlds=2)
        assert p.act(s.view(s.to_move, True), s.legal_actions()) in s.legal_actions()
        assert isinstance(p.sampler, Inferred) == weighed and (p.sampler is sample) != weighed
        assert p._plain is sample
    mine = PimcddPlayer(1, load("ombre"), sampler=sample)
    assert mine.sampler is sample and mine._plain is sample
    monkeypatch.setattr(pimcdd, "WEIGHED", False)
    r = load("ombre")
    s = _first_cards(r, 1, seed=12)[0]
    p = PimcddPlayer(1, r, worlds=2)
    p.act(s.view(s.to_move, True), s.legal_actions())
    assert p.sampler is sample


def _mid_play(r, deals: int, seed: int, every: int = 4) -> list[State]:
    """States of greedy deals (played by greedy players) in the play, every `every` actions into it."""
    out = []
    for i in range(deals):
        s = State(r, seed=seed + i, dealer=i % r.players)
        ps = [make_player("greedy", k, r) for k in range(r.players)]
        n = 0
        while not s.is_terminal:
            if s.phase == PLAY and s.declarer >= 0:
                n += 1
                if n % every == 0 and len(s.legal_actions()) > 1:
                    out.append(s.clone())
            s.apply(act(ps[s.to_move], s, s.to_move))
    return out


def _card_likelihood(w: State, me: int) -> float:
    """The weight of the cards in world `w`, worked out again from the deal replayed from its start: each card
    another seat played with a choice is set against `GreedyPolicy.choose` for that seat."""
    r = w.rules
    policy = GreedyPolicy(seed=0)
    x = State(r, dealer=w.dealer, pool=w.pool_before, hands=list(w.deal_hands), talon=list(w.deal_talon))
    weight = 1.0
    for a in w.history:
        seat = x.to_move
        if x.phase == PLAY and seat != me and a < r.A_DISCARD and not x.trump_open:
            cards = [c for c in x.legal_actions() if c < r.A_DISCARD]
            if len(cards) > 1 and policy.choose(from_state(x, seat), cards) != a:
                weight *= (1 - CARD_MATCH) / ((len(cards) - 1) * CARD_MATCH)
        x.apply(a)
    return weight


@pytest.mark.parametrize("variant,ones,worlds", [("ombre", 24, 120), ("tresillo", 26, 120), ("preference", 37, 120)])
def test_a_weighed_world_carries_the_likelihood_of_the_cards_played(variant, ones, worlds):
    """In the play of greedy deals, `Inferred.weighed` gives the world `__call__` gives from the same draws, and
    its weight is the likelihood of the others' cards worked out again by replaying the world's deal: 1 when
    each card a seat chose is greedy's, times (1 - CARD_MATCH) / ((n - 1) CARD_MATCH) for each one of n legal
    cards that is not. Of `worlds` worlds, `ones` carry weight 1 (the real deal's own cards are greedy's)."""
    r = load(variant)
    inferred = Inferred(seed=3)
    got = []
    for s in _mid_play(r, 4, seed=20)[:12]:
        me = s.to_move
        k = Knowledge(r, s.view(me))
        for i in range(10):
            w, weight = inferred.weighed(k, random.Random(i))
            same = inferred(k, random.Random(i))
            assert same is not None and (w.hands, w.talon, w.history) == (same.hands, same.talon, same.history)
            assert weight == pytest.approx(_card_likelihood(w, me), rel=1e-12)
            got.append(weight)
    assert (sum(x == 1.0 for x in got), len(got)) == (ones, worlds)
    assert min(got) < 0.05


class _Weights:
    """A sampler whose worlds are the plain sampler's, with weights read off a list in turn."""

    def __init__(self, weights: list[float]) -> None:
        self.weights = weights
        self.i = 0

    def __call__(self, k, rng):
        return sample(k, rng)

    def weighed(self, k, rng):
        w = sample(k, rng)
        x = self.weights[self.i % len(self.weights)]
        self.i += 1
        return (w, x) if w is not None else None


def test_pimcdd_sums_its_cards_values_by_the_worlds_weights():
    """`pimcdd`'s card is the best by the weighed sum over its worlds: with 4 worlds weighed 1, 0, 0, 0 it plays
    the card it plays from the first world alone, and with weights 1, 1, 1, 1 the card of all 4 worlds; the
    two differ at 3 of these 40 positions of ombre's play (were the weights ignored, the first check would fail
    there)."""
    from ombre_rules.bots.pimcdd import PimcddPlayer

    r = load("ombre")
    differ = 0
    positions = [s for s in _mid_play(r, 12, seed=50, every=2)
                 if s.legal_actions()[-1] < r.A_DISCARD and len(s.legal_actions()) > 2][:40]
    assert len(positions) == 40
    for s in positions:
        me = s.to_move
        legal = s.legal_actions()
        got = {}
        for name, worlds, weights in (("first", 4, [1.0, 0.0, 0.0, 0.0]), ("alone", 1, [1.0]),
                                      ("all", 4, [1.0])):
            p = PimcddPlayer(7, r, worlds=worlds, sampler=_Weights(weights))
            got[name] = p._cards(Knowledge(r, s.view(me)), me, legal)
        assert got["first"] == got["alone"]
        differ += got["all"] != got["alone"]
    assert differ == 3
