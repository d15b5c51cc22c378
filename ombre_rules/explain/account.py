"""The account of a finished deal: every transfer of the ante and the settlement, who pays whom, how much
and why, labelled as the variant file names the step (its kind, or its `label:`) and the terms of its
amount (a `let` name, or the word the file's `terms:` gives it).

The account is worked out from the variant's steps and a small evaluator over the end of the deal, not
from the engine's generated code; its sums equal the deal's payments (tested on every variant).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lark import Tree

from ..envs import DealEnv
from .evaluate import Evaluator, parse

POOL = None  # the payer or payee of a transfer into or out of the pool
READS_PAIR = re.compile(r"\bpay(er|ee)\b")  # a `pay` amount that reads the seats of each transfer


@dataclass(frozen=True, slots=True)
class Entry:
    """One transfer: `payer` pays `payee` the amount (None: the pool), with the step's label and why the
    amount is what it is (`V 5 + estuches 4 = 9`; empty when the amount is a plain number)."""

    label: str
    payer: int | None
    payee: int | None
    amount: int
    why: str

    def __str__(self) -> str:
        if self.payer is POOL:
            text = f"pool {self.amount} → seat {self.payee}" + (f" ({self.why})" if self.why else "")
        elif self.payee is POOL:
            text = f"seat {self.payer} pays {self.amount} into the pool" + (f" ({self.why})" if self.why else "")
        else:
            text = f"seat {self.payer} pays seat {self.payee}: {self.why or self.amount}"
        return f"{self.label}: {text}"

    def to_dict(self) -> dict:
        return {"label": self.label, "from": self.payer, "to": self.payee, "amount": self.amount,
                "why": self.why}


def seats(value: Any) -> list[int]:
    """The seats a transfer names: one seat, none, or a list of them."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [int(v) for v in value if v is not None]
    return [int(value)]


def step_label(body: dict, default: str) -> str:
    """The label of a payment step: its `label:`, else the default (the outcome it settles, or `ante`)."""
    return str(body.get("label") or default)


def terms(rules: Any) -> dict[str, str]:
    """The words the variant file gives its names and lets (`terms:`), for labels and sentences."""
    return {str(k): str(v) for k, v in (rules.spec.data.get("terms") or {}).items()}


def _summands(t: Tree) -> list[tuple[str, Tree]]:
    """The terms of a sum or difference (the left-leaning chain `a + b - c`), each with its sign."""
    if t.data == "binop" and str(t.children[1]) in ("+", "-"):
        a, op, b = t.children
        return _summands(a) + [(str(op), b)]
    return [("+", t)]


def breakdown(ev: Evaluator, expr: Any, words: dict[str, str], say: Callable[[str], str] | None = None) -> str:
    """Why an amount is what it is: its terms with their values and the total, `V 5 + estuches 1 +
    3 (stopped) = 9`, or one named term, `stake 30`; empty for a plain number. With `say` (an expression in
    words) each term that is not a name is said in words and the terms worth 0 are left out."""
    if expr is None or isinstance(expr, (bool, int)):
        return ""
    text = str(expr)

    def src(t: Tree) -> str:
        return text[t.meta.start_pos:t.meta.end_pos]

    parts = []
    for sign, t in _summands(parse(text)):
        v = ev.node(t)
        said = say or (lambda text: text)
        if say is not None and v == 0:
            continue
        if t.data == "int":
            shown = str(v)
        elif t.data == "name":
            name = str(t.children[0])
            shown = f"{words.get(name, name)} {v}"
        elif t.data == "cond":
            if not v:
                continue
            cond = t.children[1]
            shown = f"{v} ({said(src(cond))})" if ev.node(cond) else f"{v} (not {said(src(cond))})"
        else:
            shown = f"{v} ({said(src(t))})"
        parts.append((sign, shown))
    if not parts:
        return ""
    head = ("-" if parts[0][0] == "-" else "") + parts[0][1]
    total = ev.node(parse(text))
    if len(parts) == 1:
        return "" if head == str(total) else head
    return head + "".join(f" {s} {x}" for s, x in parts[1:]) + f" = {total}"


