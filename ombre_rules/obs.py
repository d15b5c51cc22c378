"""One observation encoding for every variant: a flat vector of numbers made from what one seat may see.

`layout(rules)` gives the slices of the vector in order, each a `Slice(name, size, shape, high, meaning)`;
`TABLE` is the same list in general terms (sizes as formulas), for the reference. The values are 0/1 except
the counts (`high` is each slice's largest value; the pool has none). Everything is taken from the seat's
observation model (`engine.view`): two positions that give a seat the same `State.view` encode the same.
This module needs no numpy; `Layout.encode` gives a list, `Layout.sparse` the non-zero entries.

    >>> from ombre_rules import load, State
    >>> from ombre_rules.sim.speed import builtin_variants
    >>> lay = layout(load(builtin_variants()[0]))
    >>> state = State(lay.rules, seed=1)
    >>> vec = lay.encode(state, 0)
    >>> hand = vec[lay.offset("hand"):lay.offset("hand") + lay.rules.deck.size]
    >>> len(vec) == lay.size and sum(hand) == state.hands[0].bit_count()
    True
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import bits, bits_function
from .engine.phases import AUCTION, PHASE_NAMES
from .engine.replay import events
from .engine.view import exposed_seats, leftover_shown, partner_known, short_hands, short_ring, stand_in_seen
from .obs_session import MEANING, SIZE_TEXT, entries, parts
from .ruleset import SPECIAL_VERBS

if TYPE_CHECKING:
    from .engine import State
    from .ruleset import Ruleset

# action kinds counted per seat, in this order: the verbs with a card, contract or suit, then the others
KINDS = ("play", "discard", "bid", "trump", "call", "give", "demand") + SPECIAL_VERBS
DEAL_PHASE = "deal"  # the phase while the cards are being dealt (the chance nodes of the OpenSpiel game)

# (name, size, meaning); C = cards in the deck, N = seats, K = contracts, S = suits, P = phases, T = most tricks,
# V = the entries of the values carried between deals (`obs_session`: none for a variant without them)
TABLE: list[tuple[str, str, str]] = [
    ("seat", "N", "the observing seat (one-hot)"),
    ("dealer", "N", "the dealer (one-hot)"),
    ("phase", "P + 1", "the phase: the engine's phases in `PHASE_NAMES` order, then `deal` while dealing"),
    ("to_move", "N", "the seat to act (all zero when the deal is over or being dealt)"),
    ("hand", "C", "the cards in the seat's hand"),
    ("hand_sizes", "N", "the number of cards in each seat's hand (count)"),
    ("talon_size", "1", "the number of cards in the talon or stock (count)"),
    ("my_discards", "C", "the cards this seat discarded or laid away"),
    ("my_draws", "C", "the cards this seat drew from the talon"),
    ("discard_counts", "N", "the number of cards each seat discarded (count)"),
    ("turned", "C", "the card turned from the talon, and the card turned for the deal (`deal.turn_up`): public "
               "cards"),
    ("talon_shown", "C", "talon cards shown to this seat (the stock nobody drew, where the rules show it)"),
    ("shown", "N x C", "cards each seat showed when bidding"),
    ("exposed", "N x C", "the hands laid open, each under its seat"),
    ("handed", "C", "cards handed over that this seat knows of (demanded cards and the cards given for them)"),
    ("contract", "K", "the contract being played (one-hot, in the file's order)"),
    ("trump", "S", "the trump suit (one-hot, in the deck's order)"),
    ("declarer", "N", "the declarer (one-hot)"),
    ("called", "C", "the called card (one-hot)"),
    ("partner", "N", "the called card's holder, once this seat knows it (one-hot)"),
    ("sitting_out", "N", "the seats that sit this deal out"),
    ("tricks", "N", "the tricks each seat has won (count)"),
    ("trick_cards", "T x N x C", "card played by each seat to each trick, the current trick included"),
    ("trick_leader", "T x N", "the seat that led each trick (one-hot per trick)"),
    ("trick_winner", "T x N", "the seat that won each finished trick (one-hot per trick)"),
    ("bids", "N x K", "the contracts each seat has bid in the auction"),
    ("high_bid", "K", "the standing bid of the auction (one-hot)"),
    ("high_seat", "N", "the seat holding the standing bid (one-hot)"),
    ("actions", f"N x {len(KINDS)}", "how many actions of each kind each seat took: " + ", ".join(KINDS) + " (count)"),
    ("pool", "1", "counters in the pool now (count, no upper bound)"),
    ("pool_before", "1", "counters in the pool when the deal began (count, no upper bound)"),
    ("session", SIZE_TEXT, MEANING),
    ("stand_in_hand", "C (0 without `sit_out.stand_in`)", "the hand the seat sitting out sees and may take over"),
    ("stand_in", "N (0 without `sit_out.stand_in`)", "the seat whose hand the seat sitting out took over (one-hot)"),
]


def max_actions(rules: Ruleset) -> int:
    """A bound on the decisions of one deal: each seat bids, holds or passes at most twice per contract and
    round (two rounds), every card is discarded, drawn or played at most once (with a verb around it), and
    each trick leaves room for four claims or answers."""
    c, n, k = rules.deck.size, rules.players, len(rules.contracts)
    return 4 * (k + 2) * n + 3 * c + 4 * math.ceil(c / rules.active) + 16


@dataclass(frozen=True, slots=True)
class Slice:
    """One named part of the vector: `size` numbers from `offset`, read as `shape`, at most `high` each."""

    name: str
    offset: int
    size: int
    shape: tuple[int, ...]
    high: float
    meaning: str


class Layout:
    """The encoding of one ruleset: its slices and the functions that fill them."""

    def __init__(self, rules) -> None:
        self.rules = rules
        deck = rules.deck
        c, n, k, s = deck.size, rules.players, len(rules.contracts), len(deck.suits)
        self.max_tricks = t = math.ceil(c / rules.active)
        p = len(PHASE_NAMES) + 1
        shapes = {"seat": (n,), "dealer": (n,), "phase": (p,), "to_move": (n,), "hand": (c,), "hand_sizes": (n,),
                  "talon_size": (1,), "my_discards": (c,), "my_draws": (c,), "discard_counts": (n,), "turned": (c,),
                  "talon_shown": (c,), "shown": (n, c), "exposed": (n, c), "handed": (c,), "contract": (k,),
                  "trump": (s,), "declarer": (n,), "called": (c,), "partner": (n,), "sitting_out": (n,),
                  "tricks": (n,), "trick_cards": (t, n, c), "trick_leader": (t, n), "trick_winner": (t, n),
                  "bids": (n, k), "high_bid": (k,), "high_seat": (n,), "actions": (n, len(KINDS)), "pool": (1,),
                  "pool_before": (1,), "session": (0,),
                  "stand_in_hand": (c if rules.stand_in else 0,), "stand_in": (n if rules.stand_in else 0,)}
        self.session = parts(rules)
        shapes["session"] = (sum(len(p.labels) for p in self.session),)
        self.max_actions = max_actions(rules)
        counts = {"hand_sizes": c, "talon_size": c, "discard_counts": c, "tricks": t, "actions": self.max_actions,
                  "pool": math.inf, "pool_before": math.inf,
                  "session": max((h for p in self.session for h in p.highs), default=1.0)}
        self.slices: list[Slice] = []
        off = 0
        for name, _size, meaning in TABLE:
            shape = shapes[name]
            size = math.prod(shape)
            if name == "session" and self.session:  # this ruleset's entries, by name
                meaning += ": " + ", ".join(label for p in self.session for label in p.labels)
            self.slices.append(Slice(name, off, size, shape, counts.get(name, 1.0), meaning))
            off += size
        self.size = off
        self._at = {sl.name: sl.offset for sl in self.slices}
        self._memo: tuple | None = None  # see _tally
        self._bits = bits_function(c)
        self._kinds = tuple(KINDS.index(v) for v in rules.action_verbs)  # an action id's index in KINDS

    def offset(self, name: str) -> int:
        return self._at[name]

    def table(self) -> list[tuple[str, int, str]]:
        """(slice name, size, meaning) in order, for this ruleset."""
        return [(sl.name, sl.size, sl.meaning) for sl in self.slices]

    def high(self) -> list[float]:
        """The largest value of every entry (math.inf for the pool)."""
        out: list[float] = []
        for sl in self.slices:
            out += [h for p in self.session for h in p.highs] if sl.name == "session" else [sl.high] * sl.size
        return out

    def kind(self, a: int) -> int:
        """The index in KINDS of an action id."""
        return self._kinds[a]

    # -- encoding -------------------------------------------------------------------------------------
    def sparse(self, state: State, seat: int) -> tuple[list[int], list[tuple[int, float]]]:
        """The entries of the seat's vector that are 1, and the (index, value) of the non-zero counts."""
        r = self.rules
        at = self._at
        c, n = r.deck.size, r.players
        ones: list[int] = []
        vals: list[tuple[int, float]] = []

        fast = self._bits

        def put(name: str, mask: int, base: int = 0) -> None:
            if mask:
                o = at[name] + base
                ones.extend([o + i for i in fast(mask)])

        def count(name: str, i: int, v: float) -> None:
            if v:
                vals.append((at[name] + i, float(v)))

        def one(name: str, i: int) -> None:
            if i is not None and i >= 0:
                ones.append(at[name] + i)

        one("seat", seat)
        one("dealer", state.dealer)
        one("phase", state.phase)
        one("to_move", state.current_player)
        put("hand", state.hands[seat])
        for s in range(n):
            count("hand_sizes", s, state.hands[s].bit_count())
            count("discard_counts", s, state.discards[s].bit_count())
            count("tricks", s, state.tricks[s])
            put("shown", state.shown[s], s * c)
        count("talon_size", 0, len(state.talon))
        put("my_discards", state.discards[seat])
        put("my_draws", state.drawn[seat])
        one("turned", state.turned)
        if state.turn_up != state.turned:
            one("turned", state.turn_up)
        put("talon_shown", leftover_shown(state, seat))
        for ex in exposed_seats(state):
            put("exposed", state.hands[ex], ex * c)
        handed = 0
        for card, frm, to, public in state.handed:
            if public or seat in (frm, to):
                handed |= 1 << card
        put("handed", handed)
        if state.contract is not None:
            one("contract", state.contract.index)
        if state.trump is not None:
            one("trump", state.trump.index)
        one("declarer", state.declarer)
        one("called", state.called)
        if partner_known(state, seat):
            one("partner", state.partner)
        for s in r.sitting(state.dealer, state.stand_for):
            if s != state.declarer:
                one("sitting_out", s)
        self._tricks(state, ones)
        if state.phase == AUCTION and state.high is not None:
            one("high_bid", state.high.index)
            one("high_seat", state.high_seat)
        self._actions(state, ones, vals)
        count("pool", 0, state.pool)
        count("pool_before", 0, state.pool_before)
        if self.session:
            base = at["session"]
            on, counted = entries(self.session, state.carry)
            ones.extend(base + i for i in on)
            vals.extend((base + i, v) for i, v in counted)
        if self.rules.stand_in is not None:
            put("stand_in_hand", stand_in_seen(state, seat))
            one("stand_in", state.stand_for)
        return ones, vals

    def _tricks(self, state, ones: list[int]) -> None:
        at_cards, at_lead, at_win = self._at["trick_cards"], self._at["trick_leader"], self._at["trick_winner"]
        n, c = self.rules.players, self.rules.deck.size
        nxt = state.nxt
        tricks = [(ld, cards, w) for ld, cards, w in state.trick_log]
        if state.trick:
            tricks.append((state.leader, tuple(state.trick), -1))
        short = short_hands(state)
        for t, (leader, cards, winner) in enumerate(tricks):
            ones.append(at_lead + t * n + leader)
            if winner >= 0:
                ones.append(at_win + t * n + winner)
            if short is not None:  # hands of unequal size: round the seats that play to this trick
                nxt = short_ring(short, t)
            seat = leader
            for card in cards:
                ones.append(at_cards + (t * n + seat) * c + card)
                seat = nxt[seat]

    def _actions(self, state, ones: list[int], vals: list[tuple[int, float]]) -> None:
        tally, bids = self._tally(state)
        ones.extend(bids)
        at = self._at["actions"]
        vals.extend((at + i, float(v)) for i, v in enumerate(tally) if v)

    def _tally(self, state) -> tuple[list[int], list[int]]:
        """Actions per seat and kind, and the entries of `bids`. The last deal's counts are kept: asked again
        for the same deal with more actions (the next step of a deal in play), only the new ones are counted."""
        hist = state.history
        if not hist:  # leaves the memos alone (OpenSpiel sizes a tensor on a fresh state between real ones)
            return [0] * (self.rules.players * len(KINDS)), []
        deal = (state.deal_hands, state.deal_talon, state.dealer, state.pool_before)
        m = self._memo
        if m is not None and m[0] == deal and len(m[1]) <= len(hist) and hist[:len(m[1])] == m[1]:
            done, tally, bids = len(m[1]), m[2][:], set(m[3])
        else:
            done, tally, bids = 0, [0] * (self.rules.players * len(KINDS)), set()
        r = self.rules
        k = len(r.contracts)
        nk = len(KINDS)
        bid_at = self._at["bids"]
        kind = self.kind
        for e in events(state)[done:]:
            i = kind(e.action)
            tally[e.seat * nk + i] += 1
            if i == 2 and e.phase == "auction":
                bids.add(bid_at + e.seat * k + e.action - r.A_BID)
        out = sorted(bids)
        self._memo = (deal, hist[:], tally, out)
        return tally, out

    def encode(self, state: State, seat: int) -> list[float]:
        """The seat's vector as a list of floats."""
        out = [0.0] * self.size
        ones, vals = self.sparse(state, seat)
        for i in ones:
            out[i] = 1.0
        for i, v in vals:
            out[i] = v
        return out

    def dealing(self, seat: int, dealer: int, hand: int) -> tuple[list[int], list[tuple[int, float]]]:
        """The sparse vector of a seat while the cards are being dealt: its seat, the dealer, its cards so far."""
        at = self._at
        ones = [at["seat"] + seat, at["dealer"] + dealer, at["phase"] + len(PHASE_NAMES)]
        ones += [at["hand"] + c for c in bits(hand)]
        vals = [(at["hand_sizes"] + seat, float(hand.bit_count()))] if hand else []
        return ones, vals


def layout(rules: Ruleset) -> Layout:
    """The encoding of a ruleset (made once per ruleset, and kept with it)."""
    lay = getattr(rules, "_obs_layout", None)
    if lay is None:
        lay = rules._obs_layout = Layout(rules)  # type: ignore[attr-defined]  # kept by the ruleset, not its field
    return lay


def describe(rules: Ruleset | None = None) -> list[dict[str, Any]]:
    """The table as data: name, size (a formula, or the number for `rules`) and meaning of each slice."""
    if rules is None:
        return [{"name": name, "size": size, "meaning": meaning} for name, size, meaning in TABLE]
    return [{"name": sl.name, "size": sl.size, "shape": list(sl.shape), "meaning": sl.meaning}
            for sl in layout(rules).slices]
