"""The ASGI application: pages, the JSON API, and a WebSocket per watcher that carries its seat's views."""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
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
from .bots import BotPool
from .catalog import MAX_UPLOAD, Catalog
from .errors import WebError
from .replay import frames, record_rules
from .storage import Store
from .tables import Tables

MAX_BODY = 1024 * 1024
STATIC = str(resources.files("ombre_rules.web") / "static")
log = logging.getLogger(__name__)


def _page(name: str):
    async def page(request: Request) -> Response:
        return FileResponse(f"{STATIC}/{name}.html", media_type="text/html")
    return page


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused with a 413 as soon as it passes `limit` bytes."""
    size = request.headers.get("content-length")
    if size and size.isdigit() and int(size) > limit:
        raise WebError(413, f"request too large: {size} bytes (at most {limit})")
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise WebError(413, f"request too large (at most {limit} bytes)")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request) -> dict[str, Any]:
    try:
        data = json.loads(await _body(request, MAX_BODY) or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise WebError(400, f"the request is not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise WebError(400, "the request must be a JSON object")
    return data


def _field(data: dict, key: str, kind: type, default: Any = ...) -> Any:
    v = data.get(key, default)
    if v is ...:
        raise WebError(400, f"missing field '{key}'")
    if v is not None and (not isinstance(v, kind) or (kind is int and isinstance(v, bool))):
        raise WebError(400, f"field '{key}' must be {kind.__name__}")
    return v


class Api:
    """The request handlers, over one store, catalog and set of tables."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.catalog = tables.catalog
        self._pages: dict[tuple, str] = {}

    # -- variants ------------------------------------------------------------------------------------
    def summaries(self) -> list[dict[str, Any]]:
        return [self.catalog.summary(e) for e in self.catalog.entries()]

    async def variants(self, request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(self.summaries))

    def _rules(self, request: Request, prefix: str = ""):
        entry = self.catalog.get(request.path_params["key"])
        opts = {k[len(prefix):]: v for k, v in request.query_params.items() if k.startswith(prefix) and k != "against"}
        return entry, self.catalog.rules(entry, opts)

    async def variant(self, request: Request) -> Response:
        entry, rules = await run_in_threadpool(self._rules, request)
        deals = rules.session.get("deals")
        return JSONResponse({**self.catalog.summary(entry), "variant": self.catalog.display(entry, rules),
                             "seats": rules.players, "deals": deals if isinstance(deals, int) else None})

    async def rulebook(self, request: Request) -> Response:
        """The rulebook as a page of its own (the variant page shows it in a frame, with its own styles)."""
        book = _book()
        entry, rules = await run_in_threadpool(self._rules, request)
        key = ("book", entry.key, rules.variant, rules.digest)
        return HTMLResponse(self.catalog.clean(entry, await self._cached(key, book.rulebook_html, rules)))

    async def diff(self, request: Request) -> Response:
        book = _book()
        entry, rules = await run_in_threadpool(self._rules, request)
        other_key = request.query_params.get("against")
        if not other_key:
            raise WebError(400, "say which variant to compare with: ?against=KEY")
        other_entry = self.catalog.get(other_key)
        other = await run_in_threadpool(self.catalog.rules, other_entry, {})
        key = ("diff", other.variant, other.digest, entry.key, rules.variant, rules.digest)
        page = await self._cached(key, book.diff_html, other, rules)
        return HTMLResponse(self.catalog.clean(other_entry, self.catalog.clean(entry, page)))

    async def _cached(self, key: tuple, fn, *args) -> str:
        """A rulebook or diff page, made once in a worker thread (a rulebook plays its worked examples)."""
        page = self._pages.get(key)
        if page is None:
            page = self._pages[key] = await run_in_threadpool(fn, *args)
            while len(self._pages) > 64:
                self._pages.pop(next(iter(self._pages)))
        return page

    async def upload(self, request: Request) -> Response:
        data = await _body(request, MAX_UPLOAD)
        entry = await run_in_threadpool(self.catalog.upload, request.query_params.get("name", "upload.yaml"), data)
        return JSONResponse(self.catalog.summary(entry), status_code=201)

    # -- tables --------------------------------------------------------------------------------------
    async def create(self, request: Request) -> Response:
        data = await _json(request)
        options = _field(data, "options", dict, {}) or {}
        seats = _field(data, "seats", list)
        if not all(isinstance(x, str) for x in seats) or not all(isinstance(v, str) for v in options.values()):
            raise WebError(400, "seats and option choices must be strings")
        deals = _field(data, "deals", int, 1)
        t = await run_in_threadpool(self.tables.create, _field(data, "variant", str), options, seats,
                                    1 if deals is None else deals, _field(data, "seed", int, None))
        await self.tables.changed(t)
        base = f"/table/{t.row.id}?t="
        return JSONResponse({"id": t.row.id, "variant": t.variant,
                             "seats": [{"seat": s, "kind": k, "url": base + tok if tok else None}
                                       for s, (k, tok) in enumerate(zip(t.row.seats, t.row.tokens, strict=True))],
                             "spectator": base + t.row.spectator}, status_code=201)

    def _table(self, request: Request, token: str | None):
        t = self.tables.get(request.path_params["id"])
        return t, t.seat_of(token)

    async def view(self, request: Request) -> Response:
        t, seat = self._table(request, request.query_params.get("t"))
        return JSONResponse(t.view(seat))

    async def act(self, request: Request) -> Response:
        data = await _json(request)
        t, seat = self._table(request, _field(data, "token", str))
        if seat is None:
            raise WebError(403, "a spectator may not act")
        await self.tables.act(t, seat, _field(data, "action", str))
        return JSONResponse({"ok": True})

    async def next_deal(self, request: Request) -> Response:
        data = await _json(request)
        t, seat = self._table(request, _field(data, "token", str))
        if seat is None:
            raise WebError(403, "a spectator may not start a deal")
        await self.tables.next_deal(t)
        return JSONResponse({"ok": True, "deal": t.deal_no + 1})

    def _finished_record(self, request: Request) -> tuple[Any, dict]:
        t, _seat = self._table(request, request.query_params.get("t"))
        n = request.path_params["n"]
        rec = self.tables.store.record(t.row.id, n - 1)
        if rec is None:
            raise WebError(404, f"deal {n} of table '{t.row.id}' is not finished")
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
        raw = await _body(request, MAX_BODY)
        try:
            rec = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise WebError(400, f"not valid JSON: {e}") from None
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
            self.tables.unwatch(t, send)


