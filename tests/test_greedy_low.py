"""greedy and the contracts its declarer wins by taking few tricks (nolos, an all-pass contrabola)."""
import pytest

from ombre_rules import State, load
from ombre_rules.bots.estimate import tricks_allowed
from ombre_rules.bots.greedy import GreedyPlayer, learnt
from ombre_rules.players import act


def test_the_aim_of_each_contract_is_learnt_from_the_rules():
    dk = load("danish-lhombre")
    assert {c.name: tricks_allowed(dk, c) for c in dk.contracts} == {
        "simple": None, "spade": None, "tourne": None, "simple_nolo": 0, "solo": None, "spade_solo": None,
        "pure_nolo": 0, "nolo_ouvert": 0, "grand_tourne": None}
    cb = load("ombre(all_pass=contrabola)")
    assert {c.name: tricks_allowed(cb, c) for c in cb.contracts} == {
        "entrada": None, "vuelta": None, "solo": None, "spadille_forced": None, "contrabola": 0}


def test_greedy_learnt_to_pass_the_all_pass_contrabola_and_plays_it_under():
    """Greedy made contrabola too seldom in its own deals (it asks half a trick more of a hand since), so it
    passes it even on a hand with no card that must take a trick; made to play it, its declarer ducks."""
    rules = load("ombre(all_pass=contrabola)")
    hands = {0: "5S 6S 5C 6C 7C 2H 3H 2D 3D", 1: "AS 2S QS KS KC QH KH QD KD", 2: "7S JS AC JC QC AH JH AD JD"}
    talon = "3S 4S 2C 3C 4C 4H 5H 6H 7H 4D 5D 6D 7D".split()
    deck = rules.deck
    s = State(rules, hands=[deck.mask_of(hands[k].split()) for k in range(3)],
              talon=[deck.parse(c) for c in talon], dealer=0)
    for text in ("pass", "pass", "pass"):
        s.apply_str(text)
    players = [GreedyPlayer(k, rules) for k in range(3)]
    said = []
    while s.contract is None and not s.is_terminal:
        seat = s.to_move
        a = act(players[seat], s, seat)
        said.append((seat, rules.action_str(a)))
        s.apply(a)
    assert said == [(1, "pass"), (2, "pass"), (0, "pass")] and s.result.contract is None
    got = learnt(rules)
    assert {rules.contracts[k].name: x for k, x in got.extra.items()} == {"contrabola": 0.5}
    assert (got.before[0]["contrabola"], got.before[1]["contrabola"]) == (8, 0)  # bid 8 times, never made
    s = State(rules, hands=[deck.mask_of(hands[k].split()) for k in range(3)],
              talon=[deck.parse(c) for c in talon], dealer=0)
    for text in ("pass", "pass", "pass", "pass", "pass", "bid contrabola"):
        s.apply_str(text)
    assert (s.declarer, s.contract.name) == (0, "contrabola")
    # play on: the declarer follows with his highest card that does not take the trick, when he has one
    checked = 0
    while not s.is_terminal:
        seat = s.to_move
        a = act(players[seat], s, seat)
        if seat == 0 and s.trick and a < rules.A_DISCARD:
            row = s.ctx.key[s.ctx.eff[s.trick[0]]]
            top = max(row[c] for c in s.trick)
            under = [c for c in s.legal_actions() if row[c] < top]
            if under:
                assert a == max(under, key=lambda c: s.ctx.power[c])
                checked += 1
        s.apply(a)
    # he never had to win a trick, so he followed to all nine and won the contrabola
    assert checked == 9 and s.result.tricks[0] == 0 and s.result.outcome == "sacada"


def test_prepare_learns_every_aim_before_the_first_deal(monkeypatch):
    from ombre_rules.errors import OmbreError
    from ombre_rules.players import prepare
    from ombre_rules.sim.runner import play_deal
    from ombre_rules.solve import aim

    monkeypatch.setattr(aim, "_AIMS", {})
    dk = load("danish-lhombre")
    prepare(["random", "greedy", "pimc:10"], dk)
    assert {c.name: aim._AIMS[(id(c), "tricks")][1].word for c in dk.contracts} == {
        "simple": "more", "spade": "more", "tourne": "more", "simple_nolo": "fewer", "solo": "more",
        "spade_solo": "more", "pure_nolo": "fewer", "nolo_ouvert": "fewer", "grand_tourne": "more"}
    learnt = []
    monkeypatch.setattr(aim, "_learn", lambda *a: learnt.append(a))
    assert [play_deal(dk, ["greedy"] * 3, 5, i)["actions"] > 0 for i in range(3)] == [True] * 3
    assert learnt == []  # the deals asked only for what was learnt
    with pytest.raises(OmbreError, match=r"^unknown player 'greedie' \(did you mean 'greedy'\?\)"):
        prepare(["greedy", "greedie"], dk)


def test_defenders_make_the_declarer_of_a_low_contract_take_a_trick():
    """Against betl (won by taking no trick) a defender leads where fewest unseen cards can go under its card,
    plays under the declarer when he is winning (his highest card that does, else his highest), sheds his
    highest card when the declarer has played and is beaten, and plays his lowest before the declarer; the
    declarer (seat 0) ducks."""
    from ombre_rules.bots.estimate import played_tables
    from ombre_rules.bots.greedy import low_card

    rules = load("preference")
    deck = rules.deck
    betl = next(c for c in rules.contracts if c.name == "betl")
    assert tricks_allowed(rules, betl) == 0
    t = played_tables(rules, betl, None)

    def played(seat, hand, trick=(), gone=""):
        cards = [deck.parse(c) for c in hand.split()]
        unseen = t.full & ~deck.mask_of(hand.split()) & ~deck.mask_of(gone.split())
        c = low_card(t, seat, 0, None, False, unseen, [(s, deck.parse(x)) for s, x in trick], cards)
        return deck.cards[c].name

    # leads: 8S has one unseen card under it (7S), 9D two, AH none over it; with 7D and 8D gone, 9D has none under
    assert played(1, "8S 9S 9D AH") == "8S"
    assert played(1, "8S 9S 9D AH", gone="7D 8D") == "9D"
    assert played(1, "AH 9D") == "9D"
    # the declarer has played and is winning: under him, else the highest
    assert played(1, "7S 9S JS AS", [(0, "10S")]) == "9S"
    assert played(1, "9S KS", [(0, "7S")]) == "KS"
    # the declarer has played and another defender is winning: the highest
    assert played(1, "7S 9S KS", [(0, "8S"), (2, "QS")]) == "KS"
    # the declarer still to play: the lowest of the suit led, else the highest card (which cannot win)
    assert played(1, "7S 9S KS", [(2, "8S")]) == "7S"
    assert played(1, "7H KD 9C", [(2, "8S")]) == "KD"
    # the declarer ducks: his highest card under the top one, or leads his lowest
    assert played(0, "7S 9S KS", [(1, "10S")]) == "9S"
    assert played(0, "8S AH") == "8S"
