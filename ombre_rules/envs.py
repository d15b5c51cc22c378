"""Evaluation environments: what expressions see. One per trump context (card-level rules) and one per
deal evaluation (outcomes, scoring, limits)."""
from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .lang.block import USER
from .lang.types import ANY, BOOL, BOOL_VAL, CARD, CONTRACT, INT, SEAT, SESSION_NUMBER, SUIT, Val, list_of, num, seq

if TYPE_CHECKING:
    from .cards import Card, Deck, Suit
    from .ruleset.contracts import Contract

# What each kind of expression may use.
NAME_VARS = frozenset({"trump"})
NAME_FUNCS = frozenset({"card"})
FOLLOW_VARS = frozenset({"card", "led_card", "led_suit", "trump", "winning_card"})
FOLLOW_FUNCS = frozenset({"card", "suit", "outranks", "is_trump"})
SEAT_VARS = frozenset({"dealer", "forehand", "players", "sitters"})
DEAL_VARS = SEAT_VARS | frozenset({"declarer", "defenders", "contract", "trump", "committed", "stopped",
                                   "conceded", "pool", "trump_order", "tricks_played", "partner", "side", "called",
                                   "went_alone", "pool_before", "tricks_left", "taken_from", "high_bid", "session"})
DEAL_VARS |= frozenset({"defending", "inviter", "invited"})  # the defenders' decisions (engine/defend.py)
DEAL_VARS |= frozenset({"multiplier", "doubles", "doubler"})  # doubling (engine/double.py)
DEAL_VARS |= frozenset({"trick_winners", "table_seats"})
DEAL_VARS |= frozenset({"turn_up"})  # the card turned for the deal (`deal.turn_up`)
DEAL_VARS |= frozenset({"talon_size"})  # the cards left in the talon (a take-over's condition, engine/surrender.py)
DEAL_FUNCS = frozenset({"card", "suit", "outranks", "is_trump", "tricks", "hand", "final_hand", "dealt_hand",
                        "holder", "won", "points", "play_holder", "pile", "discards"})
DEAL_FUNCS |= frozenset({"early_tricks"})  # the tricks of a seat among the first n (the trick log)
AUCTION_FUNCS = frozenset({"card", "hand", "holder"})
# the end of a session (`session.end_when`, `session.close`): the seats of the last deal, the pool and the
# carried values it left, the deals played and each seat's score so far
SESSION_END_VARS = SEAT_VARS | frozenset({"pool", "session", "deals_played"})
SESSION_END_FUNCS = frozenset({"score"})
CONTEXT_FUNCS: dict[str, tuple[int, int | None]] = {
    "card": (2, 2), "suit": (1, 1), "outranks": (2, 2), "is_trump": (1, 1), "tricks": (1, 1),
    "hand": (1, 1), "final_hand": (1, 1), "dealt_hand": (1, 1), "holder": (1, 1), "won": (1, 1), "points": (1, 1),
    "play_holder": (1, 1), "pile": (1, 1), "discards": (1, 1), "score": (1, 1), "early_tricks": (2, 2),
}

SEAT_LIST, CARD_LIST = list_of(INT), list_of(CARD)
# the type of each context variable and the argument and result types of each context function
VAR_TYPES: dict[str, str] = {
    "trump": SUIT, "card": CARD, "led_card": CARD, "led_suit": SUIT, "winning_card": CARD, "dealer": INT,
    "forehand": INT,
    "players": SEAT_LIST, "sitters": SEAT_LIST, "declarer": INT, "defenders": SEAT_LIST, "contract": CONTRACT,
    "committed": BOOL, "stopped": BOOL, "conceded": BOOL, "pool": INT, "trump_order": CARD_LIST,
    "tricks_played": INT, "partner": INT, "side": SEAT_LIST, "called": CARD, "went_alone": BOOL, "exchanger": INT,
    "pool_before": INT,
    "tricks_left": INT, "taken_from": INT, "high_bid": CONTRACT, "bidder": INT, "seats": INT, "choice": ANY,
    "session": ANY,
    "defending": SEAT_LIST, "inviter": INT, "invited": SEAT_LIST,
    "multiplier": INT, "doubles": INT, "doubler": INT,
    "trick_winners": SEAT_LIST, "table_seats": SEAT_LIST,
    "deals_played": INT,
    "turn_up": CARD, "talon_size": INT,
}
CONTEXT_TYPES: dict[str, tuple[tuple[str, ...], str]] = {
    "card": ((ANY, SUIT), CARD), "suit": ((CARD,), SUIT), "outranks": ((CARD, CARD), BOOL),
    "is_trump": ((CARD,), BOOL), "tricks": ((SEAT,), INT), "hand": ((SEAT,), CARD_LIST),
    "final_hand": ((SEAT,), CARD_LIST), "dealt_hand": ((SEAT,), CARD_LIST), "holder": ((CARD,), INT),
    "won": ((SEAT,), CARD_LIST), "points": ((SEAT,), INT), "play_holder": ((CARD,), INT),
    "pile": ((SEAT,), CARD_LIST), "discards": ((SEAT,), CARD_LIST), "score": ((SEAT,), INT),
    "early_tricks": ((SEAT, INT), INT),
}
# the variables that are none until a contract is fixed (where, each site says: `Site.unset`), and when the
# others that may be none are
UNSET_VARS = frozenset({"declarer", "contract"})
AUCTION = "during the auction"  # when they are none in a bid condition
NONE_WHEN = {"partner": "without a called partner", "called": "without a called card",
             "high_bid": "before the first bid", "taken_from": "unless another seat took a conceded game over",
             "inviter": "without an invitation", "doubler": "without a double", "trump": "without trumps"}
