"""The end of a session (`session.end_when`, `session.close`): when a session of deals is over, and the payments
made once it is (sharing out the pool, say). Both are compiled at load like the rest: `end_when` as one
condition, `close` as one generated function of payment steps (the forms of scoring steps, without `set:`)."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..envs import SESSION_END_FUNCS, SESSION_END_VARS
from ..lang import Site
from ..lang import types as T
from .compiled import SessionEnd
from .settlement import steps

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset

_END_SITE = Site("the session's end (session.end_when)", SESSION_END_VARS, SESSION_END_FUNCS, result=T.COND)
_SEATS_SITE = Site("a payment's seats at the session's end", SESSION_END_VARS, SESSION_END_FUNCS, result=T.SEATS)
_AMOUNT_SITE = Site("a payment's amount at the session's end", SESSION_END_VARS, SESSION_END_FUNCS, result=T.INT)
MAX_FACTOR = 10  # a session that ends by `end_when` stops at the latest after this many times `deals` deals
MAX_DEALS = 10_000  # and, without `deals`, after this many


def build_session_end(rs: Ruleset) -> None:
    """Read `session.end_when` and `session.close` into `rs.session_end` (None when the file has neither and
    no `session.deals`)."""
    decl = rs.spec.data.get("session") or {}
    deals = decl.get("deals")
    rs.session_end = None
    if deals is None and "end_when" not in decl and "close" not in decl:
        return
    end_when = close = None
    if "end_when" in decl:
        path = ("session", "end_when")
        block = rs.compiler.block("_session_end_when")
        block.where = rs.loc(path)
        code, loc, text = rs.code(path, _END_SITE)
        block.body = [block.mark(ast.Return(code), loc, text)]
        end_when = block.build(live=frozenset({"pool"}))
    if decl.get("close"):
        path = ("session", "close")
        block = rs.compiler.block("_session_close")
        block.where = rs.loc(path)
        block.body = steps(rs, path, {}, block, _SEATS_SITE, _AMOUNT_SITE, sets=False) or [ast.Pass()]
        close = block.build(live=frozenset({"pool"}))
    limit = MAX_FACTOR * int(deals) if deals is not None and end_when is not None else int(deals or MAX_DEALS)
    rs.session_end = SessionEnd(int(deals) if deals is not None else None, end_when, close, max(1, limit))