class _Ledger:
    """Runs steps as the engine does, on a copy of the payments and the pool, and writes down each entry."""

    def __init__(self, rules: Any, state: Any, pool: int, say: Callable[[str], str] | None = None) -> None:
        self.rules = rules
        self.words = terms(rules)
        self.say = say
        self.entries: list[Entry] = []
        self.probe = state.clone()
        self.probe.pool = pool

    def env(self, ctx: Any) -> DealEnv:
        return DealEnv(self.probe, ctx)

    def step(self, ev: Evaluator, kind: str, body: dict, label: str) -> None:
        body = body or {}
        if kind == "set":  # session values for the next deal: no transfer
            return
        default_amount = "pool" if kind == "from_pool" else 0
        amount_expr = body.get("amount", default_amount)
        frm = seats(ev.value(body.get("from", "players" if kind == "to_pool" else None)))
        to = seats(ev.value(body.get("to")))
        if kind == "pay" and READS_PAIR.search(str(amount_expr)) and not {"payer", "payee"} & set(ev.local):
            for f in frm:  # an amount that reads the two seats of each transfer
                for t in to:
                    if f != t:
                        ev.local["payer"], ev.local["payee"] = f, t
                        self.entries.append(Entry(label, f, t, int(ev.value(amount_expr) or 0),
                                                  breakdown(ev, amount_expr, self.words, self.say)))
            ev.local.pop("payer", None)
            ev.local.pop("payee", None)
            return
        amount = int(ev.value(amount_expr) or 0)
        why = breakdown(ev, amount_expr, self.words, self.say)
        if kind == "pay":
            for f in frm:
                for t in to:
                    if f != t:
                        self.entries.append(Entry(label, f, t, amount, why))
        elif kind == "to_pool":
            for f in frm:
                self.entries.append(Entry(label, f, POOL, amount, why))
                self.probe.pool += amount
        elif to:
            held = self.probe.pool
            share = max(0, min(amount, held)) // len(to)
            if amount_expr == "pool":
                why = ""
            if amount > held:
                why = (why + "; " if why else f"{amount}; ") + f"the pool holds {held}"
            if len(to) > 1:
                why = (why + "; " if why else f"{min(amount, held)} ") + f"shared by {len(to)}"
            for t in to:
                self.entries.append(Entry(label, POOL, t, share, why))
                self.probe.pool -= share


def _lets(ev: Evaluator, lets: dict | None) -> None:
    for name, expr in (lets or {}).items():
        ev.local[name] = ev.value(expr)


def account(state: Any, say: Callable[[str], str] | None = None) -> tuple[Entry, ...]:
    """The account of a finished deal: the ante and every settlement transfer, in order (empty before the
    end); with `say`, the terms of each amount in words (see `breakdown`)."""
    if state.result is None:
        return ()
    rules = state.rules
    data = rules.spec.data
    scoring = data["scoring"]
    ledger = _Ledger(rules, state, state.result.pool_before, say)
    if scoring.get("ante"):
        # the ante as the deal began (a seat that joined the deal later did not pay it)
        start = type(state)(rules, dealer=state.dealer, pool=state.result.pool_before,
                            hands=list(state.deal_hands), talon=list(state.deal_talon), session=state.carry,
                            turn_up=state.turn_up)
        start.pool = state.result.pool_before  # the ante's amount sees the pool before the ante
        ledger.step(Evaluator(rules, DealEnv(start, None)), "to_pool", scoring["ante"],
                    step_label(scoring["ante"], "ante"))
    ev = Evaluator(rules, ledger.env(state.ctx))
    _lets(ev, data.get("let"))
    steps = (scoring.get("outcomes") or {}).get(state.result.outcome)
    if steps:
        _lets(ev, scoring.get("let"))
        for st in steps:
            kind = next(iter(st))
            ledger.step(ev, kind, st[kind], step_label(st[kind] or {}, state.result.outcome))
    return tuple(ledger.entries)


class Account(Sequence):
    """`Result.account`: the account of a finished deal, worked out when it is first read, so that ending a
    deal (millions of times in a simulation) costs no more than before. Compares and hashes by its entries."""

    __slots__ = ("_state", "_entries")

    def __init__(self, state: Any) -> None:
        self._state = state
        self._entries: tuple[Entry, ...] | None = None

    def entries(self) -> tuple[Entry, ...]:
        if self._entries is None:
            self._entries = self._state.account()  # worked out once per state (State.account)
            self._state = None  # the finished deal is no longer needed
        return self._entries

    def __getitem__(self, i):
        return self.entries()[i]

    def __len__(self) -> int:
        return len(self.entries())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Account, tuple, list)):
            return self.entries() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.entries())

    def __repr__(self) -> str:
        return f"Account({list(self.entries())!r})"

    def __reduce__(self) -> tuple:
        return tuple, (self.entries(),)


def net(entries: tuple[Entry, ...], players: int) -> tuple[list[int], int]:
    """Each seat's net payment and the pool's change, summed from an account."""
    out = [0] * players
    pool = 0
    for e in entries:
        if e.payer is POOL:
            pool -= e.amount
        else:
            out[e.payer] -= e.amount
        if e.payee is POOL:
            pool += e.amount
        else:
            out[e.payee] += e.amount
    return out, pool
