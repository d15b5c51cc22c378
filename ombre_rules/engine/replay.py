"""Re-running a deal's actions from its start, for logs and for per-seat action lists."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Event:
    """One action in context: who did it, in which phase, and what it was."""

    index: int
    seat: int
    phase: str
    action: int
    text: str
    hidden: bool  # the action's card is private to its seat (a discard)

    def public(self, viewer: int) -> dict:
        text = self.text if not self.hidden or viewer == self.seat else self.text.split()[0]
        return {"seat": self.seat, "phase": self.phase, "action": text}


def initial(state):
    """A fresh state with the same deal as `state`."""
    from .state import State

    return State(state.rules, dealer=state.dealer, pool=state.pool_before, hands=list(state.deal_hands),
                 talon=list(state.deal_talon), seed=state.seed)


def events(state) -> list[Event]:
    """The deal's actions so far, each with its seat and phase."""
    r = state.rules
    s = initial(state)
    out = []
    for i, a in enumerate(state.history):
        seat, phase = s.to_move, s.phase_name
        text = r.action_str(a)
        out.append(Event(i, seat, phase, a, text, r.A_DISCARD <= a < r.A_BID))
        s.apply(a)
    return out
