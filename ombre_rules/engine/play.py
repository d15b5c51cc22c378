"""Play (phase PLAY, and XPLAY while an excuse card is still to come): the steps before the first lead
(lay-away, demands, a called card), tricks under the follow obligations, claims and commitments (stop after
a number of tricks or play on), concession with the others' consent (phase CONSENT), an early end, and the
excuse card.

Driven by a contract's `play` (`first_leader`, `follow` with `must` and `exempt`, `claim`, `concede`,
`end_when`), falling back to the variant's `play`, and by `play.excuse`; compiled in ruleset/play.py and
ruleset/mechanics.py. The card played and the legal cards are the engine's hot path: plain ints, masks
and precomputed follow rows only."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import kernel as _kernel
from ..ruleset.fields import row_after
from .deal import BIT as _BIT
from .fields import Fields
from .phases import CALL, CONSENT, PLAY, SURRENDER, XPLAY

_ALL_TRICKS = 1 << 30  # tricks the kernel may play in one call when no rule must be read between them


class PlayStage(Fields):
    """The play phases (a mixin of State)."""

    __slots__ = ()

    def _legal_play(self) -> list[int]:
        """The cards the seat to move may play (the hot path), then stop or concede when open."""
        seat = self.to_move
        acts = self.hl[seat]
        if self.trick:
            hand = self.hands[seat]
            for bind, must in self.follow_rows[self.led]:
                if hand & bind:
                    m = self.lm = hand & must
                    acts = self.rules.deck.bits(m)  # the held cards it must play from, in rising order as hl
                    break
            else:
                self.lm = hand
                acts = acts[:]
        elif self.trump_open:
            m = self.lm = self._lead_mask()
            acts = [c for c in acts if m >> c & 1]
        else:
            self.lm = self.hands[seat]
            acts = acts[:]
        if self.claim_pending or self.concede_ok:
            self._play_extras(acts)
        return acts

    def _play_card(self, a: int) -> None:
        """Play card `a` (the hot path); IllegalActionError (nothing changed) if the seat may not play it."""
        seat = self.to_move
        m = self.lm
        if m < 0:
            hand = m = self.hands[seat]
            if self.trick:
                for bind, must in self.follow_rows[self.led]:
                    if hand & bind:
                        m = hand & must
                        break
            elif self.trump_open:
                m = self._lead_mask()
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
                wins = len(self.follow_rows) > self.nc
                if self.follow_high or wins:
                    ctx = self.ctx
                    assert ctx is not None  # trumps are known once a card is led
                    self.led = row_after(self.led, a, self.nc, self.follow_high, ctx.eff, wins)  # the row now
        else:
            if self.trump_open:  # the suit led is trumps
                self.trump_open = False
                self._set_trump(self.rules.deck.cards[a].suit)
            self.tm = bit
            self.leader = self.best_seat = seat
            self.led = a
            ctx = self.ctx
            assert ctx is not None  # trumps are known once a card is led
            row = self.keyrow = ctx.key[ctx.eff[a]]
            self.best = row[a]
        trick.append(a)
        if len(trick) < self.tn:
            self.to_move = self.nxt[seat]
        else:
            self._end_trick()

    def _play_extras(self, acts: list[int]) -> None:
        r = self.rules
        if self.claim_pending:
            acts.append(r.A_STOP)
        if self.to_move == self.declarer and self._concede_open():
            acts.append(r.A_CONCEDE)

    def _concede_open(self) -> bool:
        """Whether the declarer may still concede in this play: in its first tricks (`concede` limit), until a
        defender refused (the window only closes, trick by trick)."""
        if not self.concede_ok or self.concede_refused:
            return False
        c = self.contract
        assert c is not None and c.play.concede is not None  # concede_ok: the contract's play has `concede`
        return len(self.trick_log) < c.play.concede[0]

    def _apply_play(self, a: int) -> None:
        """An action of the play phase other than a card: stop (a claim) or concede."""
        if a == self.rules.A_STOP:
            self._a_stop()
        else:
            self._a_concede()

    def _pre_play(self) -> bool:
        """Start the next step that comes before play (the declarer's lay-away, every seat's lay-away of the
        contract, demands, the defenders' decisions, doubling); False when none is left."""
        r = self.rules
        if self.pre == 0:
            self.pre = 1
            if r.lay_away is not None and not r.lay_away.at_deal:
                self._start_lay_away(self.declarer)
                return True
        assert self.contract is not None  # play follows a contract
        if self.pre == 1:
            self.pre = 2  # 2 while every seat lays away (lay_away.py reads it)
            if self.contract.lay_away is not None and self._start_each_lay_away():
                return True
        if self.pre == 2:
            self.pre = 3
            if self.contract.demands:
                self.ex_count = 0
                self.ex_max = self.contract.demands
                return self._next_demand()
        if self.pre == 3:
            self.pre = 4
            if self._start_defence():
                return True
        if self.pre == 4:
            self.pre = 5
            if self._start_doubling():
                return True
        return False

    def _start_play(self) -> None:
        if self.pre < 5 and self._pre_play():
            return
        c = self.contract
        assert c is not None  # play follows a contract
        call = c.call
        if call is not None and self.called < 0:
            calls = self._callable()
            if calls:
                self.phase = CALL
                self.to_move = self.declarer
                self.lc = tuple(self.rules.A_CALL + c for c in calls)
                return
        if self.trump is None and c.trump_mode == "called":
            self._trump_by_holder()
            return
        self.phase = PLAY
        self.play_hands = tuple(self.hands)
        if c.lay_away is not None:  # named seats laid cards away: hands of unequal size
            self.uneven = len({self.hands[s].bit_count() for s in set(self.nxt)}) > 1
        play = c.play
        self.leader = self.to_move = self._seat_in_play(play.first_leader)
        self.claim_at = play.claim[0] if play.claim is not None else -1
        self.concede_ok = play.concede is not None and (play.concede[1] is None or bool(self.eval(play.concede[1])))
        self.end_when = play.end_when
        self.follow_high = play.follow_highest
        sur = play.surrender
        if sur is not None and sur.at == "before_play" and self.eval(sur.when):
            self.phase = SURRENDER
            self.to_move = self.declarer
            return
        if self.claim_at == 0:
            self._trick_start()
        self._play_with_excuse()

    def _trick_start(self) -> None:
        assert self.contract is not None  # play follows a contract
        play = self.contract.play
        leader = self.leader
        if len(self.trick_log) == self.claim_at and not self.committed \
                and (leader == self.declarer or (play.claim_by_side and leader == self.partner)) \
                and play.claim is not None and self.eval(play.claim[1]):
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
        if self.uneven:
            self._out_of_cards()
        if not self.hands[self.leader]:
            self._finish()
        elif self.end_when is not None and self.eval(self.end_when):
            self._finish()
        elif len(self.trick_log) == self.claim_at:
            self._trick_start()

    def _out_of_cards(self) -> bool:
        """Hands of unequal size, after a trick: the seats whose hands are empty leave the ring of play (a trick
        is then complete when every seat still holding cards has played to it), and if the trick's winner is one
        of them the lead passes to the next seat round the ring that holds cards. True when the ring changed; it
        is kept when no seat holds a card (the deal ends)."""
        hands = self.hands
        out = 0
        sizes = set()
        for s in set(self.nxt):
            if hands[s]:
                sizes.add(hands[s].bit_count())
            else:
                out |= 1 << s
        if not out or not sizes:
            return False
        if not self.ring_play:
            self.ring_play = self.nxt
        self._close_ring(out)
        self.uneven = len(sizes) > 1
        if out >> self.leader & 1:
            self.leader = self.to_move = self.nxt[self.leader]
        return True

    def _random_tricks(self, rand: Callable[[], float]) -> None:
        """Tricks of `random_playout`, from a lead, while no claim or concession is open. A card is chosen from
        the list legal_actions would give, and played as apply plays it (both kept in step with these); a
        trick is closed as `_close_trick` closes it. The compiled kernel plays them when it is on."""
        assert self.contract is not None  # play follows a contract
        k = _kernel.tables(self.ctx, self.contract.follow_id) if _kernel.ON else None
        if k is not None:
            self._kernel_tricks(k, rand)
            return
        hands, hl, nxt, history = self.hands, self.hl, self.nxt, self.history
        tricks, won, log = self.tricks, self.won, self.trick_log
        rows, others = self.follow_rows, range(self.tn - 1)
        ctx = self.ctx
        assert ctx is not None  # trumps are known in plain play
        key, eff = ctx.key, ctx.eff
        high, nc = self.follow_high, self.nc
        wins = len(rows) > nc  # the rules read the card winning the trick
        self.lm = -1  # a legal mask a caller had asked for is not used by the cards played here
        seat = self.to_move
        while True:
            acts = hl[seat]
            i = int(rand() * len(acts))
            a = acts[i]
            del acts[i]
            bit = _BIT[a]
            history.append(a)
            hands[seat] ^= bit
            leader = best_seat = seat
            row = key[eff[a]]
            best = row[a]
            tm = bit
            trick = [a]
            follow = rows[a]
            fi = a
            for _ in others:
                seat = nxt[seat]
                hand = hands[seat]
                for bind, must in follow:
                    if hand & bind:
                        # legal_actions lists the cards of hand & must in rising order: take the k-th
                        m = hand & must
                        k = int(rand() * m.bit_count())
                        while k:
                            m &= m - 1
                            k -= 1
                        c = (m & -m).bit_length() - 1
                        hl[seat].remove(c)
                        break
                else:
                    acts = hl[seat]
                    i = int(rand() * len(acts))
                    c = acts[i]
                    del acts[i]
                bit = _BIT[c]
                history.append(c)
                hands[seat] = hand ^ bit
                tm |= bit
                k = row[c]
                if k > best:
                    best = k
                    best_seat = seat
                    if wins:
                        fi = row_after(fi, c, nc, high, eff, True)
                        follow = rows[fi]
                    elif high and eff[c] == eff[a]:
                        follow = rows[c]
                trick.append(c)
            seat = best_seat
            tricks[seat] += 1
            won[seat] |= tm
            log.append((leader, tuple(trick), seat))
            if self._tricks_stop(seat):
                return

    def _kernel_tricks(self, k: Any, rand: Callable[[], float]) -> None:
        """`_random_tricks` by the compiled kernel (tables `k`): whole tricks there, up to the next one whose end
        a rule here reads (`end_when` after each trick, the claim's trick); the end of the deal here."""
        hands, log = self.hands, self.trick_log
        end_when, claim_at = self.end_when, self.claim_at
        self.lm = -1
        seat = self.to_move
        while True:
            run = 1 if end_when is not None else claim_at - len(log) if claim_at > len(log) else _ALL_TRICKS
            if self.uneven:  # up to the trick that empties the shortest hand (the ring changes there)
                run = min(run, min(hands[s].bit_count() for s in set(self.nxt)))
            seat = _kernel.random_tricks(k, hands, self.hl, self.history, self.tricks, self.won, log, self.nxt,
                                         self.tn, self.follow_high, seat, rand, run)
            if self._tricks_stop(seat):
                return

    def _tricks_stop(self, seat: int) -> bool:
        """After a trick of the fast loops won by `seat`: it leads next (or, with hands of unequal size, the
        next seat that holds cards); the deal ends here when the leader's hand is empty or `end_when` holds, and
        the loop stops when a claim opens at this trick or the ring of play changed (the caller starts again)."""
        self.leader = self.to_move = seat
        moved = self.uneven and self._out_of_cards()
        if not self.hands[self.leader] or (self.end_when is not None and self.eval(self.end_when)):
            self._finish()
            return True
        if len(self.trick_log) == self.claim_at:
            self._trick_start()
            return self.claim_pending or moved
        return moved

    def _picked_tricks(self, pick: Callable[[int, list[int], list[tuple[int, int]], int], int]) -> None:
        """Cards of `State.play_tricks`: while plain play goes on (no claim or concession open, trumps known),
        `pick(seat, cards, trick, played)` names the card of `seat` when it has a choice: one of `cards` (the
        list legal_actions would give), with `trick` the (seat, card) pairs in play and `played` the mask of
        every card played so far; it may keep neither list, which the loop goes on changing. A card is played
        as `_play_card` plays it, without the checks, and a trick is closed as `_close_trick` closes it, with
        the trick's fields (`tm`, `led`, `best`, `best_seat`, `keyrow`) set as the public loop leaves them (the
        variant's `end_when` and the claim's trick read once: play does not change them). Returns at the
        end of the deal or when a claim, a concession or another phase opens; while `pick` runs the hands, the
        history and the piles won are up to date, the fields of the trick in play are not. The state is not
        defined after `pick` raised or named a card outside `cards`."""
        if self.phase != PLAY or self.claim_pending or self.trump_open or (self.concede_ok and self._concede_open()):
            return
        hands, hl, nxt, history = self.hands, self.hl, self.nxt, self.history
        rows, tn, high, nc = self.follow_rows, self.tn, self.follow_high, self.nc
        wins = len(rows) > nc  # the rules read the card winning the trick
        tricks, won, log = self.tricks, self.won, self.trick_log
        end_when, claim_at = self.end_when, self.claim_at
        ctx = self.ctx
        assert ctx is not None  # trumps are known in plain play
        eff = ctx.eff
        seat = self.to_move
        trick = self.trick
        pairs = []
        played = 0
        for w in self.won:
            played |= w
        if trick:
            s = self.leader
            for c in trick:
                pairs.append((s, c))
                s = nxt[s]
            leader, best, best_seat, row, led, tm = \
                self.leader, self.best, self.best_seat, self.keyrow, self.led, self.tm
            played |= tm
        bits = self.rules.deck.bits
        self.lm = -1
        while True:
            acts = hl[seat]
            if trick:
                hand = hands[seat]
                for bind, must in rows[led]:
                    if hand & bind:
                        acts = bits(hand & must)
                        break
            a = acts[0] if len(acts) == 1 else pick(seat, acts, pairs, played)
            bit = _BIT[a]
            played |= bit
            history.append(a)
            hands[seat] ^= bit
            hl[seat].remove(a)
            if trick:
                tm |= bit
                k = row[a]
                if k > best:
                    best = k
                    best_seat = seat
                    if wins:
                        led = row_after(led, a, nc, high, eff, True)
                    elif high and eff[a] == eff[led]:
                        led = a
            else:
                tm = bit
                leader = best_seat = seat
                led = a
                row = ctx.key[eff[a]]
                best = row[a]
            trick.append(a)
            pairs.append((seat, a))
            if len(trick) < tn:
                seat = nxt[seat]
                continue
            self.trick = []
            self.tm, self.led, self.best, self.best_seat, self.keyrow = tm, led, best, best_seat, row
            # closed as _close_trick closes a trick
            tricks[best_seat] += 1
            won[best_seat] |= tm
            log.append((leader, tuple(trick), best_seat))
            self.leader = self.to_move = seat = best_seat
            if self.uneven and self._out_of_cards():
                seat, nxt, tn = self.leader, self.nxt, self.tn
            if not hands[seat] or (end_when is not None and self.eval(end_when)):
                self._finish()
                return
            if len(log) == claim_at:
                self._trick_start()
                if self.claim_pending:
                    return
            trick = self.trick
            pairs = []

    def _a_stop(self) -> None:
        self.stopped = True
        self.claim_pending = False
        self._finish()

    def _a_concede(self) -> None:
        seat = self.to_move
        assert self.contract is not None and self.contract.play.concede is not None  # a concession was open
        consent = self.contract.play.concede[2]
        if consent is not None and self.eval(consent):
            self.phase = CONSENT
            self.consent_queue = [p for p in self.order_from(self.nxt[seat]) if p != seat]
            self.to_move = self.consent_queue.pop(0)
        else:
            self.conceded = True
            self._finish()

    def _legal_consent(self) -> list[int]:
        return [self.rules.A_ACCEPT, self.rules.A_REFUSE]

    def _apply_consent(self, a: int) -> None:
        """A defender accepts the declarer's concession, or refuses it."""
        if a == self.rules.A_ACCEPT:
            self._a_accept()
        else:
            self._a_refuse()

    def _a_accept(self) -> None:
        if self.consent_queue:
            self.to_move = self.consent_queue.pop(0)
        else:
            self.conceded = True
            self._finish()

    def _a_refuse(self) -> None:
        """A defender refuses the concession: play goes on where it stopped, with the refusing defender as the
        declarer when `play.concede.takeover` holds (the one who conceded then defends, `taken_from`)."""
        self.concede_refused = True
        self.phase = PLAY
        self.consent_queue = []
        assert self.contract is not None and self.contract.play.concede is not None  # a concession was open
        takeover = self.contract.play.concede[3]
        if takeover is not None and self.eval(takeover):
            self.taken_from = self.declarer
            self.declarer = self.to_move
            self.to_move = self.taken_from
        else:
            self.to_move = self.declarer

    # -- play with an excuse card -------------------------------------------------------------------------
    def _play_with_excuse(self) -> None:
        """Play begins: while someone holds the excuse card, in the phase that knows it."""
        ex = self.rules.excuse
        if ex is not None and any(h >> ex.card & 1 for h in self.hands):
            self.phase = XPLAY

    def _excuse_led(self) -> bool:
        t = self.trick
        ex = self.rules.excuse
        assert ex is not None  # phase XPLAY: the variant has an excuse card
        return len(t) == 1 and t[0] == ex.card

    def _excuse_forced(self) -> bool:
        """Whether the seat to move must play the excuse now: it holds it and its last trick for it has come."""
        ex = self.rules.excuse
        assert ex is not None  # phase XPLAY: the variant has an excuse card
        if not ex.latest or len(self.trick_log) + 1 < ex.latest:
            return False
        return bool(self.hands[self.to_move] >> ex.card & 1)

    def _legal_xplay(self) -> list[int]:
        """After an excuse lead any card may be played (it fixes the suit); otherwise the usual rules."""
        ex = self.rules.excuse
        assert ex is not None  # phase XPLAY: the variant has an excuse card
        if self._excuse_forced():
            self.lm = 1 << ex.card
            return [ex.card]
        if self._excuse_led():
            self.lm = self.hands[self.to_move]
            return self.hl[self.to_move][:]
        self.phase = PLAY
        try:
            return self.legal_actions()
        finally:
            self.phase = XPLAY

    def _apply_xplay(self, a: int) -> None:
        """Play a card while the excuse is still to come (afterwards play goes on in the plain play phase)."""
        # checked in full first, against the list legal_actions last gave (kept in lc) or a fresh one: a refused
        # card leaves the phase as it is
        if a not in (self.lc if self.lc is not None else self._legal_xplay()):
            self._illegal(a)
        if not self._excuse_led():
            self.phase = PLAY
            self.lc = None
            ex = self.rules.excuse
            assert ex is not None  # phase XPLAY: the variant has an excuse card
            try:
                self.apply(a)
            finally:
                if self.phase == PLAY and (a != ex.card or self._excuse_led()):
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
        assert ctx is not None  # trumps are known in play
        row = self.keyrow = ctx.key[ctx.eff[a]]
        self.led = a
        self.best = row[a]
        self.best_seat = seat
        self.trick.append(a)
        self.phase = PLAY
        if len(self.trick) < self.n:
            self.to_move = self.nxt[seat]
        else:
            self._end_trick()

