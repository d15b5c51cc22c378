"""Build a variant's rulebook (the model in `model.py`) from its resolved and compiled Ruleset. Every
game-specific word comes from the file: its `doc:` texts, `title:`s, `label:`s and `terms:`, its names, or its
expressions put in words with the chosen options worked in. The sections of the deal are written by
`builder.py`, the contracts and play in `rules_text.py`, the outcomes and payments in `scoring_text.py`."""
from __future__ import annotations

from typing import Any

from .builder import ALL_PASS, Builder, occurring
from .model import Book, Section


def build(rules: Any, options: bool = True, examples: bool = True, payments: bool = True) -> Book:
    """The rulebook of a ruleset; `options=False` leaves out the options section, `examples=False` the worked
    deals (played by the engine), `payments=False` the computed payment tables."""
    from .rules_text import auction, before_play, contract, play
    from .scoring_text import appendix, close_words, outcomes, payment_tables, payment_words

    b = Builder(rules)
    b.idea()
    b.table()
    b.pack()
    b.names()
    b.ranks()
    b.deal()
    auction(b)
    for c in b.occurs:
        if c.base is None or c.base not in b.occurs:  # a suit bid is described with its contract
            contract(b, c)
    before_play(b)
    play(b)
    outcomes(b)
    payment_words(b)
    if payments:
        payment_tables(b)
    if examples:
        from .examples import examples_section

        examples_section(b)
    close_words(b, b.session())
    if options:
        from .options import options_section

        options_section(b)
    appendix(b)
    b.cite()
    _show_cards(b)
    return b.book


def _show_cards(b: Builder) -> None:
    """Card codes in the prose and tables shown as rank and suit sign (the appendix keeps the file's own)."""
    from dataclasses import replace

    from .model import Rule, Table

    text = b.cards.text
    for s in b.book.sections:
        if s.key == "appendix":
            continue
        s.items = [replace(i, text=text(i.text)) if isinstance(i, Rule) else
                   replace(i, caption=text(i.caption), rows=tuple(tuple(text(c) for c in row) for row in i.rows))
                   if isinstance(i, Table) else i for i in s.items]


__all__ = ["Builder", "Section", "build", "occurring", "ALL_PASS"]
