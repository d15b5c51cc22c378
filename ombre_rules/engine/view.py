"""The one observation model: what a seat may see. Views, logs shown to a seat, and bots all use it."""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import TYPE_CHECKING, Any

from ..checks import seat_id
from .carry import as_json
from .fields import Fields

if TYPE_CHECKING:
    from ..cards import Suit
    from ..ruleset import Context, Contract, Ruleset


def visible_cards(state: Fields, seat: int | None) -> int:
    """Every card whose identity `seat` knows now: what every seat sees (`public_cards`), its hand, its discards
    and draws, leftover stock cards shown to it, and cards handed privately to or by it. A spectator (None)
    knows the public cards only."""
    m = public_cards(state)
    if seat is None:
        return m
    m |= state.hands[seat] | state.discards[seat] | state.drawn[seat] | leftover_shown(state, seat)
    m |= stand_in_seen(state, seat)
    for c, frm, to, public in state.handed:
        if not public and seat in (frm, to):
            m |= 1 << c
    return m


def stand_in_seen(state: Fields, seat: int | None) -> int:
    """The hand of the seat `sit_out.stand_in` names, which the seat sitting out sees during the auction
    (`sees`) until he takes it over; 0 for every other seat, a spectator, and after the auction."""
    si = state.rules.stand_in
    if si is None or not si.sees or seat is None or state.stand_for >= 0 or seat != si.sitter[state.dealer] \
            or state.phase_name != "auction":
        return 0
    return state.hands[si.named[state.dealer]]


def stand_in_facts(state: Fields) -> dict[str, Any]:
    """What every seat knows of `sit_out.stand_in`: the seat whose hand may be taken over, the seat sitting out
    who may take it, whether he is being asked now and whether he took it."""
    si = state.rules.stand_in
    assert si is not None  # shown only where the rule exists
    return {"seat": si.named[state.dealer], "sitter": si.sitter[state.dealer], "asked": bool(state.stand_bids),
            "taken": state.stand_for >= 0}


def judged_hand(state: Fields, seat: int) -> tuple[int, int]:
    """The seat and hand a decision of `seat` is judged with: the named seat's hand the seat sitting out sees
    while he is asked to take it over (`sit_out.stand_in`), else its own."""
    if state.stand_bids and seat == state.to_move:
        si = state.rules.stand_in
        assert si is not None  # asked only where the rule exists
        return si.named[state.dealer], stand_in_seen(state, seat)
    return seat, state.hands[seat]


def public_cards(state: Fields) -> int:
    """Every card whose identity every seat (and a spectator) knows now: cards handed openly, cards played,
    the turned card, the card turned for the deal, stock cards shown to all, demanded cards and the cards given
    for them, shown cards and an exposed hand."""
    m = leftover_shown(state, None) | state.talon_shown | demanded_shown(state)
    for c, _frm, _to, public in state.handed:
        if public:
            m |= 1 << c
    for _leader, cards, _w in state.trick_log:
        for c in cards:
            m |= 1 << c
    for c in state.trick:
        m |= 1 << c
    if state.turned >= 0:
        m |= 1 << state.turned
    if state.turn_up >= 0 and state.rules.turn_up_from != "second_pack":  # a second pack's card is no card here
        m |= 1 << state.turn_up
    for shown in state.shown:
        m |= shown
    for s in exposed_seats(state):
        m |= state.hands[s]
    return m


def demanded_shown(state: Fields) -> int:
    """A demanded card and the card given for it: both change hands openly."""
    call = state.contract.call if state.contract is not None else None
    if call is None or not call.demand or state.called < 0:
        return 0
    m = 1 << state.called
    r = state.rules
    for a in state.history:
        if a >= r.A_GIVE:
            m |= 1 << (a - r.A_GIVE)
    return m


def partner_known(state: Fields, seat: int | None) -> bool:
    """Whether `seat` knows the declarer's partner: every seat, when he accepted the bid in the auction; for a
    called card, who holds it: the holder himself; the declarer once told; everyone
    (a spectator, None, too) once the card is played, once the partner has spoken for the side (claim), or when
    the deal is over."""
    p = state.partner
    call = state.contract.call if state.contract is not None else None
    if p >= 0 and call is None:  # a partner by accepting a bid in the auction (`auction.accept`): known to all
        return True
    if p < 0 or call is None or call.demand:
        return False
    mine = seat is not None and seat >= 0 and (seat == p or bool(state.told >> seat & 1))
    return (mine or not state.hands[p] >> state.called & 1
            or (state.claim_seat == p and (state.committed or state.stopped)) or state.result is not None)


