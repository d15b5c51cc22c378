"""Players: a seat's policy. A player sees only its seat's observation and the legal actions."""
from __future__ import annotations

import random
from typing import Protocol

from .errors import OmbreError


class Player(Protocol):
    def act(self, view: dict, legal: list[int]) -> int:
        """Choose one of `legal` (action ids) seeing only `view`, the seat's observation (`State.view`)."""


class RandomPlayer:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: dict, legal: list[int]) -> int:
        return self.rng.choice(legal)


PLAYERS = {"random": RandomPlayer}


def act(player: Player, state, seat: int) -> int:
    """Ask a player for the move of `seat`, giving it that seat's view and the legal actions, nothing else."""
    return player.act(state.view(seat), state.legal_actions())


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by name: `random`."""
    cls = PLAYERS.get(name)
    if cls is None:
        from .errors import did_you_mean

        raise OmbreError(f"unknown player '{name}'{did_you_mean(name, PLAYERS)} (players: {', '.join(PLAYERS)})")
    return cls(seed)
