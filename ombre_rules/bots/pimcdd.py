"""The Monte-Carlo player over double-dummy solves (`pimcdd`): it deals the hidden cards anew in worlds
consistent with its seat's view (the sampler of `pimc`), and in each world looks at every legal action with all
hands open.

- A card (every legal action a card): the exact double-dummy value of the rest after each card, for the
  declarer's side (its tricks, or card points on a deck that counts them; fewer when the contract is won by
  taking few): the card with the best total over the worlds is played, greedy's card on a tie. The values come
  from the compiled kernel (`solve.fast`); a position it cannot search (an excuse card still to come, a deck
  beyond it) is left to `pimc` with as many play-outs as worlds x cards.
- Any other choice (a bid, a discard or the draw, a trump, a stop after a claim, a concession, a defence):
  each action is played out in each world, the rest of the auction and exchange by greedy players and the
  play double-dummy (each card the first that keeps its side's value), and settled by the engine: the action
  with the most payment to the seat over the worlds is chosen, greedy's action unless another pays more in
  more worlds than it pays less, and more on average by over `margin` standard errors (as `pimc` decides)."""
from __future__ import annotations

import random
import time

from ..engine.phases import PLAY
from ..solve.analysis import auto_measure
from ..solve.fast import KernelSolver, counted
from ..solve.search import NotInPlay
from .estimate import tricks_allowed
from .greedy import GreedyPlayer, GreedyPolicy
from .pimc import PimcPlayer, mean_se, playout
from .sample import Knowledge, sample
from .seat import from_state, from_view

DEFAULT_WORLDS = 20
TT_BITS = 14  # the transposition table of one game's search: 4 * 2**14 entries


