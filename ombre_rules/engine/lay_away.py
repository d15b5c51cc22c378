"""Laying cards away (phase LAYAWAY): the dealer right after the deal, or the declarer once the contract is
fixed, takes the talon if asked and lays cards away; or, for a contract with its own `lay_away`, every seat in
play (or the seats its `who` names) lays cards away without a talon, from the declarer round the ring. They stay
the seat's, hidden.

Driven by `lay_away` (`who`, `take_talon`, `count`, `allowed`) and a contract's `lay_away` (`who`, `count`,
`allowed`); compiled in ruleset/mechanics.py. The second kind runs while `pre` is 2 (see `_pre_play`)."""
from __future__ import annotations

from collections.abc import Callable

from .fields import Fields
from .phases import LAYAWAY


class LayAwayStage(Fields):
    """The lay-away phase (a mixin of State)."""

    __slots__ = ()

    def _legal_lay_away(self) -> list[int]:
        return [self.rules.A_DISCARD + c for c in self.rules.deck.bits(self._lay_away_mask(self.to_move))]

    def _random_lay_away(self, rand: Callable[[], float]) -> None:
        """One card laid away in `random_playout`: the one at a random place of the list legal_actions gives,
        applied as apply applies it."""
        cards = self.rules.deck.bits(self._lay_away_mask(self.to_move))
        c = cards[int(rand() * len(cards))]
        self.history.append(self.rules.A_DISCARD + c)
        self.lm = -1
        self.lc = None
        self._lay_away(c)

    def _apply_lay_away(self, a: int) -> None:
        self._lay_away(a - self.rules.A_DISCARD)

    def _start_lay_away(self, seat: int) -> None:
        la = self.rules.lay_away
        assert la is not None  # phase LAYAWAY: the variant has lay_away
        if la.at_deal:  # before the auction: its fields exist, empty
            self.high, self.high_level, self.high_seat = None, 0, -1
            self.passed = [False] * self.n
            self.bid_of = [-1] * self.n
            self.first_bidder = self.round_no = 0
        taken = len(self.talon) if la.take_talon else 0
        if taken:
            m = 0
            for c in self.talon:
                m |= 1 << c
            self.hands[seat] |= m
            self.drawn[seat] |= m
            self.hl[seat] = sorted(self.hl[seat] + self.talon)
            self.talon = []
        self.phase = LAYAWAY
        self.to_move = seat
        self.ex_count = 0
        # the declarer lays away as many as he took (an exchange may have drawn from the talon before him): his
        # hand keeps its size (the dealer's talon is whole: a given deal may hand him its cards already)
        self.ex_max = min(la.count, self.hands[seat].bit_count() if la.at_deal else taken)
        if self.ex_max <= 0:
            self._lay_away_done()

    def _start_each_lay_away(self) -> bool:
        """Open the contract's lay-away for every seat in play, or the seats its `who` names, from the declarer
        round the ring; False when it lays none."""
        c = self.contract
        assert c is not None and c.lay_away is not None  # called for a contract with its own lay-away
        count = self.eval(c.lay_away.count)
        self.ex_max = max(0, min(int(count or 0), self.hands[self.declarer].bit_count() - 1))
        ring = 0
        for s in self.nxt:
            ring |= 1 << s
        if c.lay_away.who is None:
            self.lay_seats = ring
        else:
            who = self.eval(c.lay_away.who)
            self.lay_seats = 0
            for s in [who] if type(who) is int else who or ():
                if type(s) is int:
                    self.lay_seats |= ring & 1 << s
        if not self.ex_max or not self.lay_seats:
            return False
        self.phase = LAYAWAY
        self.to_move = self._next_to_lay(self.declarer)
        self.ex_count = 0
        return True

    def _next_to_lay(self, seat: int) -> int:
        """The first seat from `seat` round the ring that lays cards away (-1: none before the declarer again)."""
        while not self.lay_seats >> seat & 1:
            seat = self.nxt[seat]
            if seat == self.declarer:
                return -1
        return seat

    def _lay_away_mask(self, seat: int) -> int:
        """The cards the seat may lay away: those allowed, or any card if he holds none of them."""
        hand = self.hands[seat]
        if self.pre == 2:  # the contract's lay-away
            assert self.contract is not None and self.contract.lay_away is not None
            return hand & self.contract.lay_away.allowed or hand
        la = self.rules.lay_away
        assert la is not None  # phase LAYAWAY: the variant has lay_away
        return hand & la.allowed or hand

    def _lay_away(self, c: int) -> None:
        seat = self.to_move
        bit = 1 << c
        self.hands[seat] ^= bit
        self.hl[seat].remove(c)
        self.discards[seat] |= bit
        self.ex_count += 1
        if self.ex_count >= self.ex_max:
            self._lay_away_done()

    def _lay_away_done(self) -> None:
        if self.pre == 2:  # the contract's lay-away: the next seat round the ring, until the declarer again
            seat = self.nxt[self.to_move]
            seat = -1 if seat == self.declarer else self._next_to_lay(seat)
            if seat >= 0:
                self.to_move = seat
                self.ex_count = 0
                return
            self._start_play()
            return
        la = self.rules.lay_away
        assert la is not None  # phase LAYAWAY: the variant has lay_away
        if la.at_deal:
            self._open_auction()
        else:
            self._start_play()

