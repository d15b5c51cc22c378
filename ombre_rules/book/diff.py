"""What differs between two rulebooks, item by item and section by section, in the books' own words."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from .model import Book, flatten


@dataclass(frozen=True, slots=True)
class Change:
    """One item that differs: its words in the first book (None: added) and in the second (None: removed)."""

    key: str
    name: str
    old: str | None
    new: str | None

    @property
    def kind(self) -> str:
        return "added" if self.old is None else "removed" if self.new is None else "changed"


@dataclass(slots=True)
class Diff:
    """The changes from book A to book B, grouped by section title in the order of the books."""

    a: str
    b: str
    sections: dict[str, list[Change]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not any(self.sections.values())

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b,
                "sections": [{"title": t, "changes": [dict(asdict(c), kind=c.kind) for c in cs]}
                             for t, cs in self.sections.items() if cs]}


def diff_books(a: Book, b: Book) -> Diff:
    """Compare two books: every item added, removed or changed; a table row in both books, cell by cell."""
    fa, fb = flatten(a), flatten(b)
    out = Diff(a.variant, b.variant)
    for k in list(fa) + [k for k in fb if k not in fa]:
        old, new = fa.get(k), fb.get(k)
        if old is not None and new is not None and old.words == new.words:
            continue
        entry = old or new
        assert entry is not None  # k is an item of one book or the other
        changes = out.sections.setdefault(entry.section, [])
        if old is not None and new is not None and old.cells and new.cells:
            was, now = dict(old.cells), dict(new.cells)
            for col in list(was) + [c for c in now if c not in was]:
                if was.get(col) != now.get(col):
                    changes.append(Change(f"{k}.{col}", f"{old.name}, {col}", was.get(col), now.get(col)))
            continue
        changes.append(Change(k, entry.name, old.words if old else None, new.words if new else None))
    return out
