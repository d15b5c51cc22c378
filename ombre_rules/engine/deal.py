"""Dealing: the deck order of a seeded shuffle, a deal given from outside checked, and each card's bit.

The deal itself is compiled from `deal.packets`, `deal.talon` and `sit_out` (ruleset/deal.py); State
deals in its constructor, pays the ante (SettleStage) and starts the first phase: lay-away at the deal
(`lay_away.who: dealer`) or the auction."""
from __future__ import annotations

import hashlib
import os
import struct

from ..cards import MAX_CARDS
from ..errors import OmbreError
from ..ruleset import Ruleset

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


def shuffled(n: int, seed: int | None) -> list[int]:
    """The deck order of a deal: cards sorted by 32-bit keys drawn from SHAKE-128 of the seed (no seed: fresh
    entropy).

    Deterministic on every platform and Python version. Keys tie with probability about n**2 / 2**33
    (2e-7 for 40 cards); a tie keeps deck order, a negligible bias.
    """
    key = os.urandom(16) if seed is None else b"%d" % seed
    fmt = _KEY_FORMATS.get(n)
    if fmt is None:
        fmt = _KEY_FORMATS[n] = struct.Struct(f"<{n}I")
    keys = fmt.unpack(_shake(key).digest(4 * n))
    return sorted(range(n), key=keys.__getitem__)


_KEY_FORMATS: dict[int, struct.Struct] = {}
_shake = hashlib.shake_128
