"""Re-running a deal's actions from its start, for logs and for per-seat action lists."""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .fields import Fields
from .phases import GIVEBACK

if TYPE_CHECKING:
    from ..ruleset import Ruleset


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

    def public(self, viewer: int | None) -> dict[str, Any]:
        """The event as `viewer` may know it (None: a spectator, who sees no seat's private cards)."""
        return {"seat": self.seat, "phase": self.phase, "action": self.text if self.known_to(viewer)
                else self.text.split()[0]}

    def known_to(self, viewer: int | None) -> bool:
        """Whether `viewer` (a seat, or None for a spectator) knows the action's card."""
        return not self.hidden or (viewer is not None and viewer >= 0
                                   and (viewer == self.seat or viewer == self.receiver))


def initial(state: Fields) -> Fields:
    """A fresh state with the same deal as `state` (made by its own class: this module does not import State,
    which reaches it through its views)."""
    new: Callable[..., Fields] = type(state)
    return new(state.rules, dealer=state.dealer, pool=state.pool_before, hands=list(state.deal_hands),
                       talon=list(state.deal_talon), seed=state.seed, session=state.carry)


class _Memo:
    """The last deal replayed for `events`: asked again for the same deal with more actions (the next view of a
    deal in play, or another seat's view of the same moment), the replay goes on from where it stopped."""

    __slots__ = ("rules", "deal", "history", "state", "events")

    def __init__(self) -> None:
        self.rules: Ruleset | None = None
        self.deal: tuple[Any, ...] | None = None
        self.state: Fields | None = None
        self.history: list[int] = []
        self.events: list[Event] = []


_LOCAL = threading.local()  # one memo per thread: bots may run in threads (a Dask worker, for one)


def forget() -> None:
    """Drop this thread's memo: the next view replays its deal from the start."""
    _LOCAL.memo = _Memo()


def events(state: Fields) -> list[Event]:
    """The deal's actions so far, each with its seat and phase."""
    r = state.rules
    hist = state.history
    deal = (state.deal_hands, state.deal_talon, state.dealer, state.pool_before, state.seed, state.carry)
    m = getattr(_LOCAL, "memo", None)
    if m is None:
        m = _LOCAL.memo = _Memo()
    done = len(m.history)
    if m.rules is r and m.deal == deal and done <= len(hist) and hist[:done] == m.history and m.state is not None:
        s, out = m.state, m.events
    else:
        s, out, done = initial(state), [], 0
        m.deal, m.state, m.events = deal, s, out
    m.rules = None  # forgotten until the replay below is through
    for i in range(done, len(hist)):
        a = hist[i]
        seat, phase = s.to_move, s.phase_name
        text = r.action_str(a)
        give_back = s.phase == GIVEBACK  # a card given for a demanded one: the two seats alone know it
        s.apply(a)
        receiver = s.handed[-1][2] if give_back else -1
        out.append(Event(i, seat, phase, a, text, r.A_DISCARD <= a < r.A_BID or give_back, receiver))
    m.rules, m.history = r, hist[:]
    return out[:]
