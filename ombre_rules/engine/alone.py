"""Going alone (phase ALONE): once the contract and trumps are fixed, before the exchange, the declarer goes
alone (`alone`) or plays with his partners (`pass`). Alone, his partners (his team's other seats) lay their
cards aside, hidden, and leave the ring of play for the deal: they neither exchange nor play; the side is still
the whole team. Driven by `alone` (`when`); compiled in ruleset/defence.py; `went_alone` names the choice to
expressions."""
from __future__ import annotations

from ..envs import side_of
from .fields import Fields
from .phases import ALONE


class AloneStage(Fields):
    """The declarer's choice to go alone (a mixin of State)."""

    __slots__ = ()

    def _offer_alone(self) -> bool:
        """Open the choice if the variant has it, it is not made yet and `alone.when` holds; False otherwise."""
        a = self.rules.alone
        if a is None or self.alone >= 0 or not self.eval(a.when):
            return False
        self.phase = ALONE
        self.to_move = self.declarer
        return True

    def _legal_alone(self) -> list[int]:
        return [self.rules.A_ALONE, self.rules.A_PASS]

    def _apply_alone(self, a: int) -> None:
        """He goes alone (his partners leave the ring and the exchange) or plays with them; the exchange goes on."""
        self.alone = int(a == self.rules.A_ALONE)
        if self.alone:
            out = 0
            for s in side_of(self)[1:]:
                out |= 1 << s
            self._leave_ring(out)
            self.ex_queue = [s for s in self.ex_queue if not out >> s & 1]
        self._continue_exchange()

    def _leave_ring(self, out: int) -> None:
        """The seats of the mask `out` lay their hands down and leave the ring of play (`def_out`)."""
        self.def_out |= out
        self._close_ring(out)

    def _close_ring(self, out: int) -> None:
        """The ring of play without the seats of the mask `out`: each seat's next is the next seat not in it."""
        nxt = list(self.nxt)
        for s in range(self.n):
            t = nxt[s]
            while out >> t & 1:
                t = self.nxt[t]
            nxt[s] = t
        self.nxt = nxt
        self.tn -= out.bit_count()
