"""Cards are small ints; a Deck gives them names, suits, ranks and the notation both ways.

>>> deck = Deck.build({"suits": {"x": {"letter": "X"}}, "ranks": ["A", 2, "K"]})
>>> [deck.name(c) for c in range(deck.size)]
['AX', '2X', 'KX']
>>> deck.parse("KX")
2
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidActionError, did_you_mean

MAX_CARDS = 1024  # cards in a deck: the engine's table of card masks (engine/deal.py, BIT) has this many


class Suit:
    """A suit as expressions see it: a name, an index, a letter and the attributes the variant gives it."""

    __slots__ = ("name", "index", "letter", "attrs")

    def __init__(self, name: str, index: int, letter: str, attrs: dict[str, Any]) -> None:
        self.name = name
        self.index = index
        self.letter = letter
        self.attrs = attrs

    def __getattr__(self, key: str) -> Any:
        try:
            return object.__getattribute__(self, "attrs")[key]
        except KeyError:
            return None

    def __repr__(self) -> str:
        return self.name


class Card:
    """A card as expressions see it; interned per deck, so identity is equality."""

    __slots__ = ("id", "rank", "suit", "name", "points")

    def __init__(self, cid: int, rank: str, suit: Suit, name: str, points: int) -> None:
        self.id = cid
        self.rank = rank
        self.suit = suit
        self.name = name
        self.points = points

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Deck:
    """The pack: card ids 0..size-1 in suit order, each with a rank label and a suit."""

    suits: tuple[Suit, ...]
    cards: tuple[Card, ...]
    by_name: dict[str, int] = field(repr=False)
    suit_by_name: dict[str, Suit] = field(repr=False)
    suit_masks: tuple[int, ...] = field(repr=False)
    bits: Callable[[int], list[int]] = field(repr=False)  # the ids of a mask, rising
    cards_in: Callable[[int], list[Card]] = field(repr=False)  # the cards of a mask, by id

    @classmethod
    def build(cls, spec: dict) -> Deck:
        """Make the deck from the variant's `deck` section (already schema-checked)."""
        suits: list[Suit] = []
        cards: list[Card] = []
        default_ranks = spec.get("ranks", [])
        points = {str(k): v for k, v in (spec.get("points") or {}).items()}
        for i, (sname, sdef) in enumerate(spec["suits"].items()):
            sdef = sdef or {}
            attrs = {k: v for k, v in sdef.items() if k not in ("letter", "ranks", "points")}
            suit = Suit(sname, i, str(sdef.get("letter", sname[0].upper())), attrs)
            suits.append(suit)
            spoints = {str(k): v for k, v in (sdef.get("points") or {}).items()}
            for r in sdef.get("ranks", default_ranks):
                label = str(r)
                cards.append(Card(len(cards), label, suit, label + suit.letter,
                                  spoints.get(label, points.get(label, 0))))
        by_name = {c.name: c.id for c in cards}
        masks = []
        for s in suits:
            m = 0
            for c in cards:
                if c.suit is s:
                    m |= 1 << c.id
            masks.append(m)
        return cls(tuple(suits), tuple(cards), by_name, {s.name: s for s in suits}, tuple(masks),
                   bits_function(len(cards)), bits_function(len(cards), values=cards))

    @property
    def by_rank_suit(self) -> dict[tuple[str, int], Card]:
        table = self.__dict__.get("_by_rank_suit")
        if table is None:
            table = {(c.rank, c.suit.index): c for c in self.cards}
            object.__setattr__(self, "_by_rank_suit", table)
        return table

    @property
    def _by_folded(self) -> dict[str, int]:
        table = self.__dict__.get("_folded")
        if table is None:
            table = {c.name.casefold(): c.id for c in self.cards}
            object.__setattr__(self, "_folded", table)
        return table

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def full_mask(self) -> int:
        return (1 << len(self.cards)) - 1

    def name(self, cid: int) -> str:
        return self.cards[cid].name

    def parse(self, text: str) -> int:
        """The id of a card written in notation; an InvalidActionError quoting it otherwise."""
        key = text.strip()
        cid = self.by_name.get(key)
        if cid is None:
            cid = self.by_name.get(key.upper())
        if cid is None:
            cid = self._by_folded.get(key.casefold())
        if cid is None:
            raise InvalidActionError(f"unknown card '{text}'{did_you_mean(key.upper(), self.by_name)}")
        return cid

    def names(self, mask: int) -> list[str]:
        """The names of the cards in a mask, in deck order."""
        return [self.cards[c].name for c in iter_bits(mask)]

    def mask_of(self, names) -> int:
        m = 0
        for n in names:
            m |= 1 << self.parse(str(n))
        return m


def iter_bits(mask: int) -> Iterator[int]:
    """The card ids in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask(ids: Iterable[int]) -> int:
    """The mask of some card ids (the inverse of `bits`)."""
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def bits(mask: int) -> list[int]:
    """The card ids in a mask as a list, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def bits_function(width: int, offset: int = 0, values: Sequence | None = None) -> Callable[[int], list]:
    """A fast `bits` for masks of at most `width` bits (each id plus `offset`, or `values[id]`): a table
    look-up per byte."""
    def item(i: int):
        return values[i] if values is not None else offset + i
    tables = [tuple(tuple(item(8 * k + i) for i in range(8) if b >> i & 1 and 8 * k + i < width) for b in range(256))
              for k in range((width + 7) // 8)]
    parts = ", ".join(f"*_t{k}[m >> {8 * k} & 255]" if k else "*_t0[m & 255]" for k in range(len(tables)))
    env = {f"_t{k}": t for k, t in enumerate(tables)}
    return eval(f"lambda m: [{parts}]", env)  # noqa: S307 - generated from integers only
