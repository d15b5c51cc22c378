"""Dealing: the deck order of a seeded shuffle, a deal given from outside checked, and each card's bit.

The deal itself is compiled from `deal.packets`, `deal.talon` and `sit_out` (ruleset/deal.py); State
deals in its constructor, pays the ante (SettleStage) and starts the first phase: lay-away at the deal
(`lay_away.who: dealer`) or the auction."""
from __future__ import annotations

import hashlib
import os
import struct

from .. import kernel
from ..cards import MAX_CARDS
from ..errors import OmbreError
from ..ruleset import Ruleset
from .rituals import cut_pack, cut_point

BIT = tuple(1 << i for i in range(MAX_CARDS))  # the mask of each card id


def check_deal(rules: Ruleset, hands: list[int], talon: list[int], dealer: int = 0) -> None:
    """A deal given from outside must have a hand per seat, none for a seat sitting out, and hold every card
    exactly once."""
    if len(hands) != rules.players:
        raise OmbreError(f"a deal needs {rules.players} hands, not {len(hands)}")
    for s in rules.sitters[dealer]:
        if hands[s]:
            raise OmbreError(f"seat {s} sits this deal out and gets no cards")
    seen = 0
    for m in list(hands) + [1 << c for c in talon]:
        if seen & m:
            raise OmbreError(f"card {', '.join(rules.deck.names(seen & m))} is dealt twice")
        seen |= m
    if seen != rules.deck.full_mask:
        raise OmbreError(f"the deal leaves out {', '.join(rules.deck.names(rules.deck.full_mask & ~seen))}")


def dealt_turn_up(rules: Ruleset, order: list[int], dealer: int, seed: int | None) -> int:
    """The card `deal.turn_up` turns in a deal made from a deck order: the one at its place in the order, or
    a second pack's card drawn from the seed."""
    at = rules.turn_up_at[dealer]
    return order[at] if at >= 0 else second_pack_card(rules.deck.size, seed)


def given_turn_up(rules: Ruleset, hands: list[int], talon: list[int], dealer: int, seed: int | None,
                  card: int | None) -> int:
    """The turned card of a deal given from outside, checked: the talon's first card (talon_top), a card of the
    dealer's hand (dealer_last) or any card (second_pack); one a seed deals when not given; -1 without one."""
    kind = rules.turn_up_from
    if kind is None:
        if card is not None and card >= 0:
            raise OmbreError(f"'{rules.variant}' turns no card for the deal (deal.turn_up)")
        return -1
    if card is not None and not (type(card) is int and 0 <= card < rules.deck.size):
        raise OmbreError(f"the turned card must be a card of the deck, not {card!r}")
    if kind == "talon_top":
        if not talon:
            raise OmbreError("the deal turns the talon's top card, but the talon is empty")
        if card is not None and card != talon[0]:
            raise OmbreError(f"the turned card {rules.deck.name(card)} is not the talon's first, "
                             f"{rules.deck.name(talon[0])}")
        return talon[0]
    if card is None and seed is not None:
        order, _at = dealt_order(rules, seed)
        masks, _lists, rest = rules.deal(order, dealer)
        if masks == list(hands) and rest == list(talon):  # the seed's own deal
            card = dealt_turn_up(rules, order, dealer, seed)
    if card is None:
        what = "the dealer's last card" if kind == "dealer_last" else "the card of the second pack"
        raise OmbreError(f"'{rules.variant}' turns {what} for the deal: give the turned card with the hands")
    if kind == "dealer_last" and not hands[dealer] >> card & 1:
        raise OmbreError(f"the turned card {rules.deck.name(card)} is not in the dealer's hand (seat {dealer})")
    return card


def second_pack_card(n: int, seed: int | None) -> int:
    """A card drawn from a second pack of n cards for a deal (`deal.turn_up: second_pack`): from SHAKE-128 of
    the seed, apart from the deal's own shuffle (no seed: fresh entropy)."""
    key = os.urandom(16) if seed is None else b"%d/second pack" % seed
    return int.from_bytes(_shake(key).digest(8), "little") % n


