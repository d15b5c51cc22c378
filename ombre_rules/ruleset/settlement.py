"""The end of a deal compiled as one generated function per contract (built as `ast` nodes): the `let` values,
the first outcome whose condition holds, the scoring lets, and that outcome's payment steps, in order."""
from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from ..envs import DEAL_FUNCS, DEAL_VARS, SEAT_VARS, STATE_READS, defenders
from ..errors import SpecError, did_you_mean
from ..lang import Site
from ..lang import types as T
from ..lang.block import Block, Generated, assign, call, internal, literal, local
from ..lang.types import Val
from .carry import set_value

if TYPE_CHECKING:
    from .base import RulesetBase as Ruleset  # the part of a Ruleset a builder uses
    from .contracts import Contract


class Book(Protocol):
    """What the transfers change: a deal's payments and pool (a State, or a session's Closing)."""

    payments: list[int]
    pool: int


def _seats(value: Any) -> Sequence[int]:
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
        seats: Sequence[int] = value  # seats already
        return seats
    return (int(value),)


def pay(state: Book, frm: Any, to: Any, amount: Any) -> None:
    """`pay`: each payer pays the amount to each payee (nobody pays himself)."""
    amount = int(amount or 0)
    book = state.payments
    payees = _seats(to)
    for f in _seats(frm):
        for t in payees:
            if f != t:
                book[f] -= amount
                book[t] += amount


def to_pool(state: Book, frm: Any, amount: Any) -> None:
    """`to_pool`: each payer puts the amount into the pool."""
    amount = int(amount or 0)
    book = state.payments
    for f in _seats(frm):
        book[f] -= amount
        state.pool += amount


def from_pool(state: Book, to: Any, amount: Any) -> None:
    """`from_pool`: the amount (at most the pool) is shared equally; an odd counter stays in the pool."""
    payees = _seats(to)
    if payees:
        share = max(0, min(int(amount or 0), state.pool)) // len(payees)
        book = state.payments
        for t in payees:
            book[t] += share
            state.pool -= share


def pay_each(state: Book, frm: Any, to: Any, amount_of: Any) -> None:
    """`pay` with an amount that reads `payer` and `payee`: each payer pays each payee (nobody himself) the
    amount worked out for the two of them (`amount_of(payer, payee)`)."""
    book = state.payments
    payees = _seats(to)
    for f in _seats(frm):
        for t in payees:
            if f != t:
                amount = int(amount_of(f, t) or 0)
                book[f] -= amount
                book[t] += amount


TRANSFERS = {"pay": pay, "to_pool": to_pool, "from_pool": from_pool, "pay_each": pay_each}
PAIR = ("payer", "payee")  # the names a `pay` step's amount may read: the two seats of each transfer


def _lets(rs: Ruleset, path: tuple, known: dict[str, Val], out: list[ast.stmt], block: Block,
          where: dict[str, Any]) -> dict[str, Val]:
    """Assignments of the `let` values at a path, in order; the names bound so far, with what is known of
    them (`where`: what the settlement's sites know, `Site.unset` and `Site.objects`)."""
    node = _get(rs.spec.data, path)
    names = dict(known)
    for name in (node or {}):
        if not rs.user_name(path + (name,), "let"):
            if isinstance(name, str):
                names[name] = T.QUIET  # refused: its uses raise no more errors
            continue
        if name in DEAL_VARS or name in rs.namespace.names or name in names:
            rs._errors.append(SpecError(f"'{name}' is already a name and cannot be defined in let",
                                        rs.spec.doc.key_loc(path + (name,))))
            continue
        code, loc, text = rs.code(path + (name,), Site(f"let '{name}'", DEAL_VARS, DEAL_FUNCS, **where), names)
        out.append(block.mark(assign(local(name, store=True), code), loc, text))
        names[name] = rs.last_val
    return names


def _steps(rs: Ruleset, oname: str, names: dict[str, Val], block: Block, where: dict[str, Any]) -> list[ast.stmt]:
    """The payment steps of one outcome, as calls of the transfers."""
    return steps(rs, ("scoring", "outcomes", oname), names, block, replace(_SEATS_SITE, **where),
                 replace(_AMOUNT_SITE, **where))


