"""Tables: a session of deals among people and bots, kept in memory, stored as actions, shown seat by seat.

A person's seat is reached with its token (an unguessable link); the spectator token shows only what is public.
Every action is stored before it is announced, so a restart replays each table to where it was. A table is
brought back into memory when someone opens it and put away when nobody has watched or played at it for a
while; a table of bots only plays while someone watches it."""
from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
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
from .inbound import quoted
from .present import seat_view, table_facts
from .quota import Limits
from .storage import Store, TableRow

HUMAN = "human"
MAX_DEALS = 100
MAX_ACTION = 40  # characters of an action's text
MAX_BATCH = 40  # actions sent at once (an exchange's discards and its draw)
MAX_NAME = 24  # characters of a seat's name
MAX_TIMER = 600  # seconds a move may be given
log = logging.getLogger(__name__)
Send = Callable[[dict[str, Any]], Awaitable[None]]


def clean_name(text: str) -> str:
    """A seat's name as people typed it, without control characters, at most MAX_NAME characters."""
    kept = "".join(ch for ch in unicodedata.normalize("NFC", text) if unicodedata.category(ch)[0] not in "CZ"
                   or ch == " ")
    return " ".join(kept.split())[:MAX_NAME]


class Table:
    """One table: its stored row, the rules, the session and the deal in play, and who is watching."""

    def __init__(self, row: TableRow, entry: Entry, catalog: Catalog, settings: dict[str, Any]) -> None:
        self.row = row
        self.entry = entry
        self.rules = catalog.rules(entry, row.options)
        self.variant = catalog.display(entry, self.rules)
        self.session = Session(self.rules, seed=row.seed)
        self.state: State = self.session.new_deal()
        self.deal_no = 0
        self.sheet: list[dict[str, Any]] = []
        self.names: list[str] = list(settings.get("names") or [""] * len(row.seats))
        self.timer = int(settings.get("timer") or 0)
        self.rematch: str | None = settings.get("rematch")
        self.watchers: dict[Send, int | None] = {}  # a connection's send function -> its seat (None: spectator)
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.active = self.seen = self.turn_since = time.monotonic()

    # -- who is who ----------------------------------------------------------------------------------
    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens (None for the spectator token); a 403 for any other token."""
        if token and token.isascii() and len(token) <= 64:
            given = token.encode()
            for s, t in enumerate(self.row.tokens):
                if t is not None and secrets.compare_digest(t.encode(), given):
                    return s
            if secrets.compare_digest(self.row.spectator.encode(), given):
                return None
        raise WebError(403, "this link does not open a seat or the spectator view of this table")

    @property
    def bots_only(self) -> bool:
        return HUMAN not in self.row.seats

    def bot_to_move(self) -> bool:
        return not self.state.is_terminal and self.row.seats[self.state.current_player] != HUMAN

    @property
    def finished(self) -> bool:
        return self.state.is_terminal and self.deal_no + 1 >= self.row.deals

    @property
    def last(self) -> float:
        """When someone last played at the table or looked at it."""
        return max(self.active, self.seen)

    def watched(self, now: float, grace: float) -> bool:
        """Whether someone watches the table now or looked at it within `grace` seconds."""
        return bool(self.watchers) or now - self.seen < grace

    # -- changes (each stored first) -------------------------------------------------------------------
    def apply(self, seat: int, texts: list[str], store: Store | None) -> None:
        """Apply a seat's actions, all or none: a 409 if it is not the seat's turn, a 400 with the engine's
        reason if one is illegal (nothing is applied then)."""
        s = self.state
        if s.is_terminal:
            raise WebError(409, "the deal is over")
        if s.current_player != seat:
            raise WebError(409, f"it is seat {s.current_player}'s turn, not seat {seat}'s")
        rules = s.rules
        acts = []
        trial = s.clone() if len(texts) > 1 else None
        for text in texts:
            if len(text) > MAX_ACTION:
                raise WebError(400, f"no action is that long: {quoted(text)}")
            if trial is not None and (trial.is_terminal or trial.current_player != seat):
                raise WebError(409, f"{quoted(text)} comes after the seat's turn is over")
            try:
                a = rules.parse_action(text)
                if trial is not None:
                    trial.apply(a)
            except OmbreError as e:
                raise WebError(400, e.message) from None
            acts.append(a)
        for a in acts:
            try:
                s.apply(a)
            except OmbreError as e:  # one action alone, checked by apply before it changes anything
                raise WebError(400, e.message) from None
            if store is not None:
                store.add_action(self.row.id, self.deal_no, len(s.history) - 1, rules.action_str(a))
        self.active = self.turn_since = time.monotonic()
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
        self.active = self.turn_since = time.monotonic()

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
        here = {s for s in self.watchers.values() if s is not None}
        out = {"id": self.row.id, "variant": self.variant, "key": self.entry.key, "options": self.row.options,
               "title": self.rules.title, "seats": self.row.seats, "names": self.names,
               "here": [s in here for s in range(len(self.row.seats))], "deal": self.deal_no + 1,
               "deals": self.row.deals, "ledger": list(self.session.ledger), "pool": self.session.pool,
               "sheet": self.sheet, "session": self.session.carried, "finished": self.finished,
               "timer": self.timer, "turn_age": round(time.monotonic() - self.turn_since, 1),
               **table_facts(self.rules)}
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        state = seat_view(self.state, seat)
        state["variant"] = self.variant  # a file by its name, not the server's path
        return {"type": "view", "you": seat, "table": self.info(), "state": state}


class Tables:
    """Every table of the server, with the bots' worker pool and the store behind them."""

    def __init__(self, store: Store, catalog: Catalog, pool: BotPool, bot_delay: float = 0.0,
                 limits: Limits | None = None) -> None:
        self.store = store
        self.catalog = catalog
        self.pool = pool
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}

    def _restore(self, row: TableRow) -> Table:
        """A stored table rebuilt from its actions; a 410 for one whose variant no longer loads."""
        try:
            t = Table(row, self.catalog.get(row.source), self.catalog, self.store.settings(row.id))
            t.restore(self.store.actions(row.id))
        except (WebError, OmbreError) as e:
            self.broken[row.id] = getattr(e, "message", str(e))
            log.warning("table %s not restored: %s", row.id, self.broken[row.id])
            raise WebError(410, f"table '{row.id}' cannot be restored: {self.broken[row.id]}") from None
        self._make_room()
        self.tables[row.id] = t
        return t

    def _make_room(self) -> None:
        """Put away the tables idle longest until there is room for one more; a 503 if every table is busy."""
        if len(self.tables) < self.limits.live_tables:
            return
        now = time.monotonic()
        idle = sorted(now - t.last for t in self.tables.values() if not t.watchers and now - t.last > 60)
        if not idle:
            raise WebError(503, "the server is full: every table is in play, try again later")
        self.sweep(now, older_than=idle[-1])

    def sweep(self, now: float, older_than: float | None = None) -> list[str]:
        """Put away (out of memory, still stored) the tables nobody watched or played at for a while."""
        limit = self.limits.idle_seconds if older_than is None else older_than
        gone = [k for k, t in self.tables.items() if not t.watchers and now - t.last >= limit]
        for k in gone:
            t = self.tables.pop(k)
            if t.bot_task is not None and not t.bot_task.done():
                t.bot_task.cancel()
        return gone

    def create(self, key: str, options: dict[str, str], seats: list[str], deals: int, seed: int | None,
               client: str = "local", timer: int = 0, names: list[str] | None = None) -> Table:
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
        if not 0 <= timer <= MAX_TIMER:
            raise WebError(400, f"a move may be given 0 (no timer) to {MAX_TIMER} seconds, not {timer}")
        seed = secrets.randbits(31) if seed is None else seed
        if not 0 <= seed < 2 ** 63:
            raise WebError(400, f"bad seed {seed}")
        bots_only = HUMAN not in seats
        lim = self.limits
        lim.tables.check(client)
        if bots_only:
            lim.bot_tables.check(client)
            now = time.monotonic()
            running = sum(1 for t in self.tables.values() if t.bots_only and not t.finished
                          and t.watched(now, lim.unwatched_seconds))
            if running >= lim.running_bot_tables:
                raise WebError(503, f"{running} tables of bots only are playing now, the most this server "
                                    f"runs: try again later")
        self._make_room()
        shown = [clean_name(n) for n in (names or [])][:len(seats)]
        shown += [""] * (len(seats) - len(shown))
        if rules.seat_draw is not None:  # the kinds and names are the players', each placed at the seat he draws
            drawn = Session(rules, seed=seed)
            seats, shown = drawn.by_seat(seats), drawn.by_seat(shown)
        tokens = [secrets.token_hex(16) if k == HUMAN else None for k in seats]
        row = TableRow(secrets.token_hex(6), key, dict(options), list(seats), tokens, secrets.token_hex(16),
                       seed, deals)
        settings: dict[str, Any] = {"timer": timer, "names": shown}
        table = Table(row, entry, self.catalog, settings)
        self.store.add_table(row)
        for k, v in settings.items():
            self.store.set(row.id, k, v)
        lim.tables.take(client)
        if bots_only:
            lim.bot_tables.take(client)
        self.tables[row.id] = table
        return table

    def rematch(self, t: Table, client: str) -> Table:
        """A new session at the same table: same variant, options, seats, names and timer, a new seed; every
        seat's link to it is shown at the old table, each to its own seat."""
        if not t.finished:
            raise WebError(409, "the session is not over yet")
        if t.rematch:
            return self.get(t.rematch)
        new = self.create(t.row.source, t.row.options, t.row.seats, t.row.deals, None, client, t.timer, t.names)
        t.rematch = new.row.id
        self.store.set(t.row.id, "rematch", new.row.id)
        return new

    def links(self, t: Table) -> dict[str, Any]:
        """Every link of a table (for the one who made it)."""
        base = f"/table/{t.row.id}?t="
        return {"id": t.row.id, "variant": t.variant,
                "seats": [{"seat": s, "kind": k, "url": base + tok if tok else None}
                          for s, (k, tok) in enumerate(zip(t.row.seats, t.row.tokens, strict=True))],
                "player_seats": list(t.session.seats),  # each player's seat, in the order the kinds were given
                "spectator": base + t.row.spectator}

    def rematch_link(self, t: Table, seat: int | None) -> str | None:
        """The link of `seat`'s place (or the spectators') at the table's rematch, if there is one."""
        if not t.rematch:
            return None
        row = self.tables[t.rematch].row if t.rematch in self.tables else self.store.table(t.rematch)
        if row is None:
            return None
        if seat is not None and t.rules.seat_draw is not None:  # the one at `seat` is that player of the rematch,
            seat = self.get(t.rematch).session.seats[seat]  # who sits where he draws there
        tok = row.spectator if seat is None else row.tokens[seat]
        return f"/table/{row.id}?t={tok}" if tok else None

    def get(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if table_id in self.broken:
            raise WebError(410, f"table '{table_id}' cannot be restored: {self.broken[table_id]}")
        row = self.store.table(table_id) if len(table_id) <= 32 and table_id.isascii() else None
        if row is None:
            raise WebError(404, f"no table '{table_id[:40]}'")
        return self._restore(row)

    def view(self, t: Table, seat: int | None) -> dict[str, Any]:
        """A seat's view, as the page gets it, with the seat's link to a rematch; looking counts as watching."""
        t.seen = time.monotonic()
        v = t.view(seat)
        v["table"]["rematch"] = self.rematch_link(t, seat)
        return v

    def name(self, t: Table, seat: int, text: str) -> None:
        t.names[seat] = clean_name(text)
        self.store.set(t.row.id, "names", t.names)

    # -- playing -----------------------------------------------------------------------------------------
    async def act(self, t: Table, seat: int, texts: list[str]) -> None:
        if not 1 <= len(texts) <= MAX_BATCH:
            raise WebError(400, f"send 1 to {MAX_BATCH} actions at once, not {len(texts)}")
        async with t.lock:
            t.apply(seat, texts, self.store)
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
        views: dict[int | None, dict[str, Any]] = {}
        for send, seat in list(t.watchers.items()):
            if seat not in views:
                views[seat] = self.view(t, seat)
            try:
                await send(views[seat])
            except Exception:  # a closed connection: forget it
                t.watchers.pop(send, None)

    def _may_run(self, t: Table) -> bool:
        """A table of bots only plays on while someone watches it; one with people, when the bots' turn comes."""
        return not t.bots_only or t.watched(time.monotonic(), self.limits.unwatched_seconds)

    def kick(self, t: Table) -> None:
        if ((t.bot_to_move() or self._auto_next(t)) and self._may_run(t)
                and (t.bot_task is None or t.bot_task.done()) and self.tables.get(t.row.id) is t):
            t.bot_task = asyncio.create_task(self._bots(t))

    def _auto_next(self, t: Table) -> bool:
        """A table of bots only goes on to its next deal by itself."""
        return t.bots_only and t.state.is_terminal and not t.finished

    async def _bots(self, t: Table) -> None:
        while self._may_run(t):
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
                t.apply(seat, [s.rules.action_str(a)], self.store)
            await self.broadcast(t)

    async def watch(self, t: Table, send: Send, seat: int | None) -> None:
        t.watchers[send] = seat
        t.seen = time.monotonic()
        await self.broadcast(t)  # the others see who is here
        self.kick(t)

    async def unwatch(self, t: Table, send: Send) -> None:
        t.watchers.pop(send, None)
        t.seen = time.monotonic()
        await self.broadcast(t)

    async def janitor(self, every: float = 60.0) -> None:
        """Put away idle tables, now and then, for as long as the server runs."""
        while True:
            await asyncio.sleep(every)
            gone = self.sweep(time.monotonic())
            if gone:
                log.info("put away %d idle tables", len(gone))

    async def close(self) -> None:
        for t in self.tables.values():
            if t.bot_task is not None and not t.bot_task.done():
                t.bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t.bot_task
        self.pool.close()
