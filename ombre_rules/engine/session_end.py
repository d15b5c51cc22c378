"""The end of a session as the engine runs it: whether the session is over after a deal (`session.end_when`, or
`session.deals` deals) and the payments made once it is (`session.close`). Both see a `Closing`, which stands for
the session's last deal: its seats, the pool and carried values it left, the deals played and the ledger."""
from __future__ import annotations

from typing import Any, NamedTuple

from ..envs import SessionEnv
from ..errors import OmbreError
from ..lang.compiler import block_error


class Closing:
    """The session after its last deal, as its end sees it (the `_st` of the compiled end functions)."""

    __slots__ = ("rules", "ctx", "dealer", "nxt", "ring_play", "orders", "stand_for", "carry", "pool", "payments",
                 "deals_played", "ledger")

    def __init__(self, last: Any, deals_played: int, ledger: list[int]) -> None:
        self.rules = last.rules
        self.ctx = None
        self.dealer = last.dealer
        self.nxt = last.ring_play or last.nxt  # the ring as the deal's play began
        self.ring_play: tuple[int, ...] = ()
        self.orders = last.orders
        self.stand_for = last.stand_for  # the seats of the last deal: its sitter may have played (sit_out.stand_in)
        self.carry = last.carry_after  # `session.NAME` reads the values the last deal left
        self.pool = last.pool
        self.payments = [0] * last.rules.players
        self.deals_played = deals_played
        self.ledger = list(ledger)


class SessionClose(NamedTuple):
    """What the close of a session paid: each seat's net, and the pool before and after."""

    payments: tuple[int, ...]
    pool_before: int
    pool_after: int

    def to_dict(self) -> dict[str, Any]:
        return {"payments": list(self.payments), "pool_before": self.pool_before, "pool_after": self.pool_after}


def _run(fn: Any, closing: Closing) -> Any:
    try:
        return fn(SessionEnv(closing), closing)
    except OmbreError:
        raise
    except Exception as ex:
        raise block_error(fn, ex) from None


def session_over(last: Any, deals_played: int, ledger: list[int]) -> bool:
    """Whether a session is over once `last` is its `deals_played`-th deal (False when the variant does not say
    when a session ends)."""
    end = last.rules.session_end
    if end is None:
        return False
    closing = Closing(last, deals_played, ledger)
    n = deals_played
    if n >= end.limit:
        return True
    if end.end_when is not None:
        return bool(_run(end.end_when, closing))
    return end.deals is not None and n >= end.deals


def close_session(last: Any, deals_played: int, ledger: list[int]) -> SessionClose:
    """The payments of `session.close` after the session's last deal (none when the variant has no close)."""
    end = last.rules.session_end
    closing = Closing(last, deals_played, ledger)
    if end is not None and end.close is not None:
        _run(end.close, closing)
    return SessionClose(tuple(closing.payments), last.pool, closing.pool)
