"""Cards called and demanded once the contract is fixed.

A called card (phases CALL and GIVE; `call` with `allowed` and `mode`, a contract's or the variant's): its
holder becomes the declarer's hidden partner, or (mode demand) hands it over and gets a card of the declarer's
choice back. Demanded cards (phases DEMAND and GIVEBACK; a contract's `demand` count and the variant's
`demand.cards` and `demand.give`): the declarer names cards one at a time and gives one back for each he gets."""
from __future__ import annotations

from ..cards import bits as _bits
from ..errors import OmbreError, SpecError
from .fields import Fields
from .phases import DEMAND, GIVE, GIVEBACK, TRUMP


class CallStage(Fields):
    """The phases of called and demanded cards (a mixin of State)."""

    __slots__ = ()

    def _legal_call(self) -> list[int]:  # worked out once, as the phase began
        assert self.lc is not None  # set as the phase began
        return list(self.lc)

    def _apply_call(self, a: int) -> None:
        self._a_call(a - self.rules.A_CALL)

    def _callable(self) -> list[int]:
        """The cards the declarer may call now, by the contract's `call.allowed`."""
        env = self.env()
        assert self.contract is not None and self.contract.call is not None  # only a contract with a call calls
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
        assert self.contract is not None and self.contract.call is not None  # only a contract with a call calls
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

    def _trump_by_holder(self) -> None:
        """Trumps named by the called card's holder (contract `trump: called`), who so shows himself to all; by
        the declarer when nobody else holds it."""
        self.phase = TRUMP
        p = self.partner
        self.to_move = p if p >= 0 else self.declarer
        if p >= 0:
            self.told = (1 << self.n) - 1

    def _legal_give(self) -> list[int]:
        return [self.rules.A_GIVE + c for c in self.hl[self.declarer] if c != self.called]

    def _apply_give(self, a: int) -> None:
        self._a_give(a - self.rules.A_GIVE)

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

    def _legal_demand(self) -> list[int]:
        return [self.rules.A_DEMAND + c for c in _bits(self._demandable())]

    def _apply_demand(self, a: int) -> None:
        self._demand(a - self.rules.A_DEMAND)

    def _legal_give_back(self) -> list[int]:
        r = self.rules
        hand = self.hands[self.to_move]
        assert r.demands is not None  # phase GIVEBACK: the variant has demands
        return [r.A_GIVE + c for c in _bits(hand & r.demands.give or hand)]

    def _apply_give_back(self, a: int) -> None:
        self._give(a - self.rules.A_GIVE)

    def _move(self, c: int, frm: int, to: int) -> None:
        bit = 1 << c
        self.hands[frm] ^= bit
        self.hl[frm].remove(c)
        self.hands[to] |= bit
        hl = self.hl[to]
        hl.append(c)
        hl.sort()

    def _demandable(self) -> int:
        """Cards the declarer may still name: allowed, not his, not laid away by him, not named in vain."""
        d = self.declarer
        demands = self.rules.demands
        assert demands is not None  # a contract demands cards: the variant has demands
        m = demands.cards & ~self.hands[d] & ~self.discards[d]
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

