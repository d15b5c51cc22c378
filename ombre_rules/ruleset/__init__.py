"""Compile a resolved variant into a frozen Ruleset: deck, rank tables per trump context, contracts,
and every expression turned into Python once.

The package's face: `Ruleset` composed of its parts (one module each: base, deal, context, auction,
contract_rules, play, actions; the optional mechanics and the end-of-deal blocks in mechanics.py and
settlement.py), and `load`."""
from __future__ import annotations

from dataclasses import dataclass

from ..cards import MAX_CARDS, Deck
from ..errors import SpecError, SpecErrors, quoted
from ..spec.resolve import ResolvedSpec, resolve
from .actions import SPECIAL_VERBS, ActionPart
from .announce import build_announce
from .auction import AuctionPart
from .base import BASE_ATTRS, RulesetBase
from .bid_rank import rank_bids
from .carry import build_carry
from .compiled import AuctionRules
from .context import Context, RankTables
from .contract_rules import ContractPart
from .contracts import CallRules, Contract, ExchangeRules, Limits, PlayRules
from .deal import DealPart
from .defence import build_alone, build_defence
from .doubling import build_doubling
from .families import expand_families
from .fields import reads_winner
from .first_dealer import build_first_dealer
from .mechanics import build_mechanics
from .play import PlayPart
from .rituals import build_cut, build_seat_draw
from .session_end import build_session_end
from .settlement import build_settlement
from .stand_in import build_stand_in
from .suit_bids import derive_suit_bids
from .takeover import check_takeover

__all__ = ["Ruleset", "load", "Contract", "Context", "AuctionRules", "ExchangeRules", "PlayRules", "CallRules",
           "Limits", "RulesetBase", "BASE_ATTRS", "SPECIAL_VERBS"]


MAX_TABLE_WORK = 20_000_000  # evaluations of follow obligations one variant's tables take (trump contexts x
# obligations x pairs of cards)


@dataclass(eq=False)
class Ruleset(ActionPart, PlayPart, ContractPart, AuctionPart, RankTables, DealPart, RulesetBase):
    """Everything about a variant the engine needs, compiled once."""

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def load(cls, variant: str, options: dict[str, str] | None = None) -> Ruleset:
        """Load and compile a variant by name, alias or path, with option selections."""
        return cls.from_spec(resolve(variant, options))

    @classmethod
    def from_spec(cls, spec: ResolvedSpec) -> Ruleset:
        """Compile a resolved variant (`spec.resolve`); SpecErrors lists every problem, each at its place."""
        spec = expand_families(spec)
        data = spec.data
        rs = cls(spec, Deck.build(data["deck"]), int(data["players"]))
        if rs.deck.size > MAX_CARDS:
            raise SpecError(f"a deck of {rs.deck.size} cards: the engine plays at most {MAX_CARDS}",
                            spec.doc.key_loc(("deck",)))
        rs._errors = []
        rs._memo = {}
        rs._build()
        if rs._errors:
            raise SpecErrors(rs._errors)
        return rs

    def _build(self) -> None:
        data = self.spec.data
        deck = self.deck
        n = self.players
        spaced = [c for c in deck.cards if not c.name.isprintable() or any(ch.isspace() for ch in c.name)]
        if spaced:
            card = spaced[0]
            own = (data["deck"]["suits"][card.suit.name] or {}).get("ranks")
            path = ("deck", "suits", card.suit.name, "ranks") if own else ("deck", "ranks")
            ranks = [str(r) for r in (own or data["deck"].get("ranks") or [])]
            self._errors.append(SpecError(f"card name {quoted(card.name)} is not one word: actions name cards "
                                          f"('play 10H'), so a rank may hold no space",
                                          self.loc(path + (ranks.index(card.rank),) if card.rank in ranks else path)))
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
        derive_suit_bids(self)
        self._namespace()
        rank_bids(self)
        build_carry(self)
        self._compile_names()
        self._sit_out()
        build_stand_in(self)
        self._teams()
        build_seat_draw(self)
        build_cut(self)
        self.turn_up_from = data["deal"].get("turn_up")
        self.rankings = {"": data["ranking"], **(data.get("rankings") or {})}
        self._compile_auction()
        self.follow_lists = []
        for c in self.contracts:
            self._compile_contract(c)
        self._check_teams()
        build_mechanics(self)
        build_defence(self)
        build_alone(self)
        build_doubling(self)
        build_announce(self)
        check_takeover(self)
        self.bid_conditions = any(c.bid_when is not None or c.show is not None for c in self.contracts)
        self.compulsory = tuple(c for c in self.contracts if c.compulsory is not None)
        build_settlement(self)
        build_session_end(self)
        self.first_draw = None  # set once the rank tables exist (build_first_dealer)
        self._contexts = {}
        if self.names_broken:
            return
        self._bid_lists = {}
        self.seat_cache = {}
        for c in self.contracts:
            # trumps fixed by the first lead: until then the cards are ranked without trumps
            for trump in self.trump_choices(c) + ([None] if c.trump_mode == "first_lead" else []):
                try:
                    self.context(c.ranking, trump)
                except SpecError as e:
                    if trump is None and c.trump_mode == "first_lead":
                        e = SpecError(f"{e.message} (contract '{c.name}' has no trumps until its first lead)",
                                      e.loc, e.context)
                    self._errors.append(e)
                    return
        # a list that reads the card winning the trick is evaluated for each card that may win, too
        plain = sum(len(f) for f in self.follow_lists)
        tries = sum(len(f) * (deck.size + 1 if reads_winner(f) else 1) for f in self.follow_lists)
        self.table_work = len(self._contexts) * tries * deck.size ** 2
        if self.table_work > MAX_TABLE_WORK:
            self._errors.append(SpecError(
                f"the follow tables would take {self.table_work:,} evaluations ({len(self._contexts)} trump "
                f"contexts, {tries} obligations{' by winning card' if tries > plain else ''}, each for "
                f"{deck.size}² pairs of "
                f"cards), more than {MAX_TABLE_WORK:,}: fewer cards, trump suits, rankings or obligations",
                self.spec.doc.key_loc(("play",))))
            return
        build_first_dealer(self, lambda: self.context("", None).power)
        self.session = dict(data.get("session") or {})
        self._number_actions()
        if self._errors:  # the deal depends on who sits out
            return
        self.deal = self._deal_function()


def load(variant: str, options: dict[str, str] | None = None) -> Ruleset:
    """Load and compile a variant: `load(ID)`, `load("ID(OPTION=CHOICE)")`, `load("house.yaml")`."""
    return Ruleset.load(variant, options)
