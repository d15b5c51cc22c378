"""The defenders' decisions after the contract (`defence`): whether they take place in a deal, whether the last
defender may invite those who passed, and whether an invited defender must play; compiled into one record."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..envs import DEAL_FUNCS, DEAL_VARS
from ..lang import Site
from ..lang import types as T
from .compiled import Defence

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset  # the part of a Ruleset a builder uses


def build_defence(rs: Ruleset) -> None:
    """`rs.defence`: the record, or None when the variant has no `defence` key."""
    data = rs.spec.data.get("defence")
    rs.defence = None
    if not data:
        return
    when = rs._expr(("defence", "when"), Site("defence.when", DEAL_VARS, DEAL_FUNCS, result=T.COND, unset=""), True)
    rs.defence = Defence(when, bool(data.get("invite", False)), bool(data.get("invited_must_accept", True)))
