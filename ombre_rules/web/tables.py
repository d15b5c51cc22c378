"""Tables: a session of deals among people and bots, kept in memory, stored as actions, shown seat by seat.

A person's seat is reached with its token (an unguessable link); the spectator token shows only what is public.
Every action is stored before it is announced, so a restart replays each table to where it was."""
from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from ..engine import State
from ..engine.carry import as_json
from ..errors import OmbreError
from ..players import make_player
from ..records import to_record
from ..session import Session
from .bots import BotPool, Decision, check_budget
from .catalog import Catalog, Entry
from .errors import WebError
from .present import carried, contract_titles, seat_view, suits
from .storage import Store, TableRow

HUMAN = "human"
MAX_DEALS = 100
log = logging.getLogger(__name__)


class Table:
    """One table: its stored row, the rules, the session and the deal in play, and who is watching."""

    def __init__(self, row: TableRow, entry: Entry, catalog: Catalog) -> None:
        self.row = row
        self.entry = entry
        self.rules = catalog.rules(entry, row.options)
        self.variant = catalog.display(entry, self.rules)
        self.session = Session(self.rules, seed=row.seed)
        self.state: State = self.session.new_deal()
        self.deal_no = 0
        self.sheet: list[dict[str, Any]] = []
        self.watchers: dict[Any, int | None] = {}  # a connection's send function -> its seat (None: spectator)
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task | None = None

    # -- who is who ----------------------------------------------------------------------------------
    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens (None for the spectator token); a 403 for any other token."""
        if token:
            for s, t in enumerate(self.row.tokens):
                if t is not None and secrets.compare_digest(t, token):
                    return s
            if secrets.compare_digest(self.row.spectator, token):
                return None
        raise WebError(403, "this link does not open a seat or the spectator view of this table")

    def bot_to_move(self) -> bool:
        return not self.state.is_terminal and self.row.seats[self.state.current_player] != HUMAN

    @property
    def finished(self) -> bool:
        return self.state.is_terminal and self.deal_no + 1 >= self.row.deals

    # -- changes (each stored first) -------------------------------------------------------------------
    def apply(self, seat: int, text: str, store: Store | None) -> None:
        """Apply a seat's action; a 409 if it is not the seat's turn, a 400 with the engine's reason if illegal."""
        s = self.state
        if s.is_terminal:
            raise WebError(409, "the deal is over")
        if s.current_player != seat:
            raise WebError(409, f"it is seat {s.current_player}'s turn, not seat {seat}'s")
        try:
            a = s.rules.parse_action(str(text))
            s.apply(a)
        except OmbreError as e:
            raise WebError(400, e.message) from None
        if store is not None:
            store.add_action(self.row.id, self.deal_no, len(s.history) - 1, s.rules.action_str(a))
        if s.is_terminal:
            self._book(store)

    def _book(self, store: Store | None) -> None:
        s = self.state
        self.session.record(s)
        res = s.result
        assert res is not None  # booked when the deal is over
        self.sheet.append({"deal": self.deal_no + 1, "dealer": s.dealer, "declarer": res.declarer,
                           "contract": res.contract, "outcome": res.outcome, "payments": list(res.payments),
                           "pool": res.pool_after, "totals": list(self.session.ledger)})
        end = self.rules.session_end
        if self.finished and end is not None and end.close is not None:
            # the table's last deal: the variant's closing payments (session.close), a row of their own
            closed = self.session.close()
            self.sheet.append({"deal": self.deal_no + 1, "close": True, "dealer": s.dealer, "declarer": None,
                               "contract": None, "outcome": "session_close", "payments": list(closed.payments),
                               "pool": closed.pool_after, "totals": list(self.session.ledger)})
        if store is not None:
            store.finish_deal(self.row.id, self.deal_no, to_record(s))

    def next_deal(self) -> None:
        if not self.state.is_terminal:
            raise WebError(409, "the deal is still being played")
        if self.finished:
            raise WebError(409, f"the session is over ({self.row.deals} deals)")
        self.deal_no += 1
        self.state = self.session.new_deal()

    def restore(self, deals: list[list[str]]) -> None:
        """Replay the stored actions of every deal (after a restart)."""
        for i, acts in enumerate(deals):
            if i:
                self.next_deal()
            for text in acts:
                self.state.apply_str(text)
            if self.state.is_terminal:
                self._book(None)

    # -- what is shown ---------------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """What every seat and spectator may know about the table itself."""
        return {"id": self.row.id, "variant": self.variant, "key": self.entry.key, "title": self.rules.title,
                "seats": self.row.seats, "deal": self.deal_no + 1, "deals": self.row.deals,
                "ledger": list(self.session.ledger), "pool": self.session.pool, "sheet": self.sheet,
                "session": self.session.carried, "carry": carried(self.rules),
                "suits": suits(self.rules), "contracts": contract_titles(self.rules),
                "finished": self.finished}

    def view(self, seat: int | None) -> dict[str, Any]:
        state = seat_view(self.state, seat)
        state["variant"] = self.variant  # a file by its name, not the server's path
        return {"type": "view", "you": seat, "table": self.info(), "state": state}


