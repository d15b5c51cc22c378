"""One deal: `legal_actions()`, `apply(action)`, `clone()`, `view(seat)`, `result`.

Actions are ints (see `Ruleset.action_str` / `Ruleset.parse_action` for the notation). Hands are bitmasks.
"""
from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Callable
from typing import Any, NamedTuple

from ..envs import SEAT_VARS, DealEnv
from ..errors import IllegalActionError, OmbreError, SpecError
from ..lang.compiler import block_error
from ..ruleset import Contract, Ruleset
from .phases import EXTRA_PHASE_NAMES, RAISE, XPLAY, ExtraPhases

AUCTION, TRUMP, EXCHANGE, PLAY, CONSENT, DONE, CALL, GIVE, DECLARE, SURRENDER = range(10)
PHASE_NAMES = ("auction", "trump", "exchange", "play", "consent", "done", "call", "give", "declare",
               "surrender") + EXTRA_PHASE_NAMES


class Result(NamedTuple):
    """How a deal ended: the outcome, tricks, and each seat's net payment (pool changes included)."""

    outcome: str
    declarer: int | None
    contract: str | None
    trump: str | None
    tricks: tuple[int, ...]
    payments: tuple[int, ...]
    pool_before: int
    pool_after: int

    def to_dict(self) -> dict:
        return {"outcome": self.outcome, "declarer": self.declarer, "contract": self.contract,
                "trump": self.trump, "tricks": list(self.tricks), "payments": list(self.payments),
                "pool_before": self.pool_before, "pool_after": self.pool_after}


