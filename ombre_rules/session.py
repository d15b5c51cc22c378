"""Sessions: the seat of each player (player p at seat p, or the variant's draw for seats: `session.seats`), the
first dealer (seat 0, the one given, or the variant's draw: `session.first_dealer`, or the seat the draw for seats
makes deal), deal after deal with the dealer rotating, the pool and the declared session values carried over, a
ledger per seat, and the session's end (`session.end_when`, `session.close`) where the variant gives one."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from .engine import State
from .engine.deal import draw_first_dealer
from .engine.rituals import draw_seats, seating
from .engine.session_end import SessionClose, close_session, session_over
from .errors import OmbreError
from .players import Player, act
from .ruleset import Ruleset

T = TypeVar("T")


@dataclass
class Session:
    """A run of deals among the same players."""

    rules: Ruleset
    seed: int = 0
    dealer: int = -1  # the dealer of the next deal; at the start -1: by the variant's draw, else seat 0
    pool: int = 0
    carried: dict | None = None  # the values of `session.carry` for the next deal, by name (None: the start)
    ledger: list[int] = field(default_factory=list)
    deals: list[State] = field(default_factory=list)
    closed: SessionClose | None = None  # the close's payments, once the session has ended

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.seat_draw: tuple[int, ...] = ()  # the draw for seats: the card each player drew, in player order
        self.seats = tuple(range(self.rules.players))  # the seat of each player, in player order
        self._first_seed: int | None = None  # the first deal's seed, drawn first when it seeds the draw for seats
        sd = self.rules.seat_draw
        if sd is not None:
            self._first_seed = self.rng.getrandbits(32)
            self.seat_draw = draw_seats(self.rules, self._first_seed)
            self.seats = seating(self.rules, self.seat_draw)
            if sd.first_dealer >= 0:
                if self.dealer >= 0 and self.dealer != sd.first_dealer:
                    raise OmbreError(f"the draw for seats makes seat {sd.first_dealer} the first dealer (whoever "
                                     f"draws {self.rules.deck.name(sd.forehand)} is forehand), not seat "
                                     f"{self.dealer}")
                self.dealer = sd.first_dealer
        self.dealer_draw: tuple[tuple[int, int], ...] = ()  # the draw for the first dealer, (seat, card) in order
        if self.dealer < 0 and self.rules.first_draw is not None:
            self.dealer, self.dealer_draw = draw_first_dealer(self.rules, self.seed)
        self.dealer = max(self.dealer, 0)
        if not self.ledger:
            self.ledger = [0] * self.rules.players

    def new_deal(self) -> State:
        """The next deal: next seed from the session's generator, current dealer, pool and carried values."""
        first = not self.deals
        seed = self._first_seed if first and self._first_seed is not None else self.rng.getrandbits(32)
        return State(self.rules, seed=seed, dealer=self.dealer, pool=self.pool, session=self.carried,
                     dealer_draw=self.dealer_draw if first else (), seat_draw=self.seat_draw if first else ())

    def by_seat(self, players: Sequence[T]) -> list[T]:
        """Players (or anything of theirs: names, kinds) given in player order, placed at their seats: player p
        plays at seat `seats[p]`."""
        out = list(players)
        for p, s in enumerate(self.seats):
            out[s] = players[p]
        return out

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

    @property
    def over(self) -> bool:
        """Whether the variant's session has ended after the deals recorded (`session.end_when`, else
        `session.deals`); False before the first deal and for a variant that does not say."""
        return bool(self.deals) and session_over(self.deals[-1], len(self.deals), self.ledger)

    def close(self) -> SessionClose:
        """End the session: make the payments of `session.close` (once) and add them to the ledger."""
        if self.closed is None:
            if not self.deals:
                raise ValueError("no deal has been played")
            self.closed = close_session(self.deals[-1], len(self.deals), self.ledger)
            for i, p in enumerate(self.closed.payments):
                self.ledger[i] += p
            self.pool = self.closed.pool_after
        return self.closed

    def _play_one(self, players) -> None:
        s = self.new_deal()
        at = self.by_seat(players)
        while not s.is_terminal:
            seat = s.current_player
            s.apply(act(at[seat], s, seat))
        self.record(s)

    def play(self, players: Sequence[Player], deals: int) -> list[State]:
        """Play `deals` deals with one player object per player, in player order (`seats`: where each sits)."""
        for _ in range(deals):
            self._play_one(players)
        return self.deals

    def play_out(self, players: Sequence[Player], deals: int | None = None) -> list[State]:
        """Play a whole session: until the variant's end (or `deals` deals when given, or the variant names
        no end), then close it."""
        end = self.rules.session_end
        if deals is None and end is None:
            raise ValueError(f"'{self.rules.variant}' does not say when a session ends: give a number of deals")
        while deals is None and not self.over or deals is not None and len(self.deals) < deals:
            self._play_one(players)
        self.close()
        return self.deals
