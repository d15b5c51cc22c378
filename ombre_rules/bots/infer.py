"""Worlds weighed by what the other seats chose before the play: a sampler for the Monte-Carlo players that
reads the auction as players read it. A seat that bid high, or named a suit, or passed, most likely holds
a hand with which it would do so; a world that deals it cards with which it would not is less likely.

The model of the others is the greedy player: as a sampled world replays the deal, each bid, trump, defence or
take-over that another seat made in the open (`INFERRED`, any phase whose choice follows from the hand and
shows no card) is set against greedy's choice with that seat's cards of the world. A world survives each
choice greedy would have made otherwise with probability `slack` (rejection sampling of the likelihood
slack^mismatches: the others need not be greedy players, but a world in which they chose as greedy would is
the likelier one). A view in which no such world is found in `tries` attempts gets a world of the plain
sampler (`sample.sample`), as every world was before.

The cards the others played weigh a world too, for a player that sums over its worlds (`Inferred.weighed`):
as the world replays the play, each card another seat chose among n legal ones is set against greedy's card
with that seat's cards of the world, and the world's weight is the likelihood of those cards when a seat plays
greedy's card with probability CARD_MATCH and each other one with an equal share of the rest. Weights rather
than rejection: most worlds differ from greedy somewhere in a long play, and a rejected world has cost its
replay."""
from __future__ import annotations

import random

from ..engine import State
from ..engine.phases import ALONE, ANNOUNCE, AUCTION, DEFEND, PLAY, TAKEOVER, TRUMP
from .greedy import GreedyPolicy, trick_picker
from .sample import Knowledge, _try
from .seat import from_state, played_cards, world_trick

INFERRED = frozenset((AUCTION, TRUMP, DEFEND, ALONE, TAKEOVER, ANNOUNCE))
SLACK = 0.1  # the chance that a world survives one choice greedy would have made otherwise
TRIES = 40  # worlds tried before the plain sampler's
PLAIN_TRIES = 20  # then the plain sampler's tries (as `sample.sample` makes them)
CARD_MATCH = 0.75  # the chance that another seat plays the card greedy would play (`Inferred.weighed`)


class Inferred:
    """A sampler (`(knowledge, rng) -> world or None`, as `sample.sample`) that weighs each world by how far
    greedy players with its cards would have chosen as the other seats did; its own policy is seeded, so a
    seeded bot stays replayable."""

    def __init__(self, seed: int | None = None, slack: float = SLACK, tries: int = TRIES) -> None:
        if not 0.0 <= slack <= 1.0:
            raise ValueError(f"slack must lie in [0, 1], not {slack}")
        self.policy = GreedyPolicy(seed=seed)
        self.slack = slack
        self.tries = tries
        self.dropped = 0  # worlds dropped for a choice greedy would not have made (for tests and reports)
        self.plain = 0  # views for which the plain sampler's world was taken

    def __call__(self, k: Knowledge, rng: random.Random) -> State | None:
        got = self._world(k, rng, False)
        return got[0] if got is not None else None

    def weighed(self, k: Knowledge, rng: random.Random) -> tuple[State, float] | None:
        """A world as `__call__` samples it and its weight: the likelihood of the cards the other seats played
        in it, relative to a world in which each played the card greedy would have played there (a seat plays
        greedy's card with probability CARD_MATCH, any other legal card with an equal share of the rest)."""
        return self._world(k, rng, True)

    def _world(self, k: Knowledge, rng: random.Random, cards: bool) -> tuple[State, float] | None:
        if not k.consistent:
            return None
        choose = self.policy.choose
        slack = self.slack
        nd = k.rules.A_DISCARD
        weight = 1.0
        picker: list = [None, None]  # the world's greedy card picker and the trump it was made for
        bids = True  # choices before the play checked (off for the plain sampler's world)

        def check(w: State, seat: int, a: int) -> bool:
            nonlocal weight
            if w.phase == PLAY:
                if cards and a < nd and not w.trump_open:
                    legal = [x for x in w.legal_actions() if x < nd]
                    if len(legal) > 1 and a in legal:
                        if picker[0] is None or picker[1] is not w.trump:
                            picker[0], picker[1] = trick_picker(w), w.trump
                        if picker[0](seat, legal, world_trick(w), played_cards(w)) != a:
                            weight *= (1.0 - CARD_MATCH) / ((len(legal) - 1) * CARD_MATCH)
                return True
            if not bids or w.phase not in INFERRED:
                return True
            legal = w.legal_actions()
            if len(legal) < 2 or a not in legal or choose(from_state(w, seat), legal) == a:
                return True
            if rng.random() < slack:
                return True
            self.dropped += 1
            return False

        for i in range(self.tries + PLAIN_TRIES):
            if i == self.tries:  # then the plain sampler's world (`sample`'s tries), its cards still weighed
                self.plain += 1
                bids = False
            weight = 1.0
            picker[0] = None
            w = _try(k, rng, check if cards or bids else None)
            if w is not None:
                return w, weight
        return None
