"""Settling a deal: lets, then the outcome's payment steps between seats and the pool."""
from __future__ import annotations

from typing import Any


def _seats(value: Any) -> list[int]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [int(v) for v in value if v is not None]
    return [int(value)]


def settle(state, steps, env=None) -> None:
    """Run payment steps on a state: `pay` between seats, `to_pool`, `from_pool`."""
    if not steps:
        return
    if env is None:
        env = state.env()
    rules = state.rules
    if state.outcome is not None:
        for name, e in rules.score_lets.items():
            setattr(env, name, state.eval(e, env))
    pay = state.payments
    for st in steps:
        env.pool = state.pool
        amount = int(state.eval(st.amount, env)) if st.amount is not None else 0
        if st.kind == "pay":
            for f in _seats(state.eval(st.frm, env)):
                for t in _seats(state.eval(st.to, env)):
                    if f != t:
                        pay[f] -= amount
                        pay[t] += amount
        elif st.kind == "to_pool":
            for f in _seats(state.eval(st.frm, env)):
                pay[f] -= amount
                state.pool += amount
        else:
            for t in _seats(state.eval(st.to, env)):
                amt = max(0, min(amount, state.pool))
                pay[t] += amt
                state.pool -= amt
