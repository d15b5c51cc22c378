"""The records a variant's rules compile to, besides a contract's own (contracts.py): the auction's rules and
all-pass branches, the optional mechanics, announcements, the defenders' decisions, doubling, the values carried
between deals and the end of a session. Frozen, built once by the ruleset's parts and builders (auction.py,
all_pass.py, mechanics.py, announce.py, defence.py, doubling.py, carry.py, session_end.py), read by the engine;
this module imports none of them, so `RulesetFields` can name every record."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Suit
from ..errors import OmbreError, did_you_mean, quoted
from ..lang import Expr
from ..lang import types as T
from ..lang.block import Generated
from .contracts import Contract

MAX_ITEMS = 1000  # items of a carried list, characters of a carried string (no session grows one without bound)


@dataclass(frozen=True)
class AuctionRules:
    first: Expr
    hold: str
    all_pass: str
    force_who: Expr | None
    force_contract: Contract | None
    extra_round: tuple[Contract, ...]
    forced_bid: Contract | None = None
    forced_by: frozenset[Contract] = frozenset()
    form: str = "rotation"
    choice: str = "bid"
    final_bids: frozenset[Contract] = frozenset()
    branches: tuple[AllPassBranch, ...] = ()
    others_passed: bool = False  # force as soon as every seat but the forced one has passed without a bid
    accept: Accept | None = None  # `auction.accept`: bids a later seat may accept, becoming the bidder's partner


@dataclass(frozen=True)
class Accept:
    """`auction.accept`: a standing bid of `bids` may be accepted by a later seat, who becomes its bidder's
    partner; `late`, a seat that may still accept after passing; `amend`, whether the bidder of a bid nobody
    accepted speaks once more (else the deal goes as if all passed)."""

    bids: frozenset[Contract]
    late: Expr | None
    amend: bool


@dataclass(frozen=True)
class AllPassBranch:
    then: str  # redeal, force or auction
    when: Expr | None  # the condition over the deal; None: always
    who: Expr | None  # the forced seat
    contract: Contract | None  # the contract the forced seat plays at once
    contracts: tuple[Contract, ...]  # the contracts of its round (the forced seat's choice, or everyone's bids)
    may_pass: bool = False  # the forced seat may pass instead
    others_passed: bool = False  # force as soon as every other seat has passed (the first rule only)
    show_talon: bool = False  # the talon is shown to every seat before the branch's round


@dataclass(frozen=True)
class StandIn:
    """`sit_out.stand_in`: once the seat it names has passed in the auction, the seat sitting out may bid on
    that seat's hand, and if he does the two change places for the deal. Per dealer: the seat sitting out, the
    seat whose hand he may take, and the seats out, the ring and the orders of play once he has taken it."""

    sees: bool  # the seat sitting out sees the named seat's hand during the auction
    sitter: tuple[int, ...]
    named: tuple[int, ...]
    sitters: tuple[tuple[int, ...], ...]
    rings: tuple[list[int], ...]
    orders: tuple[list[tuple[int, ...]], ...]


@dataclass(frozen=True)
class Opening:
    """A bid made for a seat before anyone speaks (the seat may still be overcalled)."""

    seat: Expr
    contract: Contract


@dataclass(frozen=True)
class LayAway:
    """One seat takes the talon (if asked) and lays `count` cards away; they stay his, hidden."""

    at_deal: bool  # the dealer, right after the deal; otherwise the declarer, once the contract is fixed
    take_talon: bool
    count: int
    allowed: int  # mask of the cards that may be laid away (if he holds too few, any card)


@dataclass(frozen=True)
class Demands:
    """Which cards a declarer may demand, and which he may give back for each."""

    cards: int
    give: int


@dataclass(frozen=True)
class Excuse:
    """A card that may always be played, never wins, goes back to its owner's pile, and costs him a card
    of `compensation` from his pile to the trick's winner (now, or as soon as he has one)."""

    card: int
    compensation: int
    last_trick_lost: bool  # played to the last trick it stays with the trick's winner
    latest: int  # the trick (1-based) by which its holder must have played it; 0: no limit


@dataclass(frozen=True)
class Announce:
    """After his exchange the declarer may name one of `contracts` of a higher level than his own."""

    contracts: tuple[Contract, ...]
    when: Expr  # whether he may, in this deal (with `choice`, the contract he would name)


@dataclass(frozen=True)
class Alone:
    """Once the contract and trumps are fixed the declarer may go alone: his partners (his team's other seats)
    lay their cards aside, out of play for the deal."""

    when: Expr  # whether he may (evaluated once the contract and trumps are fixed)


@dataclass(frozen=True)
class Defence:
    """Each defender in turn plays (`follow`) or passes; the last may `invite` the passers; passers sit out."""

    when: Expr  # whether the defenders decide in this deal (evaluated once the contract and trumps are fixed)
    invite: bool  # the last defender to decide, when every earlier one passed, may invite them to play with him
    must_accept: bool  # an invited defender plays; otherwise he says accept or refuse


@dataclass(frozen=True)
class Doubling:
    """Before the first lead the seats of `who` in turn may double; the declarer may then redouble."""

    who: Expr  # the seats that may double, in turn (default: the defenders who play)
    when: Expr  # whether doubling is open in this deal
    redouble: bool  # the declarer may answer a double
    factors: tuple[int, int]  # the multiplier once doubled, once redoubled