def exposed_seats(state: Fields) -> list[int]:
    """The seats whose hands lie open to every seat now, in the order `expose.who` names them (empty: none);
    with `from: own_first_card` each is open from its own first card on."""
    c = state.contract
    if c is None or c.expose is None or state.phase_name not in ("play", "done"):
        return []
    if not state.play_hands[state.declarer]:
        return []
    who = state.eval(c.expose[0])
    seats = [who] if type(who) is int else list(dict.fromkeys(s for s in who or () if type(s) is int))
    if c.expose[1] == "own_first_card":
        return [s for s in seats if state.play_hands[s] != state.hands[s]]
    return seats if state.trick_log or state.trick else []


def turn_up_place(state: Fields) -> tuple[int | None, bool]:
    """Where every seat knows the deal's turned card is: (the seat that has it, or None; whether it lies on the
    talon). A card turned on the talon lies there until someone draws or takes it; a dealer's last card is his,
    and a card drawn or taken is the drawer's, until it is played (in his hand, or laid away by him out of
    sight, where the rules let him); a second pack's card is nowhere."""
    c = state.turn_up
    kind = state.rules.turn_up_from
    if c < 0 or kind == "second_pack":
        return None, False
    if kind == "talon_top" and c in state.talon:
        return None, True
    bit = 1 << c
    if c in state.trick or any(w & bit for w in state.won):
        return None, False
    for s, h in enumerate(state.hands):
        if (h | state.discards[s]) & bit:
            return s, False
    return None, False


def leftover_shown(state: Fields, seat: int | None) -> int:
    """The stock cards nobody drew, if the rules show them to this seat (only once play has begun); to a
    spectator (None) only if they are shown to all."""
    if state.contract is None or state.phase_name not in ("play", "done") or not state.talon:
        return 0
    mode = state.contract.exchange.leftover
    mine = seat is not None and state.last_exchanger >= 0 and seat == state.last_exchanger
    if mode == "all" or (mode == "last_exchanger" and mine):
        m = 0
        for c in state.talon:
            m |= 1 << c
        return m
    return 0


def public_actions(state: Fields, seat: int | None) -> list[dict[str, Any]]:
    """The deal's actions as `seat` may know them (None: a spectator): others' discards are shown only as
    'discard'."""
    from .replay import events

    return [e.public(seat) for e in events(state)]


def view(state: Fields, seat: int | None, actions: bool = True) -> dict[str, Any]:
    """A seat's observation as plain data (None: a spectator's, what every seat sees and no more, with `seat`,
    the hand and the seat's own exchange left empty); `actions=False` leaves out the action list (a replay, the
    costly part)."""
    r = state.rules
    deck = r.deck
    n = state.n
    if seat is not None:
        seat = seat_id(seat, n)
    out: dict[str, Any] = {
        "variant": r.variant,
        "seat": seat,
        "dealer": state.dealer,
        "dealer_draw": [{"seat": s, "card": deck.name(c)} for s, c in state.dealer_draw],
        "seat_draw": [{"player": p, "card": deck.name(c), "seat": r.seat_draw.cards.index(c)}
                      for p, c in enumerate(state.seat_draw)] if r.seat_draw else [],
        "cut": {"seat": r.cut.who[state.dealer], "at": state.cut_at} if r.cut and state.cut_at >= 0 else None,
        "phase": state.phase_name,
        "to_move": state.current_player,
        "hand": deck.names(state.hands[seat]) if seat is not None else [],
        "hand_sizes": [bin(h).count("1") for h in state.hands],
        "talon_size": len(state.talon),
        "pool": state.pool,
        "pool_before": state.pool_before,
        "declarer": state.declarer if state.declarer >= 0 else None,
        "taken_from": state.taken_from if state.taken_from >= 0 else None,
        "contract": state.contract.name if state.contract else None,
        "trump": state.trump.name if state.trump is not None else None,
        "turned": deck.name(state.turned) if state.turned >= 0 else None,
        "called": deck.name(state.called) if state.called >= 0 else None,
        "partner": state.partner if partner_known(state, seat) else None,
        "my_discards": deck.names(state.discards[seat]) if seat is not None else [],
        "my_draws": deck.names(state.drawn[seat]) if seat is not None else [],
        "discard_counts": [bin(d).count("1") for d in state.discards],
        "leftover_shown": deck.names(leftover_shown(state, seat)),
        "talon_shown": deck.names(state.talon_shown),
        "sitting_out": [s for s in r.sitting(state.dealer, state.stand_for) if s != state.declarer],
        "teams": [list(t) for t in r.teams] if r.teams is not None else None,
        "alone": state.alone == 1,
        "out_of_play": [s for s in range(n) if state.def_out >> s & 1],
        "shown": [{"seat": s, "cards": deck.names(m)} for s, m in enumerate(state.shown) if m],
        "exposed": None,
        "exposed_hands": [],
        "tricks": list(state.tricks),
        "trick_history": [{"leader": ld, "cards": [deck.name(c) for c in cards], "winner": w}
                          for ld, cards, w in state.trick_log],
        "current_trick": [deck.name(c) for c in state.trick],
    }
    short = short_hands(state)
    if short is not None:  # hands of unequal size: a seat stops playing after as many tricks as it had cards
        out["short_hands"] = short
    if r.stand_in is not None:  # who may take over whose hand; the hand itself to the seat sitting out alone
        out["stand_in"] = stand_in_facts(state)
        out["stand_in_hand"] = deck.names(stand_in_seen(state, seat))
    if r.carry is not None:  # public: every seat knows what the session carries into the deal
        out["session"] = as_json(r, state.carry)
    if r.turn_up_from is not None:  # the card turned for the deal, and where every seat knows it is
        holder, on_talon = turn_up_place(state)
        out["turn_up"] = deck.name(state.turn_up)
        out["turn_up_holder"] = holder
        out["turn_up_on_talon"] = on_talon
    if actions:
        out["actions"] = public_actions(state, seat)
    exposed = [{"seat": s, "hand": deck.names(state.hands[s])} for s in exposed_seats(state)]
    if exposed:  # `exposed`: the first open hand (the declarer's, as a rule); `exposed_hands`: every one
        out["exposed"] = exposed[0]
        out["exposed_hands"] = exposed
    if seat is not None and state.current_player == seat:
        out["legal"] = [r.action_str(a) for a in state.legal_actions()]
    if state.result is not None:
        out["result"] = state.result.to_dict()
    return out


