"""Ombre's Court Gamester scoring (`scoring_model = pool_and_beasts`): the board kept as single and double stakes
and the counters before each player (session values) always adds up to the pool; the rulebook shows the stakes
as lists and the counters seat by seat (`by_seat`), which only a list may be."""
import pytest

from ombre_rules import SpecError, load
from ombre_rules.book import build
from ombre_rules.book.model import Table
from ombre_rules.players import RandomPlayer
from ombre_rules.session import Session


@pytest.mark.parametrize("options", [{}, {"fish": 12}, {"four_players": "dealer_sits_out"},
                                     {"four_players": "opposite_sits_out_with_takeover"}])
def test_the_board_always_holds_the_pool(options):
    rules = load("ombre", {"scoring_model": "pool_and_beasts", **options})
    players = [RandomPlayer(i) for i in range(rules.players)]
    session = Session(rules, seed=3)
    kinds = set()
    for _ in range(150):
        s = session.new_deal()
        while not s.is_terminal:
            s.apply(players[s.current_player].act(None, s.legal_actions()))
        session.record(s)
        board = session.carried or {}
        assert sum(board["single_stakes"]) + sum(board["double_stakes"]) + sum(board["counters"]) == session.pool
        kinds.add(s.result.outcome if s.result else "")
    assert {"sacada", "puesta", "codille"} <= kinds


def test_the_rulebook_shows_the_board():
    book = build(load("ombre(scoring_model=pool_and_beasts)"), examples=False)
    payments = next(s for s in book.sections if s.key == "payments")
    rows = [r for t in payments.items if isinstance(t, Table) for r in t.rows]
    assert any(r[0] == "Codille" and r[-1] == "single stakes: [10, 10, 10]" for r in rows)
    assert any(r[0] == "Puesta" and r[-1] == "single stakes: [10, 10]; double stakes: [20]" for r in rows)


def test_a_value_kept_by_seat_must_be_a_list(write, mini):
    path = write(f"extends: {mini}\nsession:\n  carry:\n    n: {{start: 0, by_seat: true}}\n")
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value) == f"{path}:4:28: session value 'n' is kept by seat, so it must be a list (not int)"