@dataclass(frozen=True)
class Carry:
    """The carried values of a variant, in the order the file declares them."""

    names: tuple[str, ...]
    types: tuple[str, ...]
    once: tuple[bool, ...]
    start: tuple[Any, ...]
    suits: dict[str, Suit]
    by_seat: frozenset[str] = frozenset()  # the lists that hold one number per seat of the table, by seat

    def index(self, name: str) -> int:
        return self.names.index(name)

    def value(self, i: int, v: Any) -> Any:
        """A value a `set:` step gives, as the value's type holds it (true/false for a bool, a number for an
        int); an OmbreError when it would pass the limits of a session's values."""
        t = self.types[i]
        if v is None:
            return v
        if t == T.BOOL:
            return bool(v)
        if t == T.INT:
            v = int(v)
            if abs(v) > T.SESSION_NUMBER:
                raise OmbreError(f"session value '{self.names[i]}' would be {T.magnitude(v)}, past the "
                                 f"{T.magnitude(T.SESSION_NUMBER)} a session's number may reach")
            return v
        if t in (T.STR, T.list_of(T.INT)) and len(v) > MAX_ITEMS:
            raise OmbreError(f"session value '{self.names[i]}' would have {len(v)} items, more than {MAX_ITEMS}")
        if t == T.list_of(T.INT) and any(abs(x) > T.SESSION_NUMBER for x in v):
            raise OmbreError(f"session value '{self.names[i]}' would hold a number past the "
                             f"{T.magnitude(T.SESSION_NUMBER)} a session's number may reach")
        return list(v) if isinstance(v, list) else v

    def values(self, given: object) -> tuple[Any, ...]:
        """The values a deal begins with: the start values, with those `given` (by name, as JSON gives them:
        a suit by its name) put in; an OmbreError for an unknown name or a value of the wrong kind."""
        if not given:
            return self.start
        if not isinstance(given, dict):
            raise OmbreError(f"the session's values are a mapping of names to values, not {quoted(given)}")
        out = list(self.start)
        for name, v in given.items():
            if name not in self.names:
                raise OmbreError(f"unknown session value '{name}'{did_you_mean(str(name), self.names)}")
            i = self.names.index(name)
            out[i] = self._decode(name, self.types[i], v, self.once[i])
        return tuple(out)

    def _decode(self, name: str, t: str, v: Any, once: bool = False) -> Any:
        if v is None and (t in (T.SUIT, T.STR) or once):
            return v
        if t == T.SUIT:
            if isinstance(v, Suit) and self.suits.get(v.name) is v:
                return v
            if isinstance(v, str) and v in self.suits:
                return self.suits[v]
        elif t == T.BOOL:
            if isinstance(v, bool):
                return v
        elif t == T.INT:
            if type(v) is int and abs(v) <= T.SESSION_NUMBER:
                return v
        elif t == T.STR:
            if isinstance(v, str) and len(v) <= MAX_ITEMS:
                return v
        elif isinstance(v, (list, tuple)) and len(v) <= MAX_ITEMS and all(type(x) is int and abs(x) <= T.SESSION_NUMBER
                                                                           for x in v):
            return list(v)
        raise OmbreError(f"session value '{name}' must be {T.words(t)}, not {quoted(v)}")

    def to_json(self, values: tuple[Any, ...]) -> dict[str, Any]:
        """The values by name as JSON has them (a suit by its name)."""
        return {n: (v.name if isinstance(v, Suit) else (list(v) if isinstance(v, list) else v))
                for n, v in zip(self.names, values, strict=True)}


@dataclass(frozen=True)
class SessionEnd:
    """When a session ends and what is paid then."""

    deals: int | None  # `session.deals`: the agreed number (None: not fixed)
    end_when: Generated | None  # compiled `(_e, _st) -> bool`, or None: the session ends after `deals` deals
    close: Generated | None  # compiled `(_e, _st) -> None` running the closing payments, or None
    limit: int  # the most deals a session may have, whatever `end_when` says


@dataclass(frozen=True)
class FirstDraw:
    """Every seat draws a card; the best deals the session's first deal (seats that tie draw again)."""

    highest: bool  # the highest card is best (else the lowest)
    by: tuple[str, ...]  # what compares the cards, in turn: "suit", "rank"
    key: tuple[tuple[int, ...], ...]  # per card id: its key, higher is better whichever card is best
    doc: str | None


@dataclass(frozen=True)
class SeatDraw:
    """A card laid at each seat; each player draws one of them and sits at its seat (`session.seats`)."""

    cards: tuple[int, ...]  # per seat: the card laid there
    first_dealer: int  # the dealer of the first deal the draw fixes through `forehand` (-1: it fixes none)
    forehand: int  # the card whose drawer is forehand in the first deal (-1: none)
    doc: str | None


@dataclass(frozen=True)
class Cut:
    """The cut after the shuffle (`deal.cut`): who cuts, per dealer, and the fewest cards in each packet."""

    who: tuple[int, ...]  # per dealer: the seat that cuts
    least: int  # the fewest cards in each packet
    doc: str | None
