"""What differs between two rule sets: their rulebooks item by item (in the books' words), and what they do —
the payments of every made-up end of a deal, the cards a player must play for every card led, the contracts that
can occur, and the same seeded deals played by the same bots (where they first part, how the results change).
When nothing differs between two choices of an option, the diff says why the option does not act."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .behaviour import DEALS, Fact, legal, payments, play
from .build import build
from .inert import why_inert
from .model import flatten

SHOWN = 4  # cases named in one grouped change
GROUPS = 12  # grouped changes shown under one heading of facts (the rest counted)


@dataclass(frozen=True, slots=True)
class Change:
    """One item that differs: its words in the first rule set (None: added) and in the second (None: removed)."""

    key: str
    name: str
    old: str | None
    new: str | None

    @property
    def kind(self) -> str:
        return "added" if self.old is None else "removed" if self.new is None else "changed"


@dataclass(slots=True)
class Diff:
    """The changes from rule set A to B, grouped by heading in the order of the books, and a note (why nothing
    changes, when nothing does)."""

    a: str
    b: str
    sections: dict[str, list[Change]] = field(default_factory=dict)
    note: str = ""

    @property
    def empty(self) -> bool:
        return not any(self.sections.values())

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "note": self.note,
                "sections": [{"title": t, "changes": [dict(asdict(c), kind=c.kind) for c in cs]}
                             for t, cs in self.sections.items() if cs]}


def book_changes(book_a: Any, book_b: Any, out: Diff) -> None:
    """Every rule and table row added, removed or changed; a table row in both, cell by cell."""
    fa, fb = flatten(book_a), flatten(book_b)
    for k in list(fa) + [k for k in fb if k not in fa]:
        old, new = fa.get(k), fb.get(k)
        if old is not None and new is not None and old.words == new.words and old.expr == new.expr:
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
        if old is not None and new is not None and old.words == new.words:
            changes.append(Change(k, old.name, f"{old.words} (as the file writes it: `{old.expr or 'nothing'}`)",
                                  f"{new.words} (as the file writes it: `{new.expr or 'nothing'}`)"))
            continue
        changes.append(Change(k, entry.name, old.words if old else None, new.words if new else None))


def fact_changes(fa: dict[str, Fact], fb: dict[str, Fact], out: Diff, title: str) -> None:
    """Facts that differ, those with the same change grouped into one (naming a few of their cases)."""
    groups: dict[tuple, list[str]] = {}
    for k in list(fa) + [k for k in fb if k not in fa]:
        old, new = fa.get(k), fb.get(k)
        if old is not None and new is not None and old.words == new.words:
            continue
        f = old or new
        assert f is not None  # k is a fact of one rule set or the other
        groups.setdefault((f.heading, old.words if old else None, new.words if new else None), []).append(f.name)
    items = list(groups.items())
    for i, ((heading, old_w, new_w), names) in enumerate(items):
        if i == GROUPS:
            rest = sum(len(set(n)) for _k, n in items[GROUPS:])
            out.sections.setdefault(title, []).append(
                Change(f"{title}|more", "And more", f"{len(items) - GROUPS} further kinds of change",
                       f"in {rest} further cases"))
            break
        names = list(dict.fromkeys(names))
        name = f"{heading}: " + "; ".join(names[:SHOWN]) + (f" (and {len(names) - SHOWN} more)" if len(names) > SHOWN
                                                             else "")
        out.sections.setdefault(title, []).append(Change(f"{title}|{names[0]}", name, old_w, new_w))


def play_changes(a: Any, b: Any, out: Diff, deals: int = DEALS) -> None:
    """The same seeded deals played by the same bots under both rule sets: where each first parts, and the
    results when they differ."""
    title = "The same deals, played by the same players"
    for pa, pb in zip(play(a, deals), play(b, deals), strict=True):
        if pa.actions == pb.actions and pa.result == pb.result:
            continue
        i = next((j for j, (x, y) in enumerate(zip(pa.actions, pb.actions, strict=False)) if x != y),
                 min(len(pa.actions), len(pb.actions)))
        at = f"action {i + 1}"
        old = (f"{at}: {pa.actions[i]}" if i < len(pa.actions) else f"{at}: the deal is over") + \
            f" … result: {pa.result}"
        new = (f"{at}: {pb.actions[i]}" if i < len(pb.actions) else f"{at}: the deal is over") + \
            f" … result: {pb.result}"
        out.sections.setdefault(title, []).append(Change(f"deal.{pa.seed}", f"Deal of seed {pa.seed}", old, new))


def diff_rules(a: Any, b: Any, deals: int = DEALS, behaviour: bool = True, first: bool = False) -> Diff:
    """The diff of two rule sets: the books (without worked deals and options), then (`behaviour`) the payments
    case by case, the cards that must be played, and `deals` seeded deals; a note on why nothing changes.
    `first`: stop after the first of these that differs (what a test of every option choice needs)."""
    out = Diff(a.variant, b.variant)
    book_changes(build(a, options=False, examples=False, payments=False),
                 build(b, options=False, examples=False, payments=False), out)
    same_deck = [c.name for c in a.deck.cards] == [c.name for c in b.deck.cards]
    parts = [lambda: fact_changes(payments(a), payments(b), out, "Payments, case by case"),
             lambda: fact_changes(legal(a), legal(b), out, "The cards a player must play") if same_deck else None,
             lambda: play_changes(a, b, out, deals) if deals else None]
    for part in parts if behaviour else []:
        if first and not out.empty:
            break
        part()
    if out.empty:
        out.note = why_inert(a, b)
    return out
