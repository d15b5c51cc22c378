"""The rulebook and the diff as Markdown."""
from __future__ import annotations

from .diff import Diff
from .model import Book, Rule, Table


def anchor(key: str) -> str:
    """A section's anchor: its key with every character that is not a letter, digit or dash made a dash."""
    return "".join(ch if ch.isalnum() or ch == "-" else "-" for ch in key.lower())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table_md(t: Table) -> list[str]:
    out = [f"**{t.caption}**", "", "| " + " | ".join(_cell(h) for h in t.header) + " |",
           "|" + "---|" * len(t.header)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in t.rows]
    return out + [""]


def rulebook_md(book: Book) -> str:
    """A rulebook as one Markdown document with a table of contents."""
    out = [f"# {book.title}", "", f"The rules of `{book.variant}`, written by the program from its variant file.", "",
           "## Contents", ""]
    out += [f"- [{s.title}](#{anchor(s.key)})" for s in book.sections]
    out.append("")
    for s in book.sections:
        out += [f'<a id="{anchor(s.key)}"></a>', "", f"## {s.title}", ""]
        if s.sources:
            out += ["Sources: " + ", ".join(f"[{t}]" for t in s.sources), ""]
        for item in s.items:
            if isinstance(item, Rule) and item.para:
                if out[-1] != "":
                    out.append("")
                out += [item.text, ""]
            elif isinstance(item, Rule):
                out.append(f"- {item.text}")
            else:
                if out[-1] != "":
                    out.append("")
                out += table_md(item)
        if out[-1] != "":
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def diff_md(d: Diff) -> str:
    """A diff as Markdown: per heading, each item added, removed or changed (old → new)."""
    out = [f"# `{d.a}` → `{d.b}`", ""]
    if d.empty:
        return "\n".join(out + [d.note or "No difference.", ""])
    for title, changes in d.sections.items():
        if not changes:
            continue
        out += [f"## {title}", ""]
        for c in changes:
            if c.kind == "added":
                out.append(f"- Added: {c.name if c.name != c.new else ''}{': ' if c.name != c.new else ''}{c.new}")
            elif c.kind == "removed":
                out.append(f"- Removed: {c.name if c.name != c.old else ''}{': ' if c.name != c.old else ''}{c.old}")
            elif c.name in (c.old, c.new):
                out.append(f"- Was: {c.old}  \n  Now: {c.new}")
            else:
                out.append(f"- {c.name}: {c.old or '(nothing)'} → {c.new or '(nothing)'}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"
