"""The end of a deal compiled as one generated function per contract: the `let` values, the first outcome
whose condition holds, the scoring lets, and that outcome's payment steps, in order."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..envs import DEAL_FUNCS, DEAL_VARS, SEAT_VARS, STATE_READS, defenders
from ..errors import SpecError, did_you_mean
from ..lang import Site

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset  # the part of a Ruleset a builder uses
    from .contracts import Contract


def _seats(value: Any):
    """The seats a payment names: one seat, none, or a list of them (a list of seats is used as it is)."""
    t = type(value)
    if t is int:
        return (value,)
    if value is None:
        return ()
    if t is list or t is tuple:
        for v in value:
            if type(v) is not int:
                return [int(v) for v in value if v is not None]
        return value
    return (int(value),)


def pay(state, frm: Any, to: Any, amount: Any) -> None:
    """`pay`: each payer pays the amount to each payee (nobody pays himself)."""
    amount = int(amount or 0)
    book = state.payments
    payees = _seats(to)
    for f in _seats(frm):
        for t in payees:
            if f != t:
                book[f] -= amount
                book[t] += amount


def to_pool(state, frm: Any, amount: Any) -> None:
    """`to_pool`: each payer puts the amount into the pool."""
    amount = int(amount or 0)
    book = state.payments
    for f in _seats(frm):
        book[f] -= amount
        state.pool += amount


def from_pool(state, to: Any, amount: Any) -> None:
    """`from_pool`: the amount (at most the pool) is shared equally; an odd counter stays in the pool."""
    payees = _seats(to)
    if payees:
        share = max(0, min(int(amount or 0), state.pool)) // len(payees)
        book = state.payments
        for t in payees:
            book[t] += share
            state.pool -= share


TRANSFERS = {"pay": pay, "to_pool": to_pool, "from_pool": from_pool}


def _lets(rs: Ruleset, path: tuple, known: tuple[str, ...], block, depth: int) -> tuple[str, ...]:
    data = rs.spec.data
    node = data
    for k in path:
        node = node.get(k) if isinstance(node, dict) else None
    names = list(known)
    for name in (node or {}):
        if name in DEAL_VARS or name in rs.namespace.names or name in names:
            rs._errors.append(SpecError(f"'{name}' is already a name and cannot be defined in let",
                                        rs.spec.doc.key_loc(path + (name,))))
            continue
        code, loc, text = rs.code(path + (name,), Site(f"let '{name}'", DEAL_VARS, DEAL_FUNCS), tuple(names))
        block.add(depth, f"_v_{name} = {code}", loc, text)
        names.append(name)
    return tuple(names)


def _steps(rs: Ruleset, oname: str, names: tuple[str, ...], block, depth: int) -> None:
    base = ("scoring", "outcomes", oname)
    site = Site("scoring", DEAL_VARS, DEAL_FUNCS)
    for i, st in enumerate(rs.spec.data["scoring"]["outcomes"][oname] or []):
        kind = next(iter(st))
        sp = base + (i, kind)
        body = st[kind] or {}
        if kind == "pay" and ("from" not in body or "to" not in body):
            rs._errors.append(SpecError("a payment needs 'from' and 'to'", rs.loc(sp)))
        frm = rs.code(sp + ("from",), site, names, "players" if kind == "to_pool" else None)
        to = rs.code(sp + ("to",), site, names, None)
        amount = rs.code(sp + ("amount",), site, names, "pool" if kind == "from_pool" else 0)
        args = {"pay": (frm[0], to[0]), "to_pool": (frm[0],), "from_pool": (to[0],)}[kind]
        block.add(depth, f"_{kind}(_st, {', '.join(args)}, {amount[0]})", amount[1] or rs.loc(sp),
                  str(body.get("amount", "")))


def _build(rs: Ruleset, name: str, contract: Contract | None):
    """The settlement function of one contract (or, without one, of a deal that all passed)."""
    block = rs.compiler.block(name, "_e, _st")
    scoring = rs.spec.data["scoring"].get("outcomes") or {}
    names = _lets(rs, ("let",), (), block, 1)
    if contract is None:
        block.add(1, "_o = 'all_pass'")
        reachable = {"all_pass"}
    else:
        site = Site("an outcome", DEAL_VARS, DEAL_FUNCS)
        path = contract.outcomes_path
        outs = rs.spec.data
        for k in path:
            outs = outs[k]
        reachable = {o["name"] for o in outs}
        for i, o in enumerate(outs):
            if "when" in o:
                code, loc, text = rs.code(path + (i, "when"), site, names)
                block.add(1, f"{'if' if i == 0 else 'elif'} {code}:", loc, text)
                block.add(2, f"_o = {o['name']!r}")
            else:
                block.add(1, "else:" if i else "if True:")
                block.add(2, f"_o = {o['name']!r}")
                break
        else:
            rs._errors.append(SpecError("the last outcome needs no 'when', so that every deal has an outcome",
                                        rs.loc(path + (len(outs) - 1, "when"))))
            block.add(1, "else:")
            block.add(2, "_o = 'none'")
    scored = [o for o in scoring if scoring[o] and o in reachable]
    if scored:
        block.add(1, f"if _o in {tuple(scored)!r}:")
        names = _lets(rs, ("scoring", "let"), names, block, 2)
        for j, oname in enumerate(scored):
            block.add(2, f"{'if' if j == 0 else 'elif'} _o == {oname!r}:")
            _steps(rs, oname, names, block, 3)
    block.add(1, "return _o")
    return block.build(live=frozenset({"pool"}), direct=STATE_READS)


def build_settlement(rs: Ruleset) -> None:
    """Give each contract its settlement function; also the all-pass one and the ante."""
    for kind, fn in TRANSFERS.items():
        rs.compiler.globals["_" + kind] = fn
    rs.compiler.globals["_defenders"] = defenders
    known = {"all_pass"}
    for c in rs.contracts:
        c.finish = _build(rs, f"settle_{c.index}", c)
        outs = rs.spec.data
        for k in c.outcomes_path:
            outs = outs[k]
        known |= {o["name"] for o in outs}
    rs.outcome_names = sorted(known)
    for oname in rs.spec.data["scoring"].get("outcomes") or {}:
        if oname not in known:
            rs._errors.append(SpecError(f"scoring for unknown outcome '{oname}'{did_you_mean(oname, known)}",
                                        rs.spec.doc.key_loc(("scoring", "outcomes", oname))))
    rs.finish_all_pass = _build(rs, "settle_all_pass", None)
    rs.ante = None
    rs.ante_static = False
    if rs.spec.data["scoring"].get("ante"):
        a = ("scoring", "ante")
        block = rs.compiler.block("ante", "_e, _st")
        site = Site("scoring.ante", DEAL_VARS, DEAL_FUNCS)
        frm = rs.code(a + ("from",), site, (), "players")
        uses = rs.last_uses
        amount = rs.code(a + ("amount",), site, (), 0)
        rs.ante_static = (uses | rs.last_uses) <= SEAT_VARS
        block.add(1, f"_to_pool(_st, {frm[0]}, {amount[0]})", amount[1], amount[2])
        rs.ante = block.build(live=frozenset({"pool"}))
