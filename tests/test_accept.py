"""A bid accepted in the auction (`auction.accept`): the acceptor becomes the bidder's partner (the side, the
defenders, the views), a higher bid ends the pair, the late seat and the unaccepted bidder's amendment, the load
errors at their place, and the bots: greedy accepts a bid its hand supports as the bidder's partner. Solo Whist's
proposal is its use (tests/scenarios/solo-whist/proposal.yaml holds the legal sets and payments)."""
from __future__ import annotations

import pytest
from housefiles import house, load_errors

from ombre_rules import State, load
from ombre_rules.envs import defenders, side_of
from ombre_rules.errors import IllegalActionError
from ombre_rules.players import act, make_player

# the deal of solo-whist.md sect. 9.1: Z (seat 3) deals and turns the 3H; A 0 is the eldest
HANDS = {0: "AS JS 8S 7S 6H 10D 7D 6D 5D 3D KC 9C 8C", 1: "9S 5S 3S 2S 10H 4H 2H 9D 8D AC JC 3C 2C",
         2: "KS QS AH QH 9H 7H 5H AD QD QC 10C 6C 4C", 3: "10S 6S 4S KH JH 8H 3H KD JD 4D 2D 7C 5C"}


def _deal(actions: str, options: str = "") -> State:
    r = load("solo-whist" + (f"({options})" if options else ""))
    d = r.deck
    s = State(r, dealer=3, hands=[d.mask_of(HANDS[p].split()) for p in range(4)], talon=[], turn_up=d.parse("3H"))
    for a in actions.split(","):
        s.apply(r.parse_action(a.strip()))
    return s


def test_the_acceptor_is_the_bidders_partner_wherever_he_sits():
    s = _deal("pass, bid proposal, pass, pass, accept")  # A (seat 0) accepts Y's (seat 1) proposal late
    assert (s.phase_name, s.declarer, s.partner, s.contract.name) == ("play", 1, 0, "proposal")
    assert side_of(s) == [1, 0] and defenders(s) == [2, 3]
    assert [s.view(seat)["partner"] for seat in (None, 0, 1, 2, 3)] == [0, 0, 0, 0, 0]
    assert s.env().side == [1, 0]


def test_an_overcall_ends_the_pair_and_its_members_speak_again():
    s = _deal("pass, bid proposal, accept")  # B (seat 2) accepts at once
    assert s.partner == 2 and s.to_move == 3 and s.view(3)["partner"] == 2
    s.apply(s.rules.parse_action("bid solo"))
    assert s.partner == -1 and s.view(0)["partner"] is None
    assert s.to_move == 1  # Y, the proposer, overcalled; then B
    s.apply(s.rules.parse_action("pass"))
    assert s.to_move == 2


def test_a_bid_nobody_accepts_is_never_played():
    s = _deal("pass, bid proposal, pass, pass, pass, pass")
    assert (s.phase_name, s.declarer, s.contract, list(s.result.payments)) == ("done", -1, None, [0, 0, 0, 0])
    s = _deal("pass, bid proposal, pass, pass, pass", "unaccepted=thrown_in")
    assert (s.phase_name, s.contract) == ("done", None)


def test_an_illegal_accept_changes_nothing():
    s = _deal("pass")
    before = s.to_text()
    with pytest.raises(IllegalActionError, match="accept"):
        s.apply(s.rules.A_ACCEPT)  # nothing to accept yet
    assert s.to_text() == before


def test_greedy_accepts_a_proposal_its_hand_supports():
    """Y (seat 1) proposes; B (seat 2) accepts with a hand greedy would propose with (three deals of these forty),
    and otherwise passes or calls higher."""
    r = load("solo-whist")
    got = []
    for seed in range(50, 90):
        s = State(r, seed=seed, dealer=3)
        s.apply(r.parse_action("pass"))
        s.apply(r.parse_action("bid proposal"))
        if r.action_str(act(make_player("greedy", 2, r), s, 2)) == "accept":
            got.append(seed)
    assert got == [56, 84, 86]


@pytest.mark.parametrize("auction, expected", [
    ("  form: duel\n  accept: {bids: [solo]}\n",
     ["5:18: a bid is accepted only in a rotation (auction.form: rotation)"]),
    ("  form: rotation\n  accept: {bids: [sol]}\n", ["5:19: unknown contract 'sol' (did you mean 'solo'?)"]),
    ("  form: rotation\n  accept: {bids: [general_misere]}\n",
     ["5:19: contract 'general_misere' is accepted but nobody bids it (it has no level)"]),
    ("  form: rotation\n  accept: {bids: [solo], late: trump}\n",
     ["5:32: unknown name 'trump' (did you mean 'true'?)"]),
])
def test_load_errors_at_their_place(tmp_path, auction, expected):
    path = house(tmp_path, "extends: solo-whist\nid: house-accept\nauction:\n" + auction)
    assert load_errors(path) == expected
