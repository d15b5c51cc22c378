"""Whole random deals in the kernel (`_ckernel.Deals`, kernel/src/deals.c): the loop of `bench.run` — a seed drawn,
the deal dealt, `random_playout`, the settlement — with the same random numbers, so every deal ends as the engine
would end it.

`deals(rules)` lowers a ruleset into the machine's tables once: the deal as a permutation of the shuffled pack
(checked), the ante per dealer, the auction as the tree of legal lists this module explores with the engine (only
where its rules read nothing but the seats, and the same tree from two deals of other cards), each contract's
trump, exchange limits, claim and play tables, the settlement programs (`ruleset/machine.py`, reading only what the
machine knows of a deal). A ruleset with a mechanic the machine does not play gets None and `why_not` says which;
bench then plays it in Python. `play` runs the machine and plays in Python each deal it hands back (a claim to
decide, a settlement it declines), from the same random numbers. `tests/test_whole.py` checks that every deal comes
out as the engine's."""
from __future__ import annotations

import random
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any

from .. import kernel
from ..cards import bits
from ..envs import SEAT_VARS
from ..ruleset import Ruleset
from ..ruleset.machine import facts_program
from .phases import AUCTION, DONE, EXCHANGE, PLAY, TRUMP
from .settle import PASSED_OUT
from .state import State

MAX_NODES = 50_000  # auction positions explored at most
_SEEDS = (12345, 67890)  # the two deals the auction is explored on
_FIRST_LEADER_READS = SEAT_VARS | {"declarer"}


class Unsupported(Exception):
    """A mechanic the machine does not play (the ruleset's deals stay in Python)."""


def _check(ok: bool, why: str) -> None:
    if not ok:
        raise Unsupported(why)


def _refusal(rules: Ruleset) -> None:
    _check(kernel.BUILT, "the kernel is not built")
    _check(rules.deck.size <= kernel.MAX_CARDS, "a deck of more than 64 cards")
    _check(rules.players <= 8, "more than 8 seats")
    for name in ("carry", "cut", "turn_up_from", "lay_away", "stand_in", "defence", "doubling", "announce", "alone",
                 "excuse", "demands", "team_of", "opening"):
        _check(getattr(rules, name) is None, f"{name}")
    _check(not rules.may_raise, "raises after the auction")
    _check(rules.ante is None or rules.ante_static, "an ante that reads more than the seats")
    # the auction's tree is explored once per dealer: nothing it asks may read more than the seats (not the
    # cards, not the pool)
    _check(not rules.bid_conditions and not rules.compulsory, "bid conditions or compulsory bids")
    au = rules.auction
    asks = [au.first, au.force_who, au.accept.late if au.accept is not None else None]
    asks += [e for b in au.branches for e in (b.when, b.who)]
    _check(all(e is None or e.uses <= SEAT_VARS for e in asks), "an auction rule that reads more than the seats")


def _deal_places(rules: Ruleset) -> tuple[list[int], int]:
    """Per dealer, per place in the shuffled pack, the seat it is dealt to (or players + its place in the
    talon); the talon's size. The deal must be a permutation of places, the same for any pack."""
    n, nc = rules.players, rules.deck.size
    dest: list[int] = []
    sizes = set()
    for d in range(n):
        hands, _hl, talon = rules.deal(list(range(nc)), d)
        place = [-1] * nc
        for s, m in enumerate(hands):
            for c in bits(m):
                place[c] = s
        for j, c in enumerate(talon):
            place[c] = n + j
        _check(-1 not in place, "a deal that leaves cards out")
        sizes.add(len(talon))
        order = list(range(nc))
        random.Random(d).shuffle(order)
        hands2, _hl2, talon2 = rules.deal(order, d)
        want = [0] * n
        for p, c in enumerate(order):
            if place[p] < n:
                want[place[p]] |= 1 << c
        _check(list(hands2) == want and list(talon2) == [order[p] for p in sorted(
            range(nc), key=lambda p: place[p]) if place[p] >= n], "a deal that is not a fixed order of places")
        dest += place
    _check(len(sizes) == 1, "talons of different sizes")
    return dest, sizes.pop()


