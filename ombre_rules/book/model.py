"""What a rulebook says, apart from how it is shown: sections of sentences (each with the expression it
renders) and tables, every item with a stable key so two books can be compared item by item."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule as a sentence, with the expression of the variant file it comes from (if any, shown apart from
    the prose: in an appendix, or on hover); `para`: a paragraph of its own rather than an item of a list."""

    key: str
    text: str
    expr: str = ""
    para: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """A table: a caption, a header row and rows of text cells; rows are keyed by their first cell."""

    key: str
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(slots=True)
class Section:
    """A section of the book: a title, its items, and the source tags its wording cites."""

    key: str
    title: str
    items: list = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    compare: bool = True  # False: left out of a diff (the worked examples, the sources themselves)

    def rule(self, key: str, text: str, expr: object = "", para: bool = False) -> None:
        self.items.append(Rule(f"{self.key}.{key}", text, _expr(expr), para))

    def table(self, key: str, caption: str, header: list[str], rows: list[list[str]]) -> None:
        self.items.append(Table(f"{self.key}.{key}", caption, tuple(header), tuple(tuple(r) for r in rows)))


def _expr(expr: object) -> str:
    """An expression of the file as shown beside a rule: none for an empty value or a plain number or flag."""
    if expr is None or expr == "" or isinstance(expr, (bool, int)):
        return ""
    return " ".join(str(expr).split())


@dataclass(slots=True)
class Book:
    """A variant's rulebook: its title, canonical variant string, sections and cited sources."""

    title: str
    variant: str
    sections: list[Section] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)

    def section(self, key: str, title: str, compare: bool = True) -> Section:
        s = Section(key, title, compare=compare)
        self.sections.append(s)
        return s

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Entry:
    """One compared item of a book: its section, what it is called, its words, and (a table row) its cells."""

    section: str
    name: str
    words: str
    cells: tuple[tuple[str, str], ...] = ()
    expr: str = ""


def flatten(book: Book) -> dict[str, Entry]:
    """Every compared item of a book by key: a rule's sentence (and expression), each row of a table."""
    out: dict[str, Entry] = {}
    for s in book.sections:
        if not s.compare:
            continue
        for item in s.items:
            if isinstance(item, Rule):
                out[item.key] = Entry(s.title, item.text, item.text, expr=item.expr)
            else:
                seen: dict[str, int] = {}
                for row in item.rows:
                    cells = tuple(zip(item.header[1:], row[1:], strict=False))
                    seen[row[0]] = seen.get(row[0], 0) + 1  # a first cell met again: its second row, …
                    key = row[0] + (f"#{seen[row[0]]}" if seen[row[0]] > 1 else "")
                    out[f"{item.key}.{key}"] = Entry(s.title, f"{item.caption}, {row[0]}",
                                                        ", ".join(f"{h}: {c}" for h, c in cells), cells)
    return out