@dataclass(slots=True)
class Seat:
    """A seat's situation as card masks, what a bot reads: its hand, what is gone, the trick in play, the sides as
    far as it knows them. `seat_facts` reads it from a state; `bots.seat` from a view or a sampled world."""

    rules: Ruleset
    seat: int
    hand: int
    seen: int  # every card whose place the seat knows is not an opponent's hand: its own, played, shown, its discards
    contract: Contract | None  # once fixed
    trump: Suit | None  # once fixed
    declarer: int | None
    partner: int | None  # the declarer's partner when known to this seat
    hidden_partner: bool  # the declarer has a partner this seat does not know yet
    trick: list[tuple[int, int]]  # (seat, card) of the trick in play, in order
    active: int  # seats taking part in the deal
    tricks_total: int  # tricks a deal has
    talon: int  # cards left in the stock
    high_bid: Contract | None  # the contract of the highest bid so far (None when read without the action list)
    turn_up: int = -1  # the card turned face up for the deal (deal.turn_up), known to every seat (-1: none)
    dealer: int = -1  # the deal's dealer (-1: not known)

    @property
    def ctx(self) -> Context:
        """The rank tables of the contract and trump (or, before a contract, of the first contract, with its
        fixed trump if it has one, else no trump)."""
        return rank_context(self.rules, self.contract, self.trump)


def rank_context(rules: Ruleset, contract: Contract | None, trump: Suit | None) -> Context:
    """The rank tables of a contract and trump (or, before a contract, of the first contract, with its fixed
    trump if it has one, else no trump)."""
    c = contract or rules.contracts[0]
    if trump is None and c.trump_mode == "fixed":
        trump = c.fixed_suit
    return rules.context(c.ranking, trump)


def same_side(seat: int, other: int, declarer: int | None, partner: int | None, hidden_partner: bool,
              team_of: tuple[int, ...] | None = None) -> bool:
    """Whether `seat` knows for certain that `other` is on its side (itself included), knowing the declarer,
    his partner (None: none known) and whether he has a partner it does not know; with fixed partnerships
    (`team_of`, every seat's team), whether they are of one team."""
    if team_of is not None:
        return team_of[seat] == team_of[other]
    if declarer is None:
        return other == seat
    if seat == declarer or seat == partner:
        return other == declarer or other == partner
    if hidden_partner:
        return other == seat
    return other != declarer and other != partner


def shown_cards(state: Fields, seat: int) -> int:
    """The cards `seat` saw that are in no hand, no discard and no trick: the stock left over, if shown to it,
    the turned card, and the deal's turned card while it lies on the talon."""
    m = leftover_shown(state, seat) if state.talon and state.contract is not None else 0
    if state.turned >= 0:
        m |= 1 << state.turned
    if state.turn_up >= 0 and turn_up_place(state)[1]:  # turned up on the talon: in no hand
        m |= 1 << state.turn_up
    return m


