"""auction.rank_by: bids ranked by a number of each contract when the variant loads, ties by level; suit bids
follow their contract; a bad expression gets its place and a precise message."""
from pathlib import Path

import pytest

from ombre_rules import SpecError, load

DATA = Path(__file__).parent / "data"


def _order(rules) -> list[tuple[str, int]]:
    return [(c.name, rules.bid_level(c, 0)) for c in rules.main_round]


def test_levels_renumbered_by_value_ties_by_level():
    rules = load(str(DATA / "rank_by.yaml"))
    assert [(c.name, c.level) for c in rules.main_round] == [
        ("tout", 1), ("tout_couleur", 2), ("grossfrage", 3), ("solo", 4), ("solo_couleur", 5), ("frage", 6),
        ("frage_couleur", 7)]


def test_suit_bids_move_with_their_contract(write):
    path = write(f"extends: {DATA / 'suit_ladder.yaml'}\nid: x\nauction:\n  rank_by: \"0 - contract.level\"\n")
    # solo, vuelta, then entrada's two suit bids (spades below hearts), which keep their order within it
    assert _order(load(path)) == [("solo", 5), ("vuelta", 10), ("entrada_spades", 16), ("entrada_hearts", 19)]


@pytest.mark.parametrize("expr, where, message", [
    ("contract.name", "4:12", "auction.rank_by must be a number, not a string"),
    ("hand(1)", "4:12", "'hand' cannot be used in auction.rank_by"),
])
def test_bad_rank_by_is_refused_at_its_place(write, expr, where, message):
    path = write(f"extends: german-solo\nid: x\nauction:\n  rank_by: {expr}\n")
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value).splitlines()[0] == f"{path}:{where}: {message}"


def test_rank_by_without_a_number_for_a_contract(write):
    path = write("extends: german-solo\nid: x\ncontracts:\n  frage: {attrs: {order: 3}}\n"
                 "auction:\n  rank_by: contract.order\n")
    with pytest.raises(SpecError) as ei:
        load(path)
    # refused by the compiler (issue 32): a contract attribute that some contracts lack may be none
    assert str(ei.value).splitlines()[0] == (
        f"{path}:6:12: 'contract.order' is none for contracts without 'order' (frage_couleur, grossfrage, solo, ...): "
        f"guard it with 'contract.order != none'")
