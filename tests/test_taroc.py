"""Taroc l'Hombre: card points counted in threes, the pack, names and ids, and checks of the worked example
and other whole-deal scenarios recomputed from the piles they list."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from ombre_rules import State, load
from ombre_rules.lang.builtins import PURE

group_points = PURE["group_points"][0]
SCENARIOS = Path(__file__).parent / "scenarios" / "taroc-lhombre"


@pytest.fixture(scope="module")
def rules():
    return load("taroc-lhombre")


def _values(rules, names) -> list[int]:
    return [rules.deck.cards[rules.deck.parse(n)].points for n in names]


def test_pack_has_78_cards_22_tarocks_and_counts_78(rules):
    deck = rules.deck
    assert deck.size == 78
    assert [s.name for s in deck.suits] == ["tarocks", "hearts", "diamonds", "clubs", "spades"]
    assert sum(1 for c in deck.cards if c.suit.name == "tarocks") == 22
    values = [c.points for c in deck.cards]
    assert sum(values) == 130
    assert sum(v for v in values if v > 1) == 71 and sum(1 for v in values if v > 1) == 19
    assert group_points(values, 3, 2) == 78


def test_card_values(rules):
    assert _values(rules, ["XXI", "I", "Scus", "KH", "QD", "CC", "JS", "1H", "10S", "II", "XX"]) == \
        [5, 5, 5, 5, 4, 3, 2, 1, 1, 1, 1]


def test_card_names_parse_in_any_case(rules):
    deck = rules.deck
    assert deck.parse("scus") == deck.parse("Scus") == 21
    assert deck.parse("xxi") == 20 and deck.parse("kh") == 22


def test_ombre_card_ids_are_unchanged():
    deck = load("ombre").deck
    ranks = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
    for s, letter in enumerate("SCHD"):
        for r, rank in enumerate(ranks):
            assert deck.parse(rank + letter) == s * 10 + r


@pytest.mark.parametrize("names, value", [
    (["KH", "QS", "7D"], 8), (["XXI", "III", "5C"], 5), (["JC", "CD", "I"], 8), (["VI", "4H", "9S"], 1),
])
def test_worked_example_groups(rules, names, value):
    assert group_points(_values(rules, names), 3, 2) == value


def test_a_pile_counts_the_same_however_it_is_grouped(rules):
    rng = random.Random(7)
    deck = list(range(rules.deck.size))
    for _ in range(500):
        pile = rng.sample(deck, 3 * rng.randrange(1, 27))
        values = [rules.deck.cards[c].points for c in pile]
        whole = group_points(values, 3, 2)
        for _ in range(3):
            rng.shuffle(values)
            assert sum(sum(values[i:i + 3]) - 2 for i in range(0, len(values), 3)) == whole


def test_any_split_of_the_pack_counts_78_in_all(rules):
    """Piles of 3k+1 and 3k+2 cards (an excuse debt never paid): a last group of 1 or 2 counts less 1."""
    rng = random.Random(8)
    values = [c.points for c in rules.deck.cards]
    for _ in range(500):
        rng.shuffle(values)
        k = rng.randrange(79)
        assert group_points(values[:k], 3, 2) + group_points(values[k:], 3, 2) == 78


def test_incomplete_groups():
    assert group_points([5], 3, 2) == 4
    assert group_points([5, 4], 3, 2) == 8
    assert group_points([1, 1, 1, 1], 3, 2) == 1
    assert group_points([], 3, 2) == 0


def _scenarios(file: str) -> list[dict]:
    data = yaml.safe_load((SCENARIOS / file).read_text(encoding="utf-8"))
    return data["scenarios"]


@pytest.mark.parametrize("file", ["worked_example.yaml", "dealer_declarer.yaml", "excuse_deals.yaml"])
def test_listed_piles_give_the_card_points_and_payments(rules, file):
    """The points each side is said to have, recomputed from the listed piles and discards (a check of the
    scenario's numbers that does not use the engine's counting)."""
    rate = {"due": 1, "uno": 2, "solo": 6}
    for sc in _scenarios(file):
        exp = sc["expect"]
        decl = exp["declarer"]
        discards = exp.get("discards", {})
        mine = exp["pile"][decl] + discards.get(decl, [])
        theirs = [c for s in (0, 1, 2) if s != decl for c in exp["pile"][s] + discards.get(s, [])]
        if "discards" not in exp:  # the dealer's 3 cards laid away: everything not in a pile
            listed = set(mine) | set(theirs)
            theirs += [c.name for c in rules.deck.cards if c.name not in listed]
        assert len(mine) + len(theirs) == 78
        pts = group_points(_values(rules, mine), 3, 2)
        assert pts == exp["summary"]["card points, declarer"]
        assert group_points(_values(rules, theirs), 3, 2) == exp["summary"]["card points, defenders"]
        value = {"due": 20, "uno": 30, "solo": 60}[exp["contract"]]
        each = value + rate[exp["contract"]] * abs(pts - 39)
        if exp["outcome"] == "won":
            assert exp["payments"][decl] == 2 * each
        elif exp["outcome"] == "lost":
            assert exp["payments"][decl] == -2 * each
        assert sum(exp["payments"]) == 0


def test_play_shows_each_sides_card_points(capsys):
    from ombre_rules.cli import main

    assert main(["play", "taroc-lhombre", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "card points, declarer: 23\n" in out
    assert "card points, defenders: 55\n" in out
    assert "seat 1 (forehand) opens with tre" in out


def test_seeded_deal_gives_28_cards_to_the_dealer(rules):
    s = State(rules, seed=5, dealer=1)
    assert [h.bit_count() for h in s.hands] == [25, 28, 25]
    assert s.phase_name == "lay-away" and s.current_player == 1