def _explore(rules: Ruleset, seed: int) -> tuple[list[int], list[int], list[int], list[int], list[tuple[int, ...]]]:
    """The auction's tree for each dealer from the deal of `seed`, positions numbered in the order they are
    reached (breadth first): roots, where each position's actions start (and the end), the actions, their
    children (a position, or -(terminal + 1)), the terminals (kind, declarer, contract)."""
    roots: list[int] = []
    off: list[int] = []
    acts: list[int] = []
    child: list[int] = []
    terms: list[tuple[int, ...]] = []
    term_ids: dict[tuple[int, ...], int] = {}
    queue: deque[State] = deque()
    count = 0
    for d in range(rules.players):
        root = State(rules, seed=seed, dealer=d)
        _check(root.phase == AUCTION, "a deal that does not open with the auction")
        roots.append(count)
        count += 1
        queue.append(root)
        while queue:
            s = queue.popleft()
            off.append(len(acts))
            legal = s.legal_actions()
            _check(len(legal) > 0, "an auction position without an action")
            for a in legal:
                t = s.clone()
                before = len(t.history)
                t.apply(a)
                _check(t.history[before:] == [a], "an auction action that records more than itself")
                acts.append(a)
                if t.phase == AUCTION:
                    _check(count < MAX_NODES, "an auction of too many positions")
                    child.append(count)
                    count += 1
                    queue.append(t)
                else:
                    key = _terminal(t)
                    if key not in term_ids:
                        term_ids[key] = len(terms)
                        terms.append(key)
                    child.append(-term_ids[key] - 1)
    off.append(len(acts))
    return roots, off, acts, child, terms


def _terminal(t: State) -> tuple[int, ...]:
    """How the auction ended: all passed (0), a contract played (1) or not played (2), with its declarer."""
    _check(t.partner < 0, "a partner made in the auction")
    if t.phase == DONE and t.contract is None:
        return (0, -1, -1)
    _check(t.contract is not None and t.declarer >= 0, f"an auction that ends in phase {t.phase_name}")
    assert t.contract is not None
    if t.phase == DONE:
        return (2, t.declarer, t.contract.index)
    _check(t.phase in (TRUMP, EXCHANGE, PLAY), f"an auction that ends in phase {t.phase_name}")
    return (1, t.declarer, t.contract.index)


_TRUMP_MODES = {"named": 0, "turned": 1, "fixed": 2, "none": 3}


def _contract_rows(rules: Ruleset, begun: set[int]) -> tuple[list[int], list[Any]]:
    """Per contract: trump mode, fixed suit, whether defenders exchange, whether the first defender may cede,
    the limits (declarer, first defender, others: min and max), the claim's trick (-1: none), whether followers
    answer the highest card; and its claim condition's program. A contract the auction can begin must have
    only what the machine plays."""
    rows: list[int] = []
    claims: list[Any] = []
    for c in rules.contracts:
        ex, play = c.exchange, c.play
        lims = (ex.declarer, ex.first, ex.other)
        mode = _TRUMP_MODES.get(c.trump_mode, -1)
        claim = None
        if c.index in begun:
            _check(mode >= 0, f"trumps by '{c.trump_mode}'")
            _check(mode != 0 or (c.trump_allowed is None and not c.trump_after_exchange),
                   "trumps named under a condition or after the exchange")
            _check(all(x.min_const is not None and x.max_const is not None for x in lims),
                   "exchange limits that are not numbers")
            _check(not ex.take_talon and not ex.show_talon, "the talon taken or shown")
            for name in ("concede", "surrender", "end_when"):
                _check(getattr(play, name) is None, f"play.{name}")
            _check(c.call is None and c.lay_away is None and not c.demands and c.show is None,
                   "a call, a lay-away, demands or cards shown")
            _check(play.first_leader.uses <= _FIRST_LEADER_READS, "a first leader that reads the deal")
            if play.claim is not None:
                claim = facts_program(play.claim[1], rules, expr=True)
                _check(claim is not None, "a claim condition the machine cannot ask")
        rows += [max(mode, 0), c.fixed_suit.index if c.fixed_suit is not None else -1, int(ex.defenders),
                 int(ex.defender_first == "ceded")]
        for x in lims:  # a limit below 0 counts as 0, as the engine counts it
            rows += [max(0, x.min_const or 0), max(0, x.max_const or 0)]
        rows += [play.claim[0] if play.claim is not None else -1, int(play.follow_highest)]
        claims.append(claim)
    return rows, claims


