"""The contract fixed: the winner's declaration (DECLARE), the declarer's seat joining the ring, the trump
(turned, fixed, the suit of the deal's turned card, none, named in the TRUMP phase, or the suit of the first
card led: `trump: first_lead`); a contract taken over after a surrender begins here again (surrender.py).

Driven by a contract's `trump`, `trump_after_exchange`, `trump_allowed`, `played` and `show`, and by
`auction.contract_choice`; compiled in ruleset/contract_rules.py."""
from __future__ import annotations

from collections.abc import Sequence

from ..cards import Suit
from ..errors import SpecError
from ..ruleset import Contract
from .fields import Fields
from .phases import TRUMP


class ContractStage(Fields):
    """The contract's phases (a mixin of State)."""

    __slots__ = ()

    def _legal_declare(self) -> list[int]:
        r = self.rules
        return [r.A_BID + c.index for c in self._choices(self.high_level)]

    def _apply_declare(self, a: int) -> None:
        r = self.rules
        self._declared(r.contracts[a - r.A_BID])

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
        if seat in self.rules.sitting(self.dealer, self.stand_for):
            self._join(seat)
        mode = contract.trump_mode
        if mode == "turned":
            if not self.talon:
                raise SpecError(f"contract '{contract.name}' turns a trump but the talon is empty")
            self.turned = self.talon[0]
            self._set_trump(self.rules.deck.cards[self.turned].suit)
        elif mode == "fixed":
            self._set_trump(contract.fixed_suit)
        elif mode == "turn_up":
            self._set_trump(self.rules.deck.cards[self.turn_up].suit)
        elif mode == "none" or mode == "first_lead":  # first_lead: none until the first card is led
            self._set_trump(None)
        self.trump_open = mode == "first_lead"
        sur = contract.play.surrender
        self.sur_due = sur is not None and sur.at != "before_play"
        self.ex_queue = list(self.orders[seat]) if contract.exchange.defenders else [seat]
        if contract.exchange.show_talon:
            self._show_talon()
        if contract.exchange.take_talon:
            self._take_talon(seat, contract.exchange.take_talon)
        self.ex_first_used = False
        if mode == "named" and not contract.trump_after_exchange:
            self.phase = TRUMP
            self.to_move = seat
            return
        if not self._offer_alone():
            self._continue_exchange()

    def _join(self, seat: int) -> None:
        """A seat that sat out becomes declarer: from now on it takes part, in its place in the ring."""
        r = self.rules
        playing = [s for s in range(self.n) if s not in r.sitting(self.dealer, self.stand_for) or s == seat]
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

    def _legal_trump(self) -> list[int]:
        r = self.rules
        assert self.contract is not None  # trumps are named for a contract
        if self.contract.trump_allowed is None:
            return list(range(r.A_TRUMP, r.A_TRUMP + len(r.deck.suits)))
        return [r.A_TRUMP + s.index for s in self._trump_options()]

    def _apply_trump(self, a: int) -> None:
        """The declarer names the trump suit; the exchange goes on."""
        r = self.rules
        self._set_trump(r.deck.suits[a - r.A_TRUMP])
        if not self._offer_alone():
            self._continue_exchange()

    def _trump_options(self) -> Sequence[Suit]:
        c = self.contract
        assert c is not None  # trumps are named for a contract
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

    def _lead_mask(self) -> int:
        """Contract `trump: first_lead`, at the first lead: the cards of the leader's hand whose suit may be
        trumps (`trump_allowed`); his whole hand if he holds none of them."""
        hand = self.hands[self.to_move]
        masks = self.rules.deck.suit_masks
        m = 0
        for s in self._trump_options():
            m |= masks[s.index]
        return hand & m or hand

    def _set_trump(self, suit: Suit | None) -> None:
        self.trump = suit
        c = self.contract
        assert c is not None  # trumps are those of a contract
        ctx = self.ctx = self.rules.context(c.ranking, suit)
        self.follow_rows = ctx.follow(c.follow_id)