class State(ExtraPhases):
    """The state of one deal of a variant. Create with `State(rules, seed=…)` or with given hands."""

    # the fields of the play loop first, so they share cache lines
    __slots__ = ("phase", "to_move", "lm", "nc", "hands", "hl", "trick", "history", "claim_pending", "concede_ok",
                 "keyrow", "best", "best_seat", "leader", "led", "tm", "follow_rows", "nxt", "n", "ctx", "rules",
                 "tricks", "won", "trick_log", "claim_at", "ex_count", "ex_min", "ex_max", "ex_can_cede", "ex_acts",
                 "discards", "lc",
                 "dealer", "seed", "talon", "deal_hands", "deal_talon", "pool_before", "pool", "payments",
                 "declarer", "contract", "trump", "turned", "high", "high_seat", "high_level", "passed",
                 "first_bidder", "round_no", "round_bids", "bid_levels", "ex_queue", "ex_first_used", "ceded",
                 "drawn", "last_exchanger", "play_hands", "committed", "stopped", "conceded", "concede_refused",
                 "consent_queue", "result", "outcome", "called", "partner", "told", "claim_seat", "bid_of",
                 "orders", "tn", "shown", "end_when", "high_by", "duel_p", "duel_q", "duel_queue",
                 "handed", "pre")

    def __init__(self, rules: Ruleset, *, seed: int | None = None, dealer: int = 0, pool: int = 0,
                 hands: list[int] | None = None, talon: list[int] | None = None) -> None:
        self.rules = rules
        n = self.n = rules.players
        if not 0 <= dealer < n:
            raise OmbreError(f"dealer must be a seat from 0 to {n - 1}, not {dealer}")
        self.dealer = dealer
        self.seed = seed
        if hands is None:  # the deal function gives fresh lists
            hands, self.hl, talon = rules.deal(shuffled(rules.deck.size, seed), dealer)
        else:
            _check_deal(rules, hands, talon or [], dealer)
            self.hl = [rules.deck.bits(h) for h in hands]
            hands = list(hands)
            talon = list(talon or [])
        self.hands = hands
        self.talon = talon
        self.deal_hands = tuple(hands)
        self.deal_talon = tuple(talon)
        self.pool_before = self.pool = pool
        self.payments = [0] * n
        self.history: list[int] = []
        self.declarer = self.turned = self.last_exchanger = self.claim_at = -1
        self.leader = self.led = self.best = self.best_seat = self.lm = -1
        self.tm = 0
        self.contract: Contract | None = None
        self.trump = self.ctx = self.lc = self.result = self.outcome = None
        self.discards = [0] * n
        self.drawn = [0] * n
        self.tricks = [0] * n
        self.won = [0] * n
        self.ex_count = self.ex_min = self.ex_max = 0
        self.ceded = self.ex_can_cede = self.ex_first_used = False
        self.committed = self.stopped = self.conceded = False
        self.claim_pending = self.concede_ok = self.concede_refused = False
        # sequences replaced (not changed in place) when their phase starts: shared empty tuples until then
        self.ex_queue = self.ex_acts = self.play_hands = self.consent_queue = self.keyrow = self.follow_rows = ()
        self.round_bids = self.bid_levels = ()
        self.trick: list[int] = []
        self.trick_log: list[tuple[int, tuple[int, ...], int]] = []
        self.nc = rules.A_DISCARD
        self.nxt = rules.rings[dealer]
        self.called = self.partner = self.claim_seat = -1
        self.told = 0
        self.orders = rules.orders[dealer]
        self.tn = rules.active
        self.shown = [0] * n
        self.end_when = None
        self.high_by = self.duel_p = self.duel_q = -1
        self.duel_queue: list[int] = []
        self.handed: list[tuple[int, int, int, bool]] = []  # (card, from seat or -1, to seat, public)
        self.pre = 0
        if rules.ante is not None:
            self._ante()
        if rules.lay_away is not None and rules.lay_away.at_deal:
            self._start_lay_away(dealer)
        else:
            self._start_auction(0, rules.main_round)

    # -- public API ------------------------------------------------------------------------------------
    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def is_terminal(self) -> bool:
        return self.phase == DONE

    @property
    def current_player(self) -> int:
        """The seat to act, or -1 when the deal is over."""
        return -1 if self.phase == DONE else self.to_move

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Every seat that takes part in the deal once, in order of play, starting at `seat`."""
        return self.orders[seat]

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to move (empty when the deal is over)."""
        ph = self.phase
        if ph == 3:  # PLAY, the hot path
            seat = self.to_move
            acts = self.hl[seat]
            if self.trick:
                hand = self.hands[seat]
                for bind, must, table in self.follow_rows[self.led]:
                    if hand & bind:
                        self.lm = hand & must
                        acts = [c for c in acts if table[c]]
                        break
                else:
                    self.lm = hand
                    acts = acts[:]
            else:
                self.lm = self.hands[seat]
                acts = acts[:]
            if self.claim_pending or self.concede_ok:
                self._play_extras(acts)
            return acts
        r = self.rules
        if ph == 2:  # EXCHANGE: listed when first asked for, then kept up to date by apply
            acts = self.ex_acts
            if acts is None:
                acts = self._listed_exchange()
            return acts[:]
        if ph == 0:  # AUCTION
            if self._forced():
                return [r.A_PASS, r.A_HOLD]
            acts = list(self.round_bids[self.high_level])
            if self.round_no == 2:  # a seat forced to choose a contract may not pass
                acts.remove(r.A_PASS)
            if r.bid_conditions:
                acts = [a for a in acts if a == r.A_PASS or self._bid_allowed(a)]
            if self._may_hold(False):
                acts.append(r.A_HOLD)
            return acts
        acts = self._legal_other(ph, r)
        self.lc = tuple(acts)
        return acts

    def _forced(self) -> bool:
        """Whether the seat to move is forced: its standing bid was overcalled by one that lets it only pass or
        take the high bid over."""
        au = self.rules.auction
        return (au.forced_bid is not None and self.high in au.forced_by and self.high_seat != self.to_move
                and self.bid_of[self.to_move] == au.forced_bid.index)

    def _bid_ok(self, a: int) -> bool:
        """A pass or bid of the round is refused only to a forced seat: an overcalled one may not bid, one
        forced to choose a contract may not pass."""
        if a == self.rules.A_PASS:
            return self.round_no != 2
        return not self._forced()

    def _may_hold(self, forced: bool) -> bool:
        """Whether the seat to move may take over the high bid at its level: it bids earlier, or it is forced
        (`forced`, from _forced)."""
        if forced:
            return True
        hs = self.high_seat
        if hs < 0 or not self.rules.hold_by_priority or not self.high.holdable:
            return False
        fb, n = self.first_bidder, self.n
        if (self.to_move - fb) % n >= (hs - fb) % n:
            return False
        return self.rules.auction.choice == "bid" or bool(self._choices(self.high_level))

    def _play_extras(self, acts: list[int]) -> None:
        r = self.rules
        if self.claim_pending:
            acts.append(r.A_STOP)
        if self.concede_ok and self.to_move == self.declarer and not self.concede_refused \
                and len(self.trick_log) < self.contract.play.concede[0]:
            acts.append(r.A_CONCEDE)

    def _legal_other(self, ph: int, r: Ruleset) -> list[int]:
        if ph == TRUMP:
            if self.contract.trump_allowed is None:
                return list(range(r.A_TRUMP, r.A_TRUMP + len(r.deck.suits)))
            return [r.A_TRUMP + s.index for s in self._trump_options()]
        if ph == CONSENT:
            return [r.A_ACCEPT, r.A_REFUSE]
        if ph == CALL:  # worked out once, as the phase began
            return list(self.lc)
        if ph == GIVE:
            return [r.A_GIVE + c for c in self.hl[self.declarer] if c != self.called]
        if ph == DECLARE:
            return [r.A_BID + c.index for c in self._choices(self.high_level)]
        if ph == SURRENDER:
            return [r.A_CONCEDE, r.A_CONTINUE]
        if ph >= XPLAY:
            return self._legal_extra(ph)
        return []

    def apply(self, a: int) -> None:
        """Apply a legal action of the seat to move; IllegalActionError (nothing changed) otherwise."""
        ph = self.phase
        if ph == 3 and 0 <= a < self.nc:  # a card played: the hot path
            seat = self.to_move
            m = self.lm
            if m < 0:
                hand = m = self.hands[seat]
                if self.trick:
                    for bind, must, _table in self.follow_rows[self.led]:
                        if hand & bind:
                            m = hand & must
                            break
            bit = _BIT[a]
            if not m & bit:
                self._illegal(a)
            self.lm = -1
            self.history.append(a)
            self.hands[seat] ^= bit
            self.hl[seat].remove(a)
            if self.claim_pending:
                self.committed = True
                self.claim_pending = False
            trick = self.trick
            if trick:
                self.tm |= bit
                k = self.keyrow[a]
                if k > self.best:
                    self.best = k
                    self.best_seat = seat
            else:
                self.tm = bit
                self.leader = self.best_seat = seat
                self.led = a
                ctx = self.ctx
                row = self.keyrow = ctx.key[ctx.eff[a]]
                self.best = row[a]
            trick.append(a)
            if len(trick) < self.tn:
                self.to_move = self.nxt[seat]
            else:
                self._end_trick()
            return
        r = self.rules
        if ph == 2 and a in (self.ex_acts if self.ex_acts is not None else self._listed_exchange()):  # EXCHANGE
            if a < r.A_BID:  # a discard
                self._discard(a)
                return
            if a == r.A_DRAW:
                self.history.append(a)
                self._a_draw()
                return
        if ph == 0:  # AUCTION: pass, a bid above the high one, or hold
            if a in self.round_bids[self.high_level] and self._bid_ok(a) and \
                    (a == r.A_PASS or not r.bid_conditions or self._bid_allowed(a)):
                self._bid(a)
                return
            if a == r.A_HOLD:
                forced = self._forced()
                if self._may_hold(forced):
                    self._hold(forced)
                    return
            self._illegal(a)
        if ph >= XPLAY:
            self._apply_extra(ph, a)
            return
        legal = self.lc if self.lc is not None else self.legal_actions()
        if a not in legal:
            self._illegal(a)
        self.history.append(a)
        self.lm = -1
        self.lc = None
        if ph == DECLARE:
            self._declared(r.contracts[a - r.A_BID])
        elif ph == SURRENDER:
            self._a_surrender(a == r.A_CONCEDE)
        elif a >= r.A_CALL:
            self._a_call(a - r.A_CALL) if a < r.A_GIVE else self._a_give(a - r.A_GIVE)
        elif a >= r.A_PASS:
            _SPECIAL[a - r.A_PASS](self)
        else:  # a trump suit named (bids are handled with the auction above)
            self._set_trump(r.deck.suits[a - r.A_TRUMP])
            self._continue_exchange()

    def apply_str(self, text: str) -> int:
        """Parse an action in notation and apply it; returns the action id."""
        a = self.rules.parse_action(text)
        self.apply(a)
        return a

    def action_str(self, a: int) -> str:
        return self.rules.action_str(a)

    def random_playout(self, rand: Callable[[], float]) -> None:
        """Play the deal to its end with a uniformly random legal action at every decision.

        `rand` gives floats in [0, 1), such as `random.Random(seed).random`. The actions are exactly those of
        the loop `acts = s.legal_actions(); s.apply(acts[int(rand() * len(acts))])`, one `rand()` each, in
        the same order; the state ends the same (but for fields that only matter while a trick is in hand,
        such as its best card so far). It is faster because whole tricks are played without building the
        legal lists a caller would see (the rollouts of tree search, benchmarks)."""
        legal = self.legal_actions
        apply = self.apply
        while True:
            ph = self.phase
            if ph == 3 and not self.trick and not self.claim_pending and not self.concede_ok:
                self._random_tricks(rand)
            elif ph == 2:
                self._random_exchange(rand)
            elif ph == DONE:
                return
            elif ph == 0:  # a legal bid or hold, applied without checking it again
                acts = legal()
                a = acts[int(rand() * len(acts))]
                if a == self.rules.A_HOLD:
                    self._hold(self._forced())
                else:
                    self._bid(a)
            else:
                acts = legal()
                apply(acts[int(rand() * len(acts))])

    def _random_exchange(self, rand: Callable[[], float]) -> None:
        """Exchange turns of `random_playout`: an action picked by its place in the list legal_actions would
        give, without building it."""
        r = self.rules
        while self.phase == 2:
            cards, draw, cede = self._exchange_choices()
            n = len(cards)
            i = int(rand() * (n + draw + cede))
            if i < n:
                self._discard(self.nc + cards[i])
            elif i == n and draw:
                self.history.append(r.A_DRAW)
                self._a_draw()
            else:
                self.apply(r.A_CEDE)

    def _random_tricks(self, rand: Callable[[], float]) -> None:
        """Tricks of `random_playout`, from a lead, while no claim or concession is open. A card is chosen from
        the list legal_actions would give, and played as apply plays it (both kept in step with these)."""
        hands, hl, nxt, history = self.hands, self.hl, self.nxt, self.history
        rows, others = self.follow_rows, range(self.tn - 1)
        ctx = self.ctx
        key, eff = ctx.key, ctx.eff
        close = self._close_trick
        self.lm = -1  # a legal mask a caller had asked for is not used by the cards played here
        while True:
            seat = self.to_move
            acts = hl[seat]
            a = acts[int(rand() * len(acts))]
            bit = _BIT[a]
            history.append(a)
            hands[seat] ^= bit
            acts.remove(a)
            leader = best_seat = seat
            row = key[eff[a]]
            best = row[a]
            tm = bit
            trick = [a]
            follow = rows[a]
            for _ in others:
                seat = nxt[seat]
                hand = hands[seat]
                for bind, must, _table in follow:
                    if hand & bind:
                        # legal_actions lists the cards of hand & must in rising order: take the k-th
                        m = hand & must
                        k = int(rand() * m.bit_count())
                        while k:
                            m &= m - 1
                            k -= 1
                        c = (m & -m).bit_length() - 1
                        break
                else:
                    acts = hl[seat]
                    c = acts[int(rand() * len(acts))]
                bit = _BIT[c]
                history.append(c)
                hands[seat] = hand ^ bit
                hl[seat].remove(c)
                tm |= bit
                k = row[c]
                if k > best:
                    best = k
                    best_seat = seat
                trick.append(c)
            close(best_seat, tm, leader, tuple(trick))
            if self.phase != 3 or self.claim_pending or self.concede_ok:
                return

    def clone(self) -> State:
        """An independent copy (cheap: lists are copied, everything else is shared or immutable)."""
        return _clone(self)

    def view(self, seat: int, actions: bool = True) -> dict[str, Any]:
        """What one seat may see now (its hand, public information, its own discards); `actions=False` leaves
        out the list of the deal's actions."""
        from .view import view

        return view(self, seat, actions)

    def account(self) -> tuple:
        """The account of a finished deal's payments: each transfer, labelled (`ombre_rules.book.account`)."""
        from ..book.account import account

        return account(self)

    def returns(self) -> list[int]:
        """Each seat's net payment once the deal is over (zeros before)."""
        return list(self.result.payments) if self.result else [0] * self.n

    # -- helpers ---------------------------------------------------------------------------------------
    def _illegal(self, a: int) -> None:
        r = self.rules
        what = r.action_str(a) if isinstance(a, int) and 0 <= a < r.num_actions else str(a)
        if self.phase == DONE:
            raise IllegalActionError(f"'{what}' is not legal: the deal is over")
        legal = self.legal_actions()
        shown = ", ".join(r.action_str(x) for x in legal)
        from ..book.why import why_illegal

        why = why_illegal(self, a) if isinstance(a, int) else None
        raise IllegalActionError(f"'{what}' is not legal for seat {self.to_move} in {self.phase_name}"
                                 f"{' (' + why + ')' if why else ''}; legal: {shown}")

    def _seat_value(self, expr) -> Any:
        """An expression that depends on nothing but the seats (dealer, forehand, players): cached per dealer."""
        if not expr.uses <= SEAT_VARS:
            return self.eval(expr)
        cache = self.rules.seat_cache
        key = (expr, self.dealer)
        v = cache.get(key, cache)
        if v is cache:
            v = cache[key] = self.eval(expr)
        return v

    def _seat(self, expr) -> int:
        """A seat named by an expression; anything but a seat of this game is an error at its place."""
        v = self._seat_value(expr)
        if type(v) is not int or not 0 <= v < self.n:
            raise SpecError(f"expression '{expr.text}' gives {v!r}, not a seat (0 to {self.n - 1})", expr.loc)
        return v

    def env(self) -> DealEnv:
        return DealEnv(self, self.ctx)

    def eval(self, expr, env=None) -> Any:
        """Evaluate a deal-level expression; a failure is reported at the expression's place."""
        if expr.constant:
            return expr.fn(None)
        try:
            return expr.fn(env or self.env())
        except OmbreError:
            raise
        except Exception as ex:
            raise SpecError(f"expression '{expr.text}' failed: {ex}", expr.loc) from None

    # -- auction ---------------------------------------------------------------------------------------
    def _start_auction(self, rnd: int, contracts) -> None:
        self.phase = AUCTION
        self.high = None
        self.high_level = 0
        self.high_seat = -1
        self.passed = [False] * self.n
        self.bid_of = [-1] * self.n
        for s in self.rules.sitters[self.dealer]:
            self.passed[s] = True
        self.round_bids, self.bid_levels = self.rules.bid_lists(contracts, rnd)
        first = self._seat(self.rules.auction.first)
        self.first_bidder = self.to_move = first
        self.round_no = rnd
        if self.rules.auction.form == "duel":
            order = self.orders[first]
            self.duel_p, self.duel_q = order[0], order[1]
            self.duel_queue = list(order[2:])
        op = self.rules.opening
        if rnd == 0 and op is not None:
            self.high = op.contract
            self.high_level = self.rules.bid_level(op.contract, 0)
            self.high_seat = self._seat(op.seat)
            self._next_bidder()

    def _bid(self, a: int) -> None:
        """A legal pass or bid of the seat to move."""
        r = self.rules
        self.history.append(a)
        if a == r.A_PASS:
            self.passed[self.to_move] = True
        else:
            i = a - r.A_BID
            self.high = c = r.contracts[i]
            self.bid_of[self.to_move] = i
            self.high_level = self.bid_levels[i]
            self.high_seat = self.high_by = self.to_move
            if c.show is not None:
                self._show(c)
        self._next_bidder()

    def _hold(self, forced: bool) -> None:
        """The seat to move legally takes over the high bid (`forced`: the seat was overcalled)."""
        self.history.append(self.rules.A_HOLD)
        self.high_seat = self.to_move
        if forced:
            self._end_auction()
        else:
            self._next_bidder()

    def _next_bidder(self) -> None:
        if self.high in self.rules.auction.final_bids:  # a bid that ends the auction at once
            self._end_auction()
            return
        if self.rules.auction.form == "duel":
            self._duel_next()
            if self.rules.auto_pass:
                self._pass_without_choice()
            return
        s = self.to_move
        nxt, passed, hs = self.nxt, self.passed, self.high_seat
        for _ in range(self.n):
            s = nxt[s]
            if not passed[s] and s != hs:
                self.to_move = s
                return
        self._end_auction()

    def _duel_next(self) -> None:
        """Duels in bidding order: the seat with priority against a challenger; the survivor of each duel
        keeps priority against the next challenger. Whoever is not the high bidder speaks."""
        x, p, q = self.to_move, self.duel_p, self.duel_q
        if q < 0:  # the last seat, speaking alone
            self._end_auction()
            return
        if not self.passed[x]:
            self.to_move = q if x == p else p
            return
        survivor = q if x == p else p
        if self.duel_queue:
            self.duel_p, self.duel_q = survivor, self.duel_queue.pop(0)
            self.to_move = self.duel_q if self.high_seat == survivor else survivor
        elif self.high_seat == survivor:
            self._end_auction()
        else:  # nobody has bid yet: the survivor may still bid, alone
            self.duel_p, self.duel_q = survivor, -1
            self.to_move = survivor

    def _bid_allowed(self, a: int) -> bool:
        """Whether the seat to move meets a contract's bid condition (and has the cards it must show)."""
        c = self.rules.contracts[a - self.rules.A_BID]
        if c.bid_when is not None and not self.eval(c.bid_when):
            return False
        if c.show is None:
            return True
        need = self._cards_mask(c.show)
        return self.hands[self.to_move] & need == need

    def _show(self, c: Contract) -> None:
        """The seat to move shows the cards a contract requires, to every seat."""
        self.shown[self.to_move] |= self.hands[self.to_move] & self._cards_mask(c.show)

    def _cards_mask(self, expr) -> int:
        """The cards a list expression names, as a mask; cached per dealer when it depends only on the seats
        and on names evaluated without trumps."""
        r = self.rules
        static = self.ctx is None and expr.uses <= SEAT_VARS | r.namespace.names
        key = (expr, self.dealer, "mask")
        if static and key in r.seat_cache:
            return r.seat_cache[key]
        m = 0
        for x in self.eval(expr) or ():
            if x is not None:
                m |= 1 << x.id
        if static:
            r.seat_cache[key] = m
        return m

    def _choices(self, level: int) -> list[Contract]:
        """The contracts the seat to move may announce after winning the auction at `level`."""
        r = self.rules
        at_least = r.auction.choice == "at_least_level"
        out = []
        for c in r.main_round:
            lv = r.bid_level(c, self.round_no)
            if (lv >= level if at_least else lv == level) and \
                    (not r.bid_conditions or self._bid_allowed(r.A_BID + c.index)):
                out.append(c)
        return out

    def _end_auction(self) -> None:
        r = self.rules
        if self.high is not None:
            if r.may_raise and self.phase != RAISE:
                self._start_raise()
                return
            seat = self.high_seat
            if r.auction.choice == "bid" or self.round_no or (r.auction.choice == "level" and self.high_by == seat):
                self._begin_contract(seat, self.high)
                return
            self.to_move = seat
            choices = self._choices(self.high_level)
            if len(choices) > 1:
                self.phase = DECLARE
                return
            self._declared(choices[0] if choices else self.high)
            return
        ap = r.auction
        if ap.all_pass == "force" and ap.force_contract is None and self.round_no == 0:
            seat = self._seat(ap.force_who)
            self._start_auction(2, ap.extra_round)
            self.passed = [s != seat for s in range(self.n)]
            self.first_bidder = self.to_move = seat
        elif ap.all_pass == "force" and ap.force_contract is not None:
            self._begin_contract(self._seat(ap.force_who), ap.force_contract)
        elif ap.all_pass == "auction" and self.round_no == 0 and ap.extra_round:
            self._start_auction(1, ap.extra_round)
        else:
            self._finish(all_pass=True)

    # -- contract, trump, exchange ------------------------------------------------------------------
    def _declared(self, contract: Contract) -> None:
        """The auction's winner (the seat to move) announces his contract."""
        if contract.show is not None:
            self._show(contract)
        self._begin_contract(self.to_move, contract)

    def _begin_contract(self, seat: int, contract: Contract) -> None:
        self.declarer = seat
        self.contract = contract
        if not contract.played:
            self._finish()
            return
        if seat in self.rules.sitters[self.dealer]:
            self._join(seat)
        mode = contract.trump_mode
        if mode == "turned":
            if not self.talon:
                raise SpecError(f"contract '{contract.name}' turns a trump but the talon is empty")
            self.turned = self.talon[0]
            self._set_trump(self.rules.deck.cards[self.turned].suit)
        elif mode == "fixed":
            self._set_trump(contract.fixed_suit)
        elif mode == "none":
            self._set_trump(None)
        self.ex_queue = list(self.orders[seat]) if contract.exchange.defenders else [seat]
        if contract.exchange.take_talon:
            self._take_talon(seat)
        self.ex_first_used = False
        if mode == "named" and not contract.trump_after_exchange:
            self.phase = TRUMP
            self.to_move = seat
            return
        self._continue_exchange()

    def _join(self, seat: int) -> None:
        """A seat that sat out becomes declarer: from now on it takes part, in its place in the ring."""
        r = self.rules
        playing = [s for s in range(self.n) if s not in r.sitters[self.dealer] or s == seat]
        ring = []
        for s in range(self.n):
            t = (s + 1) % self.n
            while t not in playing:
                t = (t + 1) % self.n
            ring.append(t)
        orders = []
        for s in range(self.n):
            start = s if s in playing else ring[s]
            seq = [start]
            while len(seq) < len(playing):
                seq.append(ring[seq[-1]])
            orders.append(tuple(seq))
        self.nxt, self.orders, self.tn = ring, orders, len(playing)

    def _take_talon(self, seat: int) -> None:
        """The declarer takes the whole talon into his hand (he then discards, drawing nothing)."""
        m = 0
        for c in self.talon:
            m |= 1 << c
        self.hands[seat] |= m
        self.hl[seat] = sorted(self.hl[seat] + self.talon)
        self.drawn[seat] |= m
        self.talon = []

    def _trump_options(self):
        c = self.contract
        suits = self.rules.deck.suits
        if c.trump_allowed is None:
            return suits
        env = self.env()
        out = []
        for s in suits:
            env.choice = s
            if self.eval(c.trump_allowed, env):
                out.append(s)
        return out or suits

    def _set_trump(self, suit) -> None:
        self.trump = suit
        c = self.contract
        ctx = self.ctx = self.rules.context(c.ranking, suit)
        self.follow_rows = ctx.follow(c.follow_id)

    def _continue_exchange(self) -> None:
        """Give the next exchanger his turn, skipping those who may change nothing; then start play."""
        c = self.contract
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
            del queue[0]
            if seat == decl:
                lim = ex.declarer
                first_defender = False
            else:
                first_defender = not self.ex_first_used
                lim = ex.first if first_defender else ex.other
                self.ex_first_used = True
            hi = lim.max_const
            if hi is None:
                hi = int(self.eval(lim.max))
            held = self.hands[seat].bit_count()
            room = held if ex.take_talon and seat == decl else len(self.talon)
            cap = hi if hi < room else room  # at most the limit, the cards to draw and the cards held
            if held < cap:
                cap = held
            if cap <= 0:
                continue
            lo = lim.min_const
            if lo is None:
                lo = int(self.eval(lim.min))
            lo = 0 if lo < 0 else (cap if lo > cap else lo)
            self.phase = EXCHANGE
            self.to_move = seat
            self.ex_count = 0
            self.ex_min = lo
            self.ex_max = cap
            self.ex_can_cede = (first_defender and ex.defender_first == "ceded" and not self.ceded
                                and bool(queue))
            self.ex_acts = None  # listed when first asked for
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
        return (self.hl[self.to_move] if k < self.ex_max else [], k >= self.ex_min,
                k == 0 and self.ex_can_cede)

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

    def _a_stop(self) -> None:
        self.stopped = True
        self.claim_pending = False
        self._finish()

    def _a_concede(self) -> None:
        seat = self.to_move
        consent = self.contract.play.concede[2]
        if consent is not None and self.eval(consent):
            self.phase = CONSENT
            self.consent_queue = [p for p in self.order_from(self.nxt[seat]) if p != seat]
            self.to_move = self.consent_queue.pop(0)
        else:
            self.conceded = True
            self._finish()

    def _a_accept(self) -> None:
        if self.consent_queue:
            self.to_move = self.consent_queue.pop(0)
        else:
            self.conceded = True
            self._finish()

    def _a_refuse(self) -> None:
        self.concede_refused = True
        self.phase = PLAY
        self.consent_queue = []
        self.to_move = self.declarer

    # -- calling a card -------------------------------------------------------------------------------
    def _callable(self) -> list[int]:
        """The cards the declarer may call now, by the contract's `call.allowed`."""
        env = self.env()
        allowed = self.contract.call.allowed
        out = []
        try:
            for card in self.rules.deck.cards:
                env.choice = card
                if allowed.fn(env):
                    out.append(card.id)
        except OmbreError:
            raise
        except Exception as ex:
            raise SpecError(f"expression '{allowed.text}' failed: {ex}", allowed.loc) from None
        return out

    def _a_call(self, c: int) -> None:
        """A card is called: its holder becomes the hidden partner, or (demand) hands it to the declarer."""
        self.called = c
        bit = 1 << c
        holder = next((s for s in range(self.n) if self.hands[s] & bit), -1)
        d = self.declarer
        if not self.contract.call.demand:
            self.partner = holder if holder != d else -1
            self._start_play()
            return
        if holder >= 0 and holder != d:
            self.hands[holder] ^= bit
            self.hl[holder].remove(c)
            self.hands[d] |= bit
            self.hl[d].append(c)
            self.hl[d].sort()
            self.partner = holder  # only until the declarer has given his card back
            self.phase = GIVE
            self.to_move = d
            return
        self._start_play()

    def _a_give(self, c: int) -> None:
        """The declarer gives a card of his choice to the seat that handed him the demanded card."""
        d, h = self.declarer, self.partner
        bit = 1 << c
        self.hands[d] ^= bit
        self.hl[d].remove(c)
        self.hands[h] |= bit
        self.hl[h].append(c)
        self.hl[h].sort()
        self.partner = -1
        self._start_play()

    # -- play ------------------------------------------------------------------------------------------
    def _start_play(self) -> None:
        if self.pre < 2 and self._pre_play():
            return
        call = self.contract.call
        if call is not None and self.called < 0:
            calls = self._callable()
            if calls:
                self.phase = CALL
                self.to_move = self.declarer
                self.lc = tuple(self.rules.A_CALL + c for c in calls)
                return
        self.phase = PLAY
        self.play_hands = tuple(self.hands)
        play = self.contract.play
        self.leader = self.to_move = self._seat(play.first_leader)
        self.claim_at = play.claim[0] if play.claim is not None else -1
        self.concede_ok = play.concede is not None and (play.concede[1] is None or bool(self.eval(play.concede[1])))
        self.end_when = play.end_when
        if play.surrender is not None and self.eval(play.surrender):
            self.phase = SURRENDER
            self.to_move = self.declarer
            return
        if self.claim_at == 0:
            self._trick_start()
        self._play_with_excuse()

    def _a_surrender(self, give_up: bool) -> None:
        """The declarer gives up before the first lead, or plays on."""
        if give_up:
            self.conceded = True
            self._finish()
            return
        self.phase = PLAY
        self.to_move = self.leader
        if self.claim_at == 0:
            self._trick_start()
        self._play_with_excuse()

    def _trick_start(self) -> None:
        play = self.contract.play
        leader = self.leader
        if len(self.trick_log) == self.claim_at and not self.committed \
                and (leader == self.declarer or (play.claim_by_side and leader == self.partner)) \
                and self.eval(play.claim[1]):
            self.claim_pending = True
            self.claim_seat = leader
            if play.claim_tells and self.partner >= 0:
                self.told |= 1 << self.declarer

    def _end_trick(self) -> None:
        trick = self.trick
        self.trick = []
        self._close_trick(self.best_seat, self.tm, self.leader, tuple(trick))

    def _close_trick(self, w: int, tm: int, leader: int, cards: tuple[int, ...]) -> None:
        """Seat w won the trick of mask tm that `leader` led; the next trick, or the end of the deal."""
        self.tricks[w] += 1
        self.won[w] |= tm
        self.trick_log.append((leader, cards, w))
        self.leader = self.to_move = w
        if not self.hands[w]:
            self._finish()
        elif self.end_when is not None and self.eval(self.end_when):
            self._finish()
        elif len(self.trick_log) == self.claim_at:
            self._trick_start()

    # -- end -------------------------------------------------------------------------------------------
    def _ante(self) -> None:
        """Pay the ante; when it depends on the seats alone its effect is cached per dealer."""
        r = self.rules
        if not r.ante_static:
            self._run_block(r.ante)
            return
        key = ("ante", self.dealer)
        done = r.seat_cache.get(key)
        if done is None:
            before = self.pool
            self._run_block(r.ante)
            r.seat_cache[key] = (tuple(self.payments), self.pool - before)
        else:
            self.payments = list(done[0])
            self.pool += done[1]

    def _run_block(self, fn) -> Any:
        try:
            return fn(DealEnv(self, self.ctx), self)
        except OmbreError:
            raise
        except Exception as ex:
            raise block_error(fn, ex) from None

    def _finish(self, all_pass: bool = False) -> None:
        self.phase = DONE
        self.to_move = -1
        r = self.rules
        self.outcome = self._run_block(r.finish_all_pass if all_pass else self.contract.finish)
        self.result = _new_tuple(Result, (self.outcome, self.declarer if self.declarer >= 0 else None,
                                          self.contract.name if self.contract else None,
                                          self.trump.name if self.trump is not None else None, tuple(self.tricks),
                                          tuple(self.payments), self.pool_before, self.pool))


