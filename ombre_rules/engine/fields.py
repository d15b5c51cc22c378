"""Every field of a deal, declared once and typed: `State` and each stage mixin derive from `Fields`, so a stage
reads only fields that exist (mypy refuses `self.hand` for `self.hands`).

`State.__slots__` is made from these annotations, in their order (the play loop's fields first, so they share
cache lines); the stages add none, and write no other (`tests/test_fields.py` checks both). `clone` copies the
slots; a list field must also be in `state._LISTS` to be copied (checked there too).

Under `TYPE_CHECKING` only: the part of State's API and the methods one stage calls on another, so that those
calls are checked too (mypy checks these declarations against the definitions); they do not exist at run time.
The modules State imports (view, replay, portable) type a state as `Fields`, which keeps imports one way."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..ruleset.fields import FollowRow

if TYPE_CHECKING:
    from ..cards import Suit
    from ..envs import DealEnv
    from ..explain.account import Entry
    from ..lang import Expr
    from ..ruleset import Context, Contract, Ruleset
    from .result import Result

# a trick in the log: (leader, cards in order of play, winner)
TrickEntry = tuple[int, tuple[int, ...], int]
# a card that changed hands (demands): (card, from seat or -1, to seat, public)
Handed = tuple[int, int, int, bool]


class Fields:
    """The fields of one deal (annotations only: the slots are State's)."""

    if not TYPE_CHECKING:  # mypy cannot read State's generated slots: it checks the fields by these annotations
        __slots__ = ()

    # -- the play loop ---------------------------------------------------------------------------------
    phase: int
    to_move: int
    lm: int  # the legal mask of the card to play last listed (-1: none)
    nc: int  # the number of cards (the first discard action)
    hands: list[int]  # the cards held, a mask per seat
    hl: list[list[int]]  # the same hands as sorted lists
    trick: list[int]  # the cards of the trick in play
    history: list[int]  # every action of the deal
    claim_pending: bool
    concede_ok: bool
    keyrow: Sequence[int]  # each card's strength in the trick in play (-1: cannot win it)
    best: int
    best_seat: int
    leader: int
    led: int  # the card the follow rules answer (the card led, or the highest of its suit)
    tm: int  # the mask of the trick's cards
    follow_rows: Sequence[FollowRow]  # per led card (and card winning: ruleset.fields.row_after)
    nxt: Sequence[int]  # the next seat to play, by seat
    n: int  # seats at the table
    ctx: Context | None  # the rank tables of the contract's trump (None before the trump is known)
    rules: Ruleset
    tricks: list[int]
    won: list[int]  # the cards won, a mask per seat
    trick_log: list[TrickEntry]
    claim_at: int
    ex_count: int
    ex_min: int
    ex_max: int
    ex_can_cede: bool
    ex_keep: int  # the cards the exchanger may not lay away (taken from the talon, `exchange.keep_taken`)
    ex_acts: list[int] | None  # the exchanger's legal actions (None until listed)
    discards: list[int]
    lc: tuple[int, ...] | None  # the legal list kept for apply
    # -- the deal ----------------------------------------------------------------------------------------
    dealer: int
    seed: int | None
    talon: list[int]
    deal_hands: tuple[int, ...]
    deal_talon: tuple[int, ...]
    pool_before: int
    pool: int
    payments: list[int]
    declarer: int
    contract: Contract | None
    trump: Suit | None
    turned: int
    turn_up: int  # the card `deal.turn_up` turns face up for the deal (-1: none)
    dealer_draw: tuple[tuple[int, int], ...]  # a session's first deal: the draw for its dealer, (seat, card) in order
    seat_draw: tuple[int, ...]  # a session's first deal: the draw for seats, the card each player drew
    cut_at: int  # the cards the cut lifted (deal.cut; -1: no cut, or a deal given without it)
    high: Contract | None
    high_seat: int
    high_level: int
    passed: list[bool]
    first_bidder: int
    round_no: int
    round_bids: Sequence[tuple[int, ...]]  # the bids open, by the level of the high one
    bid_levels: Sequence[int]
    ex_queue: list[int]
    ex_first_used: bool
    ceded: bool
    drawn: list[int]
    last_exchanger: int
    taker: int  # the seat that took cards from the talon into his hand (`exchange.take_talon`; -1: none)
    play_hands: tuple[int, ...]  # the hands as play began
    committed: bool
    stopped: bool
    conceded: bool
    concede_refused: bool
    consent_queue: list[int]
    res: Result | None  # how the deal ended, without its account (see State.result)
    acct: tuple[Entry, ...] | None  # the account of the payments, once asked for
    outcome: str | None
    called: int
    partner: int
    told: int
    claim_seat: int
    bid_of: list[int]
    orders: Sequence[tuple[int, ...]]
    tn: int  # seats that play a trick
    shown: list[int]
    end_when: Expr | None
    high_by: int
    duel_p: int
    duel_q: int
    duel_queue: list[int]
    handed: list[Handed]
    pre: int
    taken_from: int
    ap_at: int
    carry: tuple[Any, ...]
    carry_after: tuple[Any, ...]
    def_queue: list[int]
    def_in: int
    def_out: int
    alone: int  # `alone`: -1 not chosen (or no such rule), 0 with his partners, 1 alone
    inviter: int
    invited: int
    def_refused: bool
    dbl_queue: list[int]
    doubles: int
    doubler: int
    announced: bool
    talon_shown: int
    acc: int  # auction.accept: 1 the late seat may still accept the standing bid, 2 its bidder has amended
    follow_high: bool  # play.follow_answers = highest: `led` follows the highest card of its suit
    # `led`: the follow row the trick answers (the card led, or past the deck's size: ruleset.fields.row_after)
    trump_open: bool  # contract `trump: first_lead`: trumps wait for the first card led
    lay_seats: int  # a contract's lay-away: the mask of the seats that lay cards away
    uneven: bool  # in play, the seats of the ring hold hands of unequal size (a seat out of cards leaves the ring)
    ring_play: Sequence[int]  # the ring of play before a seat's hand ran out (empty: none did), for `players`
    sur_due: bool  # a surrender offered during the exchange (`play.surrender.at`) is still to come
    takeover_queue: list[int]  # after a surrender, the seats still to be asked to take the game over
    stand_for: int  # `sit_out.stand_in`: the seat whose hand the seat sitting out took over (-1: none)
    stand_bids: tuple[int, ...] | None  # his bids while he is asked (None: not asked yet; (): asked, or never)

    if TYPE_CHECKING:
        # -- State's own API that stages and the modules State uses (view, replay, portable) call
        @property
        def phase_name(self) -> str: ...
        @property
        def current_player(self) -> int: ...
        @property
        def result(self) -> Result | None: ...
        def legal_actions(self) -> list[int]: ...
        def apply(self, a: int) -> None: ...
        def apply_str(self, text: str) -> int: ...
        def order_from(self, seat: int) -> tuple[int, ...]: ...
        def env(self) -> DealEnv: ...
        def eval(self, expr: Expr, env: Any = None) -> Any: ...
        def _seat(self, expr: Expr) -> int: ...
        def _seat_in_play(self, expr: Expr) -> int: ...
        def _rewind(self, n: int) -> None: ...
        def _illegal(self, a: int) -> None: ...

        # -- the methods one stage calls on another
        def _open_auction(self) -> None: ...
        def _offer_alone(self) -> bool: ...
        def _leave_ring(self, out: int) -> None: ...
        def _close_ring(self, out: int) -> None: ...
        def _start_auction(self, rnd: int, contracts: tuple[Contract, ...]) -> None: ...
        def _all_passed(self) -> None: ...
        def _must_choose(self) -> bool: ...
        def _choices(self, level: int) -> list[Contract]: ...
        def _show(self, c: Contract) -> None: ...
        def _declared(self, contract: Contract) -> None: ...
        def _begin_contract(self, seat: int, contract: Contract) -> None: ...
        def _set_trump(self, suit: Suit | None) -> None: ...
        def _lead_mask(self) -> int: ...
        def _take_talon(self, seat: int, count: int) -> None: ...
        def _continue_exchange(self) -> None: ...
        def _callable(self) -> list[int]: ...
        def _trump_by_holder(self) -> None: ...
        def _next_demand(self) -> bool: ...
        def _start_lay_away(self, seat: int) -> None: ...
        def _start_each_lay_away(self) -> bool: ...
        def _show_talon(self) -> None: ...
        def _start_announce(self) -> bool: ...
        def _start_defence(self) -> bool: ...
        def _start_doubling(self) -> bool: ...
        def _start_play(self) -> None: ...
        def _trick_start(self) -> None: ...
        def _play_with_excuse(self) -> None: ...
        def _finish(self, all_pass: bool = False) -> None: ...
        def _surrender_due(self) -> bool: ...
