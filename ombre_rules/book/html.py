"""The rulebook and the diff as HTML: one self-contained page (or a fragment to embed) with a table of
contents, readable on a phone, each card shown as its rank and its suit's sign in the suit's colour, and the
expression of the file behind a rule shown on hover (and in the appendix)."""
from __future__ import annotations

import html
import re
from typing import Any

from .cardwords import card_name
from .diff import Diff
from .markdown import anchor
from .model import Book, Rule, Table

CSS = """
body{font:16px/1.55 system-ui,sans-serif;margin:0 auto;max-width:54rem;padding:0 1rem 3rem;color:#222;
background:#fff}
h1{font-size:1.6rem;line-height:1.25}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ccc}
nav ol{columns:15rem;padding-left:1.4rem;margin:.3rem 0}nav h2{border:0;margin-top:1rem}
p.idea{font-size:1.05rem;background:#f6f4ee;border-left:4px solid #b9a66a;padding:.6rem .9rem;margin:.8rem 0}
ul.rules{padding-left:1.2rem}ul.rules li{margin:.35rem 0}
li[title]{text-decoration:underline dotted #aaa;text-underline-offset:.25em}
code{background:#f3f3f3;padding:0 .2rem;border-radius:3px;font-size:.85em;word-break:break-word}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.9rem}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right;white-space:nowrap}
p.caption{font-weight:600;margin:.8rem 0 .2rem}
.src{color:#555;font-size:.9rem}.red{color:#c00}.black{color:#111}.other{color:#05a}
.old{color:#a00;text-decoration:line-through}.new{color:#070}.kind{color:#555;font-size:.85rem}
.note{background:#f6f4ee;padding:.6rem .9rem}
@media (max-width:40rem){body{font-size:15px;padding:0 .6rem 2rem}table{font-size:.82rem}
th,td{padding:.2rem .3rem}nav ol{columns:1}}
"""


class CardMarks:
    """Shows each card (as the book writes it: rank and suit sign, or its name) in its suit's colour, from the
    variant's deck (a suit's `colour`)."""

    def __init__(self, rules: Any) -> None:
        self.marks: dict[str, str] = {}
        for c in rules.deck.cards:
            colour = str(c.suit.attrs.get("colour", ""))
            if not c.suit.attrs.get("symbol"):
                continue
            cls = colour if colour in ("red", "black") else "other"
            text = card_name(c)
            self.marks[text] = f'<span class="{cls}">{html.escape(text)}</span>'
        names = sorted(self.marks, key=len, reverse=True)
        self.pattern = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, names)) + r")") if names else None

    def __call__(self, text: str) -> str:
        esc = html.escape(text)
        return self.pattern.sub(lambda m: self.marks[m.group(1)], esc) if self.pattern else esc


_NUMBER = re.compile(r"^[+−]?\d+( [+−] [\d/]*P(/\d+)?)?$|^[+−]?\d*P(/\d+)?( [+−] \d+)?$|^[+−]?\d+$")


def _table(t: Table, mark: CardMarks) -> str:
    head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in t.header)
    rows = "".join("<tr>" + "".join(f'<td{" class=n" if _NUMBER.match(c) else ""}>{mark(c)}</td>' for c in row)
                   + "</tr>" for row in t.rows)
    cap = mark(t.caption)
    return (f'<p class="caption">{cap}</p><div class="scroll" role="region" tabindex="0" aria-label="'
            f'{html.escape(t.caption)}"><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>')


def scoped(css: str, scope: str) -> str:
    """The style sheet with every selector put inside `scope` (and `body` made the scope itself), the rules
    inside an @media block too."""
    out = []
    i, css = 0, css.strip()
    while (j := css.find("{", i)) >= 0:
        head = css[i:j].strip()
        if head.startswith("@media"):
            depth, k = 1, j + 1
            while depth:
                depth += {"{": 1, "}": -1}.get(css[k], 0)
                k += 1
            out.append(head + "{" + scoped(css[j + 1:k - 1], scope) + "}")
            i = k
            continue
        k = css.find("}", j)
        sels = [scope if x.strip() == "body" else f"{scope} {x.strip()}" for x in head.split(",")]
        out.append(",".join(sels) + "{" + css[j + 1:k] + "}")
        i = k + 1
    return "\n".join(out)


def page(title: str, body: str, fragment: bool) -> str:
    """A whole page with its style, or (fragment) the body in a <div class="ombre-book"> with a style that
    applies inside it only."""
    if fragment:
        return f'<div class="ombre-book"><style>{scoped(CSS, ".ombre-book")}</style>{body}</div>\n'
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>{body}</body></html>\n")


def rulebook_page(book: Book, rules: Any, fragment: bool = False) -> str:
    """A rulebook as HTML."""
    mark = CardMarks(rules)
    toc = "".join(f'<li><a href="#{anchor(s.key)}">{html.escape(s.title)}</a></li>' for s in book.sections)
    parts = [f"<h1>{html.escape(book.title)}</h1><p>The rules of <code>{html.escape(book.variant)}</code>, written "
             f"by the program from its variant file.</p><nav><h2>Contents</h2><ol>{toc}</ol></nav>"]
    for s in book.sections:
        parts.append(f'<section id="{anchor(s.key)}"><h2>{html.escape(s.title)}</h2>')
        if s.sources:
            parts.append(f'<p class="src">Sources: {", ".join(html.escape(t) for t in s.sources)}</p>')
        rules_open = False
        for item in s.items:
            if isinstance(item, Rule) and not item.para:
                if not rules_open:
                    parts.append('<ul class="rules">')
                    rules_open = True
                hover = f' title="{html.escape(item.expr)}"' if item.expr and item.expr != item.text else ""
                parts.append(f"<li{hover}>{mark(item.text)}</li>")
                continue
            if rules_open:
                parts.append("</ul>")
                rules_open = False
            if isinstance(item, Rule):
                parts.append(f'<p class="idea">{mark(item.text)}</p>')
            else:
                parts.append(_table(item, mark))
        if rules_open:
            parts.append("</ul>")
        parts.append("</section>")
    return page(book.title, "".join(parts), fragment)


def diff_page(d: Diff, rules: Any, fragment: bool = False) -> str:
    """A diff as HTML: per heading, each change as old → new."""
    mark = CardMarks(rules)
    parts = [f"<h1><code>{html.escape(d.a)}</code> → <code>{html.escape(d.b)}</code></h1>"]
    if d.empty:
        parts.append(f'<p class="note">{mark(d.note or "No difference.")}</p>')
    for title, changes in d.sections.items():
        if not changes:
            continue
        items = []
        for c in changes:
            old = f'<span class="old">{mark(c.old)}</span>' if c.old is not None else ""
            new = f'<span class="new">{mark(c.new)}</span>' if c.new is not None else ""
            name = "" if c.name in (c.old, c.new) else f"<strong>{mark(c.name)}</strong>: "
            body = {"added": f"<span class=kind>added</span> {new}",
                    "removed": f"<span class=kind>removed</span> {old}", "changed": f"{old} → {new}"}[c.kind]
            items.append(f"<li>{name}{body}</li>")
        parts.append(f'<section><h2>{html.escape(title)}</h2><ul class="rules">{"".join(items)}</ul></section>')
    return page(f"{d.a} → {d.b}", "".join(parts), fragment)
