"""Worked deals played by the engine: for each contract, deals from fixed seeds with the bidding steered to it and
every other choice made by the greedy bot, and the first deal of each outcome reached shown with its account,
the seats named by their roles (the declarer, forehand, the dealer, …)."""
from __future__ import annotations

import random
import re
from itertools import islice
from typing import Any

from ..engine import State
from ..explain.account import POOL
from ..players import act, make_player
from .steer import SESSIONS, bids_of, session_choices, steer
from .words import cap, join

DEALS = 24  # deals tried per contract
# an account's reason kept only when it is named terms with their values (`value 5 + estuches 2 = 7`)
_WHY = re.compile(r"^[A-Za-z' ]+ -?\d+( [+-] [A-Za-z' ]+ -?\d+)* = -?\d+$")


def worked(rules: Any, contract: Any, outcomes: list[str], deals: int = DEALS) -> dict[str, State]:
    """Per outcome: the first deal from seed 0 on that ends in it, the bidding steered to the contract."""
    found: dict[str, State] = {}
    bot = make_player("greedy", 0, rules)
    bids = bids_of(rules, contract)
    for session in islice(session_choices(rules), SESSIONS):
        for seed in range(deals):
            st = State(rules, seed=seed, session=session)
            if steer(st, bids, random.Random(seed), lambda s, _r: act(bot, s, s.current_player), to_end=True):
                assert st.res is not None  # played to its end
                found.setdefault(st.res.outcome, st)
                if set(outcomes) <= set(found):
                    return found
        if found:
            return found
    return found


class Seats:
    """The seats of one finished deal by role."""

    def __init__(self, st: State, w: Any) -> None:
        r = st.rules
        self.w = w
        n = r.players
        sitting = set(r.sitting(st.dealer, st.stand_for)) - {st.declarer}
        playing = [s for s in ((st.dealer + i) % n for i in range(1, n + 1)) if s not in sitting]
        self.names = {}
        for s in range(n):
            where = w.position(s, st.dealer, playing)
            if s == st.declarer:
                self.names[s] = f"{w.declarer} ({where})"
            elif s == st.partner:
                self.names[s] = f"{w.partner} ({where})"
            else:
                self.names[s] = where
        self.short = {s: (w.declarer if s == st.declarer else w.partner if s == st.partner else self.names[s])
                      for s in range(n)}

    def __getitem__(self, seat: int) -> str:
        return self.short[seat]


def account_words(st: State, w: Any, seats: Seats) -> str:
    """A deal's account with the seats by role; transfers alike but for the payer (every player's stake) said
    once for all of them."""
    lines: list[str] = []
    entries = [e for e in st.account() if e.amount]  # a transfer of nothing is left out
    res = st.res
    assert res is not None  # a finished deal
    i = 0
    while i < len(entries):
        e = entries[i]
        same = [e]
        while i + len(same) < len(entries):
            f = entries[i + len(same)]
            if (f.label, f.payee, f.amount, f.why) != (e.label, e.payee, e.amount, e.why) or f.payer is POOL:
                break
            same.append(f)
        i += len(same)
        label = "the stake" if e.label == "ante" else w.outcome(e.label) if e.label == res.outcome else e.label
        why = f" ({e.why.split(' = ')[0]})" if e.why and _WHY.match(e.why) else ""
        payers = join([seats[x.payer] for x in same if x.payer is not None])  # None: the pool (POOL)
        each = " each" if len(same) > 1 else ""
        if e.payer is POOL and e.payee is not None:  # out of the pool, to a seat
            lines.append(f"{label}: {seats[e.payee]} takes {e.amount} from {w.pool}{why}")
        elif e.payee is POOL:
            lines.append(f"{label}: {payers}{each} put{'s' if not each else ''} {e.amount} into {w.pool}{why}")
        elif e.payee is not None:
            lines.append(f"{label}: {payers}{each} pay{'s' if not each else ''} {seats[e.payee]} {e.amount}{why}")
    return "; ".join(lines) or "no payments"


def examples_section(b: Any) -> None:
    """Add the worked deals: one table per contract, one row per outcome reached."""
    from .scoring_text import outcome_lists

    rules, w = b.rules, b.w
    s = b.book.section("examples", "Worked deals, played by the program", compare=False)
    s.rule("how", f"For each contract the program deals from seed 0 on (up to {DEALS} deals), steers the "
                  f"bidding to it and lets its greedy player make every other choice; the first deal of each "
                  f"outcome is shown, starting with an empty {w.pool.replace('the ', '')}.")
    for contracts, _path, outs in outcome_lists(b):
        names = list(dict.fromkeys(o["name"] for o in outs if o.get("when") is None or b.holds(o["when"]) is not False))
        for c in contracts:
            got = worked(rules, c, names)
            rows = []
            for name in names:
                st = got.get(name)
                if st is None:
                    continue
                r = st.res
                assert r is not None  # a finished deal
                seats = Seats(st, w)
                trump = st.trump
                title = rules.contract_by_name[r.contract].title if r.contract else ""
                deal = (f"{cap(seats.names[st.declarer])} plays {title}"
                        + (f", trumps {trump.name}" if trump is not None else ", no trumps"))
                order = [(st.dealer + i) % rules.players for i in range(1, rules.players + 1)]
                tricks = join([f"{seats[s]} {r.tricks[s]}" for s in order if r.tricks[s] or s in _players(st)])
                net = join([f"{seats[s]} {_signed(r.payments[s])}" for s in order])
                rows.append(name)
                played = f"Tricks: {tricks}." if sum(r.tricks) else "No card was played."
                s.rule(f"ex.{c.name}.{name}", f"{c.title}, {w.outcome(name)} (seed {st.seed}): {deal}. {played} The "
                                              f"account: {account_words(st, w, seats)}. In all: {net}.")
            if not rows:
                s.rule(f"ex.{c.name}", f"{c.title}: not reached in {DEALS} deals.")


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else f"−{-v}" if v < 0 else "0"


def _players(st: State) -> set[int]:
    sitting = set(st.rules.sitting(st.dealer, st.stand_for)) - {st.declarer}
    return {s for s in range(st.rules.players) if s not in sitting}
