"""Games without an auction (`auction.form: none`) and `auction.auto_pass` in a rotation auction: the load
errors, and a first bidder left only pass. The legal sets, trick winners and payments are in
tests/scenarios/mechanics/no_auction.yaml and auto_pass.yaml."""
from pathlib import Path

import pytest

from ombre_rules.engine import State
from ombre_rules.errors import OmbreError
from ombre_rules.ruleset import load

DATA = Path(__file__).parent / "data"
HANDS = ["AS 2S 3S 4S 5S 6S 7S JS QS KS", "AC 2C 3C 4C 5C 6C 7C JC QC KC", "AH 2H 3H 4H 5H 6H 7H JH QH KH",
         "AD 2D 3D 4D 5D 6D 7D JD QD KD"]


def _house(tmp_path, base: str, body: str) -> str:
    f = tmp_path / "house.yaml"
    f.write_text(f"extends: {DATA / base}\n{body}\n")
    return str(f)


@pytest.mark.parametrize("body, message", [
    ("contracts: {vole: {level: 2}}", "contract 'vole' has a level, but nobody bids (auction.form: none)"),
    ("auction: {opening: {contract: game}}", "an opening bid needs an auction (auction.form: none)"),
    ("auction: {all_pass: {then: redeal, who: null, contract: null}}",
     "without an auction (auction.form: none) auction.all_pass must say who plays (then: force)"),
])
def test_load_errors(tmp_path, body, message):
    with pytest.raises(OmbreError) as e:
        load(_house(tmp_path, "no_auction.yaml", body))
    assert message in str(e.value)


def test_auto_pass_passes_for_the_first_bidders_left_only_pass(tmp_path):
    """Only the holder of spadille (seat 0) may bid at all: with the dealer at seat 0, forehand (seat 1) and the
    next two pass by themselves and seat 0 speaks first; when he passes too, all have passed."""
    r = load(_house(tmp_path, "teams.yaml", 'auction: {auto_pass: true}\ncontracts: {game: {bid_when: '
                                           '"spadille in hand(bidder)"}}'))
    s = State(r, dealer=0, hands=[r.deck.mask_of(h.split()) for h in HANDS], talon=[])
    assert (s.phase_name, s.current_player, s.passed, s.history) == ("auction", 0, [False, True, True, True], [])
    assert [r.action_str(a) for a in s.legal_actions()] == ["pass", "bid game", "bid vole"]
    s.apply(r.parse_action("pass"))
    assert s.result is not None and s.result.outcome == "all_pass"
