"""Evaluation environments: what expressions see. One per trump context (card-level rules) and one per
deal evaluation (outcomes, scoring, limits)."""
from __future__ import annotations

from typing import Any

from .cards import bits

# What each kind of expression may use.
NAME_VARS = frozenset({"trump"})
NAME_FUNCS = frozenset({"card"})
FOLLOW_VARS = frozenset({"card", "led_card", "led_suit", "trump"})
FOLLOW_FUNCS = frozenset({"card", "suit", "outranks", "is_trump"})
SEAT_VARS = frozenset({"dealer", "forehand", "players"})
DEAL_VARS = SEAT_VARS | frozenset({"declarer", "defenders", "contract", "trump", "committed", "stopped",
                                   "conceded", "pool", "trump_order", "tricks_played"})
DEAL_FUNCS = frozenset({"card", "suit", "outranks", "is_trump", "tricks", "hand", "final_hand", "holder",
                        "won", "points"})
AUCTION_FUNCS = frozenset({"card", "hand", "holder"})
CONTEXT_FUNCS: dict[str, tuple[int, int | None]] = {
    "card": (2, 2), "suit": (1, 1), "outranks": (2, 2), "is_trump": (1, 1), "tricks": (1, 1),
    "hand": (1, 1), "final_hand": (1, 1), "holder": (1, 1), "won": (1, 1), "points": (1, 1),
}


class CardEnv:
    """What card-level expressions see in one trump context: the deck, the trump suit, the names."""

    def __init__(self, deck, trump) -> None:
        self._deck = deck
        self.trump = trump
        self._ctx = None  # the Context, once its ranking exists
        self.card = None
        self.led_card = None
        self.led_suit = None
        self._rank_index: dict[tuple[str, int], Any] = {
            (c.rank, c.suit.index): c for c in deck.cards}

    def f_card(self, rank, suit):
        if suit is None or rank is None:
            return None
        return self._rank_index.get((str(rank), suit.index))

    # context functions -------------------------------------------------------------------------
    def f_suit(self, c):
        """The suit a card follows in this context: the trump suit for every trump."""
        if c is None:
            return None
        ctx = self._ctx
        return self._deck.suits[ctx.eff[c.id]] if ctx.eff[c.id] >= 0 else self.trump

    def f_is_trump(self, c):
        return c is not None and bool(self._ctx.trump_mask >> c.id & 1)

    def f_outranks(self, a, b):
        """Whether card a beats card b when a leads the comparison (trumps beat plain cards)."""
        if a is None or b is None:
            return False
        ctx = self._ctx
        row = ctx.key[ctx.eff[a.id]]
        return row[a.id] > row[b.id]


class DealEnv(CardEnv):
    """What deal-level expressions see: the state of one deal, read-only."""

    def __init__(self, state, ctx=None) -> None:
        rs = state.rules
        CardEnv.__init__(self, rs.deck, ctx.trump if ctx else None)
        self._ctx = ctx
        self._state = state
        self._cards = rs.deck.cards
        self.dealer = state.dealer
        self.forehand = rs.next_seat[state.dealer]
        self.players = list(state.order_from(self.forehand))
        d = state.declarer
        self.declarer = d if d >= 0 else None
        self.defenders = [p for p in state.order_from(rs.next_seat[d]) if p != d] if d >= 0 else []
        self.contract = state.contract
        self.committed = state.committed
        self.stopped = state.stopped
        self.conceded = state.conceded
        self.pool = state.pool
        self.tricks_played = sum(state.tricks)
        self.trump_order = [self._cards[c] for c in ctx.trump_order] if ctx else []
        self.choice = None
        if ctx is not None:
            self.__dict__.update(ctx.names)
        else:
            self.__dict__.update(rs.base_names)

    def _mask_cards(self, mask: int) -> list:
        cards = self._cards
        return [cards[c] for c in bits(mask)]

    def f_tricks(self, seat):
        return self._state.tricks[seat] if seat is not None else 0

    def f_hand(self, seat):
        return self._mask_cards(self._state.hands[seat]) if seat is not None else []

    def f_final_hand(self, seat):
        """The seat's hand when play began (after every exchange)."""
        return self._mask_cards(self._state.play_hands[seat]) if seat is not None else []

    def f_won(self, seat):
        return self._mask_cards(self._state.won[seat]) if seat is not None else []

    def f_points(self, seat):
        if seat is None:
            return 0
        cards = self._cards
        return sum(cards[c].points for c in bits(self._state.won[seat]))

    def f_holder(self, c):
        if c is None:
            return None
        bit = 1 << c.id
        for seat, h in enumerate(self._state.hands):
            if h & bit:
                return seat
        return None

    def f_suit(self, c):
        if self._ctx is None:
            return c.suit if c is not None else None
        return CardEnv.f_suit(self, c)

    def f_is_trump(self, c):
        return self._ctx is not None and CardEnv.f_is_trump(self, c)

    def f_outranks(self, a, b):
        return self._ctx is not None and CardEnv.f_outranks(self, a, b)
