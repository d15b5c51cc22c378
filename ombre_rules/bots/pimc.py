"""The Monte-Carlo player (perfect-information Monte-Carlo): it deals the hidden cards anew in ways consistent
with its seat's view, plays every legal action out in each such world with the greedy player at every seat,
and chooses the action with the best average payment to itself."""
from __future__ import annotations

import random
import time

from ..engine import DONE
from ..engine.phases import EXCHANGE, PLAY
from .estimate import played_tables, tricks_allowed
from .greedy import GreedyPlayer, GreedyPolicy, card, discard, exchange_picker, is_exchange, low_card
from .sample import Knowledge, sample
from .seat import from_state, from_view, played_cards, world_partner, world_trick

DEFAULT_ROLLOUTS = 200


def playout(world, policy: GreedyPolicy, play=None) -> None:
    """Play a world to its end with the greedy policy at every seat; an exchange's choice (as greedy's `choose`
    routes it: no claim, no card to play) made from the world's masks without the seat's whole situation.
    `play(world, policy)`, when given, plays the play phase instead (it returns once the phase is over)."""
    r = world.rules
    nd, stop = r.A_DISCARD, r.A_STOP
    legal_actions = world.legal_actions
    apply = world.apply
    choose = policy.choose
    play = play or _play
    while world.phase != DONE:
        if world.phase == PLAY:
            play(world, policy)
            continue
        if world.phase == EXCHANGE:
            world.play_exchange(_exchanger(world))
            continue
        legal = legal_actions()
        if len(legal) == 1:
            apply(legal[0])
        elif legal[0] >= nd and stop not in legal and is_exchange(r, legal):
            seat = world.to_move
            hand = world.hands[seat]
            declarer = world.declarer
            apply(discard(r, seat, declarer if declarer >= 0 else None, world.contract, world.trump, hand,
                          r.deck.full_mask & ~(hand | world.discards[seat] | played_cards(world)), legal))
        else:
            apply(choose(from_state(world, world.to_move), legal))


def _exchanger(world):
    """Greedy's exchange for `world.play_exchange`, each seat knowing the places of its own cards and discards
    and of the cards played (none yet while the exchange goes on)."""
    full = world.rules.deck.full_mask
    hands, discards = world.hands, world.discards
    played = played_cards(world)
    return exchange_picker(world, lambda seat: full & ~(hands[seat] | discards[seat] | played))


def _play(world, policy: GreedyPolicy) -> None:
    """Play on while the world is in the play phase: greedy's card for every seat, worked out from what stays
    fixed through the phase (the rank tables, the seats playing, the declarer's aim) and the cards played,
    in the engine's loop of plain play (`State.play_tricks`); a choice other than a card (a claim, a
    concession) as greedy makes it from the seat's situation, and the first lead, when it fixes trumps, as
    any card."""
    r = world.rules
    nd = r.A_DISCARD
    contract = world.contract
    declarer = world.declarer if world.declarer >= 0 else None
    low = declarer is not None and tricks_allowed(r, contract) is not None
    sitters = r.sitting(world.dealer, world.stand_for)
    active = r.players - len(sitters) + (world.declarer in sitters)
    # the declarer's partner as each seat knows him: fixed through the play when there is none
    sides = None if world.partner >= 0 else [world_partner(world, seat) for seat in range(r.players)]
    hands, discards = world.hands, world.discards  # changed in place only
    trump = world.trump  # the tables as play begins (and again once the first lead fixes trumps)
    t = played_tables(r, contract, trump)
    full = t.full

    def pick(seat: int, cards: list[int], trick: list[tuple[int, int]], played: int) -> int:
        partner, hidden = world_partner(world, seat) if sides is None else sides[seat]
        unseen = full & ~(hands[seat] | discards[seat] | played)
        if low and declarer is not None:
            return low_card(t, seat, declarer, partner, hidden, unseen, trick, cards)
        return card(t, seat, declarer, partner, hidden, unseen, trick, active, cards)

    while world.phase == PLAY:
        if world.trump is not trump:  # trumps fixed by the first lead (contract `trump: first_lead`)
            trump = world.trump
            t = played_tables(r, contract, trump)
            full = t.full
        world.play_tricks(pick)
        if world.phase != PLAY:
            return
        legal = world.legal_actions()
        seat = world.to_move
        if len(legal) == 1:
            a = legal[0]
        elif legal[-1] >= nd:
            a = policy.choose(from_state(world, seat), legal)
        else:
            a = pick(seat, legal, world_trick(world), played_cards(world))
        world.apply(a)


