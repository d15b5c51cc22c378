"""What a contract's settlement reads: the names and functions of its outcomes' conditions and its payment steps,
with the `let` values they use followed to what those read (the chosen options put in, so that a value an option
switches off is not read). The payment schedules vary only what is read."""
from __future__ import annotations

from typing import Any

from lark import Tree

from ..explain.fold import fold
from ..lang.compiler import parse


def names_in(expr: Any, options: dict[str, Any]) -> set[str]:
    """The names and called functions of one expression (none for a plain value)."""
    if expr is None or isinstance(expr, (bool, int)):
        return set()
    out: set[str] = set()
    stack = [fold(parse(str(expr)), options)]
    while stack:
        t = stack.pop()
        if not isinstance(t, Tree):
            continue
        if t.data == "name":
            out.add(str(t.children[0]))
        elif t.data == "call":
            out.add(str(t.children[0].children[0]))
        stack += [k for k in t.children if isinstance(k, Tree)]
    return out


def _get(data: Any, path: tuple) -> Any:
    for k in path:
        data = data.get(k) if isinstance(data, dict) else data[k] if isinstance(data, list) else None
    return data


def reads(rules: Any, contract: Any) -> set[str]:
    """Every name and function the contract's settlement reads, through its lets."""
    data, opts = rules.spec.data, rules.spec.options
    lets = {**(data.get("let") or {}), **((data.get("scoring") or {}).get("let") or {})}
    outs = _get(data, contract.outcomes_path) or []
    found: set[str] = set()
    for o in outs:
        found |= names_in(o.get("when"), opts)
    steps = (data.get("scoring") or {}).get("outcomes") or {}
    for o in {o["name"] for o in outs}:
        for st in steps.get(o) or []:
            kind = next(iter(st))
            body = st[kind] or {}
            keys = list(body) if kind == "set" else ["from", "to", "amount"]
            for k in keys:
                found |= names_in(body.get(k), opts)
    seen: set[str] = set()
    todo = [n for n in found if n in lets]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        more = names_in(lets[n], opts)
        found |= more
        todo += [m for m in more if m in lets and m not in seen]
    return found
