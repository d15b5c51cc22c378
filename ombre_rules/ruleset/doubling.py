"""Doubling and redoubling (`doubling`): who may double and when, whether the declarer may redouble, and the
multipliers that expressions read as `multiplier`; compiled into one record."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..envs import DEAL_FUNCS, DEAL_VARS
from ..lang import Site
from ..lang import types as T
from .compiled import Doubling

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset  # the part of a Ruleset a builder uses


def build_doubling(rs: Ruleset) -> None:
    """`rs.doubling`: the record, or None when the variant has no `doubling` key."""
    data = rs.spec.data.get("doubling")
    rs.doubling = None
    if not data:
        return
    p = ("doubling",)
    who = rs._expr(p + ("who",), Site("doubling.who", DEAL_VARS, DEAL_FUNCS, result=T.SEATS, unset=""), "defending")
    when = rs._expr(p + ("when",), Site("doubling.when", DEAL_VARS, DEAL_FUNCS, result=T.COND, unset=""), True)
    factors = data.get("factors", [2, 4])  # two of them: the schema says so
    rs.doubling = Doubling(who, when, bool(data.get("redouble", True)), (int(factors[0]), int(factors[1])))
