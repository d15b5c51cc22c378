"""One deal: `legal_actions()`, `apply(action)`, `clone()`, `view(seat)`, `result`.

Actions are ints (see `Ruleset.action_str` / `Ruleset.parse_action` for the notation). Hands are bitmasks.
State holds the data of the deal; each stage of a deal (auction.py, contract.py, exchange.py, calls.py,
lay_away.py, play.py, settle.py) is a mixin that owns its phases' legal actions and transitions.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..checks import action_id
from ..envs import SEAT_VARS, DealEnv
from ..errors import IllegalActionError, OmbreError, SpecError
from ..explain.account import Account, Entry
from ..lang import Expr
from ..ruleset import Contract, Ruleset
from . import portable
from .all_pass import AllPassStage
from .alone import AloneStage
from .announce import AnnounceStage
from .auction import AuctionStage
from .calls import CallStage
from .carry import start_values
from .contract import ContractStage
from .deal import check_deal, dealt_order, dealt_turn_up, drawn_dealer, given_turn_up, shuffled
from .defend import DefendStage
from .double import DoubleStage
from .exchange import ExchangeStage
from .fields import Fields
from .lay_away import LayAwayStage
from .phases import (
    ALONE,
    ANNOUNCE,
    AUCTION,
    CALL,
    CONSENT,
    DECLARE,
    DEFEND,
    DEMAND,
    DONE,
    DOUBLE,
    EXCHANGE,
    GIVE,
    GIVEBACK,
    LAYAWAY,
    PHASE_NAMES,
    PLAY,
    RAISE,
    SURRENDER,
    TAKEOVER,
    TRUMP,
    XPLAY,
)
from .play import PlayStage
from .result import Result
from .rituals import check_cut, check_seat_draw
from .settle import SettleStage, _new_tuple
from .surrender import SurrenderStage

__all__ = ["State", "Result", "shuffled"]


class State(AuctionStage, AllPassStage, ContractStage, ExchangeStage, CallStage, LayAwayStage, PlayStage, SettleStage,
            DefendStage, DoubleStage, AnnounceStage, AloneStage, SurrenderStage):
    """The state of one deal of a variant. Create with `State(rules, seed=…)` or with given hands.

    It holds every field of the deal (its slots) and dispatches each phase's legal list and actions to the
    stage that owns the phase; the stages are mixins without fields of their own."""

    __slots__ = tuple(Fields.__annotations__)  # every field, in the order Fields declares them

    def __init__(self, rules: Ruleset, *, seed: int | None = None, dealer: int = 0, pool: int = 0,
                 hands: list[int] | None = None, talon: list[int] | None = None,
                 session: dict[str, Any] | tuple[Any, ...] | None = None, turn_up: int | None = None,
                 dealer_draw: tuple[tuple[int, int], ...] = (), seat_draw: tuple[int, ...] = (),
                 cut: int | None = None) -> None:
        """`session`: the values carried between deals (`session.carry`) by name, for those not at their start
        (or another deal's `carry_after`, as it is). `turn_up`: with given hands, the card `deal.turn_up` turned
        (the talon's first card need not be given; a dealer's last card or a second pack's must be, unless a
        seed deals it). `dealer_draw`: in a session's first deal, the draw that made its dealer (`session.first_dealer`,
        checked); `seat_draw`: the draw for seats, the card each player drew (`session.seats`, checked against the
        seed). `cut`: the cards the cut lifted (`deal.cut`), checked against the seed's deal."""
        self.rules = rules
        n = self.n = rules.players
        if not 0 <= dealer < n:
            raise OmbreError(f"dealer must be a seat from 0 to {n - 1}, not {dealer}")
        self.dealer = dealer
        self.seed = seed
        drew = drawn_dealer(rules, list(dealer_draw)) if dealer_draw else dealer
        if drew != dealer:
            raise OmbreError(f"the draw for the first dealer makes seat {drew} the dealer, not seat {dealer}")
        self.dealer_draw = tuple(dealer_draw)
        self.seat_draw = check_seat_draw(rules, tuple(seat_draw), seed, dealer) if seat_draw else ()
        self.cut_at = -1 if cut is None else check_cut(rules, cut, None, dealer)
        if hands is None or cut is not None and seed is not None:
            order, at = dealt_order(rules, seed)
            if cut is not None and at != cut and (hands is None or rules.deal(order, dealer)[0] == list(hands)):
                raise OmbreError(f"the cut differs from what seed {seed} cuts: {at} cards lifted, not {cut}")
            if hands is None:
                self.cut_at = at
        if hands is None:  # the deal function gives fresh lists
            hands, self.hl, talon = rules.deal(order, dealer)
            self.turn_up = dealt_turn_up(rules, order, dealer, seed) if rules.turn_up_from else -1
        else:
            check_deal(rules, hands, talon or [], dealer)
            self.turn_up = given_turn_up(rules, hands, talon or [], dealer, seed, turn_up)
            self.hl = [rules.deck.bits(h) for h in hands]
            hands = list(hands)
            talon = list(talon or [])
        self.hands = hands
        self.talon = talon
        self.deal_hands = tuple(hands)
        self.deal_talon = tuple(talon)
        self.pool_before = self.pool = pool
        self.carry = self.carry_after = start_values(rules, session)
        self.payments = [0] * n
        self.history: list[int] = []
        self.declarer = self.turned = self.last_exchanger = self.claim_at = self.taker = -1
        self.leader = self.led = self.best = self.best_seat = self.lm = -1
        self.tm = 0
        self.contract: Contract | None = None
        self.trump = self.ctx = self.lc = self.res = self.acct = self.outcome = None
        self.discards = [0] * n
        self.drawn = [0] * n
        self.tricks = [0] * n
        self.won = [0] * n
        self.ex_count = self.ex_min = self.ex_max = self.ex_keep = 0
        self.ceded = self.ex_can_cede = self.ex_first_used = False
        self.committed = self.stopped = self.conceded = False
        self.claim_pending = self.concede_ok = self.concede_refused = self.trump_open = self.sur_due = False
        # sequences replaced (not changed in place) when their phase starts: shared empty tuples until then
        self.play_hands = ()
        self.keyrow = self.follow_rows = self.round_bids = self.bid_levels = ()
        self.ex_queue = []
        self.consent_queue = []
        self.takeover_queue = []
        self.ex_acts = None
        self.trick: list[int] = []
        self.trick_log: list[tuple[int, tuple[int, ...], int]] = []
        self.nc = rules.A_DISCARD
        self.nxt = rules.rings[dealer]
        self.called = self.partner = self.claim_seat = -1
        self.taken_from = -1
        self.ap_at = 0
        self.told = 0
        self.orders = rules.orders[dealer]
        self.tn = rules.active
        self.shown = [0] * n
        self.end_when = None
        self.follow_high = False
        self.acc = 0
        self.high_by = self.duel_p = self.duel_q = -1
        self.duel_queue: list[int] = []
        self.handed: list[tuple[int, int, int, bool]] = []  # (card, from seat or -1, to seat, public)
        self.pre = 0
        self.def_queue: list[int] = []
        self.def_in = self.def_out = self.invited = 0
        self.alone = -1
        self.inviter = -1
        self.def_refused = False
        self.dbl_queue: list[int] = []
        self.doubles = 0
        self.doubler = -1
        self.announced = False
        self.talon_shown = self.lay_seats = 0
        self.uneven = False
        self.ring_play = ()
        self.stand_for = -1
        self.stand_bids = None if rules.stand_in is not None else ()
        if rules.ante is not None:
            self._ante()
        if rules.lay_away is not None and rules.lay_away.at_deal:
            self._start_lay_away(dealer)
        else:
            self._open_auction()

    @property
    def result(self) -> Result | None:
        """How the deal ended (None before). Made at each read from what `_finish` kept, with an account that
        reads this state: the state holds no reference to its result, so a finished deal is freed as soon as
        nobody holds it, not by the cycle collector."""
        res = self.res
        if res is None:
            return None
        return _new_tuple(Result, res[:8] + (Account(self),) + res[9:])

    @property
    def phase_name(self) -> str:
        """The phase by name (`auction`, `exchange`, `play`, `done`, …)."""
        return PHASE_NAMES[self.phase]

    @property
    def is_terminal(self) -> bool:
        """Whether the deal is over (`result` is then set)."""
        return self.phase == DONE

    @property
    def current_player(self) -> int:
        """The seat to act, or -1 when the deal is over."""
        return -1 if self.phase == DONE else self.to_move

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Every seat that takes part in the deal once, in order of play, starting at `seat`."""
        return self.orders[seat]

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to move (empty when the deal is over)."""
        ph = self.phase
        if ph == PLAY:  # the hot path
            return self._legal_play()
        if ph == EXCHANGE:
            return self._legal_exchange()
        if ph == AUCTION:
            return self._legal_auction()
        acts = _LISTED[ph](self)
        self.lc = tuple(acts)
        return acts

    def apply(self, a: int) -> None:
        """Apply a legal action of the seat to move; IllegalActionError (nothing changed) otherwise, and
        InvalidActionError for a value that is not an action id."""
        if type(a) is not int:
            a = action_id(a)
        ph = self.phase
        if ph == PLAY and 0 <= a < self.nc:  # a card played: the hot path
            self._play_card(a)
            return
        if ph == EXCHANGE and self._discard_or_draw(a):
            return
        if ph == AUCTION:
            self._apply_auction(a)
            return
        if ph == XPLAY:
            self._apply_xplay(a)
            return
        if ph > XPLAY:  # checked against the phase's list, made afresh
            if a not in _LISTED[ph](self):
                self._illegal(a)
            self.history.append(a)
            self.lc = None
        else:  # checked against the list legal_actions last gave (kept in lc), or a fresh one
            legal = self.lc if self.lc is not None else self.legal_actions()
            if a not in legal:
                self._illegal(a)
            self.history.append(a)
            self.lm = -1
            self.lc = None
        _APPLY[ph](self, a)

    def apply_str(self, text: str) -> int:
        """Parse an action in notation and apply it; returns the action id."""
        a = self.rules.parse_action(text)
        self.apply(a)
        return a

    def action_str(self, a: int) -> str:
        """An action id in notation (`Ruleset.action_str`)."""
        return self.rules.action_str(a)

    def random_playout(self, rand: Callable[[], float]) -> None:
        """Play the deal to its end with a uniformly random legal action at every decision.

        `rand` gives floats in [0, 1), such as `random.Random(seed).random`. The actions are exactly those of
        the loop `acts = s.legal_actions(); s.apply(acts[int(rand() * len(acts))])`, one `rand()` each, in
        the same order; the state ends the same (but for fields that only matter while a trick is in hand,
        such as its best card so far). It is faster because whole tricks are played without building the
        legal lists a caller would see (the rollouts of tree search, benchmarks)."""
        legal = self.legal_actions
        apply = self.apply
        while True:
            ph = self.phase
            if ph == PLAY and not self.trick and not self.claim_pending and not self.trump_open \
                    and not (self.concede_ok and self._concede_open()):
                self._random_tricks(rand)
            elif ph == EXCHANGE:
                self._random_exchange(rand)
            elif ph == DONE:
                return
            elif ph == AUCTION:  # a legal bid or hold, applied without checking it again
                self._random_bid(rand)
            elif ph == LAYAWAY:
                self._random_lay_away(rand)
            else:
                acts = legal()
                apply(acts[int(rand() * len(acts))])

    def play_tricks(self, pick: Callable[[int, list[int], list[tuple[int, int]], int], int]) -> None:
        """Play cards chosen by `pick(seat, cards, trick, played)` while plain play goes on. `pick` is asked
        when the seat has a choice (a single legal card is played without asking): `cards` are its legal cards
        as `legal_actions` lists them, `trick` the (seat, card) pairs in play and `played` the mask of every
        card played so far (keep neither list: the loop goes on changing them); it returns one of `cards`.
        Returns when the deal ends or a decision other than a card opens (a claim, a concession the declarer
        may still make, trumps fixed by the first lead, an excuse card still to come), at once if one is open;
        then go on with `legal_actions`/`apply`. The cards are played as `apply` plays them, without checking
        them again (the loops of play-out policies), and the state ends as the public loop leaves it. While
        `pick` runs, the hands, the history and the piles won are up to date; the state is not defined after
        `pick` raised or named another card."""
        self._picked_tricks(pick)

    def play_exchange(self, pick: Callable[[int, int, bool, bool], int]) -> None:
        """Play the exchange's turns chosen by `pick(seat, may, draw, cede)` while the exchange goes on: `may`
        is the mask of the cards the exchanger may discard now (0 once he has discarded his most), `draw` and
        `cede` whether he may draw or cede his turn now; it returns a card of `may` to discard, or the action
        `A_DRAW` or `A_CEDE` of the rules when allowed. A lone legal action is taken without asking. Returns
        when the phase is no longer the exchange (at once outside it). The actions are taken as `apply` takes
        them, without checking them again, and the state ends as the public loop leaves it (but for the list
        of the exchanger's actions, made only when `legal_actions` asks for it); it is not defined after
        `pick` raised or named another action."""
        self._picked_exchange(pick)

    def clone(self) -> State:
        """An independent copy (cheap: lists are copied, everything else is shared or immutable)."""
        return _clone(self)

    def __copy__(self) -> State:
        return _clone(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return _clone(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the variant's name, the deal and the actions (see `engine.portable`)."""
        return portable.reduce_state(self)

    def to_text(self) -> str:
        """The position as one line that `State.from_text` reads back."""
        return portable.to_text(self)

    @classmethod
    def from_text(cls, text: str, rules: Ruleset | None = None) -> State:
        """The state a line of `to_text` describes."""
        return portable.from_text(cls, text, rules)

    def view(self, seat: int | None, actions: bool = True) -> dict[str, Any]:
        """What one seat may see now (its hand, public information, its own discards; None: a spectator, who
        sees what every seat sees); `actions=False` leaves out the list of the deal's actions."""
        from .view import view

        return view(self, seat, actions)

    def account(self) -> tuple[Entry, ...]:
        """The account of a finished deal's payments: each transfer, labelled (`ombre_rules.explain.account`),
        worked out when first asked for."""
        if self.res is None:
            return ()
        if self.acct is None:
            from ..explain.account import account

            self.acct = account(self)
        return self.acct

    def returns(self) -> list[int]:
        """Each seat's net payment once the deal is over (zeros before)."""
        return list(self.res.payments) if self.res is not None else [0] * self.n

    def _illegal(self, a: int) -> None:
        r = self.rules
        what = r.action_str(a) if isinstance(a, int) and 0 <= a < r.num_actions else str(a)
        if self.phase == DONE:
            raise IllegalActionError(f"'{what}' is not legal: the deal is over")
        legal = self.legal_actions()
        shown = ", ".join(r.action_str(x) for x in legal)
        from ..explain.why import why_illegal

        why = why_illegal(self, a) if isinstance(a, int) else None
        raise IllegalActionError(f"'{what}' is not legal for seat {self.to_move} in {self.phase_name}"
                                 f"{' (' + why + ')' if why else ''}; legal: {shown}")

    def _seat_value(self, expr: Expr) -> Any:
        """An expression that depends on nothing but the seats (dealer, forehand, players): cached per dealer
        while the ring of play is the one the deal began with (a sitter who becomes declarer, or a defender who
        lays his hand down, changes forehand and the players)."""
        if not expr.uses <= SEAT_VARS or self.nxt is not self.rules.rings[self.dealer]:
            return self.eval(expr)
        cache = self.rules.seat_cache
        key = (expr, self.dealer)
        v = cache.get(key, cache)
        if v is cache:
            v = cache[key] = self.eval(expr)
        return v

    def _seat(self, expr: Expr) -> int:
        """A seat named by an expression; anything but a seat of this game is an error at its place (the
        compiler refuses an expression that may give one: this guards the engine)."""
        v = self._seat_value(expr)
        if type(v) is not int or not 0 <= v < self.n:
            raise SpecError(f"expression '{expr.text}' gives {v!r}, not a seat (0 to {self.n - 1})", expr.loc)
        return v

    def _seat_in_play(self, expr: Expr) -> int:
        """The seat an expression names if it takes part in play now, else the next seat round the ring that
        does (a seat that sits the deal out, or a defender who laid his hand down)."""
        s = self._seat(expr)
        return s if s in self.nxt else self.nxt[s]

    def _rewind(self, n: int) -> None:
        """Put the state back as its first `n` actions left it (replayed from the deal), so that an action refused
        after it began to change the state (a deal whose settlement is refused) leaves nothing half-changed."""
        fresh = State(self.rules, dealer=self.dealer, pool=self.pool_before, hands=list(self.deal_hands),
                      talon=list(self.deal_talon), seed=self.seed, session=self.carry,
                      turn_up=self.turn_up if self.turn_up >= 0 else None, dealer_draw=self.dealer_draw,
                      seat_draw=self.seat_draw, cut=self.cut_at if self.cut_at >= 0 else None)
        for a in self.history[:n]:
            fresh.apply(a)
        for name in State.__slots__:
            setattr(self, name, getattr(fresh, name))

    def env(self) -> DealEnv:
        """What a deal-level expression sees of this deal now."""
        return DealEnv(self, self.ctx)

    def eval(self, expr: Expr, env: Any = None) -> Any:
        """Evaluate a deal-level expression; a failure is reported at the expression's place."""
        if expr.constant:
            return expr.fn(None)
        try:
            return expr.fn(env or self.env())
        except OmbreError:
            raise
        except Exception as ex:
            raise SpecError(f"expression '{expr.text}' failed: {ex}", expr.loc) from None


_LISTS = {"hands", "talon", "ex_acts", "payments", "history", "passed", "ex_queue", "discards", "drawn", "trick",
          "tricks", "won", "consent_queue", "trick_log", "bid_of", "shown", "duel_queue", "handed",
          "def_queue", "dbl_queue", "takeover_queue"}


def _make_clone() -> Callable[[State], State]:
    lines = ["def _clone(self):", "    c = _new(_State)"]
    for name in State.__slots__:
        if name == "hl":
            lines.append("    c.hl = [h[:] for h in self.hl]")
        elif name == "ex_acts":  # None until listed
            lines.append("    c.ex_acts = self.ex_acts[:] if self.ex_acts is not None else None")
        else:
            lines.append(f"    c.{name} = self.{name}{'[:]' if name in _LISTS else ''}")
    lines.append("    return c")
    env: dict[str, Any] = {"_new": object.__new__, "_State": State}
    exec("\n".join(lines), env)  # noqa: S102 - generated from the slot names above
    clone: Callable[[State], State] = env["_clone"]
    return clone


_clone = _make_clone()

# the phases whose list legal_actions keeps in `lc` (the auction, the exchange and play keep their own)
_LISTED: dict[int, Callable[[State], list[int]]] = {
    TRUMP: State._legal_trump, CONSENT: State._legal_consent, DONE: State._legal_done, CALL: State._legal_call,
    GIVE: State._legal_give, DECLARE: State._legal_declare, SURRENDER: State._legal_surrender,
    XPLAY: State._legal_xplay, LAYAWAY: State._legal_lay_away, DEMAND: State._legal_demand,
    GIVEBACK: State._legal_give_back, RAISE: State._legal_raise, DEFEND: State._legal_defend,
    DOUBLE: State._legal_double, ANNOUNCE: State._legal_announce, ALONE: State._legal_alone,
    TAKEOVER: State._legal_takeover}
# what a legal action does, by phase, once apply has checked it (bids and holds, cards played and the
# exchanger's discards and draw are applied by their stages before)
_APPLY: dict[int, Callable[[State, int], None]] = {
    TRUMP: State._apply_trump, EXCHANGE: State._apply_exchange, PLAY: State._apply_play,
    CONSENT: State._apply_consent, CALL: State._apply_call, GIVE: State._apply_give, DECLARE: State._apply_declare,
    SURRENDER: State._apply_surrender, LAYAWAY: State._apply_lay_away, DEMAND: State._apply_demand,
    GIVEBACK: State._apply_give_back, RAISE: State._apply_raise, DEFEND: State._apply_defend,
    DOUBLE: State._apply_double, ANNOUNCE: State._apply_announce, ALONE: State._apply_alone,
    TAKEOVER: State._apply_takeover}
