"""What a rulebook says, apart from how it is shown: sections of sentences (each with the expression it
renders) and tables, every item with a stable key so two books can be compared item by item."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule as a sentence, with the expression of the variant file it comes from (if any)."""

    key: str
    text: str
    expr: str = ""


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

    def rule(self, key: str, text: str, expr: object = "") -> None:
        self.items.append(Rule(f"{self.key}.{key}", text, "" if expr in (None, "") else str(expr)))

    def table(self, key: str, caption: str, header: list[str], rows: list[list[str]]) -> None:
        self.items.append(Table(f"{self.key}.{key}", caption, tuple(header), tuple(tuple(r) for r in rows)))


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


def flatten(book: Book) -> dict[str, tuple[str, str, str]]:
    """Every compared item of a book as key -> (section title, what it is called, its words): a rule's
    sentence (and expression), each row of a table."""
    out: dict[str, tuple[str, str, str]] = {}
    for s in book.sections:
        if not s.compare:
            continue
        for item in s.items:
            if isinstance(item, Rule):
                words = item.text + (f" [{item.expr}]" if item.expr and item.expr != item.text else "")
                out[item.key] = (s.title, item.key.split(".", 1)[-1], words)
            else:
                for row in item.rows:
                    cells = ", ".join(f"{h}: {c}" for h, c in zip(item.header[1:], row[1:], strict=False))
                    out[f"{item.key}.{row[0]}"] = (s.title, f"{item.caption}, {row[0]}", cells)
    return out
