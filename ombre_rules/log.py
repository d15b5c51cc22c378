"""A readable log of a deal, for everyone (omniscient) or as one seat may see it."""
from __future__ import annotations

from .book.words import join
from .engine.phases import XPLAY
from .engine.piles import excuse_debt
from .engine.portable import carry_words
from .engine.replay import events, initial
from .engine.rituals import seats_words
from .engine.settle import PASSED_OUT
from .engine.view import exposed_seats, leftover_shown, short_hands, short_ring
from .envs import forehand_of


def _seat(state, s: int) -> str:
    if s == forehand_of(state):
        return f"seat {s} (forehand)"
    if s == state.dealer:
        return f"seat {s} (dealer)"
    return f"seat {s}"


def hand_line(state, mask: int) -> str:
    return " ".join(state.rules.deck.names(mask)) or "-"


def _opening(state) -> list[str]:
    op = state.rules.opening
    if op is None:
        return []
    return [f"  {_seat(state, state._seat(op.seat))} opens with {op.contract.name}"]


def teams_line(teams: list[list[int]]) -> str:
    """The fixed partnerships in words: `teams: seats 0 and 2 against seats 1 and 3`."""
    return "teams: " + " against ".join(("seats " if len(t) > 1 else "seat ") + join([str(x) for x in t])
                                        for t in teams)


def deal_header(state, viewer: int | None = None) -> list[str]:
    r = state.rules
    lines = [f"{r.title} — {r.variant}" + (f", seed {state.seed}" if state.seed is not None else ""),
             f"dealer: seat {state.dealer}; pool {state.pool_before}"]
    if state.seat_draw:
        lines.append(f"draw for seats: {seats_words(r, state.seat_draw)}")
    if r.cut is not None and state.cut_at >= 0:
        lines.append(f"cut: seat {r.cut.who[state.dealer]} lifts {state.cut_at} cards")
    if r.teams is not None:
        lines.append(teams_line([list(t) for t in r.teams]))
    if r.carry is not None:  # public: what the session carries into the deal
        lines.append(f"session: {carry_words(r, state.carry)}")
    lines.append("hands:")
    si, took = r.stand_in, state.stand_for
    sitter = si.sitter[state.dealer] if si is not None and took >= 0 else -1
    for s in state.order_from(forehand_of(state)):  # as dealt: the seat whose hand was taken over had it
        s = took if s == sitter else s
        if viewer is None or viewer == s:
            lines.append(f"  {_seat(state, s)}: {hand_line(state, state.deal_hands[s])}")
    for s in r.sitters[state.dealer]:
        lines.append(f"  seat {s} sits out")
    if sitter >= 0:
        lines.append(f"  seat {sitter} takes over the hand of seat {took} in the auction")
    if viewer is None and state.deal_talon:
        lines.append(f"  talon (top first): {' '.join(r.deck.name(c) for c in state.deal_talon)}")
    return lines


def _leftover(s, viewer: int | None) -> list[str]:
    """The stock cards nobody drew, as far as the viewer may see them, when play begins."""
    deck = s.rules.deck
    if not s.talon:
        return []
    if viewer is None:
        return [f"  left in the stock: {' '.join(deck.name(c) for c in s.talon)}"]
    shown = leftover_shown(s, viewer)
    return [f"  left in the stock, shown: {' '.join(deck.names(shown))}"] if shown else []


def _call_lines(s, card: int, viewer: int | None) -> list[str]:
    """What a call tells the viewer: a demanded card changes hands openly; a partner's seat only to himself."""
    name = s.rules.deck.name(card)
    if s.contract.call.demand:
        return [f"  seat {s.partner} hands {name} to seat {s.declarer}"] if s.partner >= 0 else []
    if s.partner < 0:
        return [f"  seat {s.declarer} holds {name} himself"] if viewer in (None, s.declarer) else []
    if viewer is None:
        return [f"  seat {s.partner} holds {name}: the hidden partner"]
    if viewer == s.partner:
        return [f"  you hold {name}: you are the hidden partner of seat {s.declarer}"]
    return []


