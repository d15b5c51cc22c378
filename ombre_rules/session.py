"""Sessions: deal after deal with the dealer rotating, the pool and the declared session values carried over,
and a ledger per player."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .engine import State
from .players import act
from .ruleset import Ruleset


@dataclass
class Session:
    """A run of deals among the same players."""

    rules: Ruleset
    seed: int = 0
    dealer: int = 0
    pool: int = 0
    carried: dict | None = None  # the values of `session.carry` for the next deal, by name (None: the start)
    ledger: list[int] = field(default_factory=list)
    deals: list[State] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        if not self.ledger:
            self.ledger = [0] * self.rules.players

    def new_deal(self) -> State:
        """The next deal: next seed from the session's generator, current dealer, pool and carried values."""
        return State(self.rules, seed=self.rng.getrandbits(32), dealer=self.dealer, pool=self.pool,
                     session=self.carried)

    def record(self, state: State) -> None:
        """Book a finished deal: ledger, pool, carried values, and the deal passes to the next dealer."""
        res = state.result
        if res is None:
            raise ValueError("the deal is not over")
        for i, p in enumerate(res.payments):
            self.ledger[i] += p
        self.pool = res.pool_after
        self.carried = res.session_after
        self.dealer = self.rules.next_seat[self.dealer]
        self.deals.append(state)

    def play(self, players, deals: int) -> list[State]:
        """Play `deals` deals with one player object per seat."""
        for _ in range(deals):
            s = self.new_deal()
            while not s.is_terminal:
                seat = s.current_player
                s.apply(act(players[seat], s, seat))
            self.record(s)
        return self.deals