class PimcddPlayer:
    """Monte-Carlo player over double-dummy solves; its budget is a number of worlds a decision, or seconds."""

    name = "pimcdd"
    view_actions = True
    forced_unseen = True  # one legal action is taken without a view
    prepare = staticmethod(GreedyPlayer.prepare)  # greedy bids and exchanges in its play-outs

    def __init__(self, seed: int | None = None, rules=None, worlds: int = DEFAULT_WORLDS,
                 seconds: float | None = None, sampler=sample, margin: float = 1.0) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.policy = GreedyPolicy(self.rng)
        self.worlds = worlds
        self.seconds = seconds
        self.sampler = sampler
        self.margin = margin
        self.measure = auto_measure(rules) if rules is not None else "tricks"
        self.fallbacks = 0  # decisions made greedily because no consistent world was found
        self._searches: dict = {}  # the kernel's searches by game (a table each), kept from world to world
        self._pimc: PimcPlayer | None = None

    def act(self, view: dict, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        r = self.rules
        greedy = self.policy.choose(from_view(r, view), legal)
        k = Knowledge(r, view)
        me = view["seat"]
        if view["phase"] in ("play", "xplay") and legal[-1] < r.A_DISCARD:
            got = self._cards(k, me, legal, greedy)
            if got is not None:
                return got
            if self._pimc is None:
                self._pimc = PimcPlayer(self.rng.getrandbits(32), r, rollouts=self.worlds * len(legal),
                                        seconds=self.seconds)
            return self._pimc.act(view, legal)
        return self._actions(k, me, legal, greedy)

    # -- cards: double-dummy values summed over the worlds -------------------------------------------------
    def _cards(self, k: Knowledge, me: int, legal: list[int], greedy: int) -> int | None:
        """The card with the best total double-dummy value over the worlds (greedy's on a tie); None when a
        world's position is one the kernel cannot search."""
        total = dict.fromkeys(legal, 0)
        done = 0
        mine = None
        end = time.perf_counter() + self.seconds if self.seconds is not None else None
        while (done < self.worlds) if end is None else (not done or time.perf_counter() < end):
            w = self.sampler(k, self.rng)
            if w is None:
                break
            got = self._values(w, legal)
            if got is None:
                return None
            vals, side = got
            mine = me in side
            for c in legal:
                total[c] += vals[c]
            done += 1
        if not done:
            self.fallbacks += 1
            return greedy
        best = max(total.values()) if mine else min(total.values())
        keep = [c for c in legal if total[c] == best]
        return greedy if greedy in keep else keep[0]

    def _values(self, w, cards: list[int]) -> tuple[dict[int, int], tuple[int, ...]] | None:
        """The exact value of the rest after each card in world `w` (aim applied), and the declarer's side."""
        aim = _aim(w)
        try:
            s = KernelSolver.make(w, self.measure, aim, cache=self._searches, tt_bits=TT_BITS)
        except NotInPlay:  # trumps fixed by the first lead: each card led, then solved
            return self._each(w, cards, aim)
        if s is None:
            return None
        return s.values(), _side(s)

    def _each(self, w, cards: list[int], aim: int) -> tuple[dict[int, int], tuple[int, ...]] | None:
        out = {}
        side = None
        for c in cards:
            x = w.clone()
            x.apply(c)
            s = KernelSolver.make(x, self.measure, aim, cache=self._searches, tt_bits=TT_BITS) if x.phase == PLAY else None
            if s is None:
                return None
            side = _side(s)
            out[c] = aim * (counted(x, s.side, self.measure) - counted(w, s.side, self.measure)) + s.exact()
        return out, side

    # -- other choices: play-outs, the play double-dummy, settled --------------------------------------------
    def _actions(self, k: Knowledge, me: int, legal: list[int], greedy: int) -> int:
        """The action that pays most over the worlds, each played out (greedy's unless another is surely
        better: more worlds where it pays more than where it pays less, a mean gain over `margin` SEs)."""
        diffs: dict[int, list[int]] = {a: [] for a in legal if a != greedy}
        done = 0
        end = time.perf_counter() + self.seconds if self.seconds is not None else None
        while (done < self.worlds) if end is None else (not done or time.perf_counter() < end):
            w = self.sampler(k, self.rng)
            if w is None:
                break
            base = self._payout(w, greedy, me)
            for a in diffs:
                diffs[a].append(self._payout(w, a, me) - base)
            done += 1
        if not done:
            self.fallbacks += 1
            return greedy
        cand = max(diffs, key=lambda a: sum(diffs[a]))
        d = diffs[cand]
        m, se = mean_se(d)
        wins = sum(1 for x in d if x > 0)
        losses = sum(1 for x in d if x < 0)
        return cand if wins > losses and m > self.margin * se else greedy

    def _payout(self, world, a: int, me: int) -> int:
        """`me`'s payment when action `a` is taken in `world` (left unchanged) and the deal is played out."""
        x = world.clone()
        x.apply(a)
        playout(x, self.policy, self._dd_play)
        return x.res.payments[me]

    def _dd_play(self, world, policy: GreedyPolicy) -> None:
        """The play phase of a play-out: the cards double-dummy where the kernel can search the position (a line
        of play that keeps each side's value), the rest (a claim, a concession, trumps the first lead fixes, an
        excuse card) as greedy chooses."""
        nd = world.rules.A_DISCARD
        aim = _aim(world)
        while world.phase == PLAY:
            legal = world.legal_actions()
            s = None
            if legal[-1] < nd and not world.trump_open:
                s = KernelSolver.make(world, self.measure, aim, cache=self._searches, tt_bits=TT_BITS)
            if s is None:
                world.apply(legal[0] if len(legal) == 1 else policy.choose(from_state(world, world.to_move), legal))
                continue
            for c in s.line():  # until the deal ends or a choice other than a card opens
                if world.phase != PLAY or (world.claim_pending or world.concede_ok) and world.legal_actions()[-1] >= nd:
                    break
                world.apply(c)


def _aim(world) -> int:
    """+1 when the declarer's side wants tricks, -1 when its contract is won by taking few."""
    c = world.contract
    return -1 if c is not None and world.declarer >= 0 and tricks_allowed(world.rules, c) is not None else 1


def _side(s: KernelSolver) -> tuple[int, ...]:
    return tuple(p for p, mine in enumerate(s.side) if mine)
