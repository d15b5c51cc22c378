"""The double-dummy search: alpha-beta over the cards still to play, every hand open, with a transposition
table at the start of each trick, move ordering and equivalent cards.

The search runs on a private copy of the engine's state and changes only its hands, tricks and won cards
in place (make and unmake), so the engine's own expressions (`play.end_when`) can be evaluated on it. The
legal cards are computed from the same follow rows, key rows and excuse rules the engine plays by
(engine/play.py); `tests/test_solve.py` checks them against `State.legal_actions()`."""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ..cards import bits as _bits
from ..engine.phases import PLAY, XPLAY
from ..engine.piles import excuse_debt, piles
from ..envs import side_of
from ..errors import OmbreError
from ..ruleset.fields import row_after

# names an early end (`play.end_when`) may use and still leave equal cards alike and the history summed up
# by the trick counts
COUNT_NAMES = frozenset({"tricks", "tricks_played", "tricks_left", "declarer", "defenders", "partner", "side",
                         "contract", "opt", "players", "dealer", "forehand", "max", "min", "len", "sum", "abs"})
MEASURES = ("tricks", "points")


class SearchLimit(OmbreError):
    """The search passed its node or time limit before it had an answer; `bounds` are the side's lowest and
    highest total it had proved by then (None: none yet)."""

    bounds: tuple[int | None, ...] | None = None  # (lowest, highest)


class NotInPlay(OmbreError):
    """The position is not one where cards are played."""


class Unsearchable(OmbreError):
    """The position is one the double-dummy search does not play."""


def searchable(state: Any) -> None:
    """Refuse a position whose seats in play hold hands of unequal size (a lay-away by named seats): the search
    plays every seat of the ring to every trick, and does not follow a seat that stops when its hand is empty."""
    if state.uneven:
        raise Unsearchable("the seats in play hold hands of unequal size (cards laid away by named seats): the "
                           "double-dummy search does not follow a seat that stops playing when its hand is empty")



def solvable(state: Any, measure: str) -> None:
    """Refuse a position no solver searches: no cards being played, trumps not fixed yet, an unknown measure."""
    if state.phase not in (PLAY, XPLAY):
        raise NotInPlay(f"no cards are being played (phase {state.phase_name})")
    if state.trump_open:
        raise NotInPlay("the trumps are not fixed yet: they are the suit of the first card led")
    if measure not in MEASURES:
        raise OmbreError(f"unknown measure '{measure}' (expected one of: {', '.join(MEASURES)})")