FUNC_NONE_WHEN = {"card": "when the deck has no such card", "holder": "when nobody holds the card",
                  "play_holder": "when nobody held the card as play began"}


def value_facts(players: int, cards: int, points: tuple[int, int], factor: int) -> tuple[dict, dict]:
    """What is known of each context variable and of each context function's result, beyond its type, for a
    table of `players` seats, a deck of `cards` cards whose points add up to between `points`, and doubling
    by at most `factor`: the ranges of seats, counts and points, the lengths of lists, which may be none."""
    seat = num(0, players - 1)
    seats, card_list = seq(seat, players), seq(Val(CARD), cards)
    session = num(-SESSION_NUMBER, SESSION_NUMBER)
    var = {"dealer": seat, "forehand": seat, "declarer": seat, "partner": seat, "inviter": seat, "doubler": seat,
           "taken_from": seat, "bidder": seat, "players": seats, "sitters": seats, "defenders": seats,
           "side": seats, "defending": seats, "invited": seats, "table_seats": seq(seat, players, players),
           "trick_winners": seq(seat, cards), "tricks_played": num(0, cards), "tricks_left": num(0, cards),
           "pool": session, "pool_before": session, "deals_played": num(0, SESSION_NUMBER), "talon_size": num(0, cards),
           "multiplier": num(1, max(1, factor)), "doubles": num(0, 2), "seats": num(players, players),
           "committed": BOOL_VAL, "stopped": BOOL_VAL, "conceded": BOOL_VAL, "trump_order": card_list}
    for name, when in NONE_WHEN.items():
        var[name] = (var.get(name) or Val(VAR_TYPES[name])).maybe(name, when)
    func = {"tricks": num(0, cards), "early_tricks": num(0, cards), "points": num(*points), "score": session,
            "hand": card_list, "final_hand": card_list, "dealt_hand": card_list, "won": card_list,
            "pile": card_list, "discards": card_list, "outranks": BOOL_VAL, "is_trump": BOOL_VAL,
            "card": Val(CARD), "suit": Val(SUIT), "holder": seat, "play_holder": seat}
    for name, when in FUNC_NONE_WHEN.items():
        func[name] = func[name].maybe(f"{name}(...)", when)
    return var, func


# What a generated block (parameters `_e, _st`) reads straight from the state instead of through DealEnv's
# properties below: name -> an expression over `_st` (our own fixed source, parsed once), giving the same value
# as the property of that name.
_STATE_SOURCE = {
    "dealer": "_st.dealer",
    "declarer": "(_st.declarer if _st.declarer >= 0 else None)",
    "contract": "_st.contract",
    "committed": "_st.committed",
    "stopped": "_st.stopped",
    "conceded": "_st.conceded",
    "pool": "_st.pool",
    "defenders": "_defenders(_st)",
    "trump_order": "(_st.ctx.trump_order_cards if _st.ctx is not None else [])",
}
STATE_READS: dict[str, ast.expr] = {k: ast.parse(v, mode="eval").body for k, v in _STATE_SOURCE.items()}


def name_attr(name: str) -> str:
    """The attribute of an environment that holds the user name `name`; no attribute of ours starts so."""
    return USER + name