def _lower(rules: Ruleset) -> Any:
    _refusal(rules)
    n, deck = rules.players, rules.deck
    nc, suits = deck.size, deck.suits
    dest, talon = _deal_places(rules)
    tree = _explore(rules, _SEEDS[0])
    _check(tree == _explore(rules, _SEEDS[1]), "an auction whose choices depend on the cards")
    roots, off, acts, child, terms = tree
    begun = {t[2] for t in terms if t[0] == 1}
    sitters = {s for d in range(n) for s in rules.sitters[d]}
    _check(not {t[1] for t in terms if t[0] != 0} & sitters, "a seat sitting out that may declare")
    ante_pay: list[int] = []
    ante_pool: list[int] = []
    orders: list[int] = []
    rings: list[int] = []
    tn = rules.active
    dealt = [State(rules, seed=_SEEDS[0], dealer=d) for d in range(n)]  # a deal per dealer, as it opens
    for d, s in enumerate(dealt):
        ante_pay += s.payments
        ante_pool.append(s.pool)
        for seat in range(n):
            o = list(rules.orders[d][seat])
            orders += (o + [0] * tn)[:tn]
        rings += list(rules.rings[d])
    cons, claims = _contract_rows(rules, begun)
    first: list[int] = []
    for c in rules.contracts:
        for d in range(n):
            for decl in range(n):
                if c.index in begun and decl not in rules.sitters[d]:
                    s = dealt[d].clone()
                    s.declarer, s.contract = decl, c
                    first.append(s._seat_in_play(c.play.first_leader))
                else:
                    first.append(0)
    tables: list[Any] = []
    orders_of_trumps: list[tuple[int, ...]] = []
    for c in rules.contracts:
        mode = _TRUMP_MODES.get(c.trump_mode, -1)
        for suit in (None, *suits):
            if c.index in begun and ((mode == 3) == (suit is None)) and (mode != 2 or suit is c.fixed_suit):
                ctx = rules.context(c.ranking, suit)
                tables.append(kernel.tables(ctx, c.follow_id))
                _check(tables[-1] is not None, "follow rules the play kernel does not take")
                orders_of_trumps.append(tuple(ctx.trump_order))
            else:
                tables.append(None)
                orders_of_trumps.append(())
    settle = [facts_program(c.finish, rules) for c in rules.contracts] + [facts_program(rules.finish_all_pass, rules)]
    _check(None not in settle, "a settlement that reads what the machine does not know of a deal")
    header = (n, nc, len(suits), rules.A_DISCARD, rules.A_DRAW, rules.A_CEDE, rules.A_TRUMP, talon, tn,
              len(rules.contracts))
    return kernel.deals(header, tuple(rules.next_seat), tuple(dest), tuple(ante_pay), tuple(ante_pool),
                        tuple(orders), tuple(roots), tuple(off), tuple(acts), tuple(child),
                        tuple(x for t in terms for x in t), tuple(cons), tuple(first),
                        tuple(deck.cards[c].suit.index for c in range(nc)), tuple(tables), tuple(orders_of_trumps),
                        tuple(settle), tuple(claims), tuple(rings))


_MACHINES: weakref.WeakKeyDictionary[Ruleset, tuple[Any, str]] = weakref.WeakKeyDictionary()


def _machine(rules: Ruleset) -> tuple[Any, str]:
    got = _MACHINES.get(rules)
    if got is None:
        try:
            got = (_lower(rules), "")
        except Unsupported as ex:
            got = (None, str(ex))
        _MACHINES[rules] = got
    return got


def deals(rules: Ruleset) -> Any:
    """The kernel's machine for the ruleset's random deals, made once; None where it does not play them."""
    return _machine(rules)[0] if kernel.BUILT else None


def why_not(rules: Ruleset) -> str:
    """Why the machine does not play the ruleset's deals ("" when it does)."""
    return _machine(rules)[1] if kernel.BUILT else "the kernel is not built"


