"""Phases beyond the core (a mixin of State): laying cards away, demanded cards, play with an excuse card,
and the duel auction. Each is switched on by its key in the variant file; without those keys none runs."""
from __future__ import annotations

from ..cards import bits as _bits

# numbered after the core phases (auction .. done, call, give, declare, surrender)
XPLAY, LAYAWAY, DEMAND, GIVEBACK, RAISE = 10, 11, 12, 13, 14
EXTRA_PHASE_NAMES = ("play", "lay-away", "demand", "give", "raise")


class ExtraPhases:
    """The optional phases; State keeps every field (see its slots)."""

    __slots__ = ()

    # -- dispatch from State.legal_actions / State.apply -------------------------------------------------
    def _legal_extra(self, ph: int) -> list[int]:
        r = self.rules
        seat = self.to_move
        if ph == XPLAY:
            return self._legal_xplay()
        if ph == LAYAWAY:
            return [r.A_DISCARD + c for c in _bits(self._lay_away_mask(seat))]
        if ph == DEMAND:
            return [r.A_DEMAND + c for c in _bits(self._demandable())]
        if ph == RAISE:
            return list(self.round_bids[self.high_level])
        hand = self.hands[seat]
        return [r.A_GIVE + c for c in _bits(hand & r.demands.give or hand)]

    def _apply_extra(self, ph: int, a: int) -> None:
        if ph == XPLAY:
            self._apply_xplay(a)
            return
        if a not in self._legal_extra(ph):
            self._illegal(a)
        self.history.append(a)
        self.lc = None
        r = self.rules
        if ph == LAYAWAY:
            self._lay_away(a - r.A_DISCARD)
        elif ph == DEMAND:
            self._demand(a - r.A_DEMAND)
        elif ph == RAISE:
            self._begin_contract(self.high_seat, self.high if a == r.A_PASS else r.contracts[a - r.A_BID])
        else:
            self._give(a - r.A_GIVE)

    def _move(self, c: int, frm: int, to: int) -> None:
        bit = 1 << c
        self.hands[frm] ^= bit
        self.hl[frm].remove(c)
        self.hands[to] |= bit
        hl = self.hl[to]
        hl.append(c)
        hl.sort()

    # -- laying away ----------------------------------------------------------------------------------------
    def _start_lay_away(self, seat: int) -> None:
        la = self.rules.lay_away
        if la.at_deal:  # before the auction: its fields exist, empty
            self.high, self.high_level, self.high_seat = None, 0, -1
            self.passed = [False] * self.n
            self.bid_of = [-1] * self.n
            self.first_bidder = self.round_no = 0
        if la.take_talon and self.talon:
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
        self.ex_max = min(la.count, self.hands[seat].bit_count())
        if self.ex_max <= 0:
            self._lay_away_done()

    def _lay_away_mask(self, seat: int) -> int:
        """The cards the seat may lay away: those allowed, or any card if he holds none of them."""
        hand = self.hands[seat]
        return hand & self.rules.lay_away.allowed or hand

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
        if self.rules.lay_away.at_deal:
            self._start_auction(0, self.rules.main_round)
        else:
            self._start_play()

    # -- the steps between the contract and the first trick ---------------------------------------------------
    def _pre_play(self) -> bool:
        """Start the next step that comes before play (declarer's lay-away, then demands); False when none is left."""
        r = self.rules
        if self.pre == 0:
            self.pre = 1
            if r.lay_away is not None and not r.lay_away.at_deal:
                self._start_lay_away(self.declarer)
                return True
        if self.pre == 1:
            self.pre = 2
            if self.contract.demands:
                self.ex_count = 0
                self.ex_max = self.contract.demands
                return self._next_demand()
        return False

    # -- demanded cards ---------------------------------------------------------------------------------------
    def _demandable(self) -> int:
        """Cards the declarer may still name: allowed, not his, not laid away by him, not named in vain."""
        d = self.declarer
        m = self.rules.demands.cards & ~self.hands[d] & ~self.discards[d]
        for c, frm, _to, _public in self.handed:
            if frm < 0:
                m &= ~(1 << c)
        return m

    def _next_demand(self) -> bool:
        """Ask for the next demand, if any is left and possible; otherwise go on to play."""
        if self.ex_count < self.ex_max and self._demandable():
            self.phase = DEMAND
            self.to_move = self.declarer
            return True
        self._start_play()
        return True

    def _demand(self, c: int) -> None:
        d = self.declarer
        bit = 1 << c
        holder = next((s for s in range(self.n) if s != d and self.hands[s] & bit), -1)
        if holder < 0:  # nobody holds it (it lies among cards laid away): he names another
            self.handed.append((c, -1, d, True))
            self._next_demand()
            return
        self._move(c, holder, d)
        self.handed.append((c, holder, d, True))
        self.phase = GIVEBACK

    def _give(self, c: int) -> None:
        d = self.declarer
        to = self.handed[-1][1]
        self._move(c, d, to)
        self.handed.append((c, d, to, False))
        self.ex_count += 1
        self._next_demand()

    # -- play with an excuse card -----------------------------------------------------------------------------
    def _play_with_excuse(self) -> None:
        """Play begins: while someone holds the excuse card, in the phase that knows it."""
        ex = self.rules.excuse
        if ex is not None and any(h >> ex.card & 1 for h in self.hands):
            self.phase = XPLAY

    def _excuse_led(self) -> bool:
        t = self.trick
        return len(t) == 1 and t[0] == self.rules.excuse.card

    def _excuse_forced(self) -> bool:
        """Whether the seat to move must play the excuse now: it holds it and its last trick for it has come."""
        ex = self.rules.excuse
        if not ex.latest or len(self.trick_log) + 1 < ex.latest:
            return False
        return bool(self.hands[self.to_move] >> ex.card & 1)

    def _legal_xplay(self) -> list[int]:
        """After an excuse lead any card may be played (it fixes the suit); otherwise the usual rules."""
        if self._excuse_forced():
            self.lm = 1 << self.rules.excuse.card
            return [self.rules.excuse.card]
        if self._excuse_led():
            self.lm = self.hands[self.to_move]
            return self.hl[self.to_move][:]
        self.phase = 3
        try:
            return self.legal_actions()
        finally:
            self.phase = XPLAY

    def _apply_xplay(self, a: int) -> None:
        """Play a card while the excuse is still to come (afterwards play goes on in the plain play phase)."""
        if a not in self._legal_xplay():  # checked in full first: a refused card leaves the phase as it is
            self._illegal(a)
        if not self._excuse_led():
            self.phase = 3
            self.lc = None
            try:
                self.apply(a)
            finally:
                if self.phase == 3 and (a != self.rules.excuse.card or self._excuse_led()):
                    self.phase = XPLAY
            return
        seat = self.to_move
        if not (0 <= a < self.nc and self.hands[seat] >> a & 1):
            self._illegal(a)
        self.history.append(a)
        self.hands[seat] ^= 1 << a
        self.hl[seat].remove(a)
        self.tm |= 1 << a
        self.lm = -1
        self.lc = None
        ctx = self.ctx
        row = self.keyrow = ctx.key[ctx.eff[a]]
        self.led = a
        self.best = row[a]
        self.best_seat = seat
        self.trick.append(a)
        self.phase = 3
        if len(self.trick) < self.n:
            self.to_move = self.nxt[seat]
        else:
            self._end_trick()

    # -- after the auction ---------------------------------------------------------------------------------
    def _start_raise(self) -> None:
        """The auction's winner may name a higher contract (or pass to keep his)."""
        self.phase = RAISE
        self.to_move = self.high_seat
        if len(self.round_bids[self.high_level]) == 1:
            self._begin_contract(self.high_seat, self.high)

    # -- auction ---------------------------------------------------------------------------------------------
    def _pass_without_choice(self) -> None:
        """A seat whose only choice would be to pass passes by itself (auction.auto_pass)."""
        while self.phase == 0 and len(self.round_bids[self.high_level]) == 1 and not self._may_hold(self._forced()):
            self.passed[self.to_move] = True
            self._duel_next()