def draw_first_dealer(rules: Ruleset, seed: int | None) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The draw for a session's first dealer (`session.first_dealer`): every seat at the table draws a card from
    a pack shuffled from SHAKE-128 of the seed, apart from the deals' shuffles, seat 0 first; the seats whose cards
    tie for best draw again, in seat order, from what is left. (the dealer, the draws as (seat, card) in order)."""
    fd = rules.first_draw
    if fd is None:
        raise OmbreError(f"'{rules.variant}' draws for no first dealer (session.first_dealer)")
    key = os.urandom(16) if seed is None else b"%d/first dealer" % seed
    n = rules.deck.size
    keys = struct.unpack(f"<{n}I", _shake(key).digest(4 * n))
    pack = sorted(range(n), key=keys.__getitem__)
    drawn: list[tuple[int, int]] = []
    seats = list(range(rules.players))
    while len(seats) > 1 and len(pack) >= len(seats):
        got = [(s, pack.pop(0)) for s in seats]
        drawn += got
        seats = _tied_best(fd.key, got)
    return seats[0], tuple(drawn)


def _tied_best(key: tuple[tuple[int, ...], ...], got: list[tuple[int, int]]) -> list[int]:
    """Of one round of a draw, (seat, card) in order, the seats whose cards tie for best by `key` (per card)."""
    best = max(key[c] for _s, c in got)
    return [s for s, c in got if key[c] == best]


def drawn_dealer(rules: Ruleset, drawn: list[tuple[int, int]]) -> int:
    """The dealer a draw given from outside (a record's) makes, checked: seats of the table, cards of the deck,
    no card twice, rounds of the seats still tied; an OmbreError otherwise."""
    fd = rules.first_draw
    if fd is None:
        raise OmbreError(f"'{rules.variant}' draws for no first dealer (session.first_dealer)")
    cards = [c for _s, c in drawn]
    if len(set(cards)) != len(cards) or any(not 0 <= c < rules.deck.size for c in cards):
        raise OmbreError("the draw for the first dealer names a card twice or a card outside the deck")
    seats = list(range(rules.players))
    at = 0
    while len(seats) > 1 and at + len(seats) <= rules.deck.size:  # a pack used up: the first tied seat
        got = drawn[at:at + len(seats)]
        if [s for s, _c in got] != seats:
            raise OmbreError(f"the draw for the first dealer must go on with seats {seats} in order")
        at += len(seats)
        seats = _tied_best(fd.key, got)
    if at != len(drawn):
        raise OmbreError("the draw for the first dealer goes on after one seat has the best card")
    return seats[0]


def drawn_words(rules: Ruleset, drawn: tuple[tuple[int, int], ...]) -> str:
    """A draw for the first dealer in words: each seat's card in the order drawn, and who deals first."""
    cards = ", ".join(f"seat {s} {rules.deck.name(c)}" for s, c in drawn)
    return f"{cards}; seat {drawn_dealer(rules, list(drawn))} deals first"


def dealt_order(rules: Ruleset, seed: int | None) -> tuple[list[int], int]:
    """The pack as a seed deals it: shuffled, then cut where the variant cuts (`deal.cut`). (the deck order,
    the number of cards the cut lifted or -1)."""
    order = shuffled(rules.deck.size, seed)
    at = cut_point(rules, seed)
    return cut_pack(order, at), at


def shuffled(n: int, seed: int | None) -> list[int]:
    """The deck order of a deal: cards sorted by 32-bit keys drawn from SHAKE-128 of the seed (no seed: fresh
    entropy).

    Deterministic on every platform and Python version. Keys tie with probability about n**2 / 2**33
    (2e-7 for 40 cards); a tie keeps deck order, a negligible bias.
    """
    if seed is not None and kernel.ON and n <= kernel.MAX_SHUFFLE:  # the same order, made in C
        order: list[int] | None = kernel.shuffled(n, seed)
        if order is not None:
            return order
    key = os.urandom(16) if seed is None else b"%d" % seed
    fmt = _KEY_FORMATS.get(n)
    if fmt is None:
        fmt = _KEY_FORMATS[n] = struct.Struct(f"<{n}I")
    keys = fmt.unpack(_shake(key).digest(4 * n))
    return sorted(range(n), key=keys.__getitem__)


_KEY_FORMATS: dict[int, struct.Struct] = {}
_shake = hashlib.shake_128
