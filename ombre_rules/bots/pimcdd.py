"""The Monte-Carlo player over double-dummy solves (`pimcdd`): it deals the hidden cards anew in worlds
consistent with its seat's view (the sampler of `pimc`) and looks at each world with every hand open.

- The worlds of its cards are weighed by what the other seats chose before the play (`infer.Inferred`): a
  world in which a greedy player with that seat's cards would not have bid, named trumps or defended as the
  seat did survives each such choice with probability 0.1, so that a seat that bid high is dealt a hand it
  would bid so with. That is done in deals whose hands hold at most 30 cards (WEIGHED_CARDS); in larger ones,
  and in the 25N greedy play-outs below, the worlds are plain ones, as `pimc`'s: weighing costs about ten times
  a plain world. The cards the others played weigh them as well (`Inferred.weighed`: each card that is not
  greedy's there makes the world less likely), and each world's values count by its weight.

- A card (when every legal action is a card): in each of N worlds (or as many as X seconds allow), what the
  declarer's side ends with after each card, double-dummy (its tricks, or card points on a deck that counts
  them), is worth the side's expected payment for that amount: the contract's payment by amount taken, learnt
  from its settlement on random deals (`solve.aim.Aim.worth`, with the side's aim: more, or fewer when the
  contract is won by taking few). Only the amounts at which that payment steps matter (`Aim.thresholds`: 4
  and 5 tricks, say, where 5 of 9 win and 4 sometimes do), so the kernel finds, by null-window searches,
  which steps each card reaches (`banded`), far cheaper than exact values. The card with the best summed
  payment is played (then the best summed amount; greedy's card if it is among them, else the cheapest).
  Where the payment is not known, the exact values are summed instead. A seat against the declarer's side in
  a contract that pays those seats for more than what the side takes (`Aim.split`: a game paid to the
  defender who took the most tricks, or defenders each paid for their own) plays `pimc`'s card with 25N greedy
  play-outs scored by its own payment: the side's values cannot tell it (in duplicate play of the cards alone,
  such defenders lost 1.1 a deal to `pimc:500`'s). A position the kernel cannot search
  (an excuse card still to come, a deck beyond it, the kernel not built) is left to `pimc` with N play-outs
  per card.
- Any other choice (a bid, a discard or the draw, a trump, a stop after a claim, a concession, a defence):
  `pimc`'s, with 25N greedy play-outs in plain worlds (`pimc:500` for N = 20). Double-dummy play-outs cost
  over ten greedy ones, so at a `pimc:500` decision's cost they were 2N = 40: too few to tell a better bid
  from noise, and in duplicate matches against `pimc:500` such bids lost where greedy play-outs did not (the
  figures are in the README).
"""
from __future__ import annotations

import time

from ..engine.phases import PLAY
from ..solve.aim import Aim, contract_aim
from ..solve.analysis import auto_measure
from ..solve.fast import KernelSolver, counted
from ..solve.search import NotInPlay, SearchLimit
from .infer import Inferred
from .pimc import PimcPlayer
from .sample import Knowledge, sample
from .seat import from_view

DEFAULT_WORLDS = 20
WEIGHED_CARDS = 30  # its own worlds weighed when the hands hold at most this many cards in all
GREEDY_PER_WORLD = 25  # a choice other than a card: 25N greedy play-outs, as pimc:500 for N = 20
TT_BITS = 16  # the largest transposition table of one game's search: 4 * 2**16 entries
CARD_WEIGHTS = True  # its worlds for a card weighed by the cards the others played (`Inferred.weighed`)
WEIGHED = True  # its own worlds weighed by the others' bids (`infer`) in small deals (off: plain worlds throughout)
WORLD_NODES = 20_000_000  # a world's search stopped past this (1-2 s; a 40-card deal's card took at most 5 M)


