"""What comes in: request bodies read within a size limit, JSON parsed without surprises (depth, huge numbers,
NaN), typed fields, and the middleware that refuses cross-site requests and sets the security headers.

Every request that changes something is refused when a browser says it comes from another site (`Origin`,
`Sec-Fetch-Site`), and must say what it sends (`Content-Type`): a form on another site can only send
`text/plain`, a form or multipart body without asking first, and none of those is accepted here."""
from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request

from .errors import WebError

MAX_BODY = 1024 * 1024
MAX_DIGITS = 30  # the longest integer a request may hold (seeds and counts need far fewer)
JSON_TYPES = ("application/json",)
YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "application/octet-stream")

# every page and answer: scripts and styles of this server only, framed by this server only
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "frame-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'; object-src 'none'")
# a generated rulebook or diff: its own inline style sheet, nothing else
BOOK_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; "
            "base-uri 'none'; form-action 'none'")
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
           (b"x-frame-options", b"SAMEORIGIN"), (b"cross-origin-opener-policy", b"same-origin")]
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with a 413 as soon as it passes `limit` bytes."""
    size = request.headers.get("content-length", "")
    if size.isdigit() and len(size) < 20 and int(size) > limit:
        raise WebError(413, f"request too large: {size} bytes (at most {limit})")
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise WebError(413, f"request too large (at most {limit} bytes)")
        chunks.append(chunk)
    return b"".join(chunks)


def require_type(request: Request, allowed: tuple[str, ...]) -> None:
    """A 415 unless the request says it sends one of the `allowed` media types."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in allowed:
        raise WebError(415, f"send this request as {allowed[0]} (not {kind or 'no Content-Type'})")


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_DIGITS:
        raise WebError(400, f"a number of {len(digits)} digits (at most {MAX_DIGITS})")
    return int(text)


def _constant(name: str) -> None:
    raise WebError(400, f"{name} is not a number this server takes")


def parse_json(raw: bytes) -> Any:
    """A JSON value; a 400 with the reason for text that is not JSON, nested too deeply, or holding a number
    of more than MAX_DIGITS digits, NaN or Infinity."""
    try:
        return json.loads(raw, parse_int=_int, parse_constant=_constant)
    except RecursionError:
        raise WebError(400, "the request is not valid JSON: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:  # JSONDecodeError is a ValueError
        raise WebError(400, f"the request is not valid JSON: {str(e)[:200]}") from None


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object (sent as application/json)."""
    require_type(request, JSON_TYPES)
    data = parse_json(await read_body(request, MAX_BODY) or b"{}")
    if not isinstance(data, dict):
        raise WebError(400, "the request must be a JSON object")
    return data


def field(data: dict[str, Any], key: str, kind: type, default: Any = ...) -> Any:
    """A field of a request of one type (None allowed when it is the default); a 400 naming it otherwise."""
    v = data.get(key, default)
    if v is ...:
        raise WebError(400, f"missing field '{key}'")
    if v is not None and (not isinstance(v, kind) or (kind is int and isinstance(v, bool))):
        raise WebError(400, f"field '{key}' must be {kind.__name__}")
    return v


def quoted(text: str, limit: int = 40) -> str:
    """A piece of a request quoted in a message, cut to `limit` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}


def foreign(scope: Scope) -> str | None:
    """Why a request that may change something comes from another site (None: it does not): its `Origin` is
    not this server, or the browser says it is cross-site."""
    h = _headers(scope)
    origin = h.get("origin")
    if origin is not None:
        if origin == "null" or urlsplit(origin).netloc.lower() != h.get("host", "").lower():
            return f"requests from {quoted(origin, 80)} are not accepted"
    if h.get("sec-fetch-site") == "cross-site":
        return "cross-site requests are not accepted"
    return None


class Guard:
    """ASGI middleware: refuses cross-site requests that could change something (403) and WebSockets opened
    from another site, and adds the security headers to every answer (the rulebook pages get their own
    policy)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    @property
    def state(self) -> Any:
        """The state of the application behind the guard (its tables, its rulebooks)."""
        return self.app.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" and foreign(scope):
            await send({"type": "websocket.close", "code": 1008})
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        why = foreign(scope) if scope.get("method", "GET") not in SAFE_METHODS else None
        book = path.endswith(("/rulebook", "/diff"))
        policy = (BOOK_CSP if book else CSP).encode()

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS,
                                      (b"content-security-policy", policy)]
            await send(message)

        if why:
            body = json.dumps({"error": why}).encode()
            await with_headers({"type": "http.response.start", "status": 403,
                                "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, with_headers)