def _book():
    try:
        from .. import book
    except ImportError:
        raise WebError(501, "the rulebook is not part of this installation") from None
    return book


async def _web_error(request: Request, exc: WebError) -> Response:
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    return JSONResponse({"error": exc.detail or "bad request"}, status_code=exc.status_code)


async def _other_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, OmbreError):
        return JSONResponse({"error": str(exc)}, status_code=400)
    log.exception("internal error on %s", request.url.path)
    return JSONResponse({"error": "internal error"}, status_code=500)


def create_app(data: str, variants: str | None = None, workers: int = 2, processes: bool = True,
               bot_delay: float = 0.0) -> Starlette:
    """The web app over the database in `data` and the variant files in `variants`."""
    store = Store(data)
    tables = Tables(store, Catalog(store, variants), BotPool(workers, processes), bot_delay)
    api = Api(tables)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        tables.load_all()
        for t in tables.tables.values():
            tables.kick(t)
        warm = asyncio.get_running_loop().run_in_executor(None, api.summaries)  # the lobby's first answer
        yield
        await warm
        await tables.close()
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
        Route("/api/tables/{id}/deals/{n:int}/record", api.record),
        Route("/api/tables/{id}/deals/{n:int}/replay", api.deal_replay),
        Route("/api/replay", api.replay, methods=["POST"]),
        WebSocketRoute("/ws/tables/{id}", api.socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        WebError: _web_error, HTTPException: _http_error,  # type: ignore[dict-item]  # Starlette calls each with the class it is registered for
        Exception: _other_error})
    app.state.tables = tables
    return app
