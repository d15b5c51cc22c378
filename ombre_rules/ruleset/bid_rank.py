"""Bids ranked by a number (`auction.rank_by`): an expression of `contract` (and `opt.*`), evaluated once per
biddable contract when the variant loads, orders the bids of the main auction, lowest first; equal numbers keep
the order of the contracts' `level`s. The levels are then renumbered 1, 2, … in that order (contracts that shared
a level still share one, so a hold at it stays a hold), before anything reads them."""
from __future__ import annotations

from ..errors import SpecError
from ..lang import Site
from ..lang import types as T
from .base import RulesetBase
from .contracts import Contract


class _ContractEnv:
    """What a `rank_by` expression sees: the contract it ranks."""

    __slots__ = ("contract",)

    def __init__(self, contract: Contract) -> None:
        self.contract = contract


def rank_bids(rs: RulesetBase) -> None:
    """Renumber the levels of the biddable contracts by `auction.rank_by`, ties by level (nothing without it)."""
    e = rs._expr(("auction", "rank_by"), Site("auction.rank_by", frozenset({"contract"}), frozenset(), names=False,
                                              result=T.INT, unset=""))
    if e is None or rs._errors:
        return
    plain = [c for c in rs.contracts if c.base is None and c.level]
    keys: dict[int, tuple[int, int]] = {}
    for c in plain:
        try:
            v = e.fn(_ContractEnv(c))
        except Exception as ex:
            rs._errors.append(SpecError(f"expression '{e.text}' failed for contract '{c.name}': {ex}", e.loc))
            return
        if type(v) is not int:
            rs._errors.append(SpecError(f"expression '{e.text}' gives {v!r} for contract '{c.name}', not a "
                                        f"whole number", e.loc))
            return
        keys[c.index] = (v, c.level)
    renumber = {k: i + 1 for i, k in enumerate(sorted(set(keys.values())))}
    for c in rs.contracts:
        own = keys.get((c.base or c).index)
        if own is not None:
            c.level = renumber[own]
