"""The rituals before a deal or a session, drawn from a seed apart from the deal's shuffle: the draw for seats
(`session.seats`: each player draws one of the cards laid at the seats and sits at its seat) and the cut
(`deal.cut`: a packet lifted from the top of the shuffled pack goes under the rest). Each given one (a record's)
is checked against what its seed draws."""
from __future__ import annotations

import hashlib
import os
import struct

from ..errors import OmbreError
from ..ruleset import Ruleset


def _entropy(seed: int | None, what: bytes, size: int) -> bytes:
    """`size` bytes of SHAKE-128 of a seed and a ritual's name (no seed: fresh entropy)."""
    return hashlib.shake_128(os.urandom(16) if seed is None else b"%d/" % seed + what).digest(size)


def draw_seats(rules: Ruleset, seed: int | None) -> tuple[int, ...]:
    """The draw for seats (`session.seats`) from a session's first deal's seed: the cards laid at the seats,
    shuffled by 32-bit keys, and player 0 draws the first, player 1 the next, and so on. The card each player
    drew, in player order."""
    sd = rules.seat_draw
    if sd is None:
        raise OmbreError(f"'{rules.variant}' draws for no seats (session.seats)")
    n = len(sd.cards)
    keys = struct.unpack(f"<{n}I", _entropy(seed, b"seats", 4 * n))
    return tuple(sd.cards[i] for i in sorted(range(n), key=keys.__getitem__))


def seating(rules: Ruleset, drawn: tuple[int, ...]) -> tuple[int, ...]:
    """The seat of each player after the draw `drawn` (the card each player drew, in player order)."""
    sd = rules.seat_draw
    assert sd is not None  # a draw is only made or checked where the variant has one
    return tuple(sd.cards.index(c) for c in drawn)


def check_seat_draw(rules: Ruleset, drawn: tuple[int, ...], seed: int | None, dealer: int) -> tuple[int, ...]:
    """A draw for seats given from outside (a record's): one card laid at a seat per player, each once, the one
    its seed draws when there is a seed, and a dealer it fixes (`forehand`) dealing; an OmbreError otherwise."""
    sd = rules.seat_draw
    if sd is None:
        raise OmbreError(f"'{rules.variant}' draws for no seats (session.seats)")
    deck = rules.deck
    if sorted(drawn) != sorted(sd.cards):
        raise OmbreError(f"the draw for seats must give each of the {len(sd.cards)} players one of "
                         f"{', '.join(map(deck.name, sd.cards))}, each once, not "
                         f"{', '.join(map(deck.name, drawn)) or 'nothing'}")
    if seed is not None:
        want = draw_seats(rules, seed)
        p = next((i for i, (a, b) in enumerate(zip(drawn, want, strict=True)) if a != b), -1)
        if p >= 0:
            raise OmbreError(f"the draw for seats differs from what seed {seed} draws: player {p} drew "
                             f"{deck.name(want[p])}, not {deck.name(drawn[p])}")
    if sd.first_dealer >= 0 and dealer != sd.first_dealer:
        raise OmbreError(f"the draw for seats makes seat {sd.first_dealer} the first dealer (whoever draws "
                         f"{deck.name(sd.forehand)} is forehand), not seat {dealer}")
    return tuple(drawn)


def seats_words(rules: Ruleset, drawn: tuple[int, ...], names: list[str] | None = None) -> str:
    """A draw for seats in words: who drew which card and sits where (`names`: the players' names)."""
    deck = rules.deck
    who = names or [f"player {p}" for p in range(len(drawn))]
    return ", ".join(f"{who[p]} {deck.name(c)}: seat {s}" for p, (c, s) in
                     enumerate(zip(drawn, seating(rules, drawn), strict=True)))


def cut_point(rules: Ruleset, seed: int | None) -> int:
    """How many cards the cut (`deal.cut`) lifts from the top of a deal's shuffled pack: at least `min`, and at
    least `min` left under them, from SHAKE-128 of the deal's seed apart from its shuffle; -1 without a cut."""
    cut = rules.cut
    if cut is None:
        return -1
    room = rules.deck.size - 2 * cut.least + 1
    return cut.least + int.from_bytes(_entropy(seed, b"cut", 8), "little") % room


def cut_pack(order: list[int], at: int) -> list[int]:
    """The pack after a cut of `at` cards: the lifted packet goes under the rest (at -1: as it was)."""
    return order if at < 0 else order[at:] + order[:at]


def check_cut(rules: Ruleset, at: int, seat: int | None, dealer: int) -> int:
    """A cut given from outside (a record's): the seat `deal.cut.who` names for this dealer, and a packet of at
    least `min` cards on either side; an OmbreError otherwise."""
    cut = rules.cut
    if cut is None:
        raise OmbreError(f"'{rules.variant}' has no cut (deal.cut)")
    if seat is not None and seat != cut.who[dealer]:
        raise OmbreError(f"seat {cut.who[dealer]} cuts when seat {dealer} deals (deal.cut.who), not seat {seat}")
    hi = rules.deck.size - cut.least
    if type(at) is not int or not cut.least <= at <= hi:
        raise OmbreError(f"the cut must lift from {cut.least} to {hi} cards, not {at!r}")
    return at
