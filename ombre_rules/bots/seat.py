"""What one seat knows at a decision, as card masks: read from its view (`State.view`) or, inside a sampled
world of a Monte-Carlo search, from that world's state (where every card is the sample's own guess)."""
from __future__ import annotations

from functools import reduce
from operator import or_

from ..engine.view import Seat, judged_hand, partner_known, same_side, short_hands, short_seats, turn_up_place

__all__ = ["Seat", "from_state", "from_view", "same_side"]


def from_view(rules, v: dict) -> Seat:
    """A seat's situation from its view."""
    deck = rules.deck
    mask = deck.mask_of
    seat = v["seat"]
    seen = mask(v["hand"]) | mask(v["my_discards"]) | mask(v["leftover_shown"])
    for t in v["trick_history"]:
        seen |= mask(t["cards"])
    seen |= mask(v["current_trick"])
    if v.get("turned"):
        seen |= mask([v["turned"]])
    if v.get("turn_up_on_talon"):  # the deal's turned card, lying on the talon: in no hand
        seen |= mask([v["turn_up"]])
    trick = _trick_seats(rules, v)
    contract = rules.contract_by_name.get(v["contract"]) if v["contract"] else None
    trump = deck.suit_by_name.get(v["trump"]) if v["trump"] else None
    hidden = bool(v.get("called")) and v.get("partner") is None
    out = v.get("out_of_play") or ()  # defenders who passed: their hands lie down
    active = rules.players - len(v.get("sitting_out") or ()) - len(out)
    played = sum(len(t["cards"]) for t in v["trick_history"]) + len(v["current_trick"])
    total = (sum(h for s, h in enumerate(v["hand_sizes"]) if s not in out) + played) // active
    if v.get("short_hands"):  # hands of unequal size: the seats that play to this trick
        _stopped, active, total = short_seats(v["short_hands"], len(v["trick_history"]))
    high = None
    for a in v.get("actions") or ():
        text = a["action"]
        if text.startswith("bid "):
            high = rules.contract_by_name.get(text[4:])
    hand = mask(v["hand"])
    si = v.get("stand_in")
    if si and si["asked"] and seat == v["to_move"]:  # the seat sitting out judges the hand he may take over
        seat, hand = si["seat"], mask(v["stand_in_hand"])
        seen |= hand
    return Seat(rules, seat, hand, seen, contract, trump, v["declarer"], v.get("partner"), hidden,
                trick, active, total, v["talon_size"], high,
                rules.deck.parse(v["turn_up"]) if v.get("turn_up") else -1, v["dealer"])


def _trick_seats(rules, v: dict) -> list[tuple[int, int]]:
    """The trick in play with the seat of each card: the seats before the one to move, in order of play."""
    cur = [rules.deck.parse(c) for c in v["current_trick"]]
    out = []
    s = v["to_move"] if v["to_move"] >= 0 else v["seat"]
    out_seats = set(v.get("sitting_out") or ()) | set(v.get("out_of_play") or ())
    if v.get("short_hands"):  # the seats whose hands ran out before this trick
        stopped = short_seats(v["short_hands"], len(v["trick_history"]))[0]
        out_seats |= {s for s in range(rules.players) if stopped >> s & 1}
    n = rules.players
    for c in reversed(cur):
        for _ in range(n):
            s = (s - 1) % n
            if s not in out_seats:
                break
        out.append((s, c))
    return out[::-1]


def from_state(state, seat: int) -> Seat:
    """A seat's situation read from a state (a sampled world): the same facts its view gives."""
    r = state.rules
    seen = state.hands[seat] | state.discards[seat] | played_cards(state)
    if state.turn_up >= 0 and turn_up_place(state)[1]:  # the deal's turned card, lying on the talon
        seen |= 1 << state.turn_up
    declarer = state.declarer
    partner, hidden = world_partner(state, seat)
    active = state.tn  # the seats in the ring of play: no sitter but a declaring one, no defender who passed
    held = sum(map(int.bit_count, state.hands))
    out = state.def_out
    if out:
        for s, h in enumerate(state.hands):
            if out >> s & 1:
                held -= h.bit_count()
    total = (held + sum(state.tricks) * active + len(state.trick)) // active
    short = short_hands(state)
    if short is not None:  # hands of unequal size: the seats that play to this trick
        _stopped, active, total = short_seats(short, len(state.trick_log))
    seat, hand = judged_hand(state, seat)
    return Seat(r, seat, hand, seen | hand, state.contract, state.trump,
                declarer if declarer >= 0 else None, partner, hidden, world_trick(state), active, total,
                len(state.talon), state.high, state.turn_up, state.dealer)


def played_cards(state) -> int:
    """Every card played to a trick so far (the piles won and the trick in play)."""
    m = reduce(or_, state.won, 0)
    for c in state.trick:
        m |= 1 << c
    return m


def world_trick(state) -> list[tuple[int, int]]:
    """The trick in play as (seat, card), in order of play."""
    trick = []
    if state.trick:
        sitters = state.rules.sitting(state.dealer, state.stand_for)
        declarer = state.declarer
        s = state.leader
        nxt = state.nxt
        for c in state.trick:
            trick.append((s, c))
            s = nxt[s]
            while s in sitters and s != declarer:
                s = nxt[s]
    return trick


def world_partner(state, seat: int) -> tuple[int | None, bool]:
    """The declarer's partner as `seat` knows him (None: not known) and whether he has one it does not know."""
    partner = state.partner
    if partner >= 0:
        if not partner_known(state, seat):
            return None, True
        return partner, False
    return None, state.called >= 0 and state.declarer != seat