def format_deal(state, viewer: int | None = None, header: bool = True) -> list[str]:
    """Log lines for the deal so far; `viewer` hides what that seat may not see."""
    r = state.rules
    deck = r.deck
    lines = deal_header(state, viewer) if header else []
    s = initial(state)
    phase = None
    pending_discards: dict[int, list[str]] = {}
    trick_no = 0
    for ev in events(state):
        if ev.phase != phase:
            phase = ev.phase
            if phase == "play":
                lines += _leftover(s, viewer)
            lines.append(f"{phase}:")
            if phase == "auction":
                lines += _opening(s)
            elif phase == "lay-away" and s.rules.lay_away is not None and s.rules.lay_away.take_talon \
                    and s.drawn[ev.seat]:
                lines.append(f"  {_seat(s, ev.seat)} takes the talon")
        seat = ev.seat
        a = ev.action
        if s.phase > XPLAY:  # lay-away, demand, give back, raise
            lines += _extra_event(s, ev, viewer)
            continue
        if r.A_DISCARD <= a < r.A_BID:
            pending_discards.setdefault(seat, []).append(deck.name(a - r.A_DISCARD))
        elif a == r.A_DRAW:
            before = s.talon[:]
            s.apply(a)
            gave = pending_discards.pop(seat, [])
            got = before[:len(gave)]
            if viewer is None or viewer == seat:
                lines.append(f"  {_seat(s, seat)} discards {' '.join(gave) or 'nothing'}"
                             f"{', draws ' + ' '.join(deck.name(c) for c in got) if got else ''}")
            else:
                lines.append(f"  {_seat(s, seat)} changes {len(gave)} card{'s' if len(gave) != 1 else ''}")
            continue
        elif a < r.A_DISCARD:
            before_log = len(s.trick_log)
            was_committed = s.committed
            was_told = s.told
            was_exposed = exposed_seats(s)
            s.apply(a)
            for now in exposed_seats(s):
                if now not in was_exposed:
                    lines.append(f"  {_seat(s, now)} lays the hand open: {hand_line(s, s.hands[now])}")
            if s.committed and not was_committed:
                lines.append(f"  {_seat(s, seat)} plays on after the first {before_log} tricks: committed")
            if len(s.trick_log) > before_log:
                trick_no += 1
                leader, cards, w = s.trick_log[-1]
                plays = []
                p = leader
                short = short_hands(s)  # hands of unequal size: the ring of that trick, not the one left after it
                nxt = s.nxt if short is None else short_ring(short, len(s.trick_log) - 1)
                for c in cards:
                    plays.append(f"{p}:{deck.name(c)}")
                    p = nxt[p]
                lines.append(f"  trick {trick_no}: {' '.join(plays)} -> seat {w}")
            if a == s.called and seat == s.partner:
                lines.append(f"  {_seat(s, seat)} played the called card {deck.name(a)}: "
                             f"the partner of seat {s.declarer}")
            if s.told != was_told and (viewer is None or s.told >> viewer & 1):
                lines.append(f"  seat {s.declarer} is told his partner: seat {s.partner}")
            continue
        else:
            lines.append(f"  {_seat(s, seat)}: {ev.text}")
        prev_contract = s.contract
        prev_shown = s.shown[seat]
        s.apply(a)
        if r.A_CALL <= a < r.A_GIVE:
            lines += _call_lines(s, a - r.A_CALL, viewer)
        if s.shown[seat] != prev_shown:
            lines.append(f"  {_seat(s, seat)} shows {hand_line(s, s.shown[seat] & ~prev_shown)}")
        if s.contract is not None and prev_contract is None:
            lines.append(f"  {_seat(s, s.declarer)} is declarer: {s.contract.name}")
            if s.turned >= 0:
                lines.append(f"  turned {deck.name(s.turned)}" + (f": trumps are {s.trump.name}" if s.trump else ""))
    if state.result is not None:
        lines += _excuse_line(state)
        res = state.result
        lines.append(f"outcome: {res.outcome}" + (f" ({res.contract}, trumps {res.trump})" if res.contract else
                                                  f" ({PASSED_OUT})"))
        lines.append("tricks: " + ", ".join(f"seat {i} {t}" for i, t in enumerate(res.tricks)))
        lines.append("payments: " + ", ".join(f"seat {i} {p:+d}" for i, p in enumerate(res.payments))
                     + f"; pool {res.pool_before} -> {res.pool_after}")
        if r.carry is not None:
            lines.append(f"session for the next deal: {carry_words(r, state.carry_after)}")
        lines += [f"  {e}" for e in state.account()]
        lines += summary_lines(state)
    return lines


def _extra_event(s, ev, viewer: int | None) -> list[str]:
    """The log line of an action of an optional phase (applied to the replaying state `s`)."""
    seat, a = ev.seat, ev.action
    text = ev.text if viewer is None else ev.public(viewer)["action"]
    handed = len(s.handed)
    had_contract = s.contract is not None
    s.apply(a)
    out = [f"  {_seat(s, seat)}: {text}"]
    if s.contract is not None and not had_contract:
        out.append(f"  {_seat(s, s.declarer)} is declarer: {s.contract.name}")
    if ev.phase == "demand" and len(s.handed) > handed:
        c, frm, _to, _public = s.handed[handed]
        out[-1] += f" (from seat {frm})" if frm >= 0 else " (nobody holds it)"
    elif ev.phase == "give":
        out[-1] += f" (to seat {s.handed[-1][2]})"
    return out


def _excuse_line(state) -> list[str]:
    debt = excuse_debt(state)
    if debt is None:
        return []
    owner, w, given = debt
    deck = state.rules.deck
    what = deck.name(given) if given >= 0 else "nothing (he has no card to give)"
    return [f"excuse {deck.name(state.rules.excuse.card)}: back to seat {owner}, who gives seat {w} {what}"]


def summary_lines(state) -> list[str]:
    """The variant's summary values for a finished deal (e.g. each side's card points)."""
    rules = state.rules
    if not rules.summary or state.result is None:
        return []
    env = state.env()
    return [f"{label}: {state.eval(e, env)}" for label, e in rules.summary]
