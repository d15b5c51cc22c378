"""What one seat knows at a decision, as card masks: read from its view (`State.view`) or, inside a sampled
world of a Monte-Carlo search, from that world's state (where every card is the sample's own guess)."""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.view import partner_known


@dataclass(slots=True)
class Seat:
    """A seat's situation: its hand, what is gone, the trick in play, the sides as far as it knows them."""

    rules: object
    seat: int
    hand: int
    seen: int  # every card whose place the seat knows is not an opponent's hand: its own, played, shown, its discards
    contract: object | None  # the Contract, once fixed
    trump: object | None  # the trump Suit, once fixed
    declarer: int | None
    partner: int | None  # the declarer's partner when known to this seat
    hidden_partner: bool  # the declarer has a partner this seat does not know yet
    trick: list[tuple[int, int]]  # (seat, card) of the trick in play, in order
    active: int  # seats taking part in the deal
    tricks_total: int  # tricks a deal has
    talon: int  # cards left in the stock
    high_bid: object | None  # the contract of the highest bid so far

    @property
    def ctx(self):
        """The rank tables of the contract and trump (or, before a contract, of the first contract, with its
        fixed trump if it has one, else no trump)."""
        r = self.rules
        c = self.contract or r.contracts[0]
        trump = self.trump
        if trump is None and c.trump_mode == "fixed":
            trump = c.fixed_suit
        return r.context(c.ranking, trump)

    def partners(self) -> set[int]:
        """The seats certainly on this seat's side (itself included)."""
        d = self.declarer
        if d is None:
            return {self.seat}
        side = {d} | ({self.partner} if self.partner is not None else set())
        if self.seat in side:
            return side
        if self.hidden_partner:
            return {self.seat}
        return set(range(self.rules.players)) - side


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
    trick = _trick_seats(rules, v)
    contract = rules.contract_by_name.get(v["contract"]) if v["contract"] else None
    trump = deck.suit_by_name.get(v["trump"]) if v["trump"] else None
    hidden = bool(v.get("called")) and v.get("partner") is None
    out = v.get("out_of_play") or ()  # defenders who passed: their hands lie down
    active = rules.players - len(v.get("sitting_out") or ()) - len(out)
    played = sum(len(t["cards"]) for t in v["trick_history"]) + len(v["current_trick"])
    total = (sum(h for s, h in enumerate(v["hand_sizes"]) if s not in out) + played) // active
    high = None
    for a in v.get("actions") or ():
        text = a["action"]
        if text.startswith("bid "):
            high = rules.contract_by_name.get(text[4:])
    return Seat(rules, seat, mask(v["hand"]), seen, contract, trump, v["declarer"], v.get("partner"), hidden,
                trick, active, total, v["talon_size"], high)


def _trick_seats(rules, v: dict) -> list[tuple[int, int]]:
    """The trick in play with the seat of each card: the seats before the one to move, in order of play."""
    cur = [rules.deck.parse(c) for c in v["current_trick"]]
    out = []
    s = v["to_move"] if v["to_move"] >= 0 else v["seat"]
    out_seats = set(v.get("sitting_out") or ()) | set(v.get("out_of_play") or ())
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
    seen = state.hands[seat] | state.discards[seat]
    for w in state.won:
        seen |= w
    sitters = r.sitters[state.dealer]
    trick = []
    s = state.leader
    nxt = state.nxt
    for c in state.trick:
        seen |= 1 << c
        trick.append((s, c))
        s = nxt[s]
        while s in sitters and s != state.declarer:
            s = nxt[s]
    partner = state.partner
    hidden = False
    if partner >= 0:
        if not partner_known(state, seat):
            partner, hidden = None, True
    else:
        partner = None
        hidden = state.called >= 0 and state.declarer != seat
    active = state.tn
    total = (sum(h.bit_count() for s, h in enumerate(state.hands) if not state.def_out >> s & 1)
             + sum(state.tricks) * active + len(state.trick)) // active
    return Seat(r, seat, state.hands[seat], seen, state.contract, state.trump,
                state.declarer if state.declarer >= 0 else None, partner, hidden, trick, active, total,
                len(state.talon), state.high)
