"""The decisions after the contract: the defenders' (`defence`): whether they take place in a deal, whether the
last defender may invite those who passed, and whether an invited defender must play; and the declarer's
going alone (`alone`); each compiled into one record."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..envs import DEAL_FUNCS, DEAL_VARS
from ..errors import SpecError
from ..lang import Site
from ..lang import types as T
from .compiled import Alone, Defence

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


def build_alone(rs: Ruleset) -> None:
    """`rs.alone`: the record, or None when the variant has no `alone` key; it needs fixed partnerships."""
    data = rs.spec.data.get("alone")
    rs.alone = None
    if data is None:
        return
    if rs.spec.data.get("teams") is None:
        rs._errors.append(SpecError("alone sends the declarer's partners out, but the variant has no teams",
                                    rs.loc(("alone",))))
        return
    rs.alone = Alone(rs._expr(("alone", "when"), Site("alone.when", DEAL_VARS, DEAL_FUNCS, result=T.COND), True))
