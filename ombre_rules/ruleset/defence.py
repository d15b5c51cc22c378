"""The defenders' decisions after the contract (`defence`): whether they take place in a deal, whether the last
defender may invite those who passed, and whether an invited defender must play; compiled into one record."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..envs import DEAL_FUNCS, DEAL_VARS
from ..lang import Expr, Site
from ..lang import types as T

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset  # the part of a Ruleset a builder uses


@dataclass(frozen=True)
class Defence:
    """Each defender in turn plays (`follow`) or passes; the last may `invite` the passers; passers sit out."""

    when: Expr  # whether the defenders decide in this deal (evaluated once the contract and trumps are fixed)
    invite: bool  # the last defender to decide, when every earlier one passed, may invite them to play with him
    must_accept: bool  # an invited defender plays; otherwise he says accept or refuse


def build_defence(rs: Ruleset) -> None:
    """`rs.defence`: the record, or None when the variant has no `defence` key."""
    data = rs.spec.data.get("defence")
    rs.defence = None
    if not data:
        return
    when = rs._expr(("defence", "when"), Site("defence.when", DEAL_VARS, DEAL_FUNCS, result=T.COND, unset=""), True)
    rs.defence = Defence(when, bool(data.get("invite", False)), bool(data.get("invited_must_accept", True)))