class PimcPlayer:
    """Monte-Carlo player; its budget is a number of playouts per decision, or seconds per decision."""

    name = "pimc"
    view_actions = True
    forced_unseen = True  # one legal action is taken without a view
    prepare = staticmethod(GreedyPlayer.prepare)  # its play-outs play greedy

    def __init__(self, seed: int | None = None, rules=None, rollouts: int = DEFAULT_ROLLOUTS,
                 seconds: float | None = None, greedy_auction: bool = False, sampler=sample,
                 margin: float = 1.0) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.policy = GreedyPolicy(self.rng)
        self.rollouts = rollouts
        self.seconds = seconds
        self.sampler = sampler  # (knowledge, rng) -> a world consistent with it, or None
        self.greedy_auction = greedy_auction  # bid as the greedy player does, search everything else
        self.margin = margin  # the candidate replaces the greedy action when better by more than margin SEs
        self.fallbacks = 0  # decisions made greedily because no consistent world was found

    def act(self, view: dict, legal: list[int]) -> int:
        """Two stages. Half the budget plays every action out in the same worlds and names the best one
        other than greedy's as the candidate; the rest plays only the candidate and the greedy action out, in
        fresh worlds, and the candidate is chosen if there it pays more than the greedy action in more worlds
        than it pays less, and more on average by over `margin` standard errors. The fresh worlds keep the
        best of many noisy averages from passing for a real gain; counting worlds keeps a rare large gain
        from buying many small losses."""
        if len(legal) == 1:
            return legal[0]
        me = view["seat"]
        greedy = self.policy.choose(from_view(self.rules, view), legal)
        if self.greedy_auction and view["contract"] is None:
            return greedy
        k = Knowledge(self.rules, view)
        t0 = time.perf_counter()
        others = [a for a in legal if a != greedy]
        used = 0
        if len(others) > 1:
            half = t0 + self.seconds / 2 if self.seconds is not None else None
            diffs, used = self._search(k, me, greedy, others, self.rollouts // 2, half)
            if diffs is None:
                self.fallbacks += 1
                return greedy
            cand = max(others, key=lambda a: sum(diffs[a]))
            if sum(diffs[cand]) <= 0:
                return greedy
        else:
            cand = others[0]
        end = t0 + self.seconds if self.seconds is not None else None
        fresh, _ = self._search(k, me, greedy, [cand], self.rollouts - used, end)
        if fresh is None:
            self.fallbacks += 1
            return greedy
        d = fresh[cand]
        m, se = mean_se(d)
        wins = sum(1 for x in d if x > 0)
        losses = sum(1 for x in d if x < 0)
        return cand if wins > losses and m > self.margin * se else greedy

    def _search(self, k: Knowledge, me: int, greedy: int, acts: list[int], budget: int,
                deadline: float | None) -> tuple[dict[int, list[float]] | None, int]:
        """Per action of `acts`, its payment minus the greedy action's in each of a run of sampled worlds,
        until `budget` play-outs (or the deadline) are spent; None when no world could be sampled."""
        diffs: dict[int, list[float]] = {a: [] for a in acts}
        done = 0
        per = len(acts) + 1
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and done:
                    break
            elif done + per > max(budget, per):
                break
            w = self.sampler(k, self.rng)
            if w is None:
                break
            base = self._payout(w, greedy, me)
            for a in acts:
                diffs[a].append(self._payout(w, a, me) - base)
            done += per
        return (diffs if done else None), done

    def _payout(self, world, a: int, me: int) -> int:
        """`me`'s payment when action `a` is taken in `world` (left unchanged) and greedy plays out the rest."""
        x = world.clone()
        x.apply(a)
        playout(x, self.policy)
        return x.res.payments[me]  # the payments kept at the end (the result without its account)


def mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, abs(m)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, (var / n) ** 0.5
