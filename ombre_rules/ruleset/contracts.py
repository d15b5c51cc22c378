"""The compiled records of a contract: exchange limits, play rules, a called card, and the contract itself
(what the engine and expressions see as `contract`). Built from the keys under `contracts.NAME` (and their
variant-wide defaults `exchange`, `play`, `call`); the builders are in contract_rules.py and play.py."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cards import Suit
from ..checks import as_count
from ..lang import Expr

if TYPE_CHECKING:
    from ..lang.block import Generated


@dataclass(frozen=True)
class Limits:
    """How many cards one exchanger may change: compiled expressions for min and max."""

    min: Expr
    max: Expr
    # plain attributes, read on every exchange: the limits' values when they are constants, else None
    min_const: int | None = field(init=False, repr=False, compare=False)
    max_const: int | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "min_const", as_count(self.min.value) if self.min.constant else None)
        object.__setattr__(self, "max_const", as_count(self.max.value) if self.max.constant else None)


@dataclass(frozen=True)
class ExchangeRules:
    declarer: Limits
    first: Limits
    other: Limits
    defenders: bool
    defender_first: str
    leftover: str
    take_talon: int = 0  # cards taken from the top of the talon (0: none; the deck's size: all)
    show_talon: bool = False  # the talon is shown to every seat when the contract is fixed
    keep_taken: bool = False  # the cards taken with `take_talon` may not be laid away


@dataclass(frozen=True)
class Takeover:
    """After a surrender, another seat may take the game over with a new exchange (`play.surrender.takeover`):
    the seats asked in turn (`by`, a seat or a list), whether one may take a contract over (`when`, reading the
    seat asked as `bidder` and the contract as `choice`), and the contracts offered (empty: the conceded one)."""

    by: Expr
    when: Expr
    contracts: tuple[Contract, ...] = ()
    path: tuple[Any, ...] = field(default=(), compare=False)  # where it is in the file (for load errors)


@dataclass(frozen=True)
class Surrender:
    """The declarer may give up (`play.surrender`): when, and at which point (`before_exchange`,
    `after_declarer_exchange` or `before_play`); then perhaps taken over by another seat."""

    when: Expr
    at: str = "before_play"
    takeover: Takeover | None = None


@dataclass(frozen=True)
class PlayRules:
    first_leader: Expr
    follow: tuple[tuple[Expr, Expr | None], ...]
    claim: tuple[int, Expr] | None
    concede: tuple[int, Expr | None, Expr | None, Expr | None] | None
    claim_by_side: bool = False
    claim_tells: bool = False
    surrender: Surrender | None = None
    end_when: Expr | None = None
    follow_highest: bool = False  # play.follow_answers = highest


@dataclass(frozen=True)
class EachLaysAway:
    """A contract's lay-away without a talon: once it is fixed, every seat in play, or the seats `who` names,
    lays `count` cards away (evaluated then; at most all but one of his cards), from the declarer round the ring;
    they stay his, hidden, and are out of play. Named seats leave hands of unequal size: a seat whose hand is
    empty stops playing (engine/play.py)."""

    count: Expr
    allowed: int  # mask of the cards that may be laid away (if he holds too few, any card)
    who: Expr | None = None  # one seat or a list of seats; none: every seat in play


@dataclass(frozen=True)
class CallRules:
    """Calling a card once trumps are known: which cards may be called, and what the call does."""

    allowed: Expr
    demand: bool


@dataclass(eq=False)
class Contract:
    """A contract as the engine and expressions see it (`contract.name`, `contract.value`, …).

    A suit bid of a contract (its `suit_bids`) is a record of its own, with its own bid, whose trumps are the bid
    suit (`bid_suit`); it compares equal to the contract it is a bid of (`base`), so `contract == NAME` holds for
    every bid of NAME. `key` names the entry of the file both are compiled from."""

    name: str
    index: int
    level: int
    value: int
    title: str
    biddable: bool
    trump_mode: str = "named"
    fixed_suit: Suit | None = None
    trump_after_exchange: bool = False
    trump_allowed: Expr | None = None
    ranking: str = ""
    call: CallRules | None = None
    outcomes_path: tuple[Any, ...] = ()
    follow_id: int = 0
    played: bool = True
    holdable: bool = True
    compulsory: Expr | None = None  # a seat for which it holds may not pass while it may bid this contract
    demands: int = 0
    bid_when: Expr | None = None
    show: Expr | None = None
    expose: tuple[Expr, str] | None = None
    lay_away: EachLaysAway | None = None  # every seat in play lays cards away before play (no talon)
    key: str = ""
    base: Contract | None = None
    bid_suit: Suit | None = None
    sub: int = 0
    jump: bool = False
    # set while the variant loads (contract_rules.py, play.py, settlement.py): every contract has them after
    exchange: ExchangeRules = field(init=False)
    play: PlayRules = field(init=False)
    finish: Generated = field(init=False)  # the settlement: `finish(env, state)` gives the outcome

    def __post_init__(self) -> None:
        self.key = self.key or self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Contract) and (self.base or self) is (other.base or other)

    def __hash__(self) -> int:
        return id(self.base or self)

    def __repr__(self) -> str:
        return self.name
