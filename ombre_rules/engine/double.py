"""Doubling (phase DOUBLE): once the defenders have decided, each seat that may double does so (`double`) or
passes, in turn, until one doubles; the declarer may then redouble (`redouble`) or pass. Payments read the
result as `multiplier` (1, or the variant's factor once doubled or redoubled) and `doubles` (0, 1 or 2).

Driven by `doubling` (`who`, `when`, `redouble`, `factors`); compiled in ruleset/doubling.py. It runs among the
steps before play (PlayStage._pre_play), after the defenders' decisions."""
from __future__ import annotations

from .fields import Fields
from .phases import DOUBLE


class DoubleStage(Fields):
    """Doubling and redoubling (a mixin of State)."""

    __slots__ = ()

    def _start_doubling(self) -> bool:
        """Open the doubling if the variant has it in this deal; False when it does not."""
        d = self.rules.doubling
        if d is None or not self.eval(d.when):
            return False
        seats = self.eval(d.who)
        queue = [s for s in ([seats] if type(seats) is int else seats or ()) if s != self.declarer]
        if not queue:
            return False
        self.dbl_queue = queue
        self.phase = DOUBLE
        self.to_move = queue[0]
        return True

    def _legal_double(self) -> list[int]:
        r = self.rules
        return [r.A_REDOUBLE if self.doubles else r.A_DOUBLE, r.A_PASS]

    def _apply_double(self, a: int) -> None:
        r = self.rules
        assert r.doubling is not None  # phase DOUBLE: the variant has doubling
        queue = self.dbl_queue
        if a == r.A_DOUBLE:
            self.doubles = 1
            self.doubler = self.to_move
            queue[:] = [self.declarer] if r.doubling.redouble else []
        elif a == r.A_REDOUBLE:
            self.doubles = 2
            queue.clear()
        else:
            del queue[0]
        if queue:
            self.to_move = queue[0]
            return
        self._start_play()
