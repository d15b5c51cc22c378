"""What follows when every seat passes (`auction.all_pass`): one rule, or a list of branches tried in order, each
with a condition (`when`, read over the dealt hands) and what it does (`then`): redeal, force a seat (`who`) to
play a contract or to choose one of `contracts`, or a further round of bids (the talon shown to all first with
`show_talon`). A forced seat may be allowed to pass (`may_pass`); the branches after it are then tried. When no
branch applies the cards are dealt again."""
from __future__ import annotations

from typing import Any

from ..envs import AUCTION_FUNCS, SEAT_VARS
from ..lang import Site
from ..lang import types as T
from .base import RulesetBase
from .compiled import AllPassBranch
from .contracts import Contract


def compile_all_pass(rs: RulesetBase) -> tuple[AllPassBranch, ...]:
    """The branches of `auction.all_pass`, in order (one for the single form)."""
    ap: Any = rs.spec.data["auction"].get("all_pass") or {"then": "redeal"}
    items, base = ([ap], ("auction", "all_pass")) if isinstance(ap, dict) else (ap, None)
    out = []
    for i, b in enumerate(items):
        p = base or ("auction", "all_pass", i)
        when = rs._expr(p + ("when",), Site("auction.all_pass.when", SEAT_VARS, AUCTION_FUNCS, result=T.COND))
        who = contract = None
        contracts: tuple[Contract, ...] = tuple(rs._contract_ref(c, p + ("contracts", k))
                                                for k, c in enumerate(b.get("contracts") or []))
        if b["then"] == "force":
            who = rs._expr(p + ("who",), Site("auction.all_pass.who", SEAT_VARS, AUCTION_FUNCS, result=T.SEAT,
                                              guard=str(b.get("when") or "")), "forehand")
            if not contracts:
                contract = rs._contract_ref(b.get("contract"), p + ("contract",))
                if b.get("may_pass"):  # offered: a round of that one contract, in which he may pass
                    contracts = (contract,)
                    contract = None
        out.append(AllPassBranch(b["then"], when, who, contract, contracts, bool(b.get("may_pass", False)),
                                 b["then"] == "force" and bool(b.get("others_passed", False)),
                                 bool(b.get("show_talon", False))))
    return tuple(out)
