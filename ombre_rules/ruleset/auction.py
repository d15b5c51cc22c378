"""The auction's rules: who speaks first (`auction.first`), how an equal bid is held (`auction.hold`), what
follows when all pass (`auction.all_pass`), forced and final bids (`auction.forced`, `auction.final`), the form
(`auction.form`: rotation, duel, or none: no bidding) and what the winner's bid fixes
(`auction.contract_choice`); and the bid lists by level that the engine's auction offers (`auction.jumps`,
contract `level`s)."""
from __future__ import annotations

from ..envs import AUCTION_FUNCS, SEAT_VARS
from ..errors import SpecError
from ..lang import Site
from ..lang import types as T
from .all_pass import compile_all_pass
from .base import RulesetBase
from .compiled import Accept, AuctionRules
from .contracts import Contract


class AuctionPart(RulesetBase):
    """The ruleset's part that compiles the auction and lists the bids of a round."""

    def _compile_auction(self) -> None:
        data = self.spec.data
        first = self._expr(("auction", "first"), Site("auction.first", SEAT_VARS, AUCTION_FUNCS, result=T.SEAT),
                           "forehand")
        branches = compile_all_pass(self)
        b0 = branches[0]  # the single rule's terms, as the simulator's coverage names them
        rule = "+".join(b.then for b in branches) if len(branches) > 1 else b0.then
        forced = data["auction"].get("forced")
        forced_bid: Contract | None = None
        forced_by: frozenset[Contract] = frozenset()
        if forced:
            forced_bid = self._contract_ref(forced["bid"], ("auction", "forced", "bid"))
            forced_by = frozenset(self._contract_ref(c, ("auction", "forced", "by", i))
                                  for i, c in enumerate(forced["by"]))
        final = frozenset(self._contract_ref(c, ("auction", "final", i))
                          for i, c in enumerate(data["auction"].get("final") or []))
        self.auction = AuctionRules(first, data["auction"].get("hold", "earlier_seat"), rule,
                                    b0.who, b0.contract, b0.contracts, forced_bid, forced_by,
                                    data["auction"].get("form", "rotation"),
                                    data["auction"].get("contract_choice", "bid"), final, branches,
                                    b0.others_passed, self._compile_accept())
        self.hold_by_priority = self.auction.hold == "earlier_seat"
        if self.auction.form == "none":
            self._check_no_bidding()
        self.main_round = tuple(sorted((c for c in self.contracts if c.biddable), key=lambda c: self.bid_level(c, 0)))

    def _compile_accept(self) -> Accept | None:
        """`auction.accept`: the bids a later seat may accept (biddable contracts, in a rotation), the seat that
        may accept late, and what follows a bid nobody accepts."""
        acc = self.spec.data["auction"].get("accept")
        if not acc:
            return None
        bids = frozenset(self._contract_ref(c, ("auction", "accept", "bids", i)) for i, c in enumerate(acc["bids"]))
        for i, c in enumerate(acc["bids"]):
            ref = self.contract_by_name.get(c)
            if ref is not None and not ref.biddable:
                self._errors.append(SpecError(f"contract '{c}' is accepted but nobody bids it (it has no level)",
                                              self.loc(("auction", "accept", "bids", i))))
        if self.spec.data["auction"].get("form", "rotation") != "rotation":
            self._errors.append(SpecError("a bid is accepted only in a rotation (auction.form: rotation)",
                                          self.loc(("auction", "accept", "bids"))))
        late = self._expr(("auction", "accept", "late"),
                          Site("auction.accept.late", SEAT_VARS, AUCTION_FUNCS, result=T.SEAT))
        return Accept(bids, late, acc.get("unaccepted", "amend") == "amend")

    def _check_no_bidding(self) -> None:
        """`auction.form: none`: no contract is bid, none is opened for a seat, and the all-pass branches say
        who plays (without them every deal would be dealt again)."""
        data = self.spec.data
        for name, c in data["contracts"].items():
            if "level" in c:
                self._errors.append(SpecError(f"contract '{name}' has a level, but nobody bids (auction.form: none)",
                                              self.loc(("contracts", name, "level"))))
        if data["auction"].get("opening"):
            self._errors.append(SpecError("an opening bid needs an auction (auction.form: none)",
                                          self.loc(("auction", "opening"))))
        if all(b.then == "redeal" for b in self.auction.branches):
            self._errors.append(SpecError("without an auction (auction.form: none) auction.all_pass must say who "
                                          "plays (then: force)", self.loc(("auction", "form"))))

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
                # without jump bids only the next level above may be bid, and a contract that may be bid by a jump
                cap = min(above, default=0) if not self.jumps else top
                table.append((self.A_PASS,) + tuple(a for lv, a in ranked if lvl < lv <= cap or
                                                    lvl < lv and self.contracts[a - self.A_BID].jump))
            levels = [0] * len(self.contracts)
            for lv, a in ranked:
                levels[a - self.A_BID] = lv
            got = self._bid_lists[key] = (table, tuple(levels))
        return got

    def bid_level(self, c: Contract, round_no: int) -> int:
        """A contract's rank in an auction round (0: the main one; k: the round of all-pass branch k - 1, or the
        forced seat's choice); there contracts without a level rank in the order they are listed."""
        if c.level or round_no == 0:
            return c.level * self.bid_scale + c.sub
        return self.auction.branches[round_no - 1].contracts.index(c) + 1
