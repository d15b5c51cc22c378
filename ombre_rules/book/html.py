"""The rulebook and the diff as HTML: one self-contained page (or a fragment to embed) with a table of
contents, readable on a phone, with each card shown as its rank and its suit's symbol in colour."""
from __future__ import annotations

import html
import re
from typing import Any

from .diff import Diff
from .markdown import anchor
from .model import Book, Rule, Table

CSS = """
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:52rem;padding:0 1rem 3rem;color:#222}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ccc}
nav ol{columns:14rem;padding-left:1.2rem}
ul.rules{padding-left:1.2rem}ul.rules li{margin:.3rem 0}
code{background:#f3f3f3;padding:0 .2rem;border-radius:3px;font-size:.85em;word-break:break-word}
.scroll{overflow-x:auto}table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.9rem}
th,td{border:1px solid #ccc;padding:.2rem .45rem;text-align:left;vertical-align:top}
caption{text-align:left;font-weight:600;padding:.2rem 0}
.src{color:#555;font-size:.9rem}.red{color:#c00}.black{color:#111}.other{color:#05a}
.old{color:#a00;text-decoration:line-through}.new{color:#070}
"""


class CardMarks:
    """Shows card names as rank + suit symbol, coloured by the suit's colour (both from the variant's deck:
    a suit's `symbol` and `colour` attributes; without a symbol the card name is kept)."""

    def __init__(self, rules: Any) -> None:
        self.marks: dict[str, str] = {}
        for c in rules.deck.cards:
            sym = c.suit.attrs.get("symbol")
            colour = str(c.suit.attrs.get("colour", ""))
            cls = colour if colour in ("red", "black") else "other"
            text = f"{c.rank}{sym}" if sym else c.name
            self.marks[c.name] = f'<span class="{cls}">{html.escape(text)}</span>'
        names = sorted(self.marks, key=len, reverse=True)
        self.pattern = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, names)) + r")(?![\w])") if names else None

    def __call__(self, text: str) -> str:
        esc = html.escape(text)
        return self.pattern.sub(lambda m: self.marks[m.group(1)], esc) if self.pattern else esc


def _table(t: Table, mark: CardMarks) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in t.header)
    rows = "".join("<tr>" + "".join(f"<td>{mark(c)}</td>" for c in row) + "</tr>" for row in t.rows)
    return (f'<div class="scroll"><table><caption>{html.escape(t.caption)}</caption><thead><tr>{head}</tr>'
            f"</thead><tbody>{rows}</tbody></table></div>")


def page(title: str, body: str, fragment: bool) -> str:
    """A whole page with its style, or (fragment) the body alone with the style in a <style> element."""
    if fragment:
        return f'<div class="ombre-book"><style>{CSS}</style>{body}</div>\n'
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>{body}</body></html>\n")


def rulebook_page(book: Book, rules: Any, fragment: bool = False) -> str:
    """A rulebook as HTML."""
    mark = CardMarks(rules)
    toc = "".join(f'<li><a href="#{anchor(s.key)}">{html.escape(s.title)}</a></li>' for s in book.sections)
    parts = [f"<h1>{html.escape(book.title)}</h1><p>Rules of <code>{html.escape(book.variant)}</code>, generated "
             f"from its variant file.</p><nav><h2>Contents</h2><ol>{toc}</ol></nav>"]
    for s in book.sections:
        parts.append(f'<section id="{anchor(s.key)}"><h2>{html.escape(s.title)}</h2>')
        if s.sources:
            parts.append(f'<p class="src">Sources: {", ".join(html.escape(t) for t in s.sources)}</p>')
        rules_open = False
        for item in s.items:
            if isinstance(item, Rule):
                if not rules_open:
                    parts.append('<ul class="rules">')
                    rules_open = True
                expr = f" <code>{html.escape(item.expr)}</code>" if item.expr and item.expr != item.text else ""
                parts.append(f"<li>{mark(item.text)}{expr}</li>")
            else:
                if rules_open:
                    parts.append("</ul>")
                    rules_open = False
                parts.append(_table(item, mark))
        if rules_open:
            parts.append("</ul>")
        parts.append("</section>")
    return page(book.title, "".join(parts), fragment)


def diff_page(d: Diff, rules: Any, fragment: bool = False) -> str:
    """A diff as HTML: per section, each change as old → new."""
    mark = CardMarks(rules)
    parts = [f"<h1><code>{html.escape(d.a)}</code> → <code>{html.escape(d.b)}</code></h1>"]
    if d.empty:
        parts.append("<p>No difference in the rules.</p>")
    for title, changes in d.sections.items():
        if not changes:
            continue
        items = []
        for c in changes:
            old = f'<span class="old">{mark(c.old)}</span>' if c.old is not None else "<em>(none)</em>"
            new = f'<span class="new">{mark(c.new)}</span>' if c.new is not None else "<em>(none)</em>"
            items.append(f"<li><strong>{html.escape(c.name)}</strong> ({c.kind}): {old} → {new}</li>")
        parts.append(f'<section><h2>{html.escape(title)}</h2><ul class="rules">{"".join(items)}</ul></section>')
    return page(f"{d.a} → {d.b}", "".join(parts), fragment)
