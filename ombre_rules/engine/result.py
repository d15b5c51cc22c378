"""How a deal ended (`Result`): what `State.result` gives, records and logs write, and the simulator counts."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from ..explain.account import Entry


class Result(NamedTuple):
    """How a deal ended: the outcome, tricks, and each seat's net payment (pool changes included)."""

    outcome: str
    declarer: int | None
    contract: str | None
    trump: str | None
    tricks: tuple[int, ...]
    payments: tuple[int, ...]
    pool_before: int
    pool_after: int
    account: Sequence[Entry] = ()  # the transfers, labelled (`explain.account.Account`), worked out when first read
    session_before: dict[str, Any] | None = None  # the values carried between deals, by name (None: none)
    session_after: dict[str, Any] | None = None  # and those left for the next deal

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON has it (records, logs, the web)."""
        out: dict[str, Any] = {"outcome": self.outcome, "declarer": self.declarer, "contract": self.contract,
                               "trump": self.trump, "tricks": list(self.tricks), "payments": list(self.payments),
                               "pool_before": self.pool_before, "pool_after": self.pool_after}
        if self.session_after is not None:
            out["session_before"] = self.session_before
            out["session_after"] = self.session_after
        return out
