"""The exchange (phase EXCHANGE): each exchanger in turn discards, then draws as many from the talon; the
first defender may cede his turn; the declarer may take the whole talon instead.

Driven by a contract's `exchange` (`declarer`, `first_defender`, `other_defenders` with `min` and `max`,
`defenders`, `defender_first`, `leftover`, `take_talon`), each falling back to the variant's `exchange`;
compiled in ruleset/contract_rules.py. A surrender offered during the exchange (`play.surrender.at`) opens between
turns (surrender.py). It ends in PlayStage._start_play."""
from __future__ import annotations

from collections.abc import Callable

from .. import kernel
from ..checks import as_count
from .deal import BIT as _BIT
from .fields import Fields
from .phases import EXCHANGE, TRUMP


class ExchangeStage(Fields):
    """The exchange phase (a mixin of State)."""

    __slots__ = ()

    def _legal_exchange(self) -> list[int]:
        """Listed when first asked for, then kept up to date by apply."""
        acts = self.ex_acts
        if acts is None:
            acts = self._listed_exchange()
        return acts[:]

    def _discard_or_draw(self, a: int) -> bool:
        """Apply `a` if it is a legal discard or the draw; False (nothing changed) otherwise."""
        if a not in (self.ex_acts if self.ex_acts is not None else self._listed_exchange()):
            return False
        if a < self.rules.A_BID:  # a discard
            self._discard(a)
            return True
        if a == self.rules.A_DRAW:
            self.history.append(a)
            self._a_draw()
            return True
        return False

    def _apply_exchange(self, a: int) -> None:
        """The one exchange action apply checks against the list: the first defender cedes his turn."""
        self._a_cede()

    def _take_talon(self, seat: int, count: int) -> None:
        """The declarer takes `count` cards from the top of the talon (all, if it holds no more) into his hand
        (he then discards, drawing nothing)."""
        taken, self.talon = self.talon[:count], self.talon[count:]
        m = 0
        for c in taken:
            m |= 1 << c
        self.hands[seat] |= m
        self.hl[seat] = sorted(self.hl[seat] + taken)
        self.drawn[seat] |= m
        self.taker = seat

    def _continue_exchange(self) -> None:
        """Give the next exchanger his turn, skipping those who may change nothing; then start play."""
        c = self.contract
        assert c is not None  # the exchange follows a contract
        ex = c.exchange
        decl = self.declarer
        queue = self.ex_queue
        trump_due = self.trump is None and c.trump_mode == "named"  # named, but not yet
        while queue:
            seat = queue[0]
            if trump_due and seat != decl and self.phase != TRUMP:
                self.phase = TRUMP
                self.to_move = decl
                return
            if self.sur_due and self._surrender_due():
                return
            del queue[0]
            self.to_move = seat  # the exchanger whose limits are read (`exchanger`)
            if seat == decl:
                lim = ex.declarer
                first_defender = False
            else:
                first_defender = not self.ex_first_used
                lim = ex.first if first_defender else ex.other
                self.ex_first_used = True
            hi = lim.max_const
            if hi is None:
                hi = as_count(self.eval(lim.max))
            held = self.hands[seat].bit_count()
            keep = self.drawn[seat] if ex.keep_taken and seat == self.taker else 0  # taken: not laid away again
            if keep:
                held -= keep.bit_count()
            room = held if seat == self.taker else len(self.talon)
            cap = hi if hi < room else room  # at most the limit, the cards to draw and the cards held
            if held < cap:
                cap = held
            if cap <= 0:
                continue
            lo = lim.min_const
            if lo is None:
                lo = as_count(self.eval(lim.min))
            lo = 0 if lo < 0 else (cap if lo > cap else lo)
            self.phase = EXCHANGE
            self.to_move = seat
            self.ex_count = 0
            self.ex_min = lo
            self.ex_max = cap
            self.ex_keep = keep
            self.ex_can_cede = (first_defender and ex.defender_first == "ceded" and not self.ceded
                                and bool(queue))
            self.ex_acts = None  # listed when first asked for
            return
        if self.sur_due and self._surrender_due():
            return
        if self._start_announce():
            return
        if trump_due:
            self.phase = TRUMP
            self.to_move = decl
            return
        self._start_play()

    def _exchange_choices(self) -> tuple[list[int], bool, bool]:
        """What the exchanger may do, in the order of his legal actions: discard one of these cards (none once
        he has discarded his most), draw (once he has discarded his least), cede (before his first discard)."""
        k = self.ex_count
        cards = self.hl[self.to_move] if k < self.ex_max else []
        keep = self.ex_keep
        if keep and cards:
            cards = [c for c in cards if not keep >> c & 1]
        return cards, k >= self.ex_min, k == 0 and self.ex_can_cede

    def _listed_exchange(self) -> list[int]:
        """The exchanger's legal actions, listed and kept (apply keeps the list up to date from then on)."""
        cards, draw, cede = self._exchange_choices()
        base = self.nc
        acts = self.ex_acts = [base + c for c in cards]
        if draw:
            acts.append(self.rules.A_DRAW)
        if cede:
            acts.append(self.rules.A_CEDE)
        return acts

    def _discard(self, a: int) -> None:
        """A legal discard action of the exchanger to move."""
        c = a - self.nc
        bit = _BIT[c]
        seat = self.to_move
        self.history.append(a)
        self.hands[seat] ^= bit
        self.hl[seat].remove(c)
        self.discards[seat] |= bit
        k = self.ex_count = self.ex_count + 1
        acts = self.ex_acts
        if acts is None:  # not listed yet: nothing to keep up to date
            return
        r = self.rules
        if k == self.ex_max:
            self.ex_acts = [r.A_DRAW]
            return
        acts.remove(a)
        if k == 1 and self.ex_can_cede:
            acts.remove(r.A_CEDE)
        if k == self.ex_min:
            acts.append(r.A_DRAW)

    def _a_draw(self) -> None:
        seat = self.to_move
        k = self.ex_count
        assert self.contract is not None  # the exchange follows a contract
        if seat == self.taker:  # he took the talon: he draws nothing
            k = 0
        got = self.talon[:k]
        del self.talon[:k]
        m = 0
        for c in got:
            m |= _BIT[c]
        self.hands[seat] |= m
        if got:
            hl = self.hl[seat]
            hl += got
            hl.sort()
        self.drawn[seat] |= m
        self.last_exchanger = seat
        self._continue_exchange()

    def _a_cede(self) -> None:
        self.ceded = True
        self.ex_first_used = False
        self.ex_queue.insert(1, self.to_move)
        self._continue_exchange()

    def _picked_exchange(self, pick: Callable[[int, int, bool, bool], int]) -> None:
        """Exchange turns of `State.play_exchange`: `pick(seat, may, draw, cede)` names the exchanger's action
        when he has more than one (the choices of `_exchange_choices`, the cards as a mask); a discard is made
        as `_discard` makes it, a draw as `_discard_or_draw` makes it, a cession by `apply`."""
        r = self.rules
        hands, history = self.hands, self.history
        base, draw_a, cede_a = self.nc, r.A_DRAW, r.A_CEDE
        while self.phase == EXCHANGE:
            seat = self.to_move
            k = self.ex_count
            may = hands[seat] & ~self.ex_keep if k < self.ex_max else 0
            draw = k >= self.ex_min
            cede = k == 0 and self.ex_can_cede
            if not may and not cede:  # the draw alone
                a = draw_a
            elif not draw and not cede and not may & (may - 1):  # the one card he may, and must, discard
                a = may.bit_length() - 1
            else:
                a = pick(seat, may, draw, cede)
            if a == draw_a:
                history.append(a)
                self._a_draw()
            elif a == cede_a:
                self.apply(a)
            else:
                self._discard(base + a)

    def _random_exchange(self, rand: Callable[[], float]) -> None:
        """Exchange turns of `random_playout`: an action picked by its place in the list legal_actions would
        give (the cards held, then draw, then cede), without building it; a discard made as `_discard` makes it."""
        r = self.rules
        history, hands, hl, discards = self.history, self.hands, self.hl, self.discards
        base = self.nc
        while self.phase == EXCHANGE:
            if self.ex_acts is not None or self.ex_keep:  # listed by a caller (kept up to date by _discard), or
                # cards he took he may not lay away: the list as legal_actions gives it
                cards, draw, cede = self._exchange_choices()
                n = len(cards)
                i = int(rand() * (n + draw + cede))
                if i < n:
                    self._discard(base + cards[i])
                    continue
                drew = i == n and draw
            else:
                seat = self.to_move
                cards = hl[seat]
                k, lo, hi = self.ex_count, self.ex_min, self.ex_max
                cede = k == 0 and self.ex_can_cede
                if kernel.ON and base <= kernel.MAX_CARDS:  # the same loop in C
                    k, drew = kernel.random_discards(rand, cards, history, hands, discards, seat, k, lo, hi, cede,
                                                     base)
                else:
                    while True:  # this exchanger's discards, then his draw or cede
                        n = len(cards) if k < hi else 0
                        draw = k >= lo
                        i = int(rand() * (n + draw + cede))
                        if i >= n:
                            break
                        c = cards[i]
                        del cards[i]
                        bit = _BIT[c]
                        history.append(base + c)
                        hands[seat] ^= bit
                        discards[seat] |= bit
                        k += 1
                        cede = False
                    drew = i == n and draw
                self.ex_count = k
            if drew:
                history.append(r.A_DRAW)
                self._a_draw()
            else:
                self.apply(r.A_CEDE)