def steps(rs: Ruleset, base: tuple, names: dict[str, Val], block: Block, seats: Site, amounts: Site,
          sets: bool = True) -> list[ast.stmt]:
    """The payment steps of the list at `base`, as calls of the transfers; `seats` and `amounts` say where
    their expressions stand, `sets` whether `set:` steps may stand there."""
    out: list[ast.stmt] = []
    for i, st in enumerate(_get(rs.spec.data, base) or []):
        kind = next(iter(st))
        sp = base + (i, kind)
        body = st[kind] or {}
        if kind == "set":
            if sets:
                out += _sets(rs, sp, body, names, block, {"unset": amounts.unset, "objects": amounts.objects})
            else:
                rs._errors.append(SpecError("set: has no next deal to give values to here", rs.loc(sp)))
            continue
        if kind == "pay" and ("from" not in body or "to" not in body):
            rs._errors.append(SpecError("a payment needs 'from' and 'to'", rs.loc(sp)))
        frm = rs.code(sp + ("from",), seats, names, "players" if kind == "to_pool" else None)
        to = rs.code(sp + ("to",), seats, names, None)
        pair = kind == "pay" and not set(PAIR) & set(names)  # a let of the same name is read as the let
        seat = T.num(0, rs.players - 1)
        amount = rs.code(sp + ("amount",), amounts, {**names, **dict.fromkeys(PAIR, seat)} if pair else names,
                         "pool" if kind == "from_pool" else 0)
        args = {"pay": (frm[0], to[0]), "to_pool": (frm[0],), "from_pool": (to[0],)}[kind]
        if pair and _reads_pair(amount[0]):
            pair_args = [ast.arg(local(n).id) for n in PAIR]
            fn = ast.Lambda(ast.arguments(posonlyargs=[], args=pair_args, kwonlyargs=[], kw_defaults=[], defaults=[]),
                            amount[0])
            stmt = ast.Expr(call("_pay_each", internal("_st"), *args, fn))
        else:
            stmt = ast.Expr(call("_" + kind, internal("_st"), *args, amount[0]))
        out.append(block.mark(stmt, amount[1] or frm[1] or to[1] or rs.loc(sp), str(body.get("amount", kind))))
    return out


def _reads_pair(code: ast.expr) -> bool:
    """Whether an amount's tree reads `payer` or `payee`."""
    ids = {local(n).id for n in PAIR}
    return any(isinstance(n, ast.Name) and n.id in ids for n in ast.walk(code))


def _sets(rs: Ruleset, path: tuple, body: dict, names: dict[str, Val], block: Block,
          where: dict[str, Any]) -> list[ast.stmt]:
    """A `set:` step: the values a session carries to the next deal, each an expression of its type."""
    out: list[ast.stmt] = []
    carried = rs.namespace.carried
    for name in body:
        if name not in carried:
            rs._errors.append(SpecError(f"set: unknown session value '{name}'{did_you_mean(str(name), carried)}"
                                        + ("" if carried else " (declare it under session.carry)"),
                                        rs.spec.doc.key_loc(path + (name,))))
            continue
        i, t = carried[name]
        site = Site(f"session value '{name}'", DEAL_VARS, DEAL_FUNCS, result=t, **where)
        code, loc, text = rs.code(path + (name,), site, names)
        out.append(block.mark(ast.Expr(call("_set", internal("_st"), literal(i), code)), loc, text))
    return out


def _chain(tests: Sequence[tuple[ast.expr, list[ast.stmt], ast.stmt | None]], last: list[ast.stmt]) -> list[ast.stmt]:
    """`if t1: b1 elif t2: b2 … else: last` as statements (each test marked by the statement `mark`)."""
    out = last
    for test, body, mark in reversed(tests):
        node = ast.If(test, body or [ast.Pass()], out)  # a branch whose steps all failed to compile
        if mark is not None:
            node._ombre_origin = mark._ombre_origin  # type: ignore[attr-defined]  # the mark Block.mark put there
        out = [node]
    return out


_SEATS_SITE = Site("a payment's seats", DEAL_VARS, DEAL_FUNCS, result=T.SEATS)
_AMOUNT_SITE = Site("a payment's amount", DEAL_VARS, DEAL_FUNCS, result=T.INT)
_OUTCOME_SITE = Site("an outcome", DEAL_VARS, DEAL_FUNCS, result=T.COND, unset="")
ALL_PASSED = "when every seat passes"  # when the declarer and the contract are none in a settlement


