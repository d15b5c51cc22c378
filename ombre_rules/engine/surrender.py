"""The declarer's surrender (phase SURRENDER) and the take-over that may follow it (phase TAKEOVER).

The declarer gives up (`concede`) or plays on (`continue`) before the first lead, or during the exchange
(`at: before_exchange`, `after_declarer_exchange`). After a surrender the seats `takeover.by` names are asked in
turn: the first who takes the game over (`take_over`, or `bid NAME` for one of `takeover.contracts`) becomes the
declarer of that contract, which begins anew (its trump, a new exchange from the cards left in the talon, the
steps before play); the one who gave up defends and is `taken_from`. When every seat asked passes, the deal is
conceded. One take-over a deal.

Driven by `play.surrender` (`when`, `at`, `takeover` with `by`, `when`, `contracts`); compiled in ruleset/play.py
and checked in ruleset/takeover.py."""
from __future__ import annotations

from ..ruleset import Contract
from .fields import Fields
from .phases import PLAY, SURRENDER, TAKEOVER


class SurrenderStage(Fields):
    """The surrender and take-over phases (a mixin of State)."""

    __slots__ = ()

    def _surrender_due(self) -> bool:
        """During the exchange: open the surrender offered there, once (`before_exchange`: at once;
        `after_declarer_exchange`: once the declarer's turn is behind); False when not due or `when` fails."""
        c = self.contract
        assert c is not None and c.play.surrender is not None  # sur_due: the contract's play has `surrender`
        sur = c.play.surrender
        if sur.at == "after_declarer_exchange" and self.declarer in self.ex_queue:
            return False
        self.sur_due = False
        if not self.eval(sur.when):
            return False
        self.phase = SURRENDER
        self.to_move = self.declarer
        return True

    def _legal_surrender(self) -> list[int]:
        return [self.rules.A_CONCEDE, self.rules.A_CONTINUE]

    def _apply_surrender(self, a: int) -> None:
        """The declarer gives up (the game may be taken over), or goes on: with the exchange, or to the first lead."""
        c = self.contract
        assert c is not None and c.play.surrender is not None  # phase SURRENDER: the contract's play has it
        if a == self.rules.A_CONCEDE:
            if self._offer_takeover():
                return
            self.conceded = True
            self._finish()
            return
        if c.play.surrender.at != "before_play":
            self._continue_exchange()
            return
        self.phase = PLAY
        self.to_move = self.leader
        if self.claim_at == 0:
            self._trick_start()
        self._play_with_excuse()

    def _offer_takeover(self) -> bool:
        """After a surrender: ask the first seat of `takeover.by` that may take a contract over; False when the
        rules have no take-over, the game was taken over before, or no seat may."""
        c = self.contract
        assert c is not None and c.play.surrender is not None  # a surrender was made
        t = c.play.surrender.takeover
        if t is None or self.taken_from >= 0:
            return False
        who = self.eval(t.by)
        seats = [who] if type(who) is int else [s for s in who or () if type(s) is int]
        ring = self.nxt
        self.takeover_queue = [s for s in dict.fromkeys(seats) if 0 <= s < self.n and s != self.declarer and s in ring]
        return self._next_taker()

    def _next_taker(self) -> bool:
        """The next seat asked that may take over some contract now (`takeover.when`) is to move; False if none."""
        queue = self.takeover_queue
        while queue:
            self.to_move = queue.pop(0)
            if self._takeover_choices():
                self.phase = TAKEOVER
                return True
        return False

    def _takeover_choices(self) -> list[Contract]:
        """The contracts the seat to move may take over now: those offered (the conceded one by default) for
        which `takeover.when` holds; a contract whose trump is turned needs a card in the talon."""
        c = self.contract
        assert c is not None and c.play.surrender is not None and c.play.surrender.takeover is not None
        t = c.play.surrender.takeover
        env = self.env()
        out = []
        for k in t.contracts or (c,):
            if k.trump_mode == "turned" and not self.talon:
                continue
            env.choice = k
            if self.eval(t.when, env):
                out.append(k)
        return out

    def _legal_takeover(self) -> list[int]:
        r = self.rules
        c = self.contract
        assert c is not None and c.play.surrender is not None and c.play.surrender.takeover is not None
        if not c.play.surrender.takeover.contracts:
            return [r.A_TAKE_OVER, r.A_PASS]
        return [r.A_BID + k.index for k in self._takeover_choices()] + [r.A_PASS]

    def _apply_takeover(self, a: int) -> None:
        """The seat asked takes the game over (its contract begins anew, he its declarer), or passes."""
        r = self.rules
        if a == r.A_PASS:
            if self._next_taker():
                return
            self.to_move = self.declarer
            self.conceded = True
            self._finish()
            return
        c = self.contract
        assert c is not None  # a surrendered contract
        taken = c if a == r.A_TAKE_OVER else r.contracts[a - r.A_BID]
        self.taken_from = self.declarer
        self.takeover_queue = []
        # the contract begins anew: no trump, turned card, announcement or step before play of the last one
        self.trump = self.ctx = None
        self.turned = -1
        self.trump_open = self.ceded = self.announced = False
        self.pre = 0
        self._begin_contract(self.to_move, taken)