_BIT = tuple(1 << i for i in range(1024))
_new_tuple = tuple.__new__  # a Result made without the Python-level __new__ of a named tuple
_LISTS = {"hands", "talon", "ex_acts", "payments", "history", "passed", "ex_queue", "discards", "drawn", "trick",
          "tricks", "won", "consent_queue", "trick_log", "bid_of", "shown", "duel_queue", "handed"}


def _make_clone():
    lines = ["def _clone(self):", "    c = _new(_State)"]
    for name in State.__slots__:
        if name == "hl":
            lines.append("    c.hl = [h[:] for h in self.hl]")
        elif name == "ex_acts":  # None until listed
            lines.append("    c.ex_acts = self.ex_acts[:] if self.ex_acts is not None else None")
        else:
            lines.append(f"    c.{name} = self.{name}{'[:]' if name in _LISTS else ''}")
    lines.append("    return c")
    env = {"_new": object.__new__, "_State": State}
    exec("\n".join(lines), env)  # noqa: S102 - generated from the slot names above
    return env["_clone"]


_clone = _make_clone()


def _check_deal(rules: Ruleset, hands: list[int], talon: list[int], dealer: int = 0) -> None:
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


# by action id from A_PASS; pass and hold are handled with the auction in State.apply
_SPECIAL = (None, None, State._a_draw, State._a_cede, State._a_stop, State._a_concede,
            State._a_accept, State._a_refuse, None)