def seen_cards(state: Fields, seat: int, gone: int | None = None) -> int:
    """Every card `seat` has seen: its hand and discards, the tricks played (`gone`, the cards of every pile won,
    when the caller has it), the stock and turned card shown to it, and the trick in play."""
    if gone is None:
        gone = reduce(or_, state.won, 0)
    seen = state.hands[seat] | state.discards[seat] | gone | shown_cards(state, seat)
    for c in state.trick:
        seen |= 1 << c
    return seen


def short_hands(state: Fields) -> list[int] | None:
    """With a contract's lay-away by named seats (hands of unequal size), the tricks each seat plays to: its
    hand's size as play began, 0 for a seat out of play; a seat plays to trick t (from 1) while t is at most
    its number. None otherwise (and before play)."""
    c = state.contract
    if c is None or c.lay_away is None or c.lay_away.who is None or not state.play_hands:
        return None
    out = state.def_out
    return [0 if out >> s & 1 else h.bit_count() for s, h in enumerate(state.play_hands)]


def short_seats(short: list[int], tricks_done: int) -> tuple[int, int, int]:
    """From `short_hands`: the mask of the seats that play no card to the trick after `tricks_done` tricks, the
    number of seats that do (at least 1), and the tricks of the deal."""
    out = 0
    for s, k in enumerate(short):
        if k <= tricks_done:
            out |= 1 << s
    return out, max(1, len(short) - out.bit_count()), max(short)


def short_ring(short: list[int], tricks_done: int) -> list[int]:
    """From `short_hands`: the next seat, by seat, round the seats that play to the trick after `tricks_done`
    tricks (the seats go round in their numbers' order)."""
    n = len(short)
    ring = []
    for s in range(n):
        t = (s + 1) % n
        while short[t] <= tricks_done and t != s:
            t = (t + 1) % n
        ring.append(t)
    return ring


def seats_in_play(state: Fields) -> int:
    """How many seats play the deal's tricks: not sitting out (a sitter may declare), not out of play (a
    defender who passed lays his hand down)."""
    sitters = state.rules.sitting(state.dealer, state.stand_for)
    return state.n - len(sitters) + sitters.count(state.declarer) - state.def_out.bit_count()


def seat_facts(state: Fields, seat: int) -> Seat:
    """Exactly the facts `view(state, seat, actions=False)` gives a bot, read from the state's masks without
    naming a card: what the seat's view shows and nothing else."""
    r = state.rules
    hands = state.hands
    gone = reduce(or_, state.won, 0)  # the cards of the tricks played: each trick goes whole to its winner's pile
    seen = seen_cards(state, seat, gone)
    declarer = state.declarer
    sitters = r.sitting(state.dealer, state.stand_for)
    out = state.def_out  # defenders who passed: their hands lie down, out of play
    active = seats_in_play(state)
    held = sum(map(int.bit_count, hands))  # the cards in the hands of the seats in play
    if out:
        for s, h in enumerate(hands):
            if out >> s & 1:
                held -= h.bit_count()
    cur = state.trick
    total = (held + gone.bit_count() + len(cur)) // active
    short = short_hands(state)
    if short is not None:  # hands of unequal size: the seats that play to this trick
        stopped, active, total = short_seats(short, len(state.trick_log))
        out |= stopped
    trick = []
    if cur:
        trick = _trick_seats(state, seat, sitters, declarer, out)
    partner = state.partner if state.partner >= 0 and partner_known(state, seat) else None
    judged, hand = judged_hand(state, seat)
    return Seat(r, judged, hand, seen | hand, state.contract, state.trump, declarer if declarer >= 0 else None,
                partner, state.called >= 0 and partner is None, trick, active, total, len(state.talon), None,
                state.turn_up, state.dealer)


# (seats, sitters, declarer, defenders out) -> each seat's forerunner
_BEFORE: dict[tuple[Any, ...], tuple[int, ...]] = {}


def _trick_seats(state: Fields, seat: int, sitters: tuple[int, ...], declarer: int, out: int) -> list[tuple[int, int]]:
    """The trick in play as (seat, card) as a view shows it: the seats before the one to move (or `seat`) in
    turn, passing over the sitters (but a declaring one) and the seats of the mask `out` (the defenders out of
    play, the seats whose hands ran out)."""
    n = state.n
    key = (n, sitters, declarer, out)
    before = _BEFORE.get(key)
    if before is None:
        out_seats = [s for s in range(n) if (s in sitters and s != declarer) or out >> s & 1]
        prev = []
        for s in range(n):
            for _ in range(n):
                s = (s - 1) % n
                if s not in out_seats:
                    break
            prev.append(s)
        before = _BEFORE[key] = tuple(prev)
    s = state.current_player
    if s < 0:
        s = seat
    trick = []
    for c in reversed(state.trick):
        s = before[s]
        trick.append((s, c))
    trick.reverse()
    return trick
