"""Each seat's pile of won cards, with the excuse card's exchange applied: worked out from the tricks, so the
play loop never has to move cards between piles. A `state` here is a State (or a solver's copy of one), typed
`Any`: expressions read piles through `envs`, below the engine, so this module imports nothing of the package."""
from __future__ import annotations

from typing import Any


def excuse_trick(state: Any) -> tuple[int, int, int] | None:
    """(trick number, owner, winner) of the trick the excuse card was played to, if it has been."""
    ex = state.rules.excuse
    if ex is None:
        return None
    for i, (leader, cards, w) in enumerate(state.trick_log):
        if ex.card in cards:
            return i, state.rules.seat_orders[leader][cards.index(ex.card)], w
    return None


def piles(state: Any) -> list[int]:
    """Card masks by seat: the tricks each seat won; the excuse goes back to its owner, who gives the trick's
    winner the lowest card of his pile that may compensate, at once or after the first trick that brings him
    one. A debt never paid lapses."""
    ex = state.rules.excuse
    if ex is None or not state.trick_log:
        return list(state.won)
    won = [0] * state.n
    last = state.play_hands[0].bit_count() - 1
    xbit = 1 << ex.card
    debt = None
    for i, (leader, cards, w) in enumerate(state.trick_log):
        m = 0
        for c in cards:
            m |= 1 << c
        won[w] |= m
        if m & xbit:
            owner = state.rules.seat_orders[leader][cards.index(ex.card)]
            if owner != w and not (ex.last_trick_lost and i == last):
                won[w] ^= xbit
                won[owner] |= xbit
                debt = (owner, w)
        if debt is not None:
            owner, to = debt
            pay = won[owner] & ex.compensation
            if pay:
                low = pay & -pay
                won[owner] ^= low
                won[to] |= low
                debt = None
    return won


def excuse_debt(state: Any) -> tuple[int, int, int] | None:
    """(owner, winner, card given or -1 while unpaid) of the excuse exchange so far; None without one."""
    at = excuse_trick(state)
    if at is None:
        return None
    i, owner, w = at
    ex = state.rules.excuse
    assert ex is not None  # the excuse card was played
    if ex.last_trick_lost and i == state.play_hands[0].bit_count() - 1:
        return None
    given = state.won[owner] & piles(state)[w] & ~state.won[w]
    return owner, w, given.bit_length() - 1 if given else -1
