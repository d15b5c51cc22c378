"""The ASGI application: pages, the JSON API, and a WebSocket per watcher that carries its seat's views."""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import OmbreError
from ..records import FORMAT
from ..ruleset import Ruleset
from .books import Books, failure_page, page_key
from .bots import BotPool
from .catalog import MAX_UPLOAD, Catalog, Entry
from .errors import WebError
from .inbound import JSON_TYPES, MAX_BODY, YAML_TYPES, Guard, field, parse_json, read_body, read_json, require_type
from .quota import Limits, client_of
from .replay import frames, record_rules
from .storage import Store
from .tables import Table, Tables

STATIC = str(resources.files("ombre_rules.web") / "static")
MAX_MESSAGE = 4000  # characters of an error message sent back
log = logging.getLogger(__name__)


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        return FileResponse(f"{STATIC}/{name}.html", media_type="text/html")
    return page


def _client(request: Request | WebSocket) -> str:
    return client_of(request.client)


class Api:
    """The request handlers, over one store, catalog, set of tables and rulebook cache."""

    def __init__(self, tables: Tables, books: Books) -> None:
        self.tables = tables
        self.catalog = tables.catalog
        self.books = books

    # -- variants ------------------------------------------------------------------------------------
    def summaries(self) -> list[dict[str, Any]]:
        return [self.catalog.summary(e) for e in self.catalog.entries()]

    async def variants(self, request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(self.summaries))

    def _rules(self, request: Request) -> tuple[Entry, dict[str, str], Ruleset]:
        entry = self.catalog.get(request.path_params["key"])
        opts = {k: v for k, v in request.query_params.items() if k != "against"}
        return entry, opts, self.catalog.rules(entry, opts)

    async def variant(self, request: Request) -> Response:
        summary = await run_in_threadpool(self.catalog.summary, self.catalog.get(request.path_params["key"]))
        if summary.get("errors"):  # a kept file that no longer loads: its errors, for the page to show
            return JSONResponse(summary)
        entry, _opts, rules = await run_in_threadpool(self._rules, request)
        deals = rules.session.get("deals")
        return JSONResponse({**self.catalog.summary(entry), "variant": self.catalog.display(entry, rules),
                             "seats": rules.players, "deals": deals if isinstance(deals, int) else None})

    async def _page_of(self, kind: str, parts: list[tuple[Entry, dict[str, str], Ruleset]]) -> Response:
        """A rulebook or diff, from the cache or made by the worker; a page saying why when it cannot be made
        (a 200, shown in the variant page's frame like the page would have been)."""
        ok, text = await self.books.page(kind, [r for _e, _o, r in parts],
                                         [(e.source, tuple(sorted(o.items()))) for e, o, _r in parts])
        for e, _o, _r in parts:
            text = self.catalog.clean(e, text)
        if not ok:
            title = "Rules" if kind == "book" else "Comparison"
            return HTMLResponse(failure_page(f"{title} of {parts[-1][0].name}", text), status_code=200)
        return HTMLResponse(text)

    async def rulebook(self, request: Request) -> Response:
        """The rulebook as a page of its own (the variant page shows it in a frame, with its own styles); a page
        saying why for a file that does not load."""
        try:
            part = await run_in_threadpool(self._rules, request)
        except WebError as e:
            if e.status != 400:
                raise
            return HTMLResponse(failure_page(f"Rules of {self.catalog.get(request.path_params['key']).name}",
                                             e.message))
        return await self._page_of("book", [part])

    async def diff(self, request: Request) -> Response:
        other_key = request.query_params.get("against")
        if not other_key:
            raise WebError(400, "say which variant to compare with: ?against=KEY")
        try:
            part = await run_in_threadpool(self._rules, request)
            other_entry = self.catalog.get(other_key)
            other = await run_in_threadpool(self.catalog.rules, other_entry, {})
        except WebError as e:
            if e.status != 400:
                raise
            return HTMLResponse(failure_page("Comparison", e.message))
        return await self._page_of("diff", [(other_entry, {}, other), part])

    async def upload(self, request: Request) -> Response:
        require_type(request, YAML_TYPES)
        quota = self.tables.limits.uploads
        client = _client(request)
        quota.check(client)
        data = await read_body(request, MAX_UPLOAD)
        entry, book = await run_in_threadpool(self.catalog.upload, request.query_params.get("name", "upload.yaml"),
                                              data)
        quota.take(client)
        if book is not None:
            rules = await run_in_threadpool(self.catalog.rules, entry, {})
            self.books.put(page_key("book", rules), book)
        return JSONResponse(self.catalog.summary(entry), status_code=201)

    # -- tables --------------------------------------------------------------------------------------
    async def create(self, request: Request) -> Response:
        data = await read_json(request)
        options = field(data, "options", dict, {}) or {}
        seats = field(data, "seats", list)
        names = field(data, "names", list, []) or []
        if not all(isinstance(x, str) for x in [*seats, *names, *options.values()]):
            raise WebError(400, "seats, names and option choices must be strings")
        deals = field(data, "deals", int, 1)
        t = await run_in_threadpool(self.tables.create, field(data, "variant", str), options, seats,
                                    1 if deals is None else deals, field(data, "seed", int, None),
                                    _client(request), field(data, "timer", int, 0) or 0, names)
        await self.tables.changed(t)
        return JSONResponse(self.tables.links(t), status_code=201)

    def _table(self, request: Request, token: str | None) -> tuple[Table, int | None]:
        t = self.tables.get(request.path_params["id"])
        return t, t.seat_of(token)

    async def _seat(self, request: Request, doing: str) -> tuple[Table, int, dict[str, Any]]:
        """The table and the seat a request's token opens, refusing the spectator (403)."""
        data = await read_json(request)
        t, seat = self._table(request, field(data, "token", str))
        if seat is None:
            raise WebError(403, f"a spectator may not {doing}")
        return t, seat, data

    async def view(self, request: Request) -> Response:
        t, seat = self._table(request, request.query_params.get("t"))
        self.tables.kick(t)
        return JSONResponse(self.tables.view(t, seat))

    async def act(self, request: Request) -> Response:
        t, seat, data = await self._seat(request, "act")
        many = field(data, "actions", list, None)
        texts = many if many is not None else [field(data, "action", str)]
        if not all(isinstance(x, str) for x in texts):
            raise WebError(400, "actions must be strings")
        await self.tables.act(t, seat, texts)
        return JSONResponse({"ok": True})

    async def next_deal(self, request: Request) -> Response:
        t, _seat, _data = await self._seat(request, "start a deal")
        await self.tables.next_deal(t)
        return JSONResponse({"ok": True, "deal": t.deal_no + 1})

    async def name(self, request: Request) -> Response:
        t, seat, data = await self._seat(request, "take a seat's name")
        self.tables.name(t, seat, field(data, "name", str))
        await self.tables.broadcast(t)
        return JSONResponse({"ok": True, "name": t.names[seat]})

    async def rematch(self, request: Request) -> Response:
        t, seat, _data = await self._seat(request, "start a new session")
        await run_in_threadpool(self.tables.rematch, t, _client(request))
        await self.tables.broadcast(t)
        return JSONResponse({"url": self.tables.rematch_link(t, seat)}, status_code=201)

    def _finished_record(self, request: Request) -> tuple[Table, dict[str, Any]]:
        t, _seat = self._table(request, request.query_params.get("t"))
        n = request.path_params["n"]
        rec = self.tables.store.record(t.row.id, n - 1) if 1 <= n <= t.row.deals else None
        if rec is None:
            raise WebError(404, f"deal {n if n < 10 ** 6 else 'number'} of table '{t.row.id}' is not finished")
        return t, rec

    async def record(self, request: Request) -> Response:
        """A finished deal's record; a file's variant is named by the file's name, so that `ombre replay` finds
        the file beside the record."""
        t, rec = self._finished_record(request)
        rec["variant"] = self.catalog.clean(t.entry, rec["variant"])
        name = f"{t.row.id}-deal{request.path_params['n']}.json"
        return Response(json.dumps(rec, indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def deal_replay(self, request: Request) -> Response:
        t, rec = self._finished_record(request)
        return JSONResponse(await run_in_threadpool(frames, t.rules, rec, t.variant))

    async def replay(self, request: Request) -> Response:
        require_type(request, JSON_TYPES)
        rec = parse_json(await read_body(request, MAX_BODY))
        if isinstance(rec, list) and len(rec) == 1:
            rec = rec[0]
        if not isinstance(rec, dict) or rec.get("format") != FORMAT:
            raise WebError(400, f"not an {FORMAT} record (one deal)")
        rules, variant = await run_in_threadpool(record_rules, self.catalog, rec)
        return JSONResponse(await run_in_threadpool(frames, rules, rec, variant))

    async def socket(self, ws: WebSocket) -> None:
        try:
            t = self.tables.get(ws.path_params["id"])
            seat = t.seat_of(ws.query_params.get("t"))
        except WebError:
            await ws.close(code=1008)
            return
        await ws.accept()
        send = ws.send_json
        await self.tables.watch(t, send, seat)
        try:
            while (await ws.receive())["type"] != "websocket.disconnect":
                pass  # the page only listens; anything it sends is ignored
        except WebSocketDisconnect:
            pass
        finally:
            await self.tables.unwatch(t, send)


async def _web_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, WebError)
    message = exc.message if len(exc.message) <= MAX_MESSAGE else exc.message[:MAX_MESSAGE] + " …"
    return JSONResponse({"error": message}, status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail or "bad request"}, status_code=exc.status_code)


