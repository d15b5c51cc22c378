"""Worked payments computed by the engine: for each contract, deals played with that contract (the auction
steered to it, the rest played by the greedy bot, from fixed seeds), and for each outcome reached the deal at the
median trick count of the declarer: its tricks, payments and account."""
from __future__ import annotations

import random
from typing import Any

from ..engine import State
from ..players import act, make_player
from .model import Book

DEALS = 150  # deals tried per contract
KEEP = 15  # deals kept per outcome, to take the median from


def _steer(state: State, bid: int, rng: random.Random, bot: Any) -> bool:
    """Play one deal with the auction steered to one bid, the rest by the bot; False when another contract
    was reached."""
    rules = state.rules
    target = rules.contracts[bid - rules.A_BID]
    while not state.is_terminal:
        acts = state.legal_actions()
        if state.contract is None:
            a = bid if bid in acts else rules.A_PASS if rules.A_PASS in acts else acts[rng.randrange(len(acts))]
        else:
            if state.contract is not target:
                return False
            a = act(bot, state, state.current_player)
        state.apply(a)
    return state.contract is target


def examples(rules: Any, contract: Any, deals: int = DEALS) -> dict[str, State]:
    """Per outcome reached with a contract: a finished deal at the median of the declarer's tricks."""
    found: dict[str, list[State]] = {}
    bot = make_player("greedy", 0, rules)
    for seed in range(deals):
        st = State(rules, seed=seed)
        if _steer(st, rules.A_BID + contract.index, random.Random(seed), bot):
            assert st.res is not None  # steered to its end
            found.setdefault(st.res.outcome, [])
            if len(found[st.res.outcome]) < KEEP:
                found[st.res.outcome].append(st)
    out = {}
    for name, states in found.items():
        states.sort(key=_declarer_tricks)
        out[name] = states[len(states) // 2]
    return out


def _declarer_tricks(s: State) -> tuple[int, int | None]:
    """A finished deal's order among those of one outcome: the declarer's tricks, then the seed."""
    res = s.res
    assert res is not None  # a finished deal
    return res.tricks[res.declarer] if res.declarer is not None else 0, s.seed


def examples_section(book: Book, rules: Any) -> None:
    """Add the worked payments: one table per contract, one row per outcome reached."""
    s = book.section("examples", "Worked payments (computed by the engine)", compare=False)
    s.rule("how", f"For each contract, {DEALS} deals from seeds 0 to {DEALS - 1}, the auction steered "
                  f"to it and every other choice made by the greedy bot; per outcome reached, the deal at "
                  f"the median of the declarer's tricks, with the pool at 0 before the ante.")
    for c in rules.contracts:
        got = examples(rules, c)
        rows = []
        for name, st in sorted(got.items()):
            r = st.result
            assert r is not None  # a finished deal
            rows.append([name, f"seed {st.seed}, declarer seat {r.declarer}", " ".join(map(str, r.tricks)),
                         " ".join(f"{p:+d}" for p in r.payments) + f"; pool {r.pool_before} → {r.pool_after}",
                         "; ".join(str(e) for e in st.account())])
        if rows:
            s.table(f"ex.{c.name}", f"{c.title}", ["outcome", "deal", "tricks by seat", "payments", "account"], rows)
        else:
            s.rule(f"ex.{c.name}", f"{c.title}: not reached in {DEALS} deals steered to it.")