class Teams(Protocol):
    """What `defenders` reads of a compiled variant: the fixed partnerships (a Ruleset)."""

    @property
    def team_of(self) -> tuple[int, ...] | None: ...


class Sides(Protocol):
    """What `defenders` reads of a deal (a State: this module is below the engine)."""

    @property
    def rules(self) -> Teams: ...
    dealer: int
    declarer: int
    partner: int
    orders: Sequence[tuple[int, ...]]


class RankTables(Protocol):
    """What an environment reads of a trump context's rank tables (a ruleset Context, which is built on a
    CardEnv: this module is below it)."""

    trump: Suit | None
    eff: list[int]
    key: list[list[int]]
    trump_mask: int
    trump_order_cards: list[Card]
    names: dict[str, Any]


def forehand_of(st: Sides) -> int:
    """The first seat after the dealer that takes part in the deal (read from the orders of play, which a seat
    leaving the ring for the tricks does not change)."""
    order = st.orders[st.dealer]
    return order[1] if order[0] == st.dealer else order[0]


def side_of(st: Sides) -> list[int]:
    """The declarer's side, declarer first: his team, in order of play, when the variant has `teams`; else he
    and his partner by a called card, if any (empty before a declarer)."""
    d = st.declarer
    if d < 0:
        return []
    team_of = st.rules.team_of
    if team_of is not None:
        return [s for s in st.orders[d] if team_of[s] == team_of[d]]
    return [d] + ([st.partner] if st.partner >= 0 else [])


def defenders(st: Sides) -> list[int]:
    """Every seat in play but the declarer's side (his team, or his partner if a called card made one)."""
    if st.declarer < 0:
        return []
    others = st.orders[st.declarer][1:]
    team_of = st.rules.team_of
    if team_of is not None:
        return [s for s in others if team_of[s] != team_of[st.declarer]]
    partner = st.partner
    if partner < 0:
        return list(others)
    return [s for s in others if s != partner]


class CardEnv:
    """What card-level expressions see in one trump context: the deck, the trump suit, the names."""

    def __init__(self, deck: Deck, trump: Suit | None) -> None:
        self._deck = deck
        self.trump = trump
        self._ctx: RankTables | None = None  # the Context, once its ranking exists
        self.card: Card | None = None
        self.led_card: Card | None = None
        self.led_suit: Suit | None = None
        self.winning_card: Card | None = None  # the card winning the trick so far (the card led, at first)

    def f_card(self, rank: Any, suit: Suit | None) -> Card | None:
        if suit is None or rank is None:
            return None
        return self._deck.by_rank_suit.get((str(rank), suit.index))

    # context functions -------------------------------------------------------------------------
    def f_suit(self, c: Card | None) -> Suit | None:
        """The suit a card follows in this context: the trump suit for every trump."""
        if c is None:
            return None
        ctx = self._ctx
        assert ctx is not None  # card-level expressions run in a context
        return self._deck.suits[ctx.eff[c.id]] if ctx.eff[c.id] >= 0 else self.trump

    def f_is_trump(self, c: Card | None) -> bool:
        ctx = self._ctx
        assert ctx is not None  # card-level expressions run in a context
        return c is not None and bool(ctx.trump_mask >> c.id & 1)

    def f_outranks(self, a: Card | None, b: Card | None) -> bool:
        """Whether card a beats card b when a leads the comparison (trumps beat plain cards)."""
        if a is None or b is None:
            return False
        ctx = self._ctx
        assert ctx is not None  # card-level expressions run in a context
        row = ctx.key[ctx.eff[a.id]]
        return row[a.id] > row[b.id]


