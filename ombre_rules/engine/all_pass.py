"""When every seat has passed: the all-pass branches in order (`auction.all_pass`, compiled in
ruleset/all_pass.py): redeal, force a seat to play a contract or to choose one (in a round of its own, where
`may_pass` lets it pass), or a further round of bids (after the talon is shown, `show_talon`); a round in which
all pass again goes on with the next branch whose condition holds."""
from __future__ import annotations

from .fields import Fields


class AllPassStage(Fields):
    """The all-pass branches (a mixin of State; `ap_at` is the next branch to try)."""

    __slots__ = ()

    def _all_passed(self) -> None:
        """Every seat passed the main round or a branch's round: apply the next branch whose condition holds,
        else the deal is void."""
        branches = self.rules.auction.branches
        while self.ap_at < len(branches):
            b = branches[self.ap_at]
            self.ap_at += 1
            if b.when is not None and not self.eval(b.when):
                continue
            if b.then == "redeal":
                break
            if b.then == "force":
                assert b.who is not None  # a forced seat is named (the default: forehand)
                seat = self._seat(b.who)
                if b.contract is not None:
                    self._begin_contract(seat, b.contract)
                    return
                self._start_auction(self.ap_at, b.contracts)
                self.passed = [s != seat for s in range(self.n)]
                self.first_bidder = self.to_move = seat
                return
            if b.contracts:
                if b.show_talon:
                    self._show_talon()
                self._start_auction(self.ap_at, b.contracts)
                return
        self._finish(all_pass=True)

    def _must_choose(self) -> bool:
        """Whether the seat to move, in a branch's round, is forced to choose a contract (it may not pass)."""
        b = self.rules.auction.branches[self.round_no - 1]
        return b.then == "force" and not b.may_pass
