"""`ombre serve`: run the web app on uvicorn."""
from __future__ import annotations

import ipaddress
import os
import sys

from ..errors import OmbreError


def add_arguments(p) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--variants", metavar="DIR", help="a folder of variant files to offer besides the built-in ones")
    p.add_argument("--data", metavar="DIR", default="ombre-data",
                   help="folder for the database and uploaded files (default ./ombre-data)")
    p.add_argument("--workers", type=int, default=2, help="processes that run Monte-Carlo bots (default 2)")
    p.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                   help="pause before each bot move, so people can follow (default 0.6)")
    p.add_argument("--cold", action="store_true",
                   help="do not make the built-in variants' rulebooks at start (they are made when first opened)")
    p.add_argument("--tables-per-hour", type=int, default=30, metavar="N",
                   help="tables one address may open in an hour (default 30; all addresses together 600 or N)")


def cmd_serve(args) -> int:
    try:
        import uvicorn

        from .app import create_app
        from .quota import Limits, Quota
    except ImportError as e:
        raise OmbreError(f"the web app needs the 'web' extra (pip install 'ombre_rules[web]'): {e}") from None
    if not 0 < args.port < 65536:
        raise OmbreError(f"bad --port {args.port}")
    if args.variants and not os.path.isdir(args.variants):
        raise OmbreError(f"--variants: no such folder '{args.variants}'")
    if not 1 <= args.workers <= 64:
        raise OmbreError(f"--workers must be 1 to 64, not {args.workers}")
    if not 1 <= args.tables_per_hour <= 100_000:
        raise OmbreError(f"--tables-per-hour must be 1 to 100000, not {args.tables_per_hour}")
    try:
        os.makedirs(args.data, exist_ok=True)
    except OSError as e:
        raise OmbreError(f"--data: cannot use '{args.data}': {e.strerror or e}") from None
    sys.setswitchinterval(0.001)  # the event loop gets the interpreter back soon from a bot thinking in a thread
    n = args.tables_per_hour
    limits = Limits(tables=Quota("tables", n, max(600, n)))
    app = create_app(args.data, args.variants, workers=args.workers, bot_delay=max(0.0, args.bot_delay),
                     limits=limits, warm=not args.cold)
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    print(f"ombre serve: open http://{shown}:{args.port}/ in a browser (Ctrl-C stops it; data in {args.data})",
          file=sys.stderr)
    if not _loopback(host):
        print(f"ombre serve: warning: {host} is reachable from other machines", file=sys.stderr)
    uvicorn.run(app, host=host, port=args.port, log_level="warning", ws_per_message_deflate=False)
    return 0


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
