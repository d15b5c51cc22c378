"""Players: a seat's policy. A player sees only its seat's observation and the legal actions."""
from __future__ import annotations

import random
from typing import Protocol

from .errors import OmbreError


class Player(Protocol):
    def act(self, state, seat: int) -> int:
        """Choose one of `state.legal_actions()` for `seat` (the seat to move)."""


class RandomPlayer:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, state, seat: int) -> int:
        return self.rng.choice(state.legal_actions())


PLAYERS = {"random": RandomPlayer}


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by name: `random`."""
    cls = PLAYERS.get(name)
    if cls is None:
        from .errors import did_you_mean

        raise OmbreError(f"unknown player '{name}'{did_you_mean(name, PLAYERS)} (players: {', '.join(PLAYERS)})")
    return cls(seed)
