"""Announcements after the exchange (`announce`): the contracts the declarer may name instead of his own once
he has seen the talon and exchanged, and when; compiled into one record."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..envs import DEAL_FUNCS, DEAL_VARS
from ..errors import SpecError
from ..lang import Site
from ..lang import types as T
from .compiled import Announce

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset  # the part of a Ruleset a builder uses


def build_announce(rs: Ruleset) -> None:
    """`rs.announce`: the record, or None when the variant has no `announce` key."""
    data = rs.spec.data.get("announce")
    rs.announce = None
    if not data:
        return
    p = ("announce",)
    named = tuple(rs._contract_ref(c, p + ("contracts", i)) for i, c in enumerate(data.get("contracts") or []))
    for i, c in enumerate(named):
        if c is not None and c.trump_mode == "turned":
            rs._errors.append(SpecError(f"contract '{c.name}' turns its trump: it cannot be announced after the "
                                        f"exchange", rs.loc(p + ("contracts", i))))
    when = rs._expr(p + ("when",), Site("announce.when", DEAL_VARS | {"choice"}, DEAL_FUNCS, result=T.COND,
                                             types=(("choice", T.CONTRACT),), unset=""), True)
    rs.announce = Announce(tuple(c for c in named if c is not None), when)