class Tables:
    """Every table of the server, with the bots' worker pool and the store behind them."""

    def __init__(self, store: Store, catalog: Catalog, pool: BotPool, bot_delay: float = 0.0) -> None:
        self.store = store
        self.catalog = catalog
        self.pool = pool
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}

    def load_all(self) -> None:
        """Rebuild every stored table from its actions; a table whose variant no longer loads is set aside."""
        for row in self.store.tables():
            try:
                t = Table(row, self.catalog.get(row.source), self.catalog)
                t.restore(self.store.actions(row.id))
            except (WebError, OmbreError) as e:
                self.broken[row.id] = getattr(e, "message", str(e))
                log.warning("table %s not restored: %s", row.id, self.broken[row.id])
                continue
            self.tables[row.id] = t

    def create(self, key: str, options: dict[str, str], seats: list[str], deals: int, seed: int | None) -> Table:
        entry = self.catalog.get(key)
        rules = self.catalog.rules(entry, options)
        if len(seats) != rules.players:
            raise WebError(400, f"this variant has {rules.players} seats, not {len(seats)}")
        for kind in seats:
            if kind != HUMAN:
                try:
                    check_budget(kind)
                    make_player(kind, rules=rules)
                except (OmbreError, ValueError) as e:
                    raise WebError(400, str(e)) from None
        if not 1 <= deals <= MAX_DEALS:
            raise WebError(400, f"a session has 1 to {MAX_DEALS} deals, not {deals}")
        seed = secrets.randbits(31) if seed is None else seed
        if not 0 <= seed < 2 ** 63:
            raise WebError(400, f"bad seed {seed}")
        tokens = [secrets.token_hex(16) if k == HUMAN else None for k in seats]
        row = TableRow(secrets.token_hex(6), key, dict(options), list(seats), tokens, secrets.token_hex(16),
                       seed, deals)
        table = Table(row, entry, self.catalog)
        self.store.add_table(row)
        self.tables[row.id] = table
        return table

    def get(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            if table_id in self.broken:
                raise WebError(410, f"table '{table_id}' cannot be restored: {self.broken[table_id]}")
            raise WebError(404, f"no table '{table_id}'")
        return t

    # -- playing -----------------------------------------------------------------------------------------
    async def act(self, t: Table, seat: int, text: str) -> None:
        async with t.lock:
            t.apply(seat, text, self.store)
        await self.changed(t)

    async def next_deal(self, t: Table) -> None:
        async with t.lock:
            t.next_deal()
        await self.changed(t)

    async def changed(self, t: Table) -> None:
        """Tell every watcher, then let the bots move if it is their turn."""
        await self.broadcast(t)
        self.kick(t)

    async def broadcast(self, t: Table) -> None:
        views: dict[int | None, dict] = {}
        for send, seat in list(t.watchers.items()):
            if seat not in views:
                views[seat] = t.view(seat)
            try:
                await send(views[seat])
            except Exception:  # a closed connection: forget it
                t.watchers.pop(send, None)

    def kick(self, t: Table) -> None:
        if (t.bot_to_move() or self._auto_next(t)) and (t.bot_task is None or t.bot_task.done()):
            t.bot_task = asyncio.create_task(self._bots(t))

    def _auto_next(self, t: Table) -> bool:
        """A table of bots only goes on to its next deal by itself."""
        return HUMAN not in t.row.seats and t.state.is_terminal and not t.finished

    async def _bots(self, t: Table) -> None:
        while True:
            if self._auto_next(t):
                await asyncio.sleep(max(self.bot_delay, 0.5))
                await self.next_deal(t)
                continue
            if not t.bot_to_move():
                return
            s = t.state
            seat = s.current_player
            assert s.seed is not None  # a table deals from seeds
            d = Decision(t.entry.source, tuple(sorted(t.row.options.items())), s.seed, s.dealer, s.pool_before,
                         tuple(s.history), seat, t.row.seats[seat], t.row.seed * 1000 + len(s.history),
                         as_json(s.rules, s.carry))
            try:
                a, _ = await asyncio.gather(self.pool.decide(d), asyncio.sleep(self.bot_delay))
            except Exception as e:  # a broken worker: the table waits, the server goes on
                log.error("bot at table %s seat %s failed: %r", t.row.id, seat, e)
                return
            async with t.lock:
                if t.state is not s or len(s.history) != len(d.history):
                    continue
                t.apply(seat, s.rules.action_str(a), self.store)
            await self.broadcast(t)

    async def watch(self, t: Table, send: Callable, seat: int | None) -> None:
        t.watchers[send] = seat
        await send(t.view(seat))

    def unwatch(self, t: Table, send: Callable) -> None:
        t.watchers.pop(send, None)

    async def close(self) -> None:
        for t in self.tables.values():
            if t.bot_task is not None and not t.bot_task.done():
                t.bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t.bot_task
        self.pool.close()