class Solver:
    """Double-dummy values of one deal's play for the declarer's side (declarer and partner).

    `measure` is what the side counts: `tricks`, or `points` (the card points of the piles it wins, the
    excuse card's exchange applied as `engine.piles` applies it). `aim` is +1 when the side wants more of it
    and -1 when fewer (a contract to lose tricks). The transposition table is kept between calls, so
    positions of one deal solved one after the other share it."""

    def __init__(self, state, measure: str = "tricks", aim: int = 1, max_nodes: int | None = None,
                 seconds: float | None = None) -> None:
        solvable(state, measure)
        searchable(state)
        st = self.st = state.clone()
        r = st.rules
        self.rules = r
        self.measure = measure
        self.aim = aim
        self.hands, self.won, self.tricks = st.hands, st.won, st.tricks
        self.nxt, self.tn, self.rows = st.nxt, st.tn, st.follow_rows
        self.follow_high = st.follow_high
        ctx = st.ctx
        self.key, self.eff, self.power = ctx.key, ctx.eff, ctx.power
        self.wins = len(self.rows) > len(ctx.eff)  # rows by the card winning the trick too (row_after)
        side = set(side_of(st))
        self.side = tuple(s in side for s in range(st.n))
        self.points = [c.points for c in r.deck.cards]
        ex = r.excuse
        self.xcard = ex.card if ex is not None else -1
        self.xbit = 1 << ex.card if ex is not None else 0
        self.xlatest = ex.latest if ex is not None else 0
        self.comp = ex.compensation if ex is not None else 0
        self.xlost_last = ex.last_trick_lost if ex is not None else False
        self.last_trick = st.play_hands[0].bit_count() - 1 if st.play_hands else -1
        self.end_when = st.end_when
        plain_end = self.end_when is None or self.end_when.uses <= COUNT_NAMES
        self.merge = plain_end
        self.keyed_won = not plain_end
        self.ntr = len(st.trick_log)
        self.log = st.trick_log
        self.pile = piles(st) if measure == "points" else []  # read only when measuring points
        self.debt = None
        if measure == "points":
            d = excuse_debt(st)
            if d is not None and d[2] < 0:
                self.debt = (d[0], d[1])
        self.tt: dict = {}
        self.lead_hint: dict = {}
        self.compat: dict = {}
        self.order_pos = self._order_positions()
        self.mcache: dict = {}
        self.alike_suits, self.rest = self._suits_alike()
        self.owner = [-1] * len(self.eff)  # cards never change hands in play
        for seat, h in enumerate(self.hands):
            for c in _bits(h):
                self.owner[c] = seat
        self.trumps = [c for c in ctx.trump_order if c != self.xcard]
        # sure tricks bound the value only where nothing ends the deal early and the side wants tricks
        self.sure = measure == "tricks" and aim > 0 and self.end_when is None and not self.xlatest
        self.top: int | None = None
        self.live = 0
        for h in self.hands:
            self.live |= h
        self.nodes = 0
        self.max_nodes = max_nodes
        self.deadline = time.perf_counter() + seconds if seconds is not None else None
        self.cap = 0

    # -- the position ---------------------------------------------------------------------------------
    def so_far(self) -> int:
        """What the side has already counted (tricks, or card points of its piles)."""
        if self.measure == "tricks":
            return sum(t for s, t in enumerate(self.tricks) if self.side[s])
        pts = self.points
        return sum(pts[c] for s, m in enumerate(self.pile) if self.side[s] for c in _bits(m))

    def root(self) -> tuple:
        """The trick in hand at the root: (seat to move, cards played, leader, led, key row, best, best seat,
        mask of the trick's cards)."""
        st = self.st
        trick = list(st.trick)
        tm = 0
        for c in trick:
            tm |= 1 << c
        if not trick:
            return st.to_move, trick, st.to_move, -1, None, -1, -1, 0
        return st.to_move, trick, st.leader, st.led, st.keyrow, st.best, st.best_seat, tm

    def legal_mask(self, seat: int, trick: list[int], led: int) -> int:
        """The cards `seat` may play to a trick of `trick` (cards so far) whose led card (for the follow
        rules) is `led`: the engine's follow rows, the excuse always or, at its latest trick, alone."""
        hand = self.hands[seat]
        xbit = self.xbit
        if hand & xbit and self.xlatest and self.ntr + 1 >= self.xlatest:
            return xbit
        if not trick or (len(trick) == 1 and trick[0] == self.xcard):
            return hand
        for bind, must in self.rows[led]:
            if hand & bind:
                return hand & must
        return hand

    # -- equivalent cards -----------------------------------------------------------------------------
    def _order_positions(self) -> list[int]:
        """Each card's place in the order of all cards by effective suit, then power (high first)."""
        n = len(self.eff)
        order = sorted(range(n), key=lambda c: (self.eff[c], -self.power[c]))
        self.order = order
        pos = [0] * n
        for i, c in enumerate(order):
            pos[c] = i
        return pos

    def _alike(self, a: int, b: int) -> bool:
        """Whether the engine treats cards a and b alike but for their rank: same suit in play, same points
        (when points count), not the excuse, and the same follow obligations as card played and as card led
        (leaving the two cards themselves aside)."""
        k = (a, b)
        v = self.compat.get(k)
        if v is None:
            v = self.compat[k] = self.compat[(b, a)] = self._alike_now(a, b)
        return v

    def _alike_now(self, a: int, b: int) -> bool:
        if self.eff[a] != self.eff[b] or a == self.xcard or b == self.xcard or self.wins:
            return False  # (rows by winning card: no two cards are taken as alike)
        if self.measure == "points" and self.points[a] != self.points[b]:
            return False
        ba, bb, both = 1 << a, 1 << b, (1 << a) | (1 << b)
        for led, row in enumerate(self.rows):
            if led in (a, b):
                continue
            for bind, must in row:
                if bool(bind & ba) != bool(bind & bb) or bool(must & ba) != bool(must & bb):
                    return False
        ra, rb = self.rows[a], self.rows[b]
        if len(ra) != len(rb):
            return False
        return all((x[0] | both) == (y[0] | both) and (x[1] | both) == (y[1] | both)
                   for x, y in zip(ra, rb, strict=True))

    def _moves(self, m: int, others: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The legal cards m to search, given the cards of the other hands and of the trick: one card of each
        run of equivalent cards (the highest; cards of one suit in play alike to the engine that no card of
        another hand or of the trick separates), by power high to low; and the same rising, winners
        first, as the ordering wants them. Cached by (m, others)."""
        got = self.mcache.get((m, others))
        if got is not None:
            return got
        cards = _bits(m)
        if self.merge and len(cards) > 1:
            order, pos, eff = self.order, self.order_pos, self.eff
            out = []
            for c in cards:
                j = pos[c] - 1
                keep = True
                while j >= 0:
                    d = order[j]
                    if eff[d] != eff[c] or others >> d & 1:
                        break
                    if m >> d & 1:
                        keep = not self._alike(c, d)
                        break
                    j -= 1
                if keep:
                    out.append(c)
            cards = out
        power = self.power
        cards.sort(key=lambda c: -power[c])
        got = self.mcache[(m, others)] = (tuple(cards), tuple(reversed(cards)))
        return got

    # -- the search -----------------------------------------------------------------------------------
    def value(self, alpha: int, beta: int) -> int:
        """The side's value (aim applied: more is better for the side) of the rest of the play from the root,
        fail-soft within the window (alpha, beta)."""
        seat, trick, leader, led, row, best, best_seat, tm = self.root()
        if not trick:
            return self._trick(seat, alpha, beta)
        return self._card(seat, trick, leader, led, row, best, best_seat, tm, alpha, beta)

    def root_cards(self) -> list[int]:
        """The legal cards of the seat to move at the root, lowest id first."""
        seat, trick, _leader, led = self.root()[:4]
        return _bits(self.legal_mask(seat, trick, led))

    def after(self, c: int, alpha: int, beta: int) -> int:
        """The value of the rest once card c is played at the root (fail-soft within the window)."""
        seat, trick, leader, led, row, best, best_seat, tm = self.root()
        return self._child(seat, c, trick, leader, led, row, best, best_seat, tm, alpha, beta)

    def _check(self) -> None:
        """At the node count `cap`: stop at the node limit or past the deadline, else set the next check."""
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit(f"the search passed {self.max_nodes} nodes")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchLimit("the search ran out of time")
        self.cap = self.nodes + (1024 if self.deadline is not None else 1 << 60)
        if self.max_nodes is not None:
            self.cap = min(self.cap, self.max_nodes)

    def _last_trick(self, leader: int) -> int:
        """The last trick, every hand down to one card (which it must play): its worth in tricks."""
        self.nodes += 1
        hands, nxt, key, eff = self.hands, self.nxt, self.key, self.eff
        seat = leader
        c = hands[seat].bit_length() - 1
        row = key[eff[c]]
        best, w = row[c], seat
        free = c == self.xcard  # after an excuse led, the next card sets the suit
        for _ in range(self.tn - 1):
            seat = nxt[seat]
            c = hands[seat].bit_length() - 1
            if free:
                row = key[eff[c]]
                best, w, free = row[c], seat, False
            elif row[c] > best:
                best, w = row[c], seat
        return self.aim if self.side[w] else 0

    def _top_trumps(self, seat: int) -> int:
        """How many of the highest trumps still out `seat` holds: each, led, takes its trick."""
        hand, live, k = self.hands[seat], self.live, 0
        for c in self.trumps:
            if live >> c & 1:
                if not hand >> c & 1:
                    break
                k += 1
        return k

    def _suits_alike(self) -> tuple[list[list[int]], int]:
        """The suits in play whose cards the engine treats all alike but for their rank (each listed high to
        low), and the mask of the other cards. In a transposition key a suit of alike cards is written as
        the owners of its cards still out in rank order, so positions that differ only in which of its
        cards are gone share their entry."""
        if not self.merge:
            return [], (1 << len(self.eff)) - 1
        by_suit: dict[int, list[int]] = {}
        for c in self.order:
            by_suit.setdefault(self.eff[c], []).append(c)
        alike = [cs for cs in by_suit.values()
                 if len(cs) > 1 and all(self._alike(a, b) for i, a in enumerate(cs) for b in cs[i + 1:])]
        rest = (1 << len(self.eff)) - 1
        for cs in alike:
            for c in cs:
                rest &= ~(1 << c)
        return alike, rest

    def _key(self, leader: int) -> tuple:
        hands, live = self.hands, self.live
        rest = self.rest
        k = (leader, *[h & rest for h in hands])
        owner = self.owner
        for cs in self.alike_suits:
            k += (tuple([owner[c] for c in cs if live >> c & 1]),)
        if self.end_when is not None:
            k += tuple(self.tricks)
            if self.keyed_won:
                k += tuple(self.won)
        if self.measure == "points" and self.xbit:
            k += (self.debt, self._comp_state())
        return k

    def _comp_state(self) -> int:
        """While the excuse is still to be played: the lowest card its holder could give for it now (-1:
        none yet; -2: the excuse is played)."""
        for s, h in enumerate(self.hands):
            if h & self.xbit:
                pay = self.pile[s] & self.comp
                return (pay & -pay).bit_length() - 1
        return -2

    def _trick(self, leader: int, alpha: int, beta: int) -> int:
        """The value of the rest from the start of a trick that `leader` leads."""
        if self.measure == "tricks":
            left = self.hands[leader].bit_count()
            if left == 1:
                return self._last_trick(leader)
            lo, hi = (0, left) if self.aim > 0 else (-left, 0)
            if self.sure:
                k = self._top_trumps(leader)
                if self.side[leader]:
                    lo = k
                else:
                    hi = left - k
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
        key = self._key(leader)
        tt = self.tt
        e = tt.get(key)
        if e is not None:
            lo, hi = e
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            lo, hi = -1 << 30, 1 << 30
        v = self._card(leader, [], leader, -1, None, -1, -1, 0, alpha, beta, self.lead_hint.get(key))
        self.lead_hint[key] = self.top
        if v <= alpha:
            hi = v
        elif v >= beta:
            lo = v
        else:
            lo = hi = v
        tt[key] = (lo, hi)
        return v

    def _card(self, seat: int, trick: list[int], leader: int, led: int, row, best: int, best_seat: int,
              tm: int, alpha: int, beta: int, hint: int | None = None) -> int:
        """The value of the rest when `seat` is to play to `trick` (maximised by the side, minimised by the
        others); `self.top` is then the card that gave it. Cards are tried in this order: at a lead, the one
        that was best here before, then high cards; a trick the seat's side holds, lowest first; else the
        lowest card that takes the trick, then the lowest."""
        self.nodes += 1
        if self.nodes > self.cap:
            self._check()
        hand = self.hands[seat]
        m = self.legal_mask(seat, trick, led)
        high, low = self._moves(m, (self.live | tm) & ~hand)
        side = self.side
        mine = side[seat]
        moves: Sequence[int]
        if not trick:
            moves = high if mine else low
            if hint is not None and hint in moves and moves[0] != hint:
                moves = (hint,) + tuple(c for c in moves if c != hint)
        elif best_seat < 0 or side[best_seat] == mine or row is None:
            moves = low
        else:
            moves = [c for c in low if row[c] > best] + [c for c in low if row[c] <= best]
        top = None
        child = self._child
        if mine:
            out = -(1 << 30)
            for c in moves:
                v = child(seat, c, trick, leader, led, row, best, best_seat, tm, alpha, beta)
                if v > out:
                    out, top = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            out = 1 << 30
            for c in moves:
                v = child(seat, c, trick, leader, led, row, best, best_seat, tm, alpha, beta)
                if v < out:
                    out, top = v, c
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        self.top = top
        return out

    def _child(self, seat: int, c: int, trick: list[int], leader: int, led: int, row, best: int, best_seat: int,
               tm: int, alpha: int, beta: int) -> int:
        """Play card c (make), the value of the rest, take it back (unmake). A search stopped by its limit
        leaves the solver's position changed: such a solver is not used again (its tables still hold)."""
        bit = 1 << c
        self.hands[seat] ^= bit
        self.live ^= bit
        if not trick or (len(trick) == 1 and trick[0] == self.xcard):  # a lead, or the card after an excuse led
            row = self.key[self.eff[c]]
            led, best, best_seat = c, row[c], seat
        elif row[c] > best:
            best, best_seat = row[c], seat
            if self.wins:
                led = row_after(led, c, len(self.eff), self.follow_high, self.eff, True)
            elif self.follow_high and self.eff[c] == self.eff[led]:
                led = c  # play.follow_answers = highest
        trick.append(c)
        if len(trick) == self.tn:
            v = self._close(best_seat, tm | bit, leader, trick, alpha, beta)
        else:
            v = self._card(self.nxt[seat], trick, leader, led, row, best, best_seat, tm | bit, alpha, beta)
        trick.pop()
        self.live ^= bit
        self.hands[seat] ^= bit
        return v

    def _close(self, w: int, tm: int, leader: int, trick: list[int], alpha: int, beta: int) -> int:
        """The trick is complete and seat w wins it: what it brings the side, then the rest."""
        self.tricks[w] += 1
        self.won[w] |= tm
        self.ntr += 1
        saved = None
        if self.measure == "tricks":
            gain = self.aim if self.side[w] else 0
        else:
            saved = (self.pile[:], self.debt)
            gain = self.aim * self._pile_gain(w, tm, leader, trick)
        ended = not self.hands[w]
        if self.end_when is not None:
            self.log.append((leader, tuple(trick), w))
            if not ended:
                ended = bool(self.st.eval(self.end_when))
        v = gain if ended else gain + self._trick(w, alpha - gain, beta - gain)
        if self.end_when is not None:
            self.log.pop()
        if saved is not None:
            self.pile, self.debt = saved
        self.ntr -= 1
        self.won[w] ^= tm
        self.tricks[w] -= 1
        return v

    def _pile_gain(self, w: int, tm: int, leader: int, trick: list[int]) -> int:
        """Put the trick on the winner's pile with the excuse's exchange (as `engine.piles` does it); the
        change in the side's card points."""
        pile, pts, side = self.pile, self.points, self.side
        gain = sum(pts[c] for c in trick) if side[w] else 0
        pile[w] |= tm
        if tm & self.xbit:
            owner = self.rules.seat_orders[leader][trick.index(self.xcard)]
            if owner != w and not (self.xlost_last and self.ntr - 1 == self.last_trick):
                pile[w] ^= self.xbit
                pile[owner] |= self.xbit
                x = pts[self.xcard]
                gain += (x if side[owner] else 0) - (x if side[w] else 0)
                self.debt = (owner, w)
        if self.debt is not None:
            owner, to = self.debt
            pay = pile[owner] & self.comp
            if pay:
                low = pay & -pay
                pile[owner] ^= low
                pile[to] |= low
                p = pts[low.bit_length() - 1]
                gain += (p if side[to] else 0) - (p if side[owner] else 0)
                self.debt = None
        return gain