class PimcddPlayer(PimcPlayer):
    """Monte-Carlo player over double-dummy solves; its budget is N worlds a card decision (25N greedy
    play-outs for the others), or seconds a decision."""

    name = "pimcdd"

    def __init__(self, seed: int | None = None, rules=None, worlds: int = DEFAULT_WORLDS,
                 seconds: float | None = None, sampler=None, margin: float = 1.0) -> None:
        # its own worlds weighed by the others' bids (`infer`); the 25N greedy play-outs' worlds are plain ones,
        # as `pimc`'s (weighing costs about ten times a plain world, and they sample many)
        super().__init__(seed, rules, GREEDY_PER_WORLD * worlds, seconds,
                         sampler=sampler if sampler is not None else Inferred(seed), margin=margin)
        self._plain = sampler if sampler is not None else sample
        self._weighed = self.sampler
        self.worlds = worlds
        self.measure = auto_measure(rules) if rules is not None else "tricks"
        self._searches: dict = {}  # the kernel's searches by game (a table each), kept from world to world
        self._pimc: PimcPlayer | None = None
        self._greedy: PimcPlayer | None = None  # greedy play-outs: the choices other than cards, a split defence
        self._guess = 0  # the value of the last world searched
        self._paid: dict[int, tuple[Aim, tuple[int, ...]]] = {}  # contracts met, by index: aim, thresholds
        self._big = 0  # the cards in the hands when a world's search passed WORLD_NODES (0: never)

    def act(self, view: dict, legal: list[int]) -> int:
        # a deal whose hands held more than WEIGHED_CARDS cards: plain worlds (weighed ones would make a decision
        # cost more than a `pimc:500` one there)
        played = sum(len(t["cards"]) for t in view["trick_history"]) + len(view["current_trick"])
        self.sampler = self._weighed if WEIGHED and sum(view["hand_sizes"]) + played <= WEIGHED_CARDS else self._plain
        if len(legal) > 1 and view["phase"] in ("play", "xplay") and legal[-1] < self.rules.A_DISCARD:
            if self._split(view):  # a defender paid for more than what the declarer's side takes
                return self._playouts().act(view, legal)
            got = self._cards(Knowledge(self.rules, view), view["seat"], legal)
            if got is not None:
                return got
            if self._pimc is None:  # a position the kernel cannot search: greedy play-outs
                self._pimc = PimcPlayer(self.rng.getrandbits(32), self.rules, self.worlds * len(legal),
                                        self.seconds)
            return self._pimc.act(view, legal)
        return self._playouts().act(view, legal)  # a bid, a discard, a trump, a claim: greedy play-outs

    def _playouts(self) -> PimcPlayer:
        """`pimc` with 25N greedy play-outs a decision (`pimc:500` for N = 20), made when first needed."""
        if self._greedy is None:
            self._greedy = PimcPlayer(self.rng.getrandbits(32), self.rules, GREEDY_PER_WORLD * self.worlds,
                                      self.seconds, sampler=self._plain, margin=self.margin)
        return self._greedy

    def _split(self, view: dict) -> bool:
        """Whether the seat plays against the declarer's side in a contract whose settlement pays the seats
        against it for more than what the side takes (`Aim.split`: which of them took the most, say): the
        side's payment by amount does not tell such a seat what it plays for, and double-dummy values are
        the side's."""
        c = self.rules.contract_by_name.get(view["contract"]) if view["contract"] else None
        me = view["seat"]
        if c is None or view["declarer"] is None or me == view["declarer"] or view.get("partner") == me:
            return False
        return contract_aim(self.rules, c, self.measure).split

    # -- cards: double-dummy values summed over the worlds -------------------------------------------------
    def _cards(self, k: Knowledge, me: int, legal: list[int]) -> int | None:
        """The card with the best total over the worlds of the side's expected payment for what it ends with
        (`Aim.worth`: the contract's payment by amount taken, learnt from its settlement), then of the
        double-dummy value itself; greedy's card if it is among the best, else the cheapest of them. None when
        a world's position is one the kernel cannot search."""
        if self._big and sum(k.v["hand_sizes"]) >= self._big:  # as large as a deal too large to search
            return None
        total = dict.fromkeys(legal, 0.0)
        worth = dict.fromkeys(legal, 0.0)
        weighed = getattr(self.sampler, "weighed", None) if CARD_WEIGHTS else None
        done = 0
        mine = False
        last = None
        end = time.perf_counter() + self.seconds if self.seconds is not None else None
        while done < self.worlds if end is None else not done or time.perf_counter() < end:
            if weighed is not None:
                got_w = weighed(k, self.rng)
                w, wt = got_w if got_w is not None else (None, 1.0)
            else:
                w, wt = self.sampler(k, self.rng), 1.0
            if w is None:
                break
            try:
                got = self._values(w, legal)
            except SearchLimit:  # a deal too large to search now (a 52-card deal's first tricks)
                self._big = sum(k.v["hand_sizes"])
                return None
            if got is None:
                return None
            vals, side, base, aim = got
            mine, last = me in side, w
            table = self._payment(w)[0]
            for c in legal:
                total[c] += wt * vals[c]
                paid = table.worth(base + aim * vals[c]) if table is not None else None
                worth[c] += wt * paid if paid is not None else 0.0
            done += 1
        greedy = self.policy.choose(from_view(self.rules, k.v), legal)
        if not done:
            self.fallbacks += 1
            return greedy
        assert last is not None  # a world was searched (done > 0)
        return best_card(legal, worth, total, mine, greedy, last.ctx.power)  # the same trumps in every world

    def _values(self, w, cards: list[int]) -> tuple[dict[int, int], tuple[int, ...], int, int] | None:
        """The exact value of the rest after each card in world `w` (aim applied), the declarer's side, what it
        has taken so far and the aim (what it ends with after card c: taken + aim * value)."""
        aim = _aim(w, self.measure)
        try:
            s = self._solver(w, aim)
        except NotInPlay:  # trumps fixed by the first lead: each card led, then solved
            return self._each(w, cards, aim)
        if s is None:
            return None
        base = counted(w, s.side, self.measure)
        steps = self._payment(w)[1]
        if steps:
            return banded(s, steps, base, aim), _side(s), base, aim
        vals = s.values(self._guess)
        best = max(vals.values()) if s.side[w.to_move] else min(vals.values())
        self._guess = best  # the position's value in this world: the next world's first guess
        return vals, _side(s), base, aim

    def _payment(self, w) -> tuple[Aim | None, tuple[int, ...]]:
        """The aim of the contract played in `w`, with its payment by amount (`Aim.worth`), and the amounts at
        which that payment steps (`Aim.thresholds`; none when its aim is not known); (None, ()) when there is
        no declarer."""
        c = w.contract
        if c is None or w.declarer < 0:
            return None, ()
        got = self._paid.get(c.index)
        if got is None:
            aim = contract_aim(w.rules, c, self.measure)
            got = self._paid[c.index] = (aim, aim.thresholds())
        return got

    def _each(self, w, cards: list[int], aim: int) -> tuple[dict[int, int], tuple[int, ...], int, int] | None:
        out = {}
        side: tuple[int, ...] = ()
        flags: tuple[bool, ...] = ()
        for c in cards:
            x = w.clone()
            x.apply(c)
            s = self._solver(x, aim) if x.phase == PLAY else None
            if s is None:
                return None
            side, flags = _side(s), s.side
            out[c] = aim * (counted(x, s.side, self.measure) - counted(w, s.side, self.measure)) + s.exact()
        return out, side, counted(w, flags, self.measure) if flags else 0, aim

    def _solver(self, state, aim: int) -> KernelSolver | None:
        s = KernelSolver.make(state, self.measure, aim, cache=self._searches, tt_bits=TT_BITS)
        if s is not None:
            s.search.limits(s.search.nodes + WORLD_NODES, None)
        return s


