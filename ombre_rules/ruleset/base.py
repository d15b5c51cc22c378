"""What every part of a ruleset is built on: the variant's data, the deck and seats, the namespace of its
expressions (`names`, contract and suit names, `opt`), and compiling the expression found at a path of the
file, with errors collected at their place."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Any, overload

from ..cards import Card, Deck, Suit
from ..envs import (
    CONTEXT_FUNCS,
    CONTEXT_TYPES,
    DEAL_VARS,
    FOLLOW_VARS,
    NAME_FUNCS,
    NAME_VARS,
    UNSET_VARS,
    VAR_TYPES,
    CardEnv,
    DealEnv,
    name_attr,
    value_facts,
)
from ..errors import ExprError, Loc, SpecError, did_you_mean, quoted
from ..lang import Compiler, Expr, Let, Namespace, Site
from ..lang import types as T
from ..lang.block import IDENT
from ..lang.job import const_val
from ..lang.types import Val
from ..spec.resolve import ResolvedSpec
from ..spec.yamlpos import Source
from .contracts import Contract
from .fields import RulesetFields

BASE_ATTRS = {"name", "rank", "suit", "letter", "index", "points", "level", "value", "title"}
_MISSING = object()
# what a user name (`names`, `let`) may not be: the context variables, the attributes of the environments, the
# words of the language
RESERVED = (DEAL_VARS | FOLLOW_VARS | frozenset(VAR_TYPES) | {"choice", "opt", "seats", "bidder"}
            | {n for cls in (CardEnv, DealEnv) for n in dir(cls) if not n.startswith("_")}
            | {"if", "else", "for", "in", "not", "and", "or"})


@dataclass(eq=False)
class RulesetBase(RulesetFields):
    """The data of a compiled variant and the helpers that compile its expressions; Ruleset adds the parts."""

    spec: ResolvedSpec
    deck: Deck
    players: int
    contracts: list[Contract] = field(default_factory=list)
    rankings: dict[str, dict] = field(default_factory=dict)

    @property
    def id(self) -> str:
        name: str = self.spec.data["id"]  # a string: the schema says so
        return name

    @property
    def title(self) -> str:
        title: str = self.spec.data.get("title", self.id)
        return title

    @property
    def variant(self) -> str:
        return self.spec.variant

    @property
    def digest(self) -> str:
        return self.spec.digest

    def loc(self, path: tuple[Any, ...]) -> Loc:
        return self.spec.doc.loc(path)

    # -- the namespace and compiled names ----------------------------------------------------------
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
        for card in deck.cards:
            if not card.rank.isdigit():
                consts.setdefault(card.rank, card.rank)
        for s in deck.suits:
            consts[s.name] = s
        attrs.add("bid_suit")
        for c in self.contracts:
            for k, v in (data["contracts"][c.key].get("attrs") or {}).items():
                if k in BASE_ATTRS or k in Contract.__dataclass_fields__:
                    if c.base is None:
                        self._errors.append(SpecError(f"'{k}' is a built-in attribute of a contract",
                                                      self.spec.doc.key_loc(("contracts", c.name, "attrs", k))))
                    continue
                attrs.add(k)
                setattr(c, k, v)
            if c.base is not None:  # a suit bid is named by its contract
                continue
            if c.name in consts and isinstance(consts[c.name], Suit):
                self._errors.append(SpecError(f"contract '{c.name}' has the name of a suit",
                                              self.spec.doc.key_loc(("contracts", c.name))))
            consts[c.name] = c
        for card in deck.cards:
            consts[card.name] = card
        self._constants = consts
        names = [n for n in (data.get("names") or {}) if self.user_name(("names", n), "names")]

        def card_literal(text: str) -> Card:
            cid = deck.by_name.get(text)
            if cid is None:
                raise ExprError(f"unknown card '{text}'{did_you_mean(text, deck.by_name)}")
            return deck.cards[cid]

        card_attrs = {"name": T.STR, "rank": T.STR, "suit": T.SUIT, "points": T.INT}
        suit_attrs = {"name": T.STR, "letter": T.STR, "index": T.INT}
        for s in deck.suits:
            for k, v in s.attrs.items():
                suit_attrs[k] = T.join(suit_attrs.get(k, T.NONE), T.of_value(v))
        contract_attrs = {"name": T.STR, "title": T.STR, "level": T.INT, "value": T.INT,
                          "bid_suit": T.join(T.SUIT, T.NONE)}
        for c in self.contracts:
            for k, v in (data["contracts"][c.key].get("attrs") or {}).items():
                contract_attrs[k] = T.join(contract_attrs.get(k, T.NONE), T.of_value(v))
        types = {T.CARD: card_attrs, T.SUIT: suit_attrs, T.CONTRACT: contract_attrs}
        self.namespace = Namespace(consts, set(names), dict(self.spec.options), attrs, CONTEXT_FUNCS, card_literal,
                                   {}, types, VAR_TYPES, CONTEXT_TYPES, self._option_types())
        self._value_facts()
        self.compiler = Compiler(self.namespace)
        self._let_names()

    def _value_facts(self) -> None:
        """What the compiler knows of the variables, functions and attributes besides their types (`types.Val`):
        the seats of this table, the deck's size and points, the doubling factor, the attributes' values."""
        ns, deck = self.namespace, self.deck
        pts = [c.points or 0 for c in deck.cards]
        factors = [f for f in (self.spec.data.get("doubling") or {}).get("factors") or [2, 4] if isinstance(f, int)]
        ns.var_vals, ns.func_vals = value_facts(self.players, deck.size, (sum(p for p in pts if p < 0),
                                                                          sum(p for p in pts if p > 0)),
                                                max(factors, default=1))
        ns.unset, ns.seats = UNSET_VARS, self.players
        suit_keys = {k for su in deck.suits for k in su.attrs}
        suits = _attr_vals({k: [su.attrs.get(k) for su in deck.suits] for k in suit_keys},
                           [su.name for su in deck.suits], "suits")
        cattrs = [self.spec.data["contracts"][c.key].get("attrs") or {} for c in self.contracts]
        values = {k: [a.get(k) for a in cattrs] for k in {k for a in cattrs for k in a}}
        values.update(level=[c.level for c in self.contracts], value=[c.value for c in self.contracts])
        contracts = _attr_vals(values, [c.name for c in self.contracts], "contracts")
        contracts["bid_suit"] = Val(T.SUIT).maybe("bid_suit", "for contracts that are not suit bids")
        ns.attr_vals = {T.CARD: {"points": T.num(min(pts, default=0), max(pts, default=0))},
                        T.SUIT: {**suits, "index": T.num(0, len(deck.suits) - 1)}, T.CONTRACT: contracts}
        for c, a in zip(self.contracts, cattrs, strict=True):
            own = {"name": const_val(c.name), "title": const_val(c.title), "level": const_val(c.level),
                   "value": const_val(c.value), "bid_suit": const_val(c.bid_suit)}
            ns.objects[self.own(c)[0][1]] = {**{k: const_val(v) for k, v in a.items()}, **own}

    def own(self, c: Contract) -> tuple[tuple[str, str], ...]:
        """What a site compiled for contract c alone knows (`Site.objects`): `contract` is c."""
        return (("contract", f"contract '{c.name}'"),)

    def _let_names(self) -> None:
        """The `let` names of the file, which an expression may use wherever their inputs are known."""
        data = self.spec.data
        for where, path in (("let:", ("let",)), ("scoring.let:", ("scoring", "let"))):
            lets = _get_path(data, path)
            for name, value in (lets if isinstance(lets, dict) else {}).items():
                if isinstance(name, str) and IDENT.fullmatch(name):
                    self.namespace.lets.setdefault(name, Let(value, self.spec.doc.source(path + (name,)), where))
        self.namespace.let_scopes = " (outcomes, scoring, bid, call and play conditions)"

    def _option_types(self) -> dict[str, str]:
        """The type of each option's value: one type for all its choices, or `any` when they differ."""
        out = {}
        for key, choices in self.spec.choices.items():
            t = T.NONE
            for c in choices:
                t = T.join(t, T.of_value(c))
            out[key] = t
        return out

    # -- expressions ---------------------------------------------------------------------------------
    def user_name(self, path: tuple, what: str) -> bool:
        """Whether the key at the end of a path may name a value (`names`, `let`); if not, an error."""
        name = path[-1]
        msg = None
        if not isinstance(name, str) or not IDENT.fullmatch(name):
            msg = (f"{quoted(name)} is not a valid name in {what} (letters, digits and '_', starting with a letter, "
                   f"at most 63 characters)")
        elif name in RESERVED or name in ("none", "true", "false"):
            msg = f"'{name}' is a built-in name and cannot be defined in {what}"
        elif name in getattr(self, "_constants", {}):
            msg = f"'{name}' is {self._constant_kind(name)} and cannot be defined in {what} (it would hide it)"
        if msg:
            self._errors.append(SpecError(msg, self.spec.doc.key_loc(path)))
        return msg is None

    def _constant_kind(self, name: str) -> str:
        """What a name of the variant's constants stands for, in words."""
        v = self._constants[name]
        if isinstance(v, Suit):
            return "a suit"
        if isinstance(v, Contract):
            return "a contract"
        if not isinstance(v, str):
            return "a card"
        return "a rank" if any(c.rank == v for c in self.deck.cards) else "a value of a suit's attribute"

    @overload
    def _expr(self, path: tuple[Any, ...], site: Site) -> Expr | None: ...
    @overload
    def _expr(self, path: tuple[Any, ...], site: Site, default: bool | int | str) -> Expr: ...

    def _expr(self, path: tuple[Any, ...], site: Site, default: Any = _MISSING) -> Expr | None:
        """Compile the expression at a path (or the default); errors are collected. None when the path holds
        nothing (or null) and there is no default."""
        memo = (path, site)
        if memo in self._memo:
            return self._memo[memo]
        value = _get_path(self.spec.data, path)
        src: Source | None = self.spec.doc.source(path)
        if value is _MISSING or value is None:
            if default is _MISSING or default is None:
                return None
            value, src = default, None
        try:
            e = self.compiler.compile(value, src, site)
        except ExprError as err:
            self._errors.append(err)
            e = self.compiler.compile(0, None, replace(site, result=T.ANY))
            e = replace(e, type=T.ANY, val=T.QUIET)
        self._memo[memo] = e
        return e

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
            if name not in self.namespace.names:
                continue
            e = self._expr(("names", name), site)
            if e is not None:
                compiled[name] = e
                self.namespace.types[name] = e.type
                self.namespace.vals[name] = e.val
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
        """The values of the variant's names with one trump context, by their environment attribute
        (`envs.name_attr`), and given to `env` as they are worked out."""
        out: dict[str, Any] = {}
        for name, e in self.name_exprs:
            try:
                v = e(env)
            except Exception as ex:  # an expression that fails on some trump is a variant error
                raise SpecError(f"name '{name}' cannot be evaluated with trumps {env.trump}: {ex}", e.loc) from None
            out[name_attr(name)] = v
            env.__dict__[name_attr(name)] = v
        return out

    def code(self, path: tuple | None, site: Site, local_names: dict[str, Val] | tuple[str, ...] = (),
             default: Any = _MISSING) -> tuple[ast.expr, Any, str]:
        """The tree of the expression at a path (or the default), with its place and text; errors are
        collected and a harmless stand-in returned."""
        value = _get_path(self.spec.data, path)
        src = self.spec.doc.source(path) if path is not None else None
        if value is _MISSING or value is None:
            value, src = (0 if default is _MISSING else default), None
        try:
            code, uses, v = self.compiler.code(value, src, site, local_names)
        except ExprError as err:
            self._errors.append(err)
            code, uses, v = ast.Constant(0), frozenset(), T.QUIET
        self.last_uses = uses
        self.last_val = v
        return code, (src.loc if src else None), str(value)

    def _contract_ref(self, name: Any, path: tuple) -> Contract:
        if name not in self.contract_by_name:
            self._errors.append(SpecError(f"unknown contract '{name}'{did_you_mean(str(name), self.contract_by_name)}",
                                          self.spec.doc.loc(path)))
            return self.contracts[0]
        return self.contract_by_name[name]


def _attr_vals(values: dict[str, list[Any]], names: list[str], what: str) -> dict[str, Val]:
    """What is known of each attribute of the suits or the contracts, from its value on each (None where one
    lacks it): the range of a number over all of them; none for those that lack it."""
    out: dict[str, Val] = {}
    for k, vs in values.items():
        present = [v for v in vs if v is not None]
        if present and all(type(v) is int for v in present):
            v = T.num(min(present), max(present))
        else:
            t = T.NONE
            for x in present:
                t = T.join(t, T.of_value(x))
            v = T.default(t)
        if len(present) < len(vs):
            lacking = [n for n, x in zip(names, vs, strict=True) if x is None]
            shown = ", ".join(lacking[:3]) + (", ..." if len(lacking) > 3 else "")
            v = v.maybe(k, f"for {what} without '{k}' ({shown})")
        out[k] = v
    return out


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
