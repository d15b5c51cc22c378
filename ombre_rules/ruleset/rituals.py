"""The rituals before a deal or a session: the draw for seats (`session.seats`: a card laid at each seat, and
whose card makes the first deal's forehand) and the cut after the shuffle (`deal.cut`: who cuts for each dealer,
the fewest cards in a packet), checked and compiled at load. `engine/rituals.py` draws and cuts."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import SpecError
from ..lang import Site
from ..lang import types as T
from .compiled import Cut, SeatDraw
from .deal import SeatsEnv

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset


def _forehand(rs: Ruleset, dealer: int) -> int:
    """The first seat after the dealer that takes part in his deal (as `forehand` reads it in a deal)."""
    order = rs.orders[dealer][dealer]
    return order[1] if order[0] == dealer else order[0]


def build_seat_draw(rs: Ruleset) -> None:
    """Read `session.seats` into `rs.seat_draw` (None without one): a card of the deck at each seat (the first
    `players` listed), and the first deal's dealer its `forehand` card fixes (no first-dealer draw beside it)."""
    rs.seat_draw = None
    session = rs.spec.data.get("session") or {}
    decl = session.get("seats")
    if decl is None:
        return
    at = ("session", "seats")
    names = decl["cards"]
    n = rs.players
    if len(names) < n:
        rs._errors.append(SpecError(f"session.seats lays {len(names)} cards, but the table has {n} seats",
                                    rs.loc(at + ("cards",))))
        return
    cards = []
    for i, name in enumerate(names[:n]):
        c = rs.deck.by_name.get(name)
        if c is None:
            rs._errors.append(SpecError(f"session.seats.cards: {name!r} is not a card of the deck",
                                        rs.loc(at + ("cards", i))))
            return
        cards.append(c)
    first_dealer = forehand = -1
    if "forehand" in decl:
        forehand = rs.deck.by_name.get(decl["forehand"], -1)
        if forehand not in cards:
            rs._errors.append(SpecError(f"session.seats.forehand: {decl['forehand']!r} is not one of the cards "
                                        f"laid at the seats ({', '.join(names[:n])})", rs.loc(at + ("forehand",))))
            return
        if "first_dealer" in session:
            rs._errors.append(SpecError("session.seats.forehand fixes the first dealer, so session.first_dealer "
                                        "cannot draw for him too", rs.loc(at + ("forehand",))))
            return
        seat = cards.index(forehand)
        first_dealer = next((d for d in range(n) if _forehand(rs, d) == seat), -1)
        if first_dealer < 0:
            rs._errors.append(SpecError(f"session.seats.forehand: seat {seat}, where {decl['forehand']} lies, is "
                                        f"forehand for no dealer (it always sits the deal out)",
                                        rs.loc(at + ("forehand",))))
            return
    rs.seat_draw = SeatDraw(tuple(cards), first_dealer, forehand, decl.get("doc"))


def build_cut(rs: Ruleset) -> None:
    """Read `deal.cut` into `rs.cut` (None without one): the seat `who` names for every dealer, and the fewest
    cards in each packet, which the pack must hold twice."""
    rs.cut = None
    decl = rs.spec.data["deal"].get("cut")
    if decl is None:
        return
    at = ("deal", "cut")
    n = rs.players
    least = int(decl.get("min", 1))
    if 2 * least > rs.deck.size:
        rs._errors.append(SpecError(f"deal.cut.min is {least}, but a pack of {rs.deck.size} cards cannot be cut "
                                    f"into two packets of {least} or more", rs.loc(at + ("min",))))
        return
    e = rs._expr(at + ("who",), Site("deal.cut.who", frozenset({"dealer", "seats"}), frozenset(), names=False,
                                     result=T.SEAT))
    if e is None:
        return
    who = []
    for d in range(n):
        try:
            v = e.fn(SeatsEnv(d, n))
        except Exception as ex:
            rs._errors.append(SpecError(f"expression '{e.text}' failed for dealer {d}: {ex}", e.loc))
            return
        if type(v) is not int or not 0 <= v < n:
            rs._errors.append(SpecError(f"expression '{e.text}' gives {v!r} for dealer {d}, not a seat from 0 to "
                                        f"{n - 1}", e.loc))
            return
        who.append(v)
    rs.cut = Cut(tuple(who), least, decl.get("doc"))
