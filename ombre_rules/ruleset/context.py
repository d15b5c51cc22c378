"""Rank tables: for one ranking (`ranking`, or one of `rankings`) and one trump suit (or none), each card's
effective suit and power and the key by led suit that decides tricks (the order lists `trumps` and `plain`,
by suit or by a suit attribute `by`). Built once per context, when first used or while loading."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Suit
from ..envs import NAME_FUNCS, NAME_VARS, CardEnv
from ..errors import SpecError
from ..lang import Site
from ..lang import types as T
from .base import RulesetBase
from .contracts import Contract
from .fields import FollowRow


class Context:
    """Rank tables for one ranking and one trump suit (or none); follow tables are built on first use."""

    def __init__(self, rules: RankTables, ranking: str, trump: Suit | None) -> None:
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
            listed = ", ".join(deck.name(c) for c in missing)
            raise SpecError(f"{rules.ranking_label(ranking)} with {what} leaves {listed} without a rank",
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
        self._follow: dict[int, list[FollowRow]] = {}

    def _place(self, place: dict, c: int, where: str, ranking: str) -> None:
        if c in place:
            raise SpecError(f"{self.rules.ranking_label(ranking)}: {self.rules.deck.name(c)} is ranked twice "
                            f"({place[c]} and {where})", self.rules.spec.doc.loc(self.rules.ranking_path(ranking)))
        place[c] = where

    def follow(self, follow_id: int) -> list[FollowRow]:
        """Per led card: the obligations of one follow list as (bind mask, must mask) pairs, in order."""
        rows = self._follow.get(follow_id)
        if rows is None:
            rows = self._follow[follow_id] = self.rules.build_follow(self, follow_id)
        return rows


class RankTables(RulesetBase):
    """The ruleset's part that orders cards and keeps one Context per ranking and trump."""

    _contexts: dict[tuple[str, int], Context]  # by (ranking, trump suit's index or -1)

    if TYPE_CHECKING:
        def build_follow(self, ctx: Context, follow_id: int) -> list[FollowRow]: ...  # the play part's

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
                e = self.compiler.compile(item, src, Site("a ranking item", NAME_VARS, NAME_FUNCS, result=T.CARD))
                card = e(env)
                if card is None:
                    continue
                if not hasattr(card, "id"):
                    raise SpecError(f"'{label}' is not a card in a ranking", src.loc)
            out.append(card.id)
        return out

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
