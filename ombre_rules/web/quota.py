"""How much one client (an address) and everyone together may start: tables, uploads, tables of bots only.

A shared server has no accounts, so the limits are per address and in all; a refusal says which limit and when
a client may try again (429), or that the server is full (503)."""
from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field

from .errors import WebError

HOUR = 3600.0


@dataclass(slots=True)
class Quota:
    """At most `per_client` starts by one client within `window` seconds, and `total` by everyone."""

    what: str
    per_client: int
    total: int
    window: float = HOUR
    _starts: dict[str, deque[float]] = field(default_factory=dict)
    _all: deque[float] = field(default_factory=deque)

    def _trim(self, q: deque[float], now: float) -> None:
        while q and q[0] <= now - self.window:
            q.popleft()

    def check(self, client: str, now: float | None = None) -> None:
        """A 429 (this client) or 503 (everyone) when one more start would pass a limit; nothing is counted."""
        now = time.monotonic() if now is None else now
        mine = self._starts.get(client)
        if mine is not None:
            self._trim(mine, now)
            if len(mine) >= self.per_client:
                minutes = math.ceil((mine[0] + self.window - now) / 60)
                raise WebError(429, f"too many {self.what} from your address: at most {self.per_client} an hour "
                                    f"(try again in {minutes} minute{'s' if minutes != 1 else ''})")
        self._trim(self._all, now)
        if len(self._all) >= self.total:
            raise WebError(503, f"the server has started {self.total} {self.what} this hour, its most: "
                                f"try again later")

    def take(self, client: str, now: float | None = None) -> None:
        """Count one start (after `check` passed and the start succeeded)."""
        now = time.monotonic() if now is None else now
        self._starts.setdefault(client, deque()).append(now)
        self._all.append(now)
        if len(self._starts) > 10 * self.total:  # forget the clients whose starts have all expired
            for k in [k for k, q in self._starts.items() if not q or q[-1] <= now - self.window]:
                del self._starts[k]


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits (the defaults suit a server shared by a few dozen people)."""

    tables: Quota = field(default_factory=lambda: Quota("tables", 30, 600))
    uploads: Quota = field(default_factory=lambda: Quota("uploads", 10, 100))
    bot_tables: Quota = field(default_factory=lambda: Quota("tables of bots only", 4, 40))
    stored_uploads: int = 500  # uploads kept in all
    live_tables: int = 400  # tables kept in memory (idle ones are put away first)
    running_bot_tables: int = 8  # tables of bots only playing at once
    idle_seconds: float = 1800.0  # a table nobody watched or played at for this long is put away
    unwatched_seconds: float = 60.0  # a table of bots only stops this long after its last watcher left


def client_of(scope_client: tuple[str, int] | None) -> str:
    """The address a request comes from (the quotas' key)."""
    return scope_client[0] if scope_client else "unknown"
