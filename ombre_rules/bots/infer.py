"""Worlds weighed by what the other seats chose before the play: a sampler for the Monte-Carlo players that
reads the auction as players read it. A seat that bid high, or named a suit, or passed, most likely holds
a hand with which it would do so; a world that deals it cards with which it would not is less likely.

The model of the others is the greedy player: as a sampled world replays the deal, each bid, trump, defence or
take-over that another seat made in the open (`INFERRED`, any phase whose choice follows from the hand and
shows no card) is set against greedy's choice with that seat's cards of the world. A world survives each
choice greedy would have made otherwise with probability `slack` (rejection sampling of the likelihood
slack^mismatches: the others need not be greedy players, but a world in which they chose as greedy would is
the likelier one). A view in which no such world is found in `tries` attempts gets a world of the plain
sampler (`sample.sample`), as every world was before."""
from __future__ import annotations

import random

from ..engine import State
from ..engine.phases import ALONE, ANNOUNCE, AUCTION, DEFEND, TAKEOVER, TRUMP
from .greedy import GreedyPolicy
from .sample import Knowledge, _try, sample
from .seat import from_state

INFERRED = frozenset((AUCTION, TRUMP, DEFEND, ALONE, TAKEOVER, ANNOUNCE))
SLACK = 0.1  # the chance that a world survives one choice greedy would have made otherwise
TRIES = 40  # worlds tried before the plain sampler's


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
        if not k.consistent:
            return None
        choose = self.policy.choose
        slack = self.slack

        def check(w: State, seat: int, a: int) -> bool:
            if w.phase not in INFERRED:
                return True
            legal = w.legal_actions()
            if len(legal) < 2 or a not in legal or choose(from_state(w, seat), legal) == a:
                return True
            if rng.random() < slack:
                return True
            self.dropped += 1
            return False

        for _ in range(self.tries):
            w = _try(k, rng, check)
            if w is not None:
                return w
        self.plain += 1
        return sample(k, rng)
