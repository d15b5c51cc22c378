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


class _Memo:
    """The last deal replayed for `events`: asked again for the same deal with more actions (the next view of a
    deal in play, or another seat's view of the same moment), the replay goes on from where it stopped."""

    __slots__ = ("rules", "deal", "history", "state", "events")

    def __init__(self) -> None:
        self.rules = self.deal = self.state = None
        self.history: list[int] = []
        self.events: list[Event] = []


_MEMO = _Memo()


def events(state) -> list[Event]:
    """The deal's actions so far, each with its seat and phase."""
    r = state.rules
    hist = state.history
    deal = (state.deal_hands, state.deal_talon, state.dealer, state.pool_before, state.seed)
    m = _MEMO
    done = len(m.history)
    if m.rules is r and m.deal == deal and done <= len(hist) and hist[:done] == m.history:
        s, out = m.state, m.events
    else:
        s, out, done = initial(state), [], 0
        m.deal, m.state, m.events = deal, s, out
    m.rules = None  # forgotten until the replay below is through
    for i in range(done, len(hist)):
        a = hist[i]
        seat, phase = s.to_move, s.phase_name
        s.apply(a)
        out.append(Event(i, seat, phase, a, r.action_str(a), r.A_DISCARD <= a < r.A_BID))
    m.rules, m.history = r, hist[:]
    return out[:]
