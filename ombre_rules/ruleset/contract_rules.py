"""Compiling one contract from its keys under `contracts.NAME` (`trump`, `trump_after_exchange`,
`trump_allowed`, `bid_when`, `show`, `expose`, `ranking`, `exchange`, `call`, `outcomes`), each falling back
to the variant-wide key of the same name; its `play` keys are compiled in play.py."""
from __future__ import annotations

from typing import Any

from ..envs import AUCTION, DEAL_FUNCS, DEAL_VARS
from ..errors import SpecError, did_you_mean
from ..lang import Site
from ..lang import types as T
from .base import RulesetBase, _get_path
from .contracts import CallRules, Contract, ExchangeRules, Limits
from .deal import hand_packets


class ContractPart(RulesetBase):
    """The ruleset's part that compiles each contract."""

    def talon_left(self) -> int:
        """The cards left in the talon when the exchange begins: none once a lay-away at the deal took it."""
        la = self.spec.data.get("lay_away") or {}
        return 0 if la.get("who", "dealer") == "dealer" and la.get("take_talon") else talon_size(self)

    def _compile_contract(self, c: Contract) -> None:
        data = self.spec.data["contracts"][c.key]
        cp = ("contracts", c.key)
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
            if trump == "turn_up" and not self.spec.data["deal"].get("turn_up"):
                self._errors.append(SpecError(f"contract '{c.name}' takes the suit of the turned card for trumps, "
                                              f"but the deal turns no card (deal.turn_up)", self.loc(cp + ("trump",))))
        if c.bid_suit is not None:  # a suit bid: its suit is trumps
            c.trump_mode, c.fixed_suit = "fixed", c.bid_suit
        c.trump_after_exchange = bool(data.get("trump_after_exchange", False))
        c.trump_allowed = self._expr(cp + ("trump_allowed",), Site("trump_allowed", DEAL_VARS | {"choice"},
                                                                   DEAL_FUNCS, result=T.COND,
                                                                   types=(("choice", T.SUIT),), unset="",
                                                                   objects=self.own(c)))
        bsite = Site("a bid condition", DEAL_VARS | {"bidder"}, DEAL_FUNCS, result=T.COND, unset=AUCTION)
        c.bid_when = self._expr(cp + ("bid_when",), bsite)
        if c.bid_suit is not None and "bid_when" in (data.get("suit_bids") or {}):  # the suit bids' own
            c.bid_when = self._expr(cp + ("suit_bids", "bid_when"), bsite)
        c.compulsory = self._expr(cp + ("compulsory",), bsite)
        c.show = self._expr(cp + ("show",), Site("show", DEAL_VARS | {"bidder"}, DEAL_FUNCS,
                                                 result=T.list_of(T.CARD), unset=AUCTION))
        if data.get("expose"):
            who = Site("expose.who", DEAL_VARS, DEAL_FUNCS, result=T.SEATS, unset="", objects=self.own(c))
            c.expose = (self._expr(cp + ("expose", "who"), who, "declarer"),
                        data["expose"].get("from", "opening_lead"))
        c.ranking = data.get("ranking", "")
        if c.ranking and c.ranking not in (self.spec.data.get("rankings") or {}):
            self._errors.append(SpecError(
                f"unknown ranking '{c.ranking}'{did_you_mean(c.ranking, self.spec.data.get('rankings') or {})}",
                self.loc(cp + ("ranking",))))
            c.ranking = ""
        site = Site("an exchange limit", DEAL_VARS | {"exchanger"}, DEAL_FUNCS, result=T.INT, unset="",
                    objects=self.own(c))

        def limits(who: str, lo: Any, hi: Any) -> Limits:
            out = []
            for key, dflt in (("min", lo), ("max", hi)):
                p = self._pick(cp + ("exchange", who, key), ("exchange", who, key))
                e = self._expr(p, site) if p else self.compiler.compile(dflt, None, site)
                assert e is not None  # a path _pick gives holds a value
                out.append(e)
            least = out[0]
            draws = not (who == "declarer" and setting("take_talon", False)) and \
                (who == "declarer" or bool(setting("defenders", True)))
            if draws and least.constant and isinstance(least.value, int) and least.value > 0 and not self.talon_left():
                self._errors.append(SpecError(f"an exchange of at least {least.value} card"
                                              f"{'s' if least.value > 1 else ''} needs a talon to draw from, and the "
                                              f"deal leaves none", least.loc))
            return Limits(*out)

        big = self.deck.size

        def setting(key: str, dflt: Any) -> Any:
            p = self._pick(cp + ("exchange", key), ("exchange", key))
            return _get_path(self.spec.data, p) if p else dflt

        c.exchange = ExchangeRules(limits("declarer", 0, big), limits("first_defender", 0, big),
                                   limits("other_defenders", 0, big), bool(setting("defenders", True)),
                                   setting("defender_first", "positional"), setting("leftover", "hidden"),
                                   _take_count(setting("take_talon", False), big), bool(setting("show_talon", False)),
                                   bool(setting("keep_taken", False)))
        self._compile_play(c, cp)
        p = self._pick(cp + ("call",), ("call",))
        if p:
            allowed = self._expr(p + ("allowed",), Site("call.allowed", DEAL_VARS | {"choice"}, DEAL_FUNCS,
                                                         result=T.COND, types=(("choice", T.CARD),), unset="",
                                                         objects=self.own(c)),
                                 True)
            c.call = CallRules(allowed, _get_path(self.spec.data, p + ("mode",)) == "demand")
        if c.play.follow not in self.follow_lists:
            self.follow_lists.append(c.play.follow)
        c.follow_id = self.follow_lists.index(c.play.follow)
        outcomes = self._pick(cp + ("outcomes",), ("outcomes",))
        assert outcomes is not None  # the schema requires a list of outcomes
        c.outcomes_path = outcomes


def hand_size(rs: RulesetBase) -> int:
    """The cards the deal gives each seat in play."""
    return sum(hand_packets(rs.spec.data["deal"]))


def talon_size(rs: RulesetBase) -> int:
    """The cards the deal leaves in the talon."""
    return rs.deck.size - sum(hand_packets(rs.spec.data["deal"])) * rs.active


def _take_count(value: Any, big: int) -> int:
    """`exchange.take_talon` as the number of talon cards taken from the top: true all, false none."""
    if value is True:
        return big
    return int(value) if value else 0
