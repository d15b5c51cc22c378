"""Every attribute a compiled variant has besides its constructor's (`RulesetBase`), declared once and typed:
the parts of `Ruleset` and the builders (`build_*`) set them while loading, and everything after reads them.
Annotations only (the base of a dataclass that does not make them fields); the records they hold are in
compiled.py and contracts.py, which import no part, so no import runs round a circle. The rank tables of each
trump (`_contexts`) are declared by their part (context.py). The follow rows' indexing is here too
(`reads_winner`, `row_after`), read by the ruleset that builds them and the loops that play on them."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..errors import SpecError
    from ..lang import Compiler, Expr, Namespace
    from ..lang.block import Generated
    from .compiled import (
        Alone,
        Announce,
        AuctionRules,
        Carry,
        Cut,
        Defence,
        Demands,
        Doubling,
        Excuse,
        FirstDraw,
        LayAway,
        Opening,
        SeatDraw,
        SessionEnd,
        StandIn,
    )
    from .contracts import Contract

# per led card, the obligations of one follow list: (bind mask, must mask) pairs, in order (engine/fields.py)
FollowRow = tuple[tuple[int, int], ...]


def reads_winner(follow: Any) -> bool:
    """Whether a follow list (pairs of compiled `must`, `exempt`) reads `winning_card`."""
    return any("winning_card" in e.uses for pair in follow for e in pair if e is not None)


def row_after(led: int, c: int, nc: int, high: bool, eff: Any, wins: bool) -> int:
    """The follow row a trick answers once card c has taken its lead, the row before being `led`: rows below
    `nc` (the deck's size) are per card answered (`led_card`: the card led, or under `play.follow_answers =
    highest` the highest of its suit so far, `high`); a list that reads `winning_card` (`wins`) has a row
    `answered + nc * (winning + 1)` for each card winning over the one answered, which has its own row."""
    ans = led % nc
    if high and eff[c] == eff[ans]:
        ans = c
    return ans + nc * (c + 1) if wins and c != ans else ans
# the generated deal: (deck order, dealer) -> (hand masks by seat, sorted hands by seat, talon), fresh lists
DealFunction = Callable[[list[int], int], tuple[list[int], list[list[int]], list[int]]]


class RulesetFields:
    """The attributes of a compiled variant, set while it loads."""

    # -- loading (base.py, __init__.py)
    _errors: list[SpecError]
    _memo: dict[tuple[Any, ...], Expr | None]
    namespace: Namespace
    compiler: Compiler
    last_uses: frozenset[str]  # of the last expression `code` compiled
    last_type: str
    contract_by_name: dict[str, Contract]
    next_seat: list[int]
    seat_orders: list[tuple[int, ...]]
    name_exprs: list[tuple[str, Expr]]  # the variant's `names`, in the order they are worked out
    names_broken: bool
    base_names: dict[str, Any]  # their values without trumps
    session: dict[str, Any]
    # -- seats and dealing (deal.py)
    sitters: list[tuple[int, ...]]  # per dealer: the seats sitting the deal out
    active: int  # seats that play a deal
    rings: list[list[int]]  # per dealer: the next seat to play, by seat
    orders: list[list[tuple[int, ...]]]  # per dealer, per seat: the seats in order of play from it
    deal: DealFunction
    teams: tuple[tuple[int, ...], ...] | None  # `teams`: the fixed partnerships, seats in order (None: none)
    team_of: tuple[int, ...] | None  # per seat: the index of its team in `teams`
    turn_up_from: str | None  # `deal.turn_up`: talon_top, dealer_last, second_pack (None: no card turned)
    turn_up_at: list[int]  # per dealer: where in the deck order the turned card lies (-1: a second pack's)
    stand_in: StandIn | None  # `sit_out.stand_in`: the seat sitting out may take a seat's hand in the auction
    # -- the auction (auction.py, suit_bids.py, mechanics.py)
    auction: AuctionRules
    hold_by_priority: bool
    main_round: tuple[Contract, ...]
    bid_scale: int
    _bid_lists: dict[int, tuple[list[tuple[int, ...]], tuple[int, ...]]]
    auto_pass: bool
    jumps: bool
    may_raise: bool
    raise_when: Expr | None
    raise_after_turn: bool
    opening: Opening | None
    bid_conditions: bool  # some contract has a bid condition or cards to show
    compulsory: tuple[Contract, ...]
    # -- play and the optional mechanics (play.py, mechanics.py, defence.py, …; the rank tables: context.py)
    follow_lists: list[tuple[tuple[Expr, Expr | None], ...]]
    lay_away: LayAway | None
    demands: Demands | None
    excuse: Excuse | None
    summary: list[tuple[str, Expr]]
    defence: Defence | None
    alone: Alone | None
    doubling: Doubling | None
    announce: Announce | None
    carry: Carry | None
    # -- the end of a deal and of a session (settlement.py, session_end.py)
    outcome_names: list[str]
    finish_all_pass: Generated
    ante: Generated | None
    ante_static: bool  # the ante depends on the seats alone
    session_end: SessionEnd | None
    first_draw: FirstDraw | None  # `session.first_dealer` (first_dealer.py): the draw for the first dealer
    seat_draw: SeatDraw | None  # `session.seats` (rituals.py): the draw for seats
    cut: Cut | None  # `deal.cut` (rituals.py): the cut after the shuffle
    seat_cache: dict[Any, Any]  # values that depend only on the seats, by (expression, dealer) and the like
    # -- actions (actions.py)
    A_DISCARD: int
    A_BID: int
    A_TRUMP: int
    A_PASS: int
    A_HOLD: int
    A_DRAW: int
    A_CEDE: int
    A_STOP: int
    A_CONCEDE: int
    A_ACCEPT: int
    A_REFUSE: int
    A_CONTINUE: int
    A_FOLLOW: int
    A_INVITE: int
    A_DOUBLE: int
    A_REDOUBLE: int
    A_ALONE: int
    A_TAKE_OVER: int
    A_CALL: int
    A_GIVE: int
    A_DEMAND: int
    num_actions: int
    action_verbs: tuple[str, ...]  # the verb of every action id
    action_texts: tuple[str, ...]  # the notation of every action id

    if TYPE_CHECKING:
        # -- the methods one part calls on another
        def _compile_play(self, c: Contract, cp: tuple[Any, ...]) -> None: ...
