"""Suit-ranked bids: a contract's `suit_bids` makes one bid per listed suit, (level, suit), whose trumps are that
suit, ranked above the contract's plain bid and below the next level in the order of `auction.suit_order` (else
as listed); `suit_bids.plain: false` leaves only the suit bids. A favour suit is a list of one suit. Each bid is
a contract record of its own (`NAME_SUIT`, after every contract of the file, so the file's own bids keep their
ids) that compares equal to its contract; the auction ranks bids by `bid_level` (level × scale + suit rank)."""
from __future__ import annotations

from dataclasses import replace

from ..errors import SpecError, did_you_mean
from .base import RulesetBase


def derive_suit_bids(rs: RulesetBase) -> None:
    """Append the suit bids of every contract with `suit_bids` to `rs.contracts`; set `rs.bid_scale`."""
    data = rs.spec.data
    deck = rs.deck
    order_names = data["auction"].get("suit_order")
    order = []
    for i, name in enumerate(order_names or ()):
        if name not in deck.suit_by_name:
            rs._errors.append(SpecError(f"unknown suit '{name}'{did_you_mean(name, deck.suit_by_name)}",
                                        rs.loc(("auction", "suit_order", i))))
        else:
            order.append(deck.suit_by_name[name])
    widest = len(order)
    plain = list(rs.contracts)
    for c in plain:
        sb = data["contracts"][c.name].get("suit_bids")
        c.jump = bool(data["contracts"][c.name].get("jump", False))
        if not sb:
            continue
        path = ("contracts", c.name, "suit_bids")
        suits = []
        for i, name in enumerate(sb["suits"]):
            s = deck.suit_by_name.get(name)
            if s is None or (order and s not in order):
                why = "is not in auction.suit_order" if s is not None else "is no suit"
                rs._errors.append(SpecError(f"'{name}' {why}{did_you_mean(name, deck.suit_by_name)}",
                                            rs.loc(path + ("suits", i))))
                continue
            suits.append(s)
        widest = max(widest, len(suits))
        for i, s in enumerate(suits):
            name = f"{c.name}_{s.name}"
            if name in rs.contract_by_name:
                rs._errors.append(SpecError(f"the bid of '{c.name}' in {s.name} is named '{name}', the name of "
                                            f"another contract", rs.loc(path)))
                continue
            title = str(sb.get("title", "{title} in {suit}")).replace("{title}", c.title).replace("{suit}", s.name)
            d = replace(c, name=name, index=len(rs.contracts), title=title, base=c, bid_suit=s,
                        sub=(order.index(s) if order else i) + 1)
            rs.contracts.append(d)
            rs.contract_by_name[name] = d
        if sb.get("plain") is False:
            c.biddable = False
    rs.bid_scale = widest + 1
