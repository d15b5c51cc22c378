"""Announcements after the exchange (phase ANNOUNCE): the declarer, having seen the talon and exchanged, may
name a contract of a higher level (`bid NAME`) or keep his own (`pass`); its trump follows (none, fixed, or
named next). The talon may also be shown to every seat when the contract is fixed (`exchange.show_talon`).

Driven by `announce` (`contracts`, `when`) and `exchange.show_talon`; compiled in ruleset/announce.py. It runs
when the exchange is over (ExchangeStage._continue_exchange), before trumps are named after the exchange."""
from __future__ import annotations

from ..ruleset import Contract
from .fields import Fields
from .phases import ANNOUNCE, TRUMP


class AnnounceStage(Fields):
    """The declarer's announcement after the exchange (a mixin of State)."""

    __slots__ = ()

    def _show_talon(self) -> None:
        """Every seat sees the talon's cards (before the declarer takes them)."""
        m = 0
        for c in self.talon:
            m |= 1 << c
        self.talon_shown |= m

    def _announce_choices(self) -> list[Contract]:
        ann = self.rules.announce
        assert ann is not None and self.contract is not None  # phase ANNOUNCE: the variant has announcements
        level = self.contract.level
        env = self.env()
        out = []
        for c in ann.contracts:
            env.choice = c
            if c.level > level and self.eval(ann.when, env):
                out.append(c)
        return out

    def _start_announce(self) -> bool:
        """Open the announcement once, when the variant has it and a higher contract may be named."""
        if self.rules.announce is None or self.announced:
            return False
        self.announced = True
        if not self._announce_choices():
            return False
        self.phase = ANNOUNCE
        self.to_move = self.declarer
        return True

    def _legal_announce(self) -> list[int]:
        r = self.rules
        return [r.A_BID + c.index for c in self._announce_choices()] + [r.A_PASS]

    def _apply_announce(self, a: int) -> None:
        r = self.rules
        c = self.contract
        assert c is not None  # announced after a contract
        if a != r.A_PASS:
            c = self.contract = r.contracts[a - r.A_BID]
            if c.trump_mode == "none":
                self._set_trump(None)
            elif c.trump_mode == "fixed":
                self._set_trump(c.fixed_suit)
            elif self.trump is not None:
                self._set_trump(self.trump)
            self.trump_open = self.trump is None and c.trump_mode == "first_lead"
        if self.trump is None and c.trump_mode == "named":
            self.phase = TRUMP
            self.to_move = self.declarer
            return
        self._start_play()