def banded(s: KernelSolver, steps: tuple[int, ...], base: int, aim: int) -> dict[int, int]:
    """Each legal card's value of the rest in as far as the payment depends on it: the side ends with `base` +
    `aim` * value, and the amounts that matter are `steps` (rising); a card's value is the one that ends the
    side on the highest step it reaches (one below the first, when it reaches none). The kernel finds the
    steps reached by null-window searches (`reached`), far cheaper than exact values."""
    n = len(steps)
    if aim > 0:  # the side ends on steps[i] or higher when the value reaches steps[i] - base
        on = s.reached([t - base for t in steps])
    else:  # ... when the value (its amount negated) does not reach base - steps[i] + 1
        on = {c: n - r for c, r in s.reached([base - t + 1 for t in reversed(steps)]).items()}
    return {c: aim * ((steps[r - 1] if r else steps[0] - 1) - base) for c, r in on.items()}


def best_card(legal: list[int], worth: dict[int, float], total: dict[int, float], mine: bool, greedy: int,
              power) -> int:
    """The card with the best summed expected payment (`worth`), then the best summed value (`total`), for the
    declarer's side (`mine`) or against it: greedy's card when it is among the best, else the one of least
    `power` (the cheapest)."""
    sign = 1 if mine else -1
    score = {c: (round(sign * worth[c], 6), round(sign * total[c], 6)) for c in legal}
    best = max(score.values())
    keep = [c for c in legal if score[c] == best]
    if greedy in keep:
        return greedy
    return min(keep, key=lambda c: (power[c], c))


def _aim(world, measure: str) -> int:
    """-1 when the declarer's side is known to want fewer of the measure (its contract is won by taking few),
    else +1."""
    c = world.contract
    return -1 if c is not None and world.declarer >= 0 and contract_aim(world.rules, c, measure).sign == -1 else 1


def _side(s: KernelSolver) -> tuple[int, ...]:
    return tuple(p for p, mine in enumerate(s.side) if mine)