def _outcome(name: str) -> ast.stmt:
    return assign(ast.Name("_o", ast.Store()), literal(str(name)))


def _build(rs: Ruleset, name: str, contract: Contract | None) -> Generated:
    """The settlement function of one contract (or, without one, of a deal that all passed)."""
    block = rs.compiler.block(name)
    scoring = rs.spec.data["scoring"].get("outcomes") or {}
    body: list[ast.stmt] = []
    where = {"unset": "", "objects": rs.own(contract)} if contract is not None else {"unset": ALL_PASSED}
    names = _lets(rs, ("let",), {}, body, block, where)
    if contract is None:
        body.append(_outcome("all_pass"))
        reachable = {"all_pass"}
    else:
        path = contract.outcomes_path
        block.where = rs.loc(path)
        outs = _get(rs.spec.data, path)
        reachable = {o["name"] for o in outs}
        tests = []
        last: list[ast.stmt] = []
        for i, o in enumerate(outs):
            if "when" not in o:
                last = [_outcome(o["name"])]
                break
            code, loc, text = rs.code(path + (i, "when"), replace(_OUTCOME_SITE, **where), names)
            tests.append((code, [_outcome(o["name"])], block.mark(ast.Pass(), loc, text)))
        else:
            rs._errors.append(SpecError("the last outcome needs no 'when', so that every deal has an outcome",
                                        rs.loc(path + (len(outs) - 1, "when"))))
            last = [_outcome("none")]
        body += _chain(tests, last) if tests else last
    scored = [o for o in scoring if scoring[o] and o in reachable]
    if scored:
        inner: list[ast.stmt] = []
        names = _lets(rs, ("scoring", "let"), names, inner, block, where)
        branches = [(ast.Compare(internal("_o"), [ast.Eq()], [literal(str(o))]), _steps(rs, o, names, block, where),
                     None)
                    for o in scored]
        inner += _chain(branches, [])
        listed = ast.Tuple([literal(str(o)) for o in scored], ast.Load())
        body.append(ast.If(ast.Compare(internal("_o"), [ast.In()], [listed]), inner, []))
    body.append(ast.Return(internal("_o")))
    block.body = body
    return block.build(live=frozenset({"pool"}), direct=STATE_READS)


def _get(data: Any, path: tuple) -> Any:
    for k in path:
        data = data.get(k) if isinstance(data, dict) else (data[k] if isinstance(data, list) else None)
    return data


def build_settlement(rs: Ruleset) -> None:
    """Give each contract its settlement function; also the all-pass one and the ante."""
    for kind, fn in TRANSFERS.items():
        rs.compiler.globals["_" + kind] = fn
    rs.compiler.globals["_set"] = set_value
    rs.compiler.globals["_defenders"] = defenders
    known = {"all_pass"}
    for c in rs.contracts:
        c.finish = _build(rs, f"_settle_{c.index}", c)
        known |= {o["name"] for o in _get(rs.spec.data, c.outcomes_path)}
    rs.outcome_names = sorted(known)
    for oname in rs.spec.data["scoring"].get("outcomes") or {}:
        if oname not in known:
            rs._errors.append(SpecError(f"scoring for unknown outcome '{oname}'{did_you_mean(oname, known)}",
                                        rs.spec.doc.key_loc(("scoring", "outcomes", oname))))
    rs.finish_all_pass = _build(rs, "_settle_all_pass", None)
    rs.ante = None
    rs.ante_static = False
    if rs.spec.data["scoring"].get("ante"):
        a = ("scoring", "ante")
        block = rs.compiler.block("_ante")
        block.where = rs.loc(a)
        before = "before the auction"  # the ante is paid as the cards are dealt
        frm = rs.code(a + ("from",), replace(_SEATS_SITE, unset=before), (), "players")
        uses = rs.last_uses
        amount = rs.code(a + ("amount",), replace(_AMOUNT_SITE, unset=before), (), 0)
        rs.ante_static = (uses | rs.last_uses) <= SEAT_VARS
        block.body = [block.mark(ast.Expr(call("_to_pool", internal("_st"), frm[0], amount[0])), amount[1] or frm[1],
                                 amount[2])]
        rs.ante = block.build(live=frozenset({"pool"}))
