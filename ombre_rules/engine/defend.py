"""The defenders' decisions after the contract (phase DEFEND): each defender in turn plays (`follow`) or
passes; the last to decide, when every earlier one passed, may `invite` them to play with him (an invited
defender plays, or says `accept` or `refuse`). A defender who does not play lays his hand down: play goes on
without him (fewer cards a trick). When none plays the deal is settled without play.

Driven by `defence` (`when`, `invite`, `invited_must_accept`); compiled in ruleset/defence.py. It runs among the
steps before play (PlayStage._pre_play); `defending`, `inviter` and `invited` name the result to expressions."""
from __future__ import annotations

from ..envs import defenders
from .fields import Fields
from .phases import DEFEND


class DefendStage(Fields):
    """The defenders' decisions (a mixin of State)."""

    __slots__ = ()

    def _start_defence(self) -> bool:
        """Open the decisions if the variant has them in this deal; False when it does not."""
        d = self.rules.defence
        if d is None or not self.eval(d.when):
            return False
        queue = defenders(self)
        if not queue:
            return False
        self.def_queue = queue
        self.def_in = 0
        self.phase = DEFEND
        self.to_move = queue[0]
        return True

    def _legal_defend(self) -> list[int]:
        r = self.rules
        seat = self.to_move
        if self.invited >> seat & 1:
            return [r.A_ACCEPT, r.A_REFUSE]
        acts = [r.A_FOLLOW, r.A_PASS]
        if self._may_invite(seat):
            acts.append(r.A_INVITE)
        return acts

    def _may_invite(self, seat: int) -> bool:
        """The last defender to decide, when every earlier one passed and no invitation was refused."""
        d = self.rules.defence
        assert d is not None  # phase DEFEND: the variant has defence
        if not d.invite or len(self.def_queue) != 1 or self.def_refused or self.inviter >= 0:
            return False
        return any(not self.def_in >> s & 1 for s in defenders(self) if s != seat)

    def _apply_defend(self, a: int) -> None:
        r = self.rules
        assert r.defence is not None  # phase DEFEND: the variant has defence
        seat = self.to_move
        queue = self.def_queue
        del queue[0]
        if a == r.A_FOLLOW or a == r.A_ACCEPT:
            self.def_in |= 1 << seat
        elif a == r.A_INVITE:
            self.inviter = seat
            self.def_in |= 1 << seat
            asked = [s for s in defenders(self) if not self.def_in >> s & 1]
            if r.defence.must_accept:
                for s in asked:
                    self.def_in |= 1 << s
                    self.invited |= 1 << s
            else:
                for s in asked:
                    self.invited |= 1 << s
                queue.extend(asked)
        elif a == r.A_REFUSE:
            self.invited &= ~(1 << seat)
            if not self.invited and not self.def_in & ~(1 << self.inviter):  # nobody accepted: he decides again
                self.def_in &= ~(1 << self.inviter)
                queue.append(self.inviter)
                self.inviter = -1
                self.def_refused = True
        if queue:
            self.to_move = queue[0]
            return
        self._end_defence()

    def _end_defence(self) -> None:
        """The passers lay their hands down and leave the ring of play; nobody playing: settled unplayed."""
        out = 0
        for s in defenders(self):
            if not self.def_in >> s & 1:
                out |= 1 << s
        self.def_out = out
        if out and not self.def_in:
            self._finish()
            return
        if out:
            nxt = list(self.nxt)
            for s in range(self.n):
                t = nxt[s]
                while out >> t & 1:
                    t = self.nxt[t]
                nxt[s] = t
            self.nxt = nxt
            self.tn -= out.bit_count()
        self._start_play()