async def _other_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, OmbreError):
        return JSONResponse({"error": str(exc)}, status_code=400)
    log.exception("internal error on %s", request.url.path)
    return JSONResponse({"error": "internal error"}, status_code=500)


def create_app(data: str, variants: str | None = None, workers: int = 2, processes: bool = True,
               bot_delay: float = 0.0, limits: Limits | None = None, warm: bool = False) -> Guard:
    """The web app over the database in `data` and the variant files in `variants` (behind the Guard that
    refuses cross-site requests and sets the security headers); `warm`: make the built-in variants' rulebooks
    not kept yet, in the background."""
    store = Store(data)
    limits = limits or Limits()
    tables = Tables(store, Catalog(store, variants, limits.stored_uploads), BotPool(workers, processes), bot_delay,
                    limits)
    books = Books(os.path.join(data, "rulebooks"), processes)
    api = Api(tables, books)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        summaries = loop.run_in_executor(None, api.summaries)  # the lobby's first answer
        background = [asyncio.create_task(tables.janitor())]
        if warm:
            background.append(asyncio.create_task(_warm(books, tables.catalog)))
        yield
        for task in background:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await summaries
        await tables.close()
        books.close()
        store.close()

    routes = [
        Route("/", _page("index")),
        Route("/variant/{key:path}", _page("variant")),
        Route("/table/{id}", _page("table")),
        Route("/replay", _page("replay")),
        Route("/api/variants", api.variants),
        Route("/api/variants/{key}", api.variant),
        Route("/api/variants/{key}/rulebook", api.rulebook),
        Route("/api/variants/{key}/diff", api.diff),
        Route("/api/uploads", api.upload, methods=["POST"]),
        Route("/api/tables", api.create, methods=["POST"]),
        Route("/api/tables/{id}", api.view),
        Route("/api/tables/{id}/act", api.act, methods=["POST"]),
        Route("/api/tables/{id}/next", api.next_deal, methods=["POST"]),
        Route("/api/tables/{id}/name", api.name, methods=["POST"]),
        Route("/api/tables/{id}/rematch", api.rematch, methods=["POST"]),
        Route("/api/tables/{id}/deals/{n:int}/record", api.record),
        Route("/api/tables/{id}/deals/{n:int}/replay", api.deal_replay),
        Route("/api/replay", api.replay, methods=["POST"]),
        WebSocketRoute("/ws/tables/{id}", api.socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        WebError: _web_error, HTTPException: _http_error,
        Exception: _other_error})
    app.state.tables = tables
    app.state.books = books
    return Guard(app)


async def _warm(books: Books, catalog: Catalog) -> None:
    """Make the rulebooks of the built-in variants (default options) that are not kept yet."""
    todo = []
    for entry in catalog.entries():
        if entry.origin == "built-in":
            rules = await run_in_threadpool(catalog.rules, entry, {})
            todo.append((rules, (entry.source, ())))
    made = await books.warm(todo)
    log.info("made %d rulebooks", made)