class Tally:
    """What a run of deals gives `bench.run`: deals by contract and by outcome, actions; and what goes on from
    deal to deal: the dealer, the pool, the values carried (`session.carry`)."""

    def __init__(self, dealer: int, pool: int) -> None:
        self.contracts: dict[str, int] = {}
        self.outcomes: dict[str, int] = {}
        self.actions = 0
        self.dealer = dealer
        self.pool = pool
        self.carry: tuple[Any, ...] | None = None

    def add_contract(self, name: str, n: int = 1) -> None:
        self.contracts[name] = self.contracts.get(name, 0) + n

    def add_outcome(self, name: str, n: int = 1) -> None:
        self.outcomes[name] = self.outcomes.get(name, 0) + n


MAX_POOL = 1 << 50  # the machine takes a pool of at most this size (a larger one: the engine plays on)


def play(rules: Ruleset, machine: Any, deals: int, rng: random.Random, tally: Tally,
         rows: list[Any] | None = None, python: Callable[[State], None] | None = None) -> int:
    """Play `deals` deals as `bench.run` does, from `rng` (its state moves on as the engine's would), into
    `tally`; a deal the machine hands back is played by the engine (then `python(state)` is told). `rows`,
    when given, gets per deal (history, payments, pool after). Returns how many deals the engine played."""
    names = [c.name for c in rules.contracts] + [PASSED_OUT]
    strings = [p.strings for p in machine.settle]
    back = 0
    left = deals
    while left > 0:
        if abs(tally.pool) > MAX_POOL:
            _engine_deal(rules, rng.getrandbits(32), rng, tally, rows, python)
            back += 1
            left -= 1
            continue
        version, state, gauss = rng.getstate()
        done, state, tally.dealer, tally.pool, actions, counts, outcomes, pending, got = machine.run(
            left, state, tally.dealer, tally.pool, rows is not None)
        rng.setstate((version, state, gauss))
        left -= done
        tally.actions += actions
        for i, k in enumerate(counts):
            if k:
                tally.add_contract(names[i], k)
        for (prog, sid), k in outcomes.items():
            tally.add_outcome(strings[prog][sid], k)
        if rows is not None:
            rows += got
        if pending is not None:  # a deal for the engine, from the random numbers after its seed
            seed, _dealer, _pool, state = pending
            rng.setstate((version, state, gauss))
            _engine_deal(rules, seed, rng, tally, rows, python)
            back += 1
            left -= 1
    return back


def engine_deal(rules: Ruleset, seed: int, rng: random.Random, tally: Tally, api: bool = False) -> State:
    """One deal of `bench.run`'s loop played by the engine, its seed drawn: with `random_playout`, or (`api`)
    the public loop `legal_actions`/`apply`, which takes the same actions; counted into `tally`."""
    s = State(rules, seed=seed, dealer=tally.dealer, pool=tally.pool, session=tally.carry)
    rand = rng.random  # a uniform pick as legal[int(rand() * len(legal))], cheaper than rng.choice
    if api:
        legal, apply = s.legal_actions, s.apply
        while s.phase != DONE:
            acts = legal()
            apply(acts[int(rand() * len(acts))])
    else:
        s.random_playout(rand)
    res = s.res  # the result as _finish kept it (State.result adds the account, not needed here)
    assert res is not None  # played to its end
    counts, name = tally.contracts, res.contract or PASSED_OUT
    counts[name] = counts.get(name, 0) + 1
    counts, name = tally.outcomes, res.outcome
    counts[name] = counts.get(name, 0) + 1
    tally.actions += len(s.history)
    tally.pool = res.pool_after
    tally.carry = s.carry_after
    tally.dealer = rules.next_seat[tally.dealer]
    return s


def _engine_deal(rules: Ruleset, seed: int, rng: random.Random, tally: Tally, rows: list[Any] | None,
                 python: Callable[[State], None] | None) -> None:
    """A deal the machine does not play, played by the engine (and kept in `rows`, told to `python`)."""
    s = engine_deal(rules, seed, rng, tally)
    res = s.res
    assert res is not None  # played to its end
    if rows is not None:
        rows.append((tuple(s.history), res.payments, res.pool_after))
    if python is not None:
        python(s)
