"""Deals steered to one contract: the auction bids it whenever it may (and passes otherwise), so that the
forced contracts and those of an all-pass round are reached too; the steps after the auction are taken by a
fixed rule (or, for the worked deals, by a bot). Used by the payment schedules (a deal stopped where play
begins) and the worked deals (a deal played to its end)."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import islice, product
from typing import Any

from ..engine import State
from ..engine.phases import CALL, DEFEND, DONE, PLAY, SURRENDER

SEEDS = 40  # deals tried before a contract counts as not reached from the session's start values
SESSIONS = 12  # session values tried (the start values first), however many values a file carries


def bids_of(rules: Any, contract: Any) -> frozenset[int]:
    """The bid actions of a contract: its own and those of its suit bids."""
    return frozenset(rules.A_BID + c.index for c in rules.contracts if c is contract or c.base is contract)


def _before_play(st: State, rng: random.Random) -> int:
    """The fixed choice of a step between the auction and play: a called card held by another seat (a partner),
    every defender playing, otherwise a random legal action."""
    acts = st.legal_actions()
    r = st.rules
    if st.phase == CALL:
        others = [a for a in acts if a >= r.A_CALL and not st.hands[st.declarer] >> (a - r.A_CALL) & 1]
        return others[0] if others else acts[0]
    if st.phase == DEFEND and r.A_FOLLOW in acts:
        return r.A_FOLLOW
    if st.phase == SURRENDER and not st.play_hands:  # a surrender offered during the exchange: play on
        return r.A_CONTINUE
    return acts[rng.randrange(len(acts))]


def steer(st: State, bids: frozenset[int], rng: random.Random,
          after: Callable[[State, random.Random], int] | None = None, to_end: bool = False) -> bool:
    """Drive a deal to one contract (any of `bids`): the auction bids it when legal, else passes; the later steps
    by `after` (default: the fixed choices above). Stops where play begins (or when the deal is over), or with
    `to_end` at the end. False when the deal reached another contract or none."""
    r = st.rules
    target = r.contracts[min(bids) - r.A_BID]
    while not st.is_terminal:
        if st.contract is not None:
            if st.contract != target:
                return False
            if not to_end and (st.phase == PLAY or st.phase == SURRENDER and st.play_hands):
                return True
            st.apply((after or _before_play)(st, rng))
            continue
        acts = st.legal_actions()
        hit = [a for a in acts if a in bids]
        st.apply(hit[0] if hit else r.A_PASS if r.A_PASS in acts else acts[rng.randrange(len(acts))])
    return st.contract == target and st.phase == DONE


def session_choices(rules: Any) -> Iterator[dict | None]:
    """The session's start values, then other values of the carried values (each suit of a suit, a few numbers):
    a contract that may only be bid once a value is set is reached with one of them."""
    yield None
    carry = rules.carry
    if carry is None:
        return
    options: list[list[Any]] = []
    for t, start in zip(carry.types, carry.start, strict=True):
        if t == "suit":
            options.append([start] + [s.name for s in rules.deck.suits])
        elif t == "bool":
            options.append([start, not start])
        elif t == "int":
            options.append([start, start + 1])
        else:
            options.append([start])
    for values in product(*options):
        given = {n: (v.name if hasattr(v, "name") else v) for n, v in zip(carry.names, values, strict=True)
                 if v != carry.start[carry.names.index(n)]}
        if given:
            yield given


def reach(rules: Any, contract: Any, seeds: int = SEEDS) -> State | None:
    """A deal stopped where play begins with the contract (or over, for one settled without play), from the
    first seed and session values that reach it; None when none does."""
    bids = bids_of(rules, contract)
    for session in islice(session_choices(rules), SESSIONS):
        for seed in range(seeds):
            st = State(rules, seed=seed, session=session)
            if steer(st, bids, random.Random(seed)):
                return st
    return None
