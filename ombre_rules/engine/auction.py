"""The auction: bids in turn or in duels, holding a bid, forced and final bids, the all-pass fallbacks, and the
raise after it (phases AUCTION and RAISE); what follows when all pass is in all_pass.py.

Driven by `auction` (`first`, `form`, `hold`, `jumps`, `forced`, `final`, `opening`, `auto_pass`, `raise`,
`contract_choice`, `all_pass`, `accept`: a bid a later seat accepts, becoming the bidder's partner) and, per
contract, `level`, `holdable`, `bid_when` and `show`; compiled in ruleset/auction.py. It ends in
ContractStage._begin_contract, the DECLARE phase, or the end of the deal."""
from __future__ import annotations

from collections.abc import Callable

from ..envs import SEAT_VARS
from ..lang import Expr
from ..ruleset import Contract
from .fields import Fields
from .phases import AUCTION, DECLARE, RAISE


class AuctionStage(Fields):
    """The auction's phases (a mixin of State, which keeps every field)."""

    __slots__ = ()

    def _legal_auction(self) -> list[int]:
        """The bids, pass and hold open to the seat to move."""
        r = self.rules
        if self.stand_bids:  # the seat sitting out, asked whether he takes over the hand of a seat that passed
            return [r.A_PASS, *self.stand_bids]
        if self._forced():
            return [r.A_PASS, r.A_HOLD]
        if r.auction.accept is not None and self.passed[self.to_move]:  # asked again only to accept (`late`)
            return [r.A_PASS, r.A_ACCEPT]
        acts = list(self.round_bids[self.high_level])
        if self._acceptable():
            acts.append(r.A_ACCEPT)
        if self.round_no and self._must_choose():  # a seat forced to choose a contract may not pass
            acts.remove(r.A_PASS)
        if r.bid_conditions:
            acts = [a for a in acts if a == r.A_PASS or self._bid_allowed(a)]
        floor = self._compelled_floor(acts) if r.compulsory else 0
        if floor:
            levels = self.bid_levels
            acts = [a for a in acts if a != r.A_PASS and levels[a - r.A_BID] >= floor]
        if self._may_hold(False) and self.high_level >= floor:
            acts.append(r.A_HOLD)
        return acts

    def _random_bid(self, rand: Callable[[], float]) -> None:
        """One decision of `random_playout` in the auction: the action at a random place of the list
        `_legal_auction` gives, applied as `_apply_auction` applies it (the list is built only when bid
        conditions, a compulsory bid or a forced choice shape it)."""
        r = self.rules
        if r.bid_conditions or r.compulsory or (self.round_no and self._must_choose()) or self._forced() \
                or r.auction.accept is not None or self.stand_bids:
            acts = self._legal_auction()
            a = acts[int(rand() * len(acts))]
        else:
            bids = self.round_bids[self.high_level]
            n = len(bids)
            i = int(rand() * (n + self._may_hold(False)))
            a = bids[i] if i < n else r.A_HOLD
        if self.stand_bids:
            self._stand_in(a)
        elif a == r.A_HOLD:
            self._hold(self._forced())
        elif a == r.A_ACCEPT:
            self._accept()
        else:
            self._bid(a)

    def _apply_auction(self, a: int) -> None:
        """Pass, a bid above the high one, or hold; IllegalActionError otherwise."""
        r = self.rules
        if self.stand_bids:
            if a not in self._legal_auction():
                self._illegal(a)
            self._stand_in(a)
            return
        if (r.compulsory or r.auction.accept is not None) and a not in self._legal_auction():
            self._illegal(a)
            return
        if a == r.A_ACCEPT and r.auction.accept is not None:  # checked against the legal list above
            self._accept()
            return
        if a in self.round_bids[self.high_level] and self._bid_ok(a) and \
                (a == r.A_PASS or not r.bid_conditions or self._bid_allowed(a)):
            self._bid(a)
            return
        if a == r.A_HOLD:
            forced = self._forced()
            if self._may_hold(forced):
                self._hold(forced)
                return
        self._illegal(a)

    def _acceptable(self) -> bool:
        """Whether the seat to move may accept the standing bid (`auction.accept`): one of the bids it names,
        not yet accepted, made by another seat."""
        acc = self.rules.auction.accept
        return acc is not None and self.high in acc.bids and self.partner < 0 and self.to_move != self.high_seat

    def _accept(self) -> None:
        """The seat to move accepts the standing bid: it becomes the bidder's partner (a seat that accepts
        after passing stays out of the bidding)."""
        self.history.append(self.rules.A_ACCEPT)
        self.partner = self.to_move
        self.acc &= ~1
        self._next_bidder()

    def _asked_again(self) -> bool:
        """When every seat has spoken over a bid nobody accepted (`auction.accept`): the late seat, if it passed
        before the bid, is asked whether it accepts; then the bidder may amend (a higher bid, or pass). False
        when neither is left: the auction ends."""
        acc = self.rules.auction.accept
        if acc is None or self.high not in acc.bids or self.partner >= 0:
            return False
        if self.acc & 1:
            self.acc &= ~1
            assert acc.late is not None  # bit 1 is set only for a late seat
            self.to_move = self._seat(acc.late)
            return True
        if acc.amend and not self.acc & 2 and not self.passed[self.high_seat]:
            self.acc |= 2
            self.to_move = self.high_seat
            return True
        return False

    def _forced(self) -> bool:
        """Whether the seat to move is forced: its standing bid was overcalled by one that lets it only pass or
        take the high bid over."""
        au = self.rules.auction
        return (au.forced_bid is not None and self.high in au.forced_by and self.high_seat != self.to_move
                and self.bid_of[self.to_move] == au.forced_bid.index)

    def _bid_ok(self, a: int) -> bool:
        """A pass or bid of the round is refused only to a forced seat: an overcalled one may not bid, one
        forced to choose a contract may not pass."""
        if a == self.rules.A_PASS:
            return not (self.round_no and self._must_choose())
        return not self._forced()

    def _compelled_floor(self, acts: list[int]) -> int:
        """The lowest bid level open to the seat to move when it must bid: the highest level of the compulsory
        contracts among its bids whose condition it meets (it may then neither pass nor bid or hold below);
        0 when none binds it."""
        r = self.rules
        return max((self.bid_levels[c.index] for c in r.compulsory if r.A_BID + c.index in acts
                    and c.compulsory is not None and self.eval(c.compulsory)), default=0)

    def _may_hold(self, forced: bool) -> bool:
        """Whether the seat to move may take over the high bid at its level: it bids earlier, or it is forced
        (`forced`, from _forced)."""
        if forced:
            return True
        hs, high = self.high_seat, self.high
        if hs < 0 or high is None or not self.rules.hold_by_priority or not high.holdable:
            return False
        fb, n = self.first_bidder, self.n
        if (self.to_move - fb) % n >= (hs - fb) % n:
            return False
        if high.bid_when is not None and not self.eval(high.bid_when):  # only who may bid it holds it
            return False
        return self.rules.auction.choice == "bid" or bool(self._choices(self.high_level))

    def _open_auction(self) -> None:
        """The main round once the cards are dealt; with `auction.form: none` nobody bids and the deal goes
        straight to the all-pass branches (a seat forced to play)."""
        self._start_auction(0, self.rules.main_round)
        if self.rules.auction.form == "none":
            self._all_passed()

    def _only_pass(self) -> bool:
        """Whether the seat to move may only pass (auction.auto_pass then passes for it)."""
        return self._legal_auction() == [self.rules.A_PASS]

    def _start_auction(self, rnd: int, contracts: tuple[Contract, ...]) -> None:
        self.phase = AUCTION
        self.high = None
        self.high_level = 0
        self.high_seat = -1
        self.passed = [False] * self.n
        self.bid_of = [-1] * self.n
        self.acc = 0
        for s in self.rules.sitting(self.dealer, self.stand_for):
            self.passed[s] = True
        self.round_bids, self.bid_levels = self.rules.bid_lists(contracts, rnd)
        first = self._seat_in_play(self.rules.auction.first)
        self.first_bidder = self.to_move = first
        self.round_no = rnd
        if self.rules.auction.form == "duel":
            order = self.orders[first]
            self.duel_p, self.duel_q = order[0], order[1]
            self.duel_queue = list(order[2:])
        op = self.rules.opening
        if rnd == 0 and op is not None:
            self.high = op.contract
            self.high_level = self.rules.bid_level(op.contract, 0)
            self.high_seat = self._seat(op.seat)
            self._next_bidder()
        elif self.rules.auto_pass and self.rules.auction.form == "rotation" and self._only_pass():
            self.passed[first] = True
            self._next_bidder()

    def _bid(self, a: int) -> None:
        """A legal pass or bid of the seat to move."""
        r = self.rules
        if a == r.A_PASS and self.stand_bids is None and self._offer_stand_in():
            return
        self.history.append(a)
        if a == r.A_PASS:
            self.passed[self.to_move] = True
        else:
            i = a - r.A_BID
            self.high = c = r.contracts[i]
            self.bid_of[self.to_move] = i
            self.high_level = self.bid_levels[i]
            self.high_seat = self.high_by = self.to_move
            if c.show is not None:
                self._show(c)
            acc = r.auction.accept
            if acc is not None:
                self.partner = -1  # an accepted bid overcalled: the alliance ends
                late = self._seat(acc.late) if acc.late is not None and c in acc.bids else -1
                self.acc = (self.acc & 2) | (1 if late >= 0 and late != self.to_move and self.passed[late] else 0)
        self._next_bidder()

    def _offer_stand_in(self) -> bool:
        """The seat `sit_out.stand_in` names passes (the seat to move): the seat sitting out is asked whether he
        bids higher on that hand, with the bids the hand had (not hold or accept); False when it had none, or
        the seat passing is another one (the pass then goes on as any other)."""
        si = self.rules.stand_in
        assert si is not None  # asked only where the rule exists (stand_bids starts as () otherwise)
        named = si.named[self.dealer]
        if self.to_move != named:
            return False
        r = self.rules
        self.stand_bids = ()
        bids = tuple(a for a in self._legal_auction() if r.A_BID <= a < r.A_BID + len(r.contracts))
        if not bids:
            return False
        self.history.append(r.A_PASS)
        self.stand_bids = bids
        self.to_move = si.sitter[self.dealer]
        return True

    def _stand_in(self, a: int) -> None:
        """The seat sitting out passes (the named seat's pass stands) or bids on the named seat's hand: then the
        two change places for the rest of the deal, the hand, the bids made and the place in the ring of play
        going to him, and the auction goes on with his bid."""
        r = self.rules
        si = r.stand_in
        assert si is not None  # asked only where the rule exists
        named, sitter = si.named[self.dealer], si.sitter[self.dealer]
        self.stand_bids = ()
        if a == r.A_PASS:
            self.history.append(a)
            self.to_move = named
            self.passed[named] = True
            self._next_bidder()
            return
        self.stand_for = named
        for by_seat in (self.hands, self.shown, self.discards, self.drawn, self.bid_of):
            by_seat[sitter], by_seat[named] = by_seat[named], by_seat[sitter]
        self.hl[sitter], self.hl[named] = self.hl[named], self.hl[sitter]
        self.passed[sitter], self.passed[named] = False, True
        if self.first_bidder == named:
            self.first_bidder = sitter
        if self.high_by == named:
            self.high_by = sitter
        self.duel_p, self.duel_q = (sitter if s == named else s for s in (self.duel_p, self.duel_q))
        self.duel_queue = [sitter if s == named else s for s in self.duel_queue]
        self.nxt, self.orders = si.rings[self.dealer], si.orders[self.dealer]
        self.to_move = sitter
        self._bid(a)

    def _hold(self, forced: bool) -> None:
        """The seat to move legally takes over the high bid (`forced`: the seat was overcalled)."""
        self.history.append(self.rules.A_HOLD)
        self.high_seat = self.to_move
        if forced:
            self._end_auction()
        else:
            self._next_bidder()

    def _next_bidder(self) -> None:
        if self.high in self.rules.auction.final_bids:  # a bid that ends the auction at once
            self._end_auction()
            return
        if self.rules.auction.form == "duel":
            self._duel_next()
            if self.rules.auto_pass:
                self._pass_without_choice()
            return
        s = self.to_move
        nxt, passed, hs, mate = self.nxt, self.passed, self.high_seat, self.partner
        auto = self.rules.auto_pass
        for _ in range(self.n):
            s = nxt[s]
            if not passed[s] and s != hs and s != mate:  # (mate: who accepted the standing bid)
                self.to_move = s
                if hs < 0 and self.rules.auction.others_passed and self._others_passed(s):
                    self._end_auction()
                elif auto and self._only_pass():
                    passed[s] = True
                    continue
                return
        if not self._asked_again():
            self._end_auction()

    def _others_passed(self, s: int) -> bool:
        """Whether seat s, to speak in the main round, is the forced seat and every other seat has passed."""
        who = self.rules.auction.force_who
        return self.round_no == 0 and self.passed.count(False) == 1 and who is not None and s == self._seat(who)

    def _duel_next(self) -> None:
        """Duels in bidding order: the seat with priority against a challenger; the survivor of each duel
        keeps priority against the next challenger. Whoever is not the high bidder speaks."""
        x, p, q = self.to_move, self.duel_p, self.duel_q
        if q < 0:  # the last seat, speaking alone
            self._end_auction()
            return
        if not self.passed[x]:
            self.to_move = q if x == p else p
            return
        survivor = q if x == p else p
        if self.duel_queue:
            self.duel_p, self.duel_q = survivor, self.duel_queue.pop(0)
            self.to_move = self.duel_q if self.high_seat == survivor else survivor
        elif self.high_seat == survivor:
            self._end_auction()
        else:  # nobody has bid yet: the survivor may still bid, alone
            self.duel_p, self.duel_q = survivor, -1
            self.to_move = survivor

    def _pass_without_choice(self) -> None:
        """A seat whose only choice would be to pass passes by itself (auction.auto_pass)."""
        while self.phase == AUCTION and self._only_pass():
            self.passed[self.to_move] = True
            self._duel_next()

    def _bid_allowed(self, a: int) -> bool:
        """Whether the seat to move meets a contract's bid condition (and has the cards it must show)."""
        c = self.rules.contracts[a - self.rules.A_BID]
        if c.bid_when is not None and not self.eval(c.bid_when):
            return False
        if c.show is None:
            return True
        need = self._cards_mask(c.show)
        return self.hands[self.to_move] & need == need

    def _show(self, c: Contract) -> None:
        """The seat to move shows the cards a contract requires, to every seat."""
        assert c.show is not None  # called for a contract that shows cards
        self.shown[self.to_move] |= self.hands[self.to_move] & self._cards_mask(c.show)

    def _cards_mask(self, expr: Expr) -> int:
        """The cards a list expression names, as a mask; cached per dealer when it depends only on the seats
        and on names evaluated without trumps."""
        r = self.rules
        static = self.ctx is None and expr.uses <= SEAT_VARS | r.namespace.names and self.nxt is r.rings[self.dealer]
        key = (expr, self.dealer, "mask")
        if static and key in r.seat_cache:
            cached: int = r.seat_cache[key]
            return cached
        m = 0
        for x in self.eval(expr) or ():
            if x is not None:
                m |= 1 << x.id
        if static:
            r.seat_cache[key] = m
        return m

    def _choices(self, level: int) -> list[Contract]:
        """The contracts the seat to move may announce after winning the auction at `level`."""
        r = self.rules
        at_least = r.auction.choice == "at_least_level"
        out = []
        for c in r.main_round:
            lv = r.bid_level(c, self.round_no)
            if (lv >= level if at_least else lv == level) and \
                    (not r.bid_conditions or self._bid_allowed(r.A_BID + c.index)):
                out.append(c)
        return out

    def _end_auction(self) -> None:
        r = self.rules
        acc = r.auction.accept
        if acc is not None and self.high in acc.bids and self.partner < 0:
            self.high = None  # a bid nobody accepted is not played: as if all passed
        if self.high is not None:
            if r.may_raise and self.phase != RAISE:
                self._start_raise()
                return
            seat = self.high_seat
            if r.auction.choice == "bid" or self.round_no or (r.auction.choice == "level" and self.high_by == seat):
                self._begin_contract(seat, self.high)
                return
            self.to_move = seat
            choices = self._choices(self.high_level)
            if len(choices) > 1:
                self.phase = DECLARE
                return
            self._declared(choices[0] if choices else self.high)
            return
        self._all_passed()

    def _start_raise(self) -> None:
        """The auction's winner may name a higher contract (or pass to keep his), when `raise_when` holds; a bid
        that turns its trump first shows the card it would turn (`raise_after_turn`)."""
        r = self.rules
        high = self.high
        assert high is not None  # a bid won the auction
        self.phase = RAISE
        self.to_move = self.high_seat
        if r.raise_when is not None and not self.eval(r.raise_when) or len(self._legal_raise()) == 1:
            self._begin_contract(self.high_seat, high)
            return
        if r.raise_after_turn and high.trump_mode == "turned" and self.talon:
            self.turned = self.talon[0]

    def _legal_raise(self) -> list[int]:
        """Pass, and the bids above the high one whose bid conditions the winner meets."""
        r = self.rules
        acts = self.round_bids[self.high_level]
        if r.bid_conditions:
            return [a for a in acts if a == r.A_PASS or self._bid_allowed(a)]
        return list(acts)

    def _apply_raise(self, a: int) -> None:
        """The auction's winner names a higher contract, or passes to keep his."""
        r = self.rules
        assert self.high is not None  # a bid won the auction
        self._begin_contract(self.high_seat, self.high if a == r.A_PASS else r.contracts[a - r.A_BID])

