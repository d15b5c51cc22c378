"""The `ombre rules`, `ombre diff` and `ombre reference` commands."""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from . import outfile


def emit(text: str, out: str | None) -> None:
    """Write text to a file (checked first, nothing half-written) or, for `-` or no file, to stdout."""
    if out in (None, outfile.STDOUT):
        sys.stdout.write(text)
        return
    outfile.write_text(outfile.target(out), text)


def cmd_rules(args) -> int:
    from .book import rulebook_html, rulebook_md

    rules = args.load(args.variant, args.option)
    emit(rulebook_html(rules) if args.format == "html" else rulebook_md(rules), args.out)
    return 0


def cmd_diff(args) -> int:
    from .book import diff_html, diff_json, diff_md

    a, b = args.load(args.a, args.option), args.load(args.b, args.option)
    show = {"md": diff_md, "html": diff_html, "json": diff_json}[args.format]
    emit(show(a, b), args.out)
    return 0


def cmd_reference(args) -> int:
    from .book.reference import reference_html, reference_md

    emit(reference_html() if args.format == "html" else reference_md(), args.out)
    return 0


def add_parsers(sub, load: Callable[[str, list[str] | None], Any]) -> None:
    """The three commands' parsers, added to the `ombre` command's subparsers; `load(variant, KEY=VALUE
    pairs)` gives a ruleset."""
    s = sub.add_parser("rules", help="the rulebook of a variant, generated from its file (Markdown or HTML)")
    s.add_argument("variant", metavar="VARIANT|FILE", help="a built-in variant, NAME(key=value,...), or a file")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set a variant option (repeatable)")
    s.add_argument("--format", choices=("md", "html"), default="md", help="md (default) or html (one page)")
    s.add_argument("--out", metavar="FILE", help="write to FILE ('-' or none: stdout)")
    s.set_defaults(fn=cmd_rules, load=load)
    s = sub.add_parser("diff", help="what differs between two variants, option strings or a house rule and its base")
    s.add_argument("a", metavar="A", help="a variant, NAME(key=value,...), or a file")
    s.add_argument("b", metavar="B", help="a variant, NAME(key=value,...), or a file")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set an option of both (repeatable)")
    s.add_argument("--format", choices=("md", "html", "json"), default="md", help="md (default), html or json")
    s.add_argument("--out", metavar="FILE", help="write to FILE ('-' or none: stdout)")
    s.set_defaults(fn=cmd_diff, load=load)
    s = sub.add_parser("reference", help="the language reference: variant keys, names, functions, operators")
    s.add_argument("--format", choices=("md", "html"), default="md", help="md (default) or html")
    s.add_argument("--out", metavar="FILE", help="write to FILE ('-' or none: stdout)")
    s.set_defaults(fn=cmd_reference)
