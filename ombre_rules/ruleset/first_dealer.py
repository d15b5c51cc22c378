"""The draw for the first dealer of a session (`session.first_dealer`): which drawn card is best, compiled at load
into one comparable key per card."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import SpecError
from .compiled import FirstDraw

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset


def build_first_dealer(rs: Ruleset, plain: Callable[[], list[int]]) -> None:
    """Read `session.first_dealer` into `rs.first_draw` (None without one). A suit order by `number` needs a
    whole number on every suit; ranks follow the plain order of the variant's `ranking`, high to low (`plain`
    gives each card's power without trumps, or raises a SpecError)."""
    rs.first_draw = None
    decl = (rs.spec.data.get("session") or {}).get("first_dealer")
    if decl is None:
        return
    deck = rs.deck
    by = tuple(decl.get("by") or ["rank"])
    suit_rank = list(range(len(deck.suits)))  # low to high: as listed
    if decl.get("suit_order", "listed") == "number":
        numbers = [su.number for su in deck.suits]
        bad = [su.name for su, v in zip(deck.suits, numbers, strict=True) if type(v) is not int]
        if bad:
            rs._errors.append(SpecError(f"session.first_dealer.suit_order is number, but suit '{bad[0]}' has no "
                                        f"whole number (deck.suits.{bad[0]}.number)",
                                        rs.loc(("session", "first_dealer", "suit_order"))))
            return
        if len(set(numbers)) != len(numbers):
            rs._errors.append(SpecError("session.first_dealer.suit_order is number, but two suits have the same "
                                        "number", rs.loc(("session", "first_dealer", "suit_order"))))
            return
        suit_rank = [sorted(numbers).index(v) for v in numbers]
    power = [0] * deck.size
    if "rank" in by:
        try:
            power = plain()  # the plain order without trumps: higher beats lower
        except SpecError as e:
            rs._errors.append(SpecError(f"session.first_dealer compares by rank, in the plain order without trumps, "
                                        f"but {e.message}", rs.loc(("session", "first_dealer", "draw"))))
            return
    sign = 1 if decl["draw"] == "highest" else -1
    keys = []
    for c in range(deck.size):
        parts = {"suit": suit_rank[deck.cards[c].suit.index], "rank": power[c]}
        keys.append(tuple(sign * parts[k] for k in by))
    rs.first_draw = FirstDraw(decl["draw"] == "highest", by, tuple(keys), decl.get("doc"))
