"""A report as a list of blocks (headings, paragraphs, tables, lists, images, preformatted text), rendered once
as Markdown and once as one self-contained HTML page with the images embedded."""
from __future__ import annotations

import base64
import html
import os
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Doc:
    """The blocks of a report, in order: (kind, payload), the payload's shape given by its kind (a text, a list
    of rows, (head, rows), (name, alt))."""

    title: str
    blocks: list[tuple[str, Any]] = field(default_factory=list)

    def h(self, text: str) -> None:
        self.blocks.append(("h", text))

    def p(self, text: str) -> None:
        self.blocks.append(("p", text))

    def pre(self, text: str) -> None:
        self.blocks.append(("pre", text))

    def items(self, rows: list[str], strong: bool = False) -> None:
        self.blocks.append(("warn" if strong else "ul", rows))

    def table(self, head: list[str], rows: list[list[str]]) -> None:
        self.blocks.append(("table", (head, rows)))

    def image(self, name: str, alt: str) -> None:
        self.blocks.append(("img", (name, alt)))


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|")


def markdown(doc: Doc) -> str:
    """The report as Markdown; images are linked by file name."""
    out = [f"# {doc.title}", ""]
    for kind, x in doc.blocks:
        if kind == "h":
            out += [f"## {x}", ""]
        elif kind == "p":
            out += [str(x), ""]
        elif kind == "pre":
            out += ["```", str(x), "```", ""]
        elif kind in ("ul", "warn"):
            out += [f"- **{r}**" if kind == "warn" else f"- {r}" for r in x] + [""]
        elif kind == "table":
            head, rows = x
            out.append("| " + " | ".join(_md_cell(c) for c in head) + " |")
            out.append("|" + "---|" * len(head))
            out += ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows]
            out.append("")
        elif kind == "img":
            name, alt = x
            out += [f"![{alt}]({name})", ""]
    return "\n".join(out)


_STYLE = ("body{font-family:sans-serif;max-width:72em;margin:2em auto;padding:0 1em;color:#222}"
          ".table{overflow-x:auto;margin:1em 0}table{border-collapse:collapse;font-size:.92em}"
          "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}th{background:#f3f3f3}"
          "pre{background:#f6f6f6;padding:.6em;overflow-x:auto}.warn li{color:#a00;font-weight:bold}"
          "img{max-width:100%}")


def html_page(doc: Doc, folder: str) -> str:
    """The report as one HTML page; each image (a PNG in `folder`) is embedded as a data URL."""
    e = html.escape
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">", f"<title>{e(doc.title)}</title>",
           f"<style>{_STYLE}</style></head><body>", f"<h1>{e(doc.title)}</h1>"]
    for kind, x in doc.blocks:
        if kind == "h":
            out.append(f"<h2>{e(str(x))}</h2>")
        elif kind == "p":
            out.append(f"<p>{e(str(x))}</p>")
        elif kind == "pre":
            out.append(f"<pre>{e(str(x))}</pre>")
        elif kind in ("ul", "warn"):
            cls = " class=\"warn\"" if kind == "warn" else ""
            out.append(f"<ul{cls}>" + "".join(f"<li>{e(r)}</li>" for r in x) + "</ul>")
        elif kind == "table":
            head, rows = x
            # in a box of its own width that scrolls sideways when the table is wider than the page
            out.append("<div class=\"table\"><table><tr>" + "".join(f"<th>{e(str(c))}</th>" for c in head)
                       + "</tr>" + "".join("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in r) + "</tr>" for r in rows)
                       + "</table></div>")
        elif kind == "img":
            name, alt = x
            with open(os.path.join(folder, name), "rb") as f:
                data = base64.b64encode(f.read()).decode("ascii")
            out.append(f"<figure><img src=\"data:image/png;base64,{data}\" alt=\"{e(alt)}\"></figure>")
    out.append("</body></html>")
    return "\n".join(out)
