"""The `ombre rules`, `ombre diff` and `ombre reference` commands."""
from __future__ import annotations

import os
import sys

from ..errors import OmbreError


def emit(text: str, out: str | None) -> None:
    """Write text to a file (all at once, nothing half-written) or, for `-` or no file, to stdout."""
    if out in (None, "-"):
        sys.stdout.write(text)
        return
    tmp = out + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, out)
    except OSError as e:
        raise OmbreError(f"cannot write '{out}': {e.strerror or e}") from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def cmd_rules(args) -> int:
    from ..cli import _load
    from . import rulebook_html, rulebook_md

    rules = _load(args.variant, args.option)
    emit(rulebook_html(rules) if args.format == "html" else rulebook_md(rules), args.out)
    return 0


def cmd_diff(args) -> int:
    from ..cli import _load
    from . import diff_html, diff_json, diff_md

    a, b = _load(args.a, args.option), _load(args.b, args.option)
    show = {"md": diff_md, "html": diff_html, "json": diff_json}[args.format]
    emit(show(a, b), args.out)
    return 0


def cmd_reference(args) -> int:
    from .reference import reference_html, reference_md

    emit(reference_html() if args.format == "html" else reference_md(), args.out)
    return 0


def add_parsers(sub) -> None:
    """The three commands' parsers, added to the `ombre` command's subparsers."""
    s = sub.add_parser("rules", help="the rulebook of a variant, generated from its file (Markdown or HTML)")
    s.add_argument("variant", metavar="VARIANT|FILE", help="a built-in variant, NAME(key=value,...), or a file")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set a variant option (repeatable)")
    s.add_argument("--format", choices=("md", "html"), default="md", help="md (default) or html (one page)")
    s.add_argument("--out", metavar="FILE", help="write to FILE ('-' or none: stdout)")
    s.set_defaults(fn=cmd_rules)
    s = sub.add_parser("diff", help="what differs between two variants, option strings or a house rule and its base")
    s.add_argument("a", metavar="A", help="a variant, NAME(key=value,...), or a file")
    s.add_argument("b", metavar="B", help="a variant, NAME(key=value,...), or a file")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set an option of both (repeatable)")
    s.add_argument("--format", choices=("md", "html", "json"), default="md", help="md (default), html or json")
    s.add_argument("--out", metavar="FILE", help="write to FILE ('-' or none: stdout)")
    s.set_defaults(fn=cmd_diff)
    s = sub.add_parser("reference", help="the language reference: variant keys, names, functions, operators")
    s.add_argument("--format", choices=("md", "html"), default="md", help="md (default) or html")
    s.add_argument("--out", metavar="FILE", help="write to FILE ('-' or none: stdout)")
    s.set_defaults(fn=cmd_reference)
