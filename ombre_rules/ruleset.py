"""Compile a resolved variant into a frozen Ruleset: deck, rank tables per trump context, contracts,
and every expression turned into Python once."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import Deck, Suit
from .envs import (
    AUCTION_FUNCS,
    CONTEXT_FUNCS,
    DEAL_FUNCS,
    DEAL_VARS,
    FOLLOW_FUNCS,
    FOLLOW_VARS,
    NAME_FUNCS,
    NAME_VARS,
    SEAT_VARS,
    CardEnv,
)
from .errors import ExprError, SpecError, SpecErrors, did_you_mean
from .lang import Compiler, Expr, Namespace, Site
from .mechanics import build_mechanics
from .settlement import build_settlement
from .spec.resolve import ResolvedSpec, resolve

BASE_ATTRS = {"name", "rank", "suit", "letter", "index", "points", "level", "value", "title"}
# the actions without an argument, in the order of their ids
SPECIAL_VERBS = ("pass", "hold", "draw", "cede", "stop", "concede", "accept", "refuse", "continue")
_MISSING = object()


class _SeatsEnv:
    """What a `sit_out.who` expression sees: the dealer and the number of seats at the table."""

    __slots__ = ("dealer", "seats")

    def __init__(self, dealer: int, seats: int) -> None:
        self.dealer = dealer
        self.seats = seats


@dataclass(frozen=True)
class Limits:
    """How many cards one exchanger may change: compiled expressions for min and max."""

    min: Expr
    max: Expr

    def __post_init__(self) -> None:
        # plain attributes, read on every exchange: the limits' values when they are constants, else None
        object.__setattr__(self, "min_const", int(self.min.value) if self.min.constant else None)
        object.__setattr__(self, "max_const", int(self.max.value) if self.max.constant else None)


@dataclass(frozen=True)
class ExchangeRules:
    declarer: Limits
    first: Limits
    other: Limits
    defenders: bool
    defender_first: str
    leftover: str
    take_talon: bool = False


@dataclass(frozen=True)
class PlayRules:
    first_leader: Expr
    follow: tuple[tuple[Expr, Expr | None], ...]
    claim: tuple[int, Expr] | None
    concede: tuple[int, Expr | None, Expr | None] | None
    claim_by_side: bool = False
    claim_tells: bool = False
    surrender: Expr | None = None
    end_when: Expr | None = None


@dataclass(frozen=True)
class CallRules:
    """Calling a card once trumps are known: which cards may be called, and what the call does."""

    allowed: Expr
    demand: bool


@dataclass(eq=False)
class Contract:
    """A contract as the engine and expressions see it (`contract.name`, `contract.value`, …)."""

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
    exchange: ExchangeRules | None = None
    play: PlayRules | None = None
    call: CallRules | None = None
    outcomes_path: tuple = ()
    finish: Any = None
    follow_id: int = 0
    played: bool = True
    holdable: bool = True
    demands: int = 0
    bid_when: Expr | None = None
    show: Expr | None = None
    expose: tuple[Expr, str] | None = None

    def __repr__(self) -> str:
        return self.name


class Context:
    """Rank tables for one ranking and one trump suit (or none); follow tables are built on first use."""

    def __init__(self, rules: Ruleset, ranking: str, trump: Suit | None) -> None:
        self.rules = rules
        self.ranking = ranking
        self.trump = trump
        deck = rules.deck
        env = CardEnv(deck, trump)
        names = rules.eval_names(env)
        self.names = names
        env.__dict__.update(names)
        self.env = env
        n = deck.size
        self.eff = [-1] * n
        power = [0] * n
        self.trump_mask = 0
        self.trump_order: list[int] = []
        place: dict[int, str] = {}
        spec = rules.rankings[ranking]
        if trump is not None:
            order = rules.order_cards(spec, "trumps", trump, env, ranking)
            for i, c in enumerate(order):
                self._place(place, c, f"the trumps of {trump.name}", ranking)
                self.eff[c] = trump.index
                power[c] = 1000 + len(order) - i
                self.trump_mask |= 1 << c
            self.trump_order = order
        for s in deck.suits:
            order = [c for c in rules.order_cards(spec, "plain", s, env, ranking)
                     if not self.trump_mask >> c & 1]
            for i, c in enumerate(order):
                self._place(place, c, f"the plain order of {s.name}", ranking)
                self.eff[c] = s.index
                power[c] = len(order) - i
        missing = [c for c in range(n) if c not in place]
        if missing:
            what = f"trumps {trump.name}" if trump else "no trumps"
            names = ", ".join(deck.name(c) for c in missing)
            raise SpecError(f"{rules.ranking_label(ranking)} with {what} leaves {names} without a rank",
                            rules.spec.doc.loc(rules.order_path(spec, ranking, deck.cards[missing[0]].suit)))
        if trump is not None:
            stray = [deck.name(c) for c in range(n) if deck.cards[c].suit is trump and not self.trump_mask >> c & 1]
            if stray:
                raise SpecError(f"{rules.ranking_label(ranking)}: {', '.join(stray)} of the trump suit {trump.name} "
                                f"must be among its trumps", rules.spec.doc.loc(rules.ranking_path(ranking)))
        self.power = power
        # key[s][c]: strength of card c in a trick led in suit s (-1: cannot win it)
        self.key = [[power[c] if (self.trump_mask >> c & 1 or self.eff[c] == s) else -1 for c in range(n)]
                    for s in range(len(deck.suits))]
        self.trump_order_cards = [deck.cards[c] for c in self.trump_order]
        env._ctx = self
        self._follow: dict[int, list] = {}

    def _place(self, place: dict, c: int, where: str, ranking: str) -> None:
        if c in place:
            raise SpecError(f"{self.rules.ranking_label(ranking)}: {self.rules.deck.name(c)} is ranked twice "
                            f"({place[c]} and {where})", self.rules.spec.doc.loc(self.rules.ranking_path(ranking)))
        place[c] = where

    def follow(self, follow_id: int) -> list:
        """Per led card: the obligations of one follow list as (bind mask, must mask) pairs, in order."""
        rows = self._follow.get(follow_id)
        if rows is None:
            rows = self._follow[follow_id] = self.rules.build_follow(self, follow_id)
        return rows


@dataclass(frozen=True)
class AuctionRules:
    first: Expr
    hold: str
    all_pass: str
    force_who: Expr | None
    force_contract: Contract | None
    extra_round: tuple[Contract, ...]
    forced_bid: Contract | None = None
    forced_by: frozenset = frozenset()
    form: str = "rotation"
    choice: str = "bid"
    final_bids: frozenset = frozenset()


@dataclass(eq=False)
class Ruleset:
    """Everything about a variant the engine needs, compiled once."""

    spec: ResolvedSpec
    deck: Deck
    players: int
    contracts: list[Contract] = field(default_factory=list)
    rankings: dict[str, dict] = field(default_factory=dict)

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def load(cls, variant: str, options: dict[str, str] | None = None) -> Ruleset:
        """Load and compile a variant by name, alias or path, with option selections."""
        return cls.from_spec(resolve(variant, options))

    @classmethod
    def from_spec(cls, spec: ResolvedSpec) -> Ruleset:
        data = spec.data
        rs = cls(spec, Deck.build(data["deck"]), int(data["players"]))
        rs._errors: list[SpecError] = []
        rs._memo: dict[tuple, Expr] = {}
        rs._build()
        if rs._errors:
            raise SpecErrors(rs._errors)
        return rs

    @property
    def id(self) -> str:
        return self.spec.data["id"]

    @property
    def title(self) -> str:
        return self.spec.data.get("title", self.id)

    @property
    def variant(self) -> str:
        return self.spec.variant

    @property
    def digest(self) -> str:
        return self.spec.digest

    def loc(self, path: tuple):
        return self.spec.doc.loc(path)

    def _build(self) -> None:
        data = self.spec.data
        deck = self.deck
        n = self.players
        if len(deck.by_name) < deck.size:
            twice = sorted({c.name for c in deck.cards if sum(d.name == c.name for d in deck.cards) > 1})
            self._errors.append(SpecError(f"card name {', '.join(twice)} is given to more than one card (give the "
                                          f"suits distinct letters)", self.loc(("deck", "suits"))))
        self.next_seat = [(s + 1) % n for s in range(n)]
        self.seat_orders = [tuple((s + i) % n for i in range(n)) for s in range(n)]
        for i, (name, c) in enumerate(data["contracts"].items()):
            self.contracts.append(Contract(name, i, int(c.get("level", 0)), int(c.get("value", 0)),
                                           c.get("title", name), "level" in c))
        self.contract_by_name = {c.name: c for c in self.contracts}
        self._namespace()
        self._compile_names()
        self._sit_out()
        self.rankings = {"": data["ranking"], **(data.get("rankings") or {})}
        ap = data["auction"].get("all_pass") or {"then": "redeal"}
        first = self._expr(("auction", "first"), Site("auction.first", SEAT_VARS, AUCTION_FUNCS), "forehand")
        force_contract = force_who = None
        extra: tuple[Contract, ...] = ()
        if ap["then"] == "force" and ap.get("contracts"):  # the forced seat chooses one of these contracts
            extra = tuple(self._contract_ref(c, ("auction", "all_pass", "contracts", i))
                          for i, c in enumerate(ap["contracts"]))
            force_who = self._expr(("auction", "all_pass", "who"), Site("auction.all_pass.who", SEAT_VARS,
                                                                         AUCTION_FUNCS), "forehand")
        elif ap["then"] == "force":
            force_contract = self._contract_ref(ap.get("contract"), ("auction", "all_pass", "contract"))
            force_who = self._expr(("auction", "all_pass", "who"), Site("auction.all_pass.who", SEAT_VARS,
                                                                         AUCTION_FUNCS), "forehand")
        elif ap["then"] == "auction":
            extra = tuple(self._contract_ref(c, ("auction", "all_pass", "contracts", i))
                          for i, c in enumerate(ap.get("contracts") or []))
        forced = data["auction"].get("forced")
        forced_bid, forced_by = None, frozenset()
        if forced:
            forced_bid = self._contract_ref(forced["bid"], ("auction", "forced", "bid"))
            forced_by = frozenset(self._contract_ref(c, ("auction", "forced", "by", i))
                                  for i, c in enumerate(forced["by"]))
        final = frozenset(self._contract_ref(c, ("auction", "final", i))
                          for i, c in enumerate(data["auction"].get("final") or []))
        self.auction = AuctionRules(first, data["auction"].get("hold", "earlier_seat"), ap["then"],
                                    force_who, force_contract, extra, forced_bid, forced_by,
                                    data["auction"].get("form", "rotation"),
                                    data["auction"].get("contract_choice", "bid"), final)
        self.hold_by_priority = self.auction.hold == "earlier_seat"
        self.main_round = tuple(sorted((c for c in self.contracts if c.biddable), key=lambda c: c.level))
        self.follow_lists: list[tuple] = []
        for c in self.contracts:
            self._compile_contract(c)
        build_mechanics(self)
        self.bid_conditions = any(c.bid_when is not None or c.show is not None for c in self.contracts)
        build_settlement(self)
        self._contexts: dict[tuple[str, int], Context] = {}
        if self.names_broken:
            return
        self._bid_lists: dict = {}
        self.seat_cache: dict[tuple, Any] = {}
        for c in self.contracts:
            for trump in self.trump_choices(c):
                try:
                    self.context(c.ranking, trump)
                except SpecError as e:
                    self._errors.append(e)
                    return
        self.session = dict(data.get("session") or {})
        # action encoding
        nc, nk, ns = deck.size, len(self.contracts), len(deck.suits)
        self.A_DISCARD = nc
        self.A_BID = 2 * nc
        self.A_TRUMP = 2 * nc + nk
        base = 2 * nc + nk + ns
        (self.A_PASS, self.A_HOLD, self.A_DRAW, self.A_CEDE, self.A_STOP, self.A_CONCEDE,
         self.A_ACCEPT, self.A_REFUSE, self.A_CONTINUE) = range(base, base + len(SPECIAL_VERBS))
        self.A_CALL = base + len(SPECIAL_VERBS)
        self.A_GIVE = self.A_CALL + nc
        self.A_DEMAND = self.A_GIVE + nc
        self.num_actions = self.A_DEMAND + nc
        if self._errors:  # the deal depends on who sits out
            return
        self.deal = self._deal_function()

    def _deal_function(self):
        """A generated function dealing a shuffled deck in packets from the seat after the dealer, round the
        seats that take part in the deal: (deck order, dealer) -> (hand masks by seat, sorted hands by seat,
        talon), all fresh lists; a seat sitting out gets an empty hand."""
        n = self.active
        packets = self.spec.data["deal"]["packets"]
        per_seat: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for k in packets:
            for rel in range(n):
                per_seat[rel] += list(range(pos, pos + k))
                pos += k
        if pos > self.deck.size:
            raise SpecError(f"the deal gives out {pos} cards; the deck has {self.deck.size}",
                            self.loc(("deal", "packets")))
        talon = self.spec.data["deal"].get("talon", "rest")
        if talon != "rest" and pos + int(talon) != self.deck.size:
            raise SpecError(f"the deal gives out {pos} cards and a talon of {talon}; the deck has "
                            f"{self.deck.size}", self.loc(("deal", "talon")))
        env = {"_B": [1 << c for c in range(self.deck.size)], "_s": sorted}
        by_dealer = []
        for dealer in range(self.players):
            # the packets go round the seats that play, from the one after the dealer
            order = self.orders[dealer][self.rings[dealer][dealer]]
            own = [per_seat[order.index(s)] if s in order else [] for s in range(self.players)]
            masks = ", ".join("|".join(f"_B[d[{i}]]" for i in idx) or "0" for idx in own)
            lists = ", ".join("_s([" + ", ".join(f"d[{i}]" for i in idx) + "])" for idx in own)
            by_dealer.append(eval(f"lambda d: ([{masks}], [{lists}], d[{pos}:])", env))  # noqa: S307 - integers only

        def deal(deck: list[int], dealer: int) -> tuple[list[int], list[list[int]], list[int]]:
            return by_dealer[dealer](deck)
        return deal

    def _sit_out(self) -> None:
        """Per dealer: the seats that sit the deal out (`sit_out.who`), the ring of the seats that play, and
        each seat's order of play round that ring."""
        n = self.players
        self.sitters: list[tuple[int, ...]] = [()] * n
        e = self._expr(("sit_out", "who"), Site("sit_out.who", frozenset({"dealer", "seats"}), frozenset(),
                                                names=False))
        if e is not None and not self._errors:
            for d in range(n):
                try:
                    v = e.fn(_SeatsEnv(d, n))
                except Exception as ex:
                    self._errors.append(SpecError(f"expression '{e.text}' failed for dealer {d}: {ex}", e.loc))
                    break
                seats = [] if v is None else (list(v) if isinstance(v, (list, tuple)) else [v])
                if any(type(x) is not int or not 0 <= x < n for x in seats) or len(set(seats)) != len(seats):
                    self._errors.append(SpecError(f"expression '{e.text}' gives {v!r} for dealer {d}, not "
                                                  f"distinct seats from 0 to {n - 1}", e.loc))
                    break
                self.sitters[d] = tuple(sorted(seats))
            counts = {len(x) for x in self.sitters}
            if not self._errors and (len(counts) > 1 or n - counts.pop() < 2):
                self._errors.append(SpecError(f"expression '{e.text}' must name the same number of seats for "
                                              f"every dealer and leave at least two to play", e.loc))
        if self._errors:
            self.sitters = [()] * n
        self.active = n - len(self.sitters[0])
        self.rings: list[list[int]] = []
        self.orders: list[list[tuple[int, ...]]] = []
        for d in range(n):
            out = set(self.sitters[d])
            ring = []
            for s in range(n):
                t = (s + 1) % n
                while t in out:
                    t = (t + 1) % n
                ring.append(t)
            orders = []
            for s in range(n):
                start = s if s not in out else ring[s]
                seq = [start]
                while len(seq) < self.active:
                    seq.append(ring[seq[-1]])
                orders.append(tuple(seq))
            self.rings.append(ring)
            self.orders.append(orders)

    def _namespace(self) -> None:
        data = self.spec.data
        deck = self.deck
        consts: dict[str, Any] = {"none": None, "true": True, "false": False}
        attrs = set(BASE_ATTRS)
        for s in deck.suits:
            for k, v in s.attrs.items():
                attrs.add(k)
                if isinstance(v, str):
                    consts.setdefault(v, v)
        for c in deck.cards:
            if not c.rank.isdigit():
                consts.setdefault(c.rank, c.rank)
        for s in deck.suits:
            consts[s.name] = s
        for c in self.contracts:
            for k, v in (data["contracts"][c.name].get("attrs") or {}).items():
                if k in BASE_ATTRS or k in Contract.__dataclass_fields__:
                    self._errors.append(SpecError(f"'{k}' is a built-in attribute of a contract",
                                                  self.spec.doc.key_loc(("contracts", c.name, "attrs", k))))
                    continue
                attrs.add(k)
                setattr(c, k, v)
            if c.name in consts and isinstance(consts[c.name], Suit):
                self._errors.append(SpecError(f"contract '{c.name}' has the name of a suit",
                                              self.spec.doc.key_loc(("contracts", c.name))))
            consts[c.name] = c
        for c in deck.cards:
            consts[c.name] = c
        names = list((data.get("names") or {}).keys())
        reserved = DEAL_VARS | FOLLOW_VARS | {"choice", "opt"}
        for name in names:
            if name in reserved:
                self._errors.append(SpecError(f"'{name}' is a built-in name and cannot be defined in names",
                                              self.spec.doc.key_loc(("names", name))))

        def card_literal(text: str):
            cid = deck.by_name.get(text)
            if cid is None:
                raise ExprError(f"unknown card '{text}'{did_you_mean(text, deck.by_name)}")
            return deck.cards[cid]

        self.namespace = Namespace(consts, set(names), dict(self.spec.options), attrs, CONTEXT_FUNCS, card_literal)
        self.compiler = Compiler(self.namespace)

    # -- expressions ---------------------------------------------------------------------------------
    def _expr(self, path: tuple, site: Site, default: Any = _MISSING) -> Expr | None:
        """Compile the expression at a path (or the default); errors are collected."""
        memo = (path, site)
        if memo in self._memo:
            return self._memo[memo]
        value = _get_path(self.spec.data, path)
        src = self.spec.doc.source(path)
        if value is _MISSING or value is None:
            if default is _MISSING or default is None:
                return None
            value, src = default, None
        try:
            e = self.compiler.compile(value, src, site)
        except ExprError as err:
            self._errors.append(self._let_hint(err))
            e = self.compiler.compile(0, None, site)
        self._memo[memo] = e
        return e

    def _let_hint(self, err: ExprError) -> ExprError:
        """An unknown name that is a `let` of the file: say where lets may be used."""
        data = self.spec.data
        lets = set(data.get("let") or {}) | set((data.get("scoring") or {}).get("let") or {})
        for name in lets:
            if err.message.startswith(f"unknown name '{name}'"):
                return ExprError(f"'{name}' is defined under let: and may be used only in the outcomes and the "
                                 f"payment steps of scoring", err.loc, err.context)
        return err

    def _pick(self, *paths: tuple) -> tuple | None:
        """The first of several paths that is present: a contract's own setting, then the global one.
        A null on the way means the setting is removed (None is returned)."""
        data = self.spec.data
        for path in paths:
            node: Any = data
            for _i, k in enumerate(path):
                if not isinstance(node, dict) or k not in node:
                    node = _MISSING
                    break
                node = node[k]
                if node is None:
                    return None
            if node is not _MISSING:
                return path
        return None

    def _compile_names(self) -> None:
        data = self.spec.data.get("names") or {}
        site = Site("names", NAME_VARS, NAME_FUNCS)
        compiled: dict[str, Expr] = {}
        for name in data:
            e = self._expr(("names", name), site)
            if e is not None:
                compiled[name] = e
        order: list[str] = []
        state: dict[str, int] = {}

        def visit(name: str, chain: tuple) -> None:
            if state.get(name) == 2:
                return
            if state.get(name) == 1:
                self._errors.append(SpecError(f"names refer to each other in a circle: {' -> '.join(chain + (name,))}",
                                              self.spec.doc.loc(("names", name))))
                return
            state[name] = 1
            for dep in compiled[name].uses:
                if dep in compiled:
                    visit(dep, chain + (name,))
            state[name] = 2
            order.append(name)

        for name in compiled:
            visit(name, ())
        self.name_exprs = [(n, compiled[n]) for n in order]
        self.names_broken = bool(self._errors)
        # a name that does not compile, or a circle: evaluating them would only add confusing errors
        self.base_names = {} if self.names_broken else self.eval_names(CardEnv(self.deck, None))

    def eval_names(self, env: CardEnv) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, e in self.name_exprs:
            try:
                v = e(env)
            except Exception as ex:  # an expression that fails on some trump is a variant error
                raise SpecError(f"name '{name}' cannot be evaluated with trumps {env.trump}: {ex}", e.loc) from None
            out[name] = v
            setattr(env, name, v)
        return out

    def code(self, path: tuple | None, site: Site, local_names: tuple[str, ...] = (),
             default: Any = _MISSING) -> tuple[str, Any, str]:
        """Python source for the expression at a path (or the default), with its place and text; errors are
        collected and a harmless stand-in returned."""
        value = _get_path(self.spec.data, path)
        src = self.spec.doc.source(path) if path is not None else None
        if value is _MISSING or value is None:
            value, src = (0 if default is _MISSING else default), None
        try:
            code, uses = self.compiler.code(value, src, site, local_names)
        except ExprError as err:
            self._errors.append(self._let_hint(err))
            code, uses = "0", frozenset()
        self.last_uses = uses
        return code, (src.loc if src else None), str(value)

    def _contract_ref(self, name: Any, path: tuple) -> Contract:
        if name not in self.contract_by_name:
            self._errors.append(SpecError(f"unknown contract '{name}'{did_you_mean(str(name), self.contract_by_name)}",
                                          self.spec.doc.loc(path)))
            return self.contracts[0]
        return self.contract_by_name[name]

    def _compile_contract(self, c: Contract) -> None:
        data = self.spec.data["contracts"][c.name]
        cp = ("contracts", c.name)
        trump = data.get("trump", "named")
        if isinstance(trump, dict):
            c.trump_mode = "fixed"
            sname = trump["fixed"]
            if sname not in self.deck.suit_by_name:
                self._errors.append(SpecError(f"unknown suit '{sname}'{did_you_mean(sname, self.deck.suit_by_name)}",
                                              self.loc(cp + ("trump", "fixed"))))
            else:
                c.fixed_suit = self.deck.suit_by_name[sname]
        else:
            c.trump_mode = trump
        c.trump_after_exchange = bool(data.get("trump_after_exchange", False))
        c.trump_allowed = self._expr(cp + ("trump_allowed",),
                                     Site("trump_allowed", DEAL_VARS | {"choice"}, DEAL_FUNCS))
        bsite = Site("a bid condition", DEAL_VARS | {"bidder"}, DEAL_FUNCS)
        c.bid_when = self._expr(cp + ("bid_when",), bsite)
        c.show = self._expr(cp + ("show",), bsite)
        if data.get("expose"):
            c.expose = (self._expr(cp + ("expose", "who"), Site("expose.who", DEAL_VARS, DEAL_FUNCS), "declarer"),
                        data["expose"].get("from", "opening_lead"))
        c.ranking = data.get("ranking", "")
        if c.ranking and c.ranking not in (self.spec.data.get("rankings") or {}):
            self._errors.append(SpecError(
                f"unknown ranking '{c.ranking}'{did_you_mean(c.ranking, self.spec.data.get('rankings') or {})}",
                self.loc(cp + ("ranking",))))
            c.ranking = ""
        site = Site("exchange limits", DEAL_VARS, DEAL_FUNCS)

        def limits(who: str, lo: Any, hi: Any) -> Limits:
            out = []
            for key, dflt in (("min", lo), ("max", hi)):
                p = self._pick(cp + ("exchange", who, key), ("exchange", who, key))
                out.append(self._expr(p, site) if p else self.compiler.compile(dflt, None, site))
            return Limits(*out)

        big = self.deck.size

        def setting(key: str, dflt: Any) -> Any:
            p = self._pick(cp + ("exchange", key), ("exchange", key))
            return _get_path(self.spec.data, p) if p else dflt

        c.exchange = ExchangeRules(limits("declarer", 0, big), limits("first_defender", 0, big),
                                   limits("other_defenders", 0, big), bool(setting("defenders", True)),
                                   setting("defender_first", "positional"), setting("leftover", "hidden"),
                                   bool(setting("take_talon", False)))
        psite = Site("play", DEAL_VARS, DEAL_FUNCS)
        p = self._pick(cp + ("play", "first_leader"), ("play", "first_leader"))
        first = self._expr(p, psite) if p else self.compiler.compile("forehand", None, psite)
        follow = []
        p = self._pick(cp + ("play", "follow"), ("play", "follow"))
        fsite = Site("a play obligation", FOLLOW_VARS, FOLLOW_FUNCS)
        for i, _ob in enumerate(_get_path(self.spec.data, p) if p else []):
            must = self._expr(p + (i, "must"), fsite)
            exempt = self._expr(p + (i, "exempt"), fsite)
            follow.append((must, exempt))
        claim = None
        claim_by_side = claim_tells = False
        p = self._pick(cp + ("play", "claim"), ("play", "claim"))
        if p:
            claim = (int(_get_path(self.spec.data, p + ("after_trick",))), self._expr(p + ("when",), psite, True))
            claim_by_side = _get_path(self.spec.data, p + ("by",)) == "side"
            claim_tells = _get_path(self.spec.data, p + ("tell_partner",)) is True
        concede = None
        p = self._pick(cp + ("play", "concede"), ("play", "concede"))
        if p:
            concede = (int(_get_path(self.spec.data, p + ("before_trick",))), self._expr(p + ("when",), psite),
                       self._expr(p + ("consent",), psite))
        surrender = None
        p = self._pick(cp + ("play", "surrender"), ("play", "surrender"))
        if p:
            surrender = self._expr(p + ("when",), psite, True)
        p = self._pick(cp + ("play", "end_when"), ("play", "end_when"))
        end_when = self._expr(p, psite) if p else None
        c.play = PlayRules(first, tuple(follow), claim, concede, claim_by_side, claim_tells, surrender, end_when)
        p = self._pick(cp + ("call",), ("call",))
        if p:
            allowed = self._expr(p + ("allowed",), Site("call.allowed", DEAL_VARS | {"choice"}, DEAL_FUNCS), True)
            c.call = CallRules(allowed, _get_path(self.spec.data, p + ("mode",)) == "demand")
        if c.play.follow not in self.follow_lists:
            self.follow_lists.append(c.play.follow)
        c.follow_id = self.follow_lists.index(c.play.follow)
        c.outcomes_path = self._pick(cp + ("outcomes",), ("outcomes",))

    # -- rank tables ---------------------------------------------------------------------------------
    def ranking_path(self, ranking: str) -> tuple:
        return ("rankings", ranking) if ranking else ("ranking",)

    def ranking_label(self, ranking: str) -> str:
        return f"ranking '{ranking}'" if ranking else "the ranking"

    def order_path(self, spec: dict, ranking: str, suit: Suit) -> tuple:
        """The path of the plain order list a suit uses (or of the ranking, if it has none)."""
        by = spec.get("by")
        key = suit.attrs.get(by) if by else suit.name
        table = spec.get("plain") or {}
        lst_key = key if key in table else suit.name
        base = self.ranking_path(ranking)
        return base + ("plain", lst_key) if lst_key in table else base

    def order_cards(self, spec: dict, kind: str, suit: Suit, env: CardEnv, ranking: str) -> list[int]:
        """The cards of one order list (trumps of a suit, or a plain suit), high to low."""
        by = spec.get("by")
        key = suit.attrs.get(by) if by else suit.name
        table = spec.get(kind) or {}
        lst_key = key if key in table else suit.name
        if lst_key not in table:
            return []
        path = self.ranking_path(ranking) + (kind, lst_key)
        out: list[int] = []
        for i, item in enumerate(table[lst_key]):
            label = str(item)
            card = env.f_card(label, suit)
            if card is None:
                src = self.spec.doc.source(path + (i,))
                if label.isdigit() or label in {c.rank for c in self.deck.cards}:
                    raise SpecError(f"no card of rank '{label}' in {suit.name}", src.loc)
                e = self.compiler.compile(item, src, Site("ranking", NAME_VARS, NAME_FUNCS))
                card = e(env)
                if card is None:
                    continue
                if not hasattr(card, "id"):
                    raise SpecError(f"'{label}' is not a card in a ranking", src.loc)
            out.append(card.id)
        return out

    def bid_lists(self, contracts: tuple[Contract, ...], key: int) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
        """For an auction round (0 main, 1 after all passed): by the level of the current high bid, `pass` and
        the bids above it; and each contract's level in the round, by contract index (0: not biddable)."""
        got = self._bid_lists.get(key)
        if got is None:
            ranked = [(self.bid_level(c, key), self.A_BID + c.index) for c in contracts]
            top = max([lv for lv, _a in ranked] + [0])
            table = []
            for lvl in range(top + 1):
                above = [lv for lv, _a in ranked if lv > lvl]
                # without jump bids only the next level above may be bid
                cap = min(above, default=0) if not self.jumps else top
                table.append((self.A_PASS,) + tuple(a for lv, a in ranked if lvl < lv <= cap))
            levels = [0] * len(self.contracts)
            for lv, a in ranked:
                levels[a - self.A_BID] = lv
            got = self._bid_lists[key] = (table, tuple(levels))
        return got

    def bid_level(self, c: Contract, round_no: int) -> int:
        """A contract's rank in an auction round; in the round after all passed (or the forced seat's choice),
        contracts without a level rank in the order they are listed there."""
        if c.level or round_no == 0:
            return c.level
        return self.auction.extra_round.index(c) + 1

    def trump_choices(self, c: Contract) -> list[Suit | None]:
        if c.trump_mode == "none":
            return [None]
        if c.trump_mode == "fixed":
            return [c.fixed_suit] if c.fixed_suit is not None else []
        return list(self.deck.suits)

    def context(self, ranking: str, trump: Suit | None) -> Context:
        key = (ranking, trump.index if trump is not None else -1)
        ctx = self._contexts.get(key)
        if ctx is None:
            ctx = self._contexts[key] = Context(self, ranking, trump)
            if self.excuse is not None:  # the excuse card never wins a trick
                for row in ctx.key:
                    row[self.excuse.card] = -1
        return ctx

    def build_follow(self, ctx: Context, follow_id: int) -> list:
        """Evaluate each obligation of a follow list for every (led card, card) pair once: per led card, a
        tuple of (bind mask, must mask, must as a table by card id)."""
        deck = self.deck
        env = ctx.env
        follow = self.follow_lists[follow_id]
        rows = []
        for led in deck.cards:
            env.led_card = led
            env.led_suit = env.f_suit(led)
            pairs = []
            for must, exempt in follow:
                mm = xm = 0
                for c in deck.cards:
                    env.card = c
                    if _checked(must, env):
                        mm |= 1 << c.id
                        if exempt is not None and _checked(exempt, env):
                            xm |= 1 << c.id
                pairs.append((mm & ~xm, mm, tuple(bool(mm >> c.id & 1) for c in deck.cards)))
            rows.append(tuple(pairs))
        return rows

    # -- actions -------------------------------------------------------------------------------------
    def action_str(self, a: int) -> str:
        """The notation of an action id: `play <card>`, `discard <card>`, `bid <contract>`, `trump <suit>`, `pass`,
        `demand <card>`, `give <card>`…"""
        nc = self.deck.size
        if a < nc:
            return "play " + self.deck.name(a)
        if a >= self.A_DEMAND:
            return "demand " + self.deck.name(a - self.A_DEMAND)
        if a < self.A_BID:
            return "discard " + self.deck.name(a - nc)
        if a < self.A_TRUMP:
            return "bid " + self.contracts[a - self.A_BID].name
        if a < self.A_PASS:
            return "trump " + self.deck.suits[a - self.A_TRUMP].name
        if a >= self.A_GIVE:
            return "give " + self.deck.name(a - self.A_GIVE)
        if a >= self.A_CALL:
            return "call " + self.deck.name(a - self.A_CALL)
        return SPECIAL_VERBS[a - self.A_PASS]

    def parse_action(self, text: str) -> int:
        """The id of an action written in notation; InvalidActionError quoting the text otherwise."""
        from .errors import InvalidActionError

        words = text.strip().split()
        if not words:
            raise InvalidActionError("empty action")
        verb = words[0].lower()
        simple = SPECIAL_VERBS
        if verb in simple and len(words) == 1:
            return self.A_PASS + simple.index(verb)
        if len(words) == 2:
            arg = words[1]
            if verb == "play":
                return self.deck.parse(arg)
            if verb == "discard":
                return self.A_DISCARD + self.deck.parse(arg)
            if verb == "demand":
                return self.A_DEMAND + self.deck.parse(arg)
            if verb == "call":
                return self.A_CALL + self.deck.parse(arg)
            if verb == "give":
                return self.A_GIVE + self.deck.parse(arg)
            if verb == "bid":
                c = self.contract_by_name.get(arg) or {k.lower(): v for k, v in self.contract_by_name.items()}.get(
                    arg.lower())
                if c is None:
                    raise InvalidActionError(f"unknown contract '{arg}'{did_you_mean(arg, self.contract_by_name)}")
                return self.A_BID + c.index
            if verb == "trump":
                s = self.deck.suit_by_name.get(arg) or {k.lower(): v for k, v in self.deck.suit_by_name.items()}.get(
                    arg.lower())
                if s is None:
                    raise InvalidActionError(f"unknown suit '{arg}'{did_you_mean(arg, self.deck.suit_by_name)}")
                return self.A_TRUMP + s.index
        verbs = ("play", "discard", "bid", "trump", "call", "give", "demand") + simple
        if verb not in verbs:
            raise InvalidActionError(f"unknown action '{text.strip()}'{did_you_mean(verb, verbs)}")
        want = "no argument" if verb in simple else "one argument"
        raise InvalidActionError(f"'{verb}' takes {want}: '{text.strip()}'")


def _checked(expr: Expr, env: Any) -> Any:
    """Evaluate an expression while building tables; a failure is reported at its place in the file."""
    try:
        return expr.fn(env)
    except Exception as ex:
        raise SpecError(f"expression '{expr.text}' failed for led card {env.led_card} and card {env.card}: {ex}",
                        expr.loc) from None


def _get_path(data: Any, path: tuple | None) -> Any:
    if path is None:
        return _MISSING
    for k in path:
        if isinstance(data, dict) and k in data:
            data = data[k]
        elif isinstance(data, list) and isinstance(k, int) and k < len(data):
            data = data[k]
        else:
            return _MISSING
    return data


def load(variant: str, options: dict[str, str] | None = None) -> Ruleset:
    """Load and compile a variant: `load(ID)`, `load("ID(OPTION=CHOICE)")`, `load("house.yaml")`."""
    return Ruleset.load(variant, options)