class DealEnv(CardEnv):
    """What deal-level expressions see: the state of one deal, read-only, computed on access."""

    def __init__(self, state: Any, ctx: RankTables | None = None) -> None:
        self._deck = state.rules.deck
        self._ctx = ctx
        self._state = state  # the State (a Closing for SessionEnv)
        self._cards = self._deck.cards
        self.trump = ctx.trump if ctx is not None else None
        self.choice: Card | Suit | Contract | None = None  # what a choice's condition is asked about

    def __getattr__(self, name: str) -> Any:
        ctx = self.__dict__.get("_ctx")
        table = ctx.names if ctx is not None else self.__dict__["_state"].rules.base_names
        try:
            return table[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def dealer(self) -> int:
        return self._state.dealer

    @property
    def forehand(self) -> int:
        return forehand_of(self._state)

    @property
    def players(self) -> list[int]:
        """The seats that take part in the deal, from forehand on (a seat whose hand ran out still takes part)."""
        st = self._state
        return list(st.orders[(st.ring_play or st.nxt)[st.dealer]])

    @property
    def sitters(self) -> list[int]:
        """The seats at the table that sit this deal out."""
        st = self._state
        return list(st.rules.sitting(st.dealer, st.stand_for))

    @property
    def bidder(self) -> int:
        """The seat whose bid (or declaration) is being checked: the seat to move."""
        return self._state.to_move

    @property
    def declarer(self) -> int | None:
        d = self._state.declarer
        return d if d >= 0 else None

    @property
    def defenders(self) -> list[int]:
        """Every seat but the declarer and his partner (if a called card made one)."""
        return defenders(self._state)

    @property
    def partner(self) -> int | None:
        """The declarer's partner by a called card (none without one, or when he holds it himself)."""
        p = self._state.partner
        return p if p >= 0 else None

    @property
    def side(self) -> list[int]:
        """The declarer and his partner, if any; his whole team with `teams`."""
        return side_of(self._state)

    @property
    def exchanger(self) -> int:
        """The seat whose exchange limits are being worked out (an exchange limit's own name)."""
        return self._state.to_move

    @property
    def went_alone(self) -> bool:
        """Whether the declarer went alone, his partners out of play (`alone`)."""
        return self._state.alone == 1

    @property
    def called(self) -> Card | None:
        c = self._state.called
        return self._cards[c] if c >= 0 else None

    @property
    def defending(self) -> list[int]:
        """The defenders who play: all of them, less those who passed in the defenders' decisions."""
        st = self._state
        return [s for s in defenders(st) if not st.def_out >> s & 1]

    @property
    def inviter(self) -> int | None:
        """The defender who invited the others to play with him (none without an invitation)."""
        s = self._state.inviter
        return s if s >= 0 else None

    @property
    def invited(self) -> list[int]:
        """The defenders an invitation asked to play (empty without one)."""
        st = self._state
        return [s for s in range(st.n) if st.invited >> s & 1]

    @property
    def doubles(self) -> int:
        """0, or 1 once doubled, 2 once redoubled."""
        return self._state.doubles

    @property
    def doubler(self) -> int | None:
        """The seat that doubled (none without a double)."""
        s = self._state.doubler
        return s if s >= 0 else None

    @property
    def multiplier(self) -> int:
        """What doubling multiplies payments by: 1, or the factor once doubled or redoubled."""
        st = self._state
        return st.rules.doubling.factors[st.doubles - 1] if st.doubles else 1

    @property
    def pool_before(self) -> int:
        """The pool as the deal began, before its ante."""
        return self._state.pool_before

    @property
    def contract(self) -> Contract | None:
        return self._state.contract

    @property
    def high_bid(self) -> Contract | None:
        """The highest bid of the auction so far (its winning bid once it is over), or none."""
        return getattr(self._state, "high", None)

    @property
    def taken_from(self) -> int | None:
        """The seat that conceded and whose game another seat took over, or none."""
        t = self._state.taken_from
        return t if t >= 0 else None

    @property
    def session(self) -> tuple[Any, ...]:
        """The values carried between deals (`session.NAME`), as the deal began."""
        return self._state.carry

    @property
    def committed(self) -> bool:
        return self._state.committed

    @property
    def stopped(self) -> bool:
        return self._state.stopped

    @property
    def conceded(self) -> bool:
        return self._state.conceded

    @property
    def pool(self) -> int:
        return self._state.pool

    @property
    def tricks_played(self) -> int:
        return sum(self._state.tricks)

    @property
    def trick_winners(self) -> list[int]:
        """The winner of each trick played so far, in order."""
        return [w for _leader, _cards, w in self._state.trick_log]

    @property
    def turn_up(self) -> Card | None:
        """The card turned face up for the deal (`deal.turn_up`), or none."""
        c = self._state.turn_up
        return self._cards[c] if c >= 0 else None

    @property
    def talon_size(self) -> int:
        """The number of cards left in the talon."""
        return len(self._state.talon)

    @property
    def table_seats(self) -> list[int]:
        """Every seat at the table, in seat order (0, 1, ...)."""
        return list(range(self._state.rules.players))

    @property
    def tricks_left(self) -> int:
        """Tricks still to play: the most cards a seat in play holds (each trick takes one card from every seat
        that still holds cards; with hands of unequal size, the longest hand)."""
        st = self._state
        return max(st.hands[s].bit_count() for s in set(st.nxt))

    @property
    def trump_order(self) -> list[Card]:
        ctx = self._ctx
        return ctx.trump_order_cards if ctx is not None else []

    def _mask_cards(self, mask: int) -> list[Card]:
        return self._deck.cards_in(mask)

    def f_tricks(self, seat: int | None) -> int:
        return self._state.tricks[seat] if seat is not None else 0

    def f_early_tricks(self, seat: int | None, n: int | None) -> int:
        """How many of the first n tricks the seat won (of those played so far)."""
        if seat is None or n is None:
            return 0
        return sum(1 for _l, _c, w in self._state.trick_log[:max(0, n)] if w == seat)

    def f_hand(self, seat: int | None) -> list[Card]:
        return self._mask_cards(self._state.hands[seat]) if seat is not None else []

    def f_final_hand(self, seat: int | None) -> list[Card]:
        """The seat's hand when play began (after every exchange); empty before play (or in a deal not played)."""
        hands = self._state.play_hands
        return self._mask_cards(hands[seat]) if seat is not None and hands else []

    def f_dealt_hand(self, seat: int | None) -> list[Card]:
        """The seat's hand as dealt (before any exchange)."""
        return self._mask_cards(self._state.deal_hands[seat]) if seat is not None else []

    def f_won(self, seat: int | None) -> list[Card]:
        return self._mask_cards(self._state.won[seat]) if seat is not None else []

    def f_pile(self, seat: int | None) -> list[Card]:
        """The cards of the tricks the seat won, after the excuse card went back to its owner."""
        if seat is None:
            return []
        piles = self.__dict__.get("_piles")
        if piles is None:
            from .engine.piles import piles as make

            piles = self._piles = make(self._state)
        return self._mask_cards(piles[seat])

    def f_discards(self, seat: int | None) -> list[Card]:
        """The cards the seat discarded or laid away."""
        return self._mask_cards(self._state.discards[seat]) if seat is not None else []

    def f_points(self, seat: int | None) -> int:
        if seat is None:
            return 0
        cards = self._cards
        return sum(cards[c].points for c in self._deck.bits(self._state.won[seat]))

    def f_play_holder(self, c: Card | None) -> int | None:
        """The seat that held card c when play began (none if nobody did)."""
        if c is None:
            return None
        bit = 1 << c.id
        for seat, h in enumerate(self._state.play_hands):
            if h & bit:
                return seat
        return None

    def f_holder(self, c: Card | None) -> int | None:
        if c is None:
            return None
        bit = 1 << c.id
        for seat, h in enumerate(self._state.hands):
            if h & bit:
                return seat
        return None

    def f_suit(self, c: Card | None) -> Suit | None:
        if self._ctx is None:
            return c.suit if c is not None else None
        return CardEnv.f_suit(self, c)

    def f_is_trump(self, c: Card | None) -> bool:
        return self._ctx is not None and CardEnv.f_is_trump(self, c)

    def f_outranks(self, a: Card | None, b: Card | None) -> bool:
        return self._ctx is not None and CardEnv.f_outranks(self, a, b)


# The functions of DealEnv that read one list of the state by seat, as the settlement machine reads them
# (ruleset/machine.py): the state's attribute, and whether an item is a number ("int") or a mask of cards
# ("cards", listed by id; an empty list of masks, as `play_hands` before play, gives no cards). None for a
# seat gives 0 or no cards. Kept beside the methods they stand for; tests/test_machine.py checks both agree.
SEAT_READS: dict[str, tuple[str, str]] = {
    "f_tricks": ("tricks", "int"), "f_hand": ("hands", "cards"), "f_final_hand": ("play_hands", "cards"),
    "f_dealt_hand": ("deal_hands", "cards"), "f_won": ("won", "cards"), "f_discards": ("discards", "cards"),
}


class SessionEnv(DealEnv):
    """What the end of a session sees (`session.end_when`, `session.close`): `_state` is the session's
    `Closing` (engine/session_end.py), which stands for its last deal."""

    @property
    def deals_played(self) -> int:
        return self._state.deals_played

    def f_score(self, seat: int | None) -> int:
        """The seat's net in the session so far."""
        return self._state.ledger[seat] if seat is not None else 0
