"""Re-running a deal's actions from its start, for logs and for per-seat action lists."""
from __future__ import annotations

from dataclasses import dataclass

from .phases import GIVEBACK


@dataclass(frozen=True, slots=True)
class Event:
    """One action in context: who did it, in which phase, and what it was."""

    index: int
    seat: int
    phase: str
    action: int
    text: str
    hidden: bool  # the action's card is private to its seat (a discard), or to it and its receiver (a gift)
    receiver: int = -1

    def public(self, viewer: int) -> dict:
        text = self.text if not self.hidden or viewer in (self.seat, self.receiver) else self.text.split()[0]
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
        give_back = s.phase == GIVEBACK  # a card given for a demanded one: the two seats alone know it
        s.apply(a)
        receiver = s.handed[-1][2] if give_back else -1
        out.append(Event(i, seat, phase, a, text, r.A_DISCARD <= a < r.A_BID or give_back, receiver))
    return out
