"""`sit_out.stand_in`: the seat sitting a deal out may take over the hand of a seat it names (`seat`, an
expression of `dealer` and `seats`) once that seat has passed in the auction, by bidding higher on it; the two
seats then change places for the rest of the deal (engine/auction.py, `State.stand_for`)."""
from __future__ import annotations

from ..errors import SpecError
from ..lang import Site
from ..lang import types as T
from .base import RulesetBase
from .compiled import StandIn
from .deal import SeatsEnv, ring_of


def build_stand_in(rs: RulesetBase) -> None:
    """Compile `sit_out.stand_in`: exactly one seat sits out, and the seat named is a seat in play beside it
    (so the seat sitting out takes the named seat's place in the order of play)."""
    rs.stand_in = None
    so = rs.spec.data.get("sit_out") or {}
    si = so.get("stand_in")
    if si is None:
        return
    path = ("sit_out", "stand_in", "seat")
    e = rs._expr(path, Site("sit_out.who", frozenset({"dealer", "seats"}), frozenset(), names=False,
                            result=T.SEAT))
    if e is None or rs._errors:
        return
    n = rs.players
    if any(len(s) != 1 for s in rs.sitters):
        rs._errors.append(SpecError("sit_out.stand_in needs exactly one seat sitting out each deal (sit_out.who)",
                                    rs.loc(("sit_out", "stand_in"))))
        return
    named, rings, orders, outs = [], [], [], []
    for d in range(n):
        sitter = rs.sitters[d][0]
        try:
            v = e.fn(SeatsEnv(d, n))
        except Exception as ex:
            rs._errors.append(SpecError(f"expression '{e.text}' failed for dealer {d}: {ex}", e.loc))
            return
        if type(v) is not int or not 0 <= v < n or v == sitter or (v - sitter) % n not in (1, n - 1):
            rs._errors.append(SpecError(f"expression '{e.text}' gives {v!r} for dealer {d}: not a seat beside the "
                                        f"seat sitting out ({sitter}) that plays", e.loc))
            return
        ring, order = ring_of(n, {v})
        named.append(v)
        rings.append(ring)
        orders.append(order)
        outs.append((v,))
    rs.stand_in = StandIn(bool(si.get("sees", True)), tuple(s[0] for s in rs.sitters), tuple(named), tuple(outs),
                          tuple(rings), tuple(orders))
