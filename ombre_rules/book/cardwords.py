"""Cards in the words of a rulebook: a card as its rank and its suit's symbol (A♠) where the suit has one, else by
its name (XXI); a set of cards (a mask) described by suit, whole suits and ranks grouped (`any ♥, ♦, ♣ or ♠
but the K`); the plain text of the file with its card codes (AS) shown so."""
from __future__ import annotations

import re
from typing import Any

from .words import join


def card_name(card: Any) -> str:
    """A card as a person reads it: rank and symbol (A♠), or its own name when its suit has no symbol."""
    sym = card.suit.attrs.get("symbol")
    return f"{card.rank}{sym}" if sym else card.name


def suit_name(suit: Any) -> str:
    sym = suit.attrs.get("symbol")
    return f"{suit.name} ({sym})" if sym else suit.name


class Cards:
    """One deck's card words: names, masks and the card codes in a text replaced."""

    def __init__(self, deck: Any) -> None:
        self.deck = deck
        self.names = {c.name: card_name(c) for c in deck.cards}
        codes = sorted((n for n, shown in self.names.items() if shown != n), key=len, reverse=True)
        self.pattern = re.compile(r"(?<![\w♠♣♥♦])(" + "|".join(map(re.escape, codes)) + r")(?![\w])") if codes else None

    def name(self, cid: int) -> str:
        return card_name(self.deck.cards[cid])

    def row(self, cids: list[int]) -> str:
        return " ".join(self.name(c) for c in cids)

    def text(self, s: str) -> str:
        """A text with every card code in it (AS, 7D) shown as its rank and symbol."""
        return self.pattern.sub(lambda m: self.names[m.group(1)], s) if self.pattern else s

    def mask(self, mask: int) -> str:
        """The cards of a mask, by suit: whole suits named, and suits with the same ranks grouped."""
        deck = self.deck
        groups: list[tuple[frozenset[str], list[Any]]] = []
        for su in deck.suits:
            ranks = frozenset(c.rank for c in deck.cards if c.suit is su and mask >> c.id & 1)
            if not ranks:
                continue
            for g in groups:
                if g[0] == ranks:
                    g[1].append(su)
                    break
            else:
                groups.append((ranks, [su]))
        parts = []
        for ranks, suits in groups:
            every = {c.rank for c in deck.cards if c.suit is suits[0]}
            names = join([s.attrs.get("symbol") or s.name for s in suits], "or")
            if len(suits) == 1 and not suits[0].attrs.get("symbol"):
                left = [c.name for c in deck.cards if c.suit is suits[0] and not mask >> c.id & 1]
                shown = [c.name for c in deck.cards if c.suit is suits[0] and mask >> c.id & 1]
                parts.append(f"any of the {names}" if not left else f"any of the {names} except {join(left)}"
                             if len(shown) > len(left) else join(shown, "or"))
            elif ranks == every:
                parts.append(f"any card of {names}")
            elif len(ranks) * 2 > len(every) and all({c.rank for c in deck.cards if c.suit is s} == every
                                                     for s in suits):
                left = [r for r in _ordered(deck, suits[0]) if r not in ranks]
                parts.append(f"any card of {names} except the {join(left)}")
            else:
                parts.append(f"a {join(_ordered(deck, suits[0], ranks), 'or')} of {names}")
        return join(parts, "or") if len(parts) < 3 else "; or ".join(parts) or "no card"


def _ordered(deck: Any, suit: Any, only: frozenset[str] | None = None) -> list[str]:
    return [c.rank for c in deck.cards if c.suit is suit and (only is None or c.rank in only)]
