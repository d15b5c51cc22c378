"""Optional mechanics a variant switches on in its file, compiled once into small frozen records: a duel
auction with an automatic opening bid, contracts that are not played, cards laid away from a talon,
demanded cards, an excuse card, and summary values shown at the end of a deal."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..envs import AUCTION, DEAL_FUNCS, DEAL_VARS, NAME_FUNCS, SEAT_VARS, CardEnv
from ..errors import SpecError
from ..lang import Site
from ..lang import types as T
from .compiled import Demands, Excuse, LayAway, Opening
from .contracts import EachLaysAway

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset  # the part of a Ruleset a builder uses
    from .contracts import Contract

CARD_SITE_VARS = frozenset({"card"})


def _card_mask(rs: Ruleset, path: tuple, what: str, default: Any) -> int:
    """The cards for which a card-level expression holds (evaluated once, without trumps)."""
    errors = len(rs._errors)
    e = rs._expr(path, Site(what, CARD_SITE_VARS, NAME_FUNCS, result=T.COND), default)
    if e is None or len(rs._errors) > errors:
        return 0
    env = CardEnv(rs.deck, None)
    env.__dict__.update(rs.base_names)
    m = 0
    for c in rs.deck.cards:
        env.card = c
        try:
            ok = e(env)
        except Exception as ex:
            raise SpecError(f"expression '{e.text}' failed for card {c}: {ex}", e.loc) from None
        if ok:
            m |= 1 << c.id
    return m


def _one_card(rs: Ruleset, path: tuple, what: str) -> int:
    """The card an expression names; -1 (and an error at its place) if it names none."""
    errors = len(rs._errors)
    e = rs._expr(path, Site(what, frozenset(), NAME_FUNCS, result=T.CARD))
    if e is None or len(rs._errors) > errors:
        return -1
    env = CardEnv(rs.deck, None)
    env.__dict__.update(rs.base_names)
    try:
        v = e(env)
    except Exception as ex:
        raise SpecError(f"expression '{e.text}' failed: {ex}", e.loc) from None
    if not isinstance(v, Card):
        rs._errors.append(SpecError(f"'{e.text}' does not name a card", e.loc))
        return -1
    return v.id


def _check_lay_away(rs: Ruleset, la: dict, count: int) -> None:
    """A lay-away keeps the seat's hand the size of the others': it takes the talon and lays as many away."""
    from .contract_rules import talon_size

    talon = talon_size(rs)
    if not la.get("take_talon"):
        rs._errors.append(SpecError(f"lay_away lays {count} card{'s' if count > 1 else ''} away without taking the "
                                    f"talon (take_talon: true), and the seat would then hold fewer cards than the "
                                    f"others", rs.spec.doc.key_loc(("lay_away",))))
    elif talon != count:
        rs._errors.append(SpecError(f"lay_away lays {count} card{'s' if count > 1 else ''} away and takes a talon of "
                                    f"{talon}: the seat would then hold {'fewer' if count > talon else 'more'} cards "
                                    f"than the others (count must be the talon's size)", rs.loc(("lay_away", "count"))))


def build_contract_mechanics(rs: Ruleset, c: Contract) -> None:
    """The per-contract keys: whether it is played, whether a bid of it may be held, how many cards its
    declarer demands."""
    data = rs.spec.data["contracts"][c.key]
    c.played = bool(data.get("played", True))
    c.holdable = bool(data.get("holdable", True))
    c.demands = int(data.get("demand", 0))


def _each_lays_away(rs: Ruleset, c: Contract) -> None:
    """A contract's `lay_away` (no talon): how many cards every seat in play (or the seats `who` names) lays
    away, and which; a count that would always leave a seat no card is refused at its place."""
    from .contract_rules import hand_size

    la = rs.spec.data["contracts"][c.key].get("lay_away") or {}
    if not la:
        return
    p = ("contracts", c.key, "lay_away")
    site = Site("lay_away.count", DEAL_VARS, DEAL_FUNCS, result=T.INT, unset="", objects=rs.own(c))
    count = rs._expr(p + ("count",), site)
    who = None
    if "who" in la:
        who = rs._expr(p + ("who",), Site("lay_away.who", DEAL_VARS, DEAL_FUNCS, result=T.SEATS, unset="",
                                          objects=rs.own(c)))
    if count is None:
        return
    size = hand_size(rs)
    if count.val.t == T.INT and count.val.none is None and count.val.lo >= size:
        rs._errors.append(SpecError(f"lay_away.count '{count.text}' is at least {count.val.lo}, and a hand has "
                                    f"{size} cards: a seat would lay every card away and have none to play "
                                    f"(at most {size - 1})", count.loc))
        return
    c.lay_away = EachLaysAway(count, _card_mask(rs, p + ("allowed",), "lay_away.allowed", True), who)


def build_mechanics(rs: Ruleset) -> None:
    """The optional mechanics of the whole variant (after the names are known)."""
    data = rs.spec.data
    for c in rs.contracts:
        build_contract_mechanics(rs, c)
    auction = data["auction"]
    rs.auto_pass = bool(auction.get("auto_pass", False))
    rs.jumps = bool(auction.get("jumps", True))
    rs.may_raise = bool(auction.get("raise", False))
    rs.raise_when = rs._expr(("auction", "raise_when"), Site("auction.raise_when", DEAL_VARS, DEAL_FUNCS,
                                                             result=T.COND, unset=AUCTION))
    rs.raise_after_turn = bool(auction.get("raise_after_turn", False))
    rs.opening = None
    if auction.get("opening"):
        op = ("auction", "opening")
        seat = rs._expr(op + ("seat",), Site("auction.opening.seat", SEAT_VARS, frozenset(), result=T.SEAT), "forehand")
        rs.opening = Opening(seat, rs._contract_ref(auction["opening"].get("contract"), op + ("contract",)))
    rs.lay_away = None
    rs.demands = None
    rs.excuse = None
    rs.summary = []
    if rs.names_broken:
        return
    la = data.get("lay_away")
    if la:
        count = int(la.get("count", 0))
        _check_lay_away(rs, la, count)
        rs.lay_away = LayAway(la.get("who", "dealer") == "dealer", bool(la.get("take_talon", False)), count,
                              _card_mask(rs, ("lay_away", "allowed"), "lay_away.allowed", True))
    for c in rs.contracts:
        _each_lays_away(rs, c)
    if any(c.demands for c in rs.contracts):
        rs.demands = Demands(_card_mask(rs, ("demand", "cards"), "demand.cards", True),
                             _card_mask(rs, ("demand", "give"), "demand.give", True))
    ex = (data.get("play") or {}).get("excuse")
    if ex:
        p = ("play", "excuse")
        card = _one_card(rs, p + ("card",), "play.excuse.card")
        if card >= 0:
            rs.excuse = Excuse(card, _card_mask(rs, p + ("compensation",), "play.excuse.compensation", True),
                               ex.get("last_trick", "keep") == "lost", int(ex.get("latest_trick", 0)))
    site = Site("summary", DEAL_VARS, DEAL_FUNCS, unset="when every seat passes")
    for label in data.get("summary") or {}:
        e = rs._expr(("summary", label), site)
        if e is not None:
            rs.summary.append((str(label), e))
