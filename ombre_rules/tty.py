"""The terminal table of `ombre play --human SEAT`: a person plays one seat, bots the others, deal after deal
with the pool (and the values a variant carries between deals, which the deal's log shows) carried over, and a
score sheet at the end."""
from __future__ import annotations

from collections.abc import Callable

from .engine import State
from .engine.deal import drawn_words
from .engine.portable import carry_words
from .engine.rituals import seats_words
from .engine.settle import PASSED_OUT
from .errors import OmbreError
from .explain.why import why_illegal
from .log import format_deal, teams_line
from .players import act
from .ruleset import Ruleset
from .session import Session

HELP = """type one of the legal actions listed:
  its number (1, 2, ...), its text (bid NAME, play CARD), its argument alone (NAME, CARD),
  or the start of either when only one action begins that way
  help or ?   this help
  quit        leave the table (the deal in play is abandoned)"""


class Quit(Exception):
    """The person at the table typed quit (or closed the input)."""


def parse_choice(text: str, options: list[str]) -> int | str:
    """The index in `options` (the legal actions' texts) that `text` chooses, or a message saying why it
    chooses none: a number from 1, the action's text, its argument, or a prefix only one option has.

    >>> parse_choice("lo", ["bid low", "bid high", "pass"])
    0
    >>> parse_choice("3", ["bid low", "bid high", "pass"])
    2
    >>> parse_choice("b", ["bid low", "bid high", "pass"])
    "'b' could be: bid low, bid high"
    """
    t = " ".join(text.lower().split())
    if t.isdigit():
        k = int(t)
        return k - 1 if 1 <= k <= len(options) else f"no action numbered {k} (1 to {len(options)})"
    low = [o.lower() for o in options]
    args = [o.split()[-1] for o in low]
    for names in (low, args):
        if t in names:
            return names.index(t)
    hits = [i for i, (o, a) in enumerate(zip(low, args, strict=True)) if o.startswith(t) or a.startswith(t)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        return f"'{text.strip()}' could be: {', '.join(options[i] for i in hits)}"
    return f"'{text.strip()}' is not one of the legal actions (type help or ?)"


def _seat(state: State, s: int, me: int) -> str:
    return f"seat {s}" + (" (you)" if s == me else "")


def trick_line(state: State, me: int) -> str:
    """The trick in play, each card with the seat that played it."""
    deck = state.rules.deck
    seat = state.leader
    parts = []
    for c in state.trick:
        parts.append(f"{_seat(state, seat, me)} {deck.name(c)}")
        seat = state.nxt[seat]
    return ", ".join(parts)


def situation(state: State, me: int) -> list[str]:
    """What the person sees before choosing: phase, hand, contract, tricks so far, the trick in play and the
    numbered legal actions."""
    v = state.view(me)
    out = [f"-- {_seat(state, me, me)}, {v['phase']} --", f"hand: {' '.join(v['hand']) or '-'}"]
    if v["teams"] is not None:
        out.append(teams_line(v["teams"]))
    if v["contract"]:
        out.append(f"contract: {v['contract']} by seat {v['declarer']}" + (f"; trumps {v['trump']}" if v["trump"]
                                                                            else ""))
    if v["trick_history"] or v["current_trick"]:
        out.append("tricks: " + ", ".join(f"{_seat(state, s, me)} {t}" for s, t in enumerate(v["tricks"])
                                         if s not in v["sitting_out"]))
    if state.trick:
        out.append(f"trick so far: {trick_line(state, me)}")
    out.append("legal: " + "  ".join(f"{i + 1}) {a}" for i, a in enumerate(v["legal"])))
    return out


def human_turn(state: State, me: int, ask: Callable[[str], str], say: Callable[[str], None]) -> int:
    """Ask the person at seat `me` for an action until one is legal; Quit on quit or end of input."""
    say("\n".join(situation(state, me)))
    legal = state.legal_actions()
    texts = [state.rules.action_str(a) for a in legal]
    while True:
        try:
            text = ask(f"seat {me}> ")
        except EOFError:
            raise Quit from None
        t = text.strip().lower()
        if not t:
            continue
        if t in ("help", "?"):
            say(HELP + "\nlegal: " + "  ".join(f"{i + 1}) {a}" for i, a in enumerate(texts)))
            continue
        if t in ("quit", "exit"):
            raise Quit
        got = parse_choice(text, texts)
        if isinstance(got, str):
            say(refusal(state, text, got))
            continue
        return legal[got]


def refusal(state: State, text: str, message: str) -> str:
    """Why typed text chooses no legal action: for an action of the game that is illegal now, the obligation
    that binds (when one does); otherwise `message`."""
    try:
        a = state.rules.parse_action(text)
    except OmbreError:
        return message
    why = why_illegal(state, a)
    return f"'{state.rules.action_str(a)}' is not legal now{' (' + why + ')' if why else ''} (type help or ?)"


def play_deal(state: State, players: list, me: int | None, ask, say) -> None:
    """Play one deal to its end, showing the log as seat `me` may see it (everything without a person)."""
    shown = 0

    def show_new() -> None:
        nonlocal shown
        lines = format_deal(state, viewer=me)
        if lines[shown:]:
            say("\n".join(lines[shown:]))
        shown = len(lines)

    while not state.is_terminal:
        seat = state.current_player
        if seat == me:
            show_new()
            a = human_turn(state, seat, ask, say)
        else:
            a = act(players[seat], state, seat)
        state.apply(a)
    show_new()


def score_sheet(session: Session) -> str:
    """One row per deal (dealer, contract, declarer, outcome, each seat's payment, the pool after it), the
    session's close once it has one, and the totals."""
    n = session.rules.players
    sitter = {s: p for p, s in enumerate(session.seats)}  # with a draw for seats, the player at each seat
    head = ["deal", "dealer", "contract", "declarer", "outcome"] + [
        f"seat {s}" + (f" (player {sitter[s]})" if session.seat_draw else "") for s in range(n)] + ["pool"]
    rows = [head]
    for i, st in enumerate(session.deals):
        r = st.result
        assert r is not None  # a deal of the session is over
        rows.append([str(i + 1), str(st.dealer), r.contract or PASSED_OUT,
                     "-" if r.declarer is None else str(r.declarer), r.outcome]
                    + [f"{p:+d}" for p in r.payments] + [str(r.pool_after)])
    end = session.rules.session_end
    if session.closed is not None and end is not None and end.close is not None:
        rows.append(["close", "", "", "", ""] + [f"{p:+d}" for p in session.closed.payments]
                    + [str(session.closed.pool_after)])
    rows.append(["total", "", "", "", ""] + [f"{t:+d}" for t in session.ledger] + [str(session.pool)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "\n".join("  ".join(c.rjust(w) if i >= 5 else c.ljust(w) for i, (c, w) in
                               enumerate(zip(r, widths, strict=True))).rstrip() for r in rows)


def play_table(rules: Ruleset, players: list, me: int | None, seed: int, dealer: int, deals: int | None,
               ask: Callable[[str], str] = input, say: Callable[[str], None] = print) -> list[State]:
    """Play `deals` deals (one: the deal of `seed`; more: a session seeded by `seed`, the dealer moving round
    and the pool carried over, with a score sheet after; None: the variant's whole session, until its end and
    with its close). `dealer` -1: seat 0, or for a session the variant's draw (`session.first_dealer`). With a draw
    for seats (`session.seats`), `players` and `me` are players in the order given, each at the seat drawn. Returns the
    finished deals (those before a quit)."""
    if deals == 1:
        state = State(rules, seed=seed, dealer=max(dealer, 0))
        try:
            play_deal(state, players, me, ask, say)
        except Quit:
            say("you left the table; the deal is abandoned")
            return []
        return [state]
    session = Session(rules, seed=seed, dealer=dealer)
    if session.seat_draw:  # the players given sit where they drew: `me` is a player, the seat his draw gives
        who = [f"player {p}" + (" (you)" if p == me else "") for p in range(rules.players)]
        say(f"draw for seats: {seats_words(rules, session.seat_draw, who)}")
        players = session.by_seat(players)
        me = None if me is None else session.seats[me]
    if session.dealer_draw:
        say(f"draw for the first dealer: {drawn_words(rules, session.dealer_draw)}")
    of = f" of {deals}" if deals is not None else ""
    while not session.over if deals is None else len(session.deals) < deals:
        say(f"\n=== deal {len(session.deals) + 1}{of}: dealer seat {session.dealer}, pool {session.pool} ===")
        state = session.new_deal()
        try:
            play_deal(state, players, me, ask, say)
        except Quit:
            say("you left the table; the deal in play is abandoned")
            break
        session.record(state)
    else:
        if deals is None:
            closed = session.close()
            paid = "" if rules.session_end is None or rules.session_end.close is None else (
                "; its close pays " + ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(closed.payments))
                + f" (pool {closed.pool_before} -> {closed.pool_after})")
            say(f"\nthe session ends after {len(session.deals)} deals{paid}")
    if session.deals:
        say("\nscore sheet:\n" + score_sheet(session))
        if rules.carry is not None:
            say(f"session after the last deal: {carry_words(rules, session.deals[-1].carry_after)}")
    return session.deals
