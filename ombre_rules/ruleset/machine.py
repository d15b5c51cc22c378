"""Settlement blocks for the kernel's settlement machine (`kernel/src/vm.c`): the generated Python of a block
(`settlement.py`, built by `lang/block.py` from checked identifiers and literals) translated once into the
machine's stack code, so that a deal's end runs without the Python interpreter.

The translation reads only the forms the block builder writes: assignments, `if` chains, the transfers, the
built-ins, attribute readers, comprehensions, the state's and the environment's reads. Anything else, and
any helper that is not the one the builder put there, makes `program(fn)` None: that block keeps running
as Python. At run time the machine declines (gives None) wherever it could not do exactly what Python does,
and the Python block runs instead, so a result never differs; `tests/test_machine.py` checks that both give
the same outcome, payments and pool on seeded deals of every variant."""
from __future__ import annotations

import ast
import re
from typing import Any

from .. import kernel
from ..envs import SEAT_READS, DealEnv, defenders
from ..lang.block import ENV, STATE
from ..lang.builtins import PURE, RUNTIME
from ..lang.compiler import _safe_index
from .carry import set_value
from .settlement import TRANSFERS

# the machine's operations, in the order of vm.c's enum, and their operand counts
OPS = ("CONST", "LOAD", "STORE", "POP", "POOL", "STATE", "STATE2", "ENV", "FUNC", "CALLF", "BI", "ATTR", "ADD",
       "SUB", "MUL", "NEG", "NOT", "CMP", "JUMP", "JF", "JF_KEEP", "JT_KEEP", "LIST", "ITER", "APPEND", "EMPTY",
       "SEATS", "PAY", "TO_POOL", "FROM_POOL", "PAY1", "RETURN", "SET", "TRUTH")
OP = {name: i for i, name in enumerate(OPS)}
CMP = {ast.Eq: 0, ast.NotEq: 1, ast.Lt: 2, ast.LtE: 3, ast.Gt: 4, ast.GtE: 5, ast.In: 6, ast.NotIn: 7, ast.Is: 8,
       ast.IsNot: 9}
BUILTIN = {"max": 0, "min": 1, "sum": 2, "count": 3, "len": 4, "any": 5, "all": 6, "prefix_len": 7, "first": 8,
           "group_points": 9, "abs": 10, "rest": 11, "_div": 12, "_mod": 13, "_gi": 14}
B_PY = 15
NONE, INT, BOOL, STR, CARD, SUIT, CONTRACT = 1, 2, 3, 4, 5, 6, 7
F_PY, F_SEAT_INT, F_SEAT_CARDS = 0, 1, 2
MAX_SLOTS = 256
# what a name reads of a deal the kernel plays whole (vm.c's S_* codes): as an attribute of the state, and as a
# value of the environment (engine/whole.py fills those facts); a name without one stays with Python states
STATE_FIELDS = {"committed": 1, "stopped": 2, "conceded": 3, "declarer": 4, "contract": 5, "ctx": 6, "dealer": 7,
                "partner": 8, "trump_order_cards": 9, "tricks": 20, "hands": 21, "play_hands": 22, "deal_hands": 23,
                "won": 24, "discards": 25}
ENV_FIELDS = {"declarer": 10, "dealer": 7, "partner": 11, "trump": 12, "trump_order": 9, "defenders": 13,
              "players": 14}
_INT64 = 1 << 63


class Untranslatable(Exception):
    """A form of generated code the machine does not run (the block stays in Python)."""


class _Translator:
    """One block's translation: the code, its slots, constants, names and tables."""

    def __init__(self, fn: Any, rules: Any) -> None:
        self.g: dict[str, Any] = fn.__globals__
        self.code: list[int] = []
        self.fslots: dict[str, int] = {}  # the function's locals
        self.scopes: list[dict[str, int]] = []  # comprehension and lambda variables, innermost last
        self.nslots = 0
        self.consts: list[tuple[int, int]] = []
        self.names: list[str] = []
        self.strings: list[str] = []
        self.attrs: list[str] = []
        self.reads: set[tuple[str, str]] = set()  # (state, env, func, helper, set), name: what it reads
        deck = rules.deck
        self.objects = (tuple(deck.cards), tuple(deck.suits), tuple(rules.contracts))
        self.object_ids = {id(o): (CARD + t, i) for t, objs in enumerate(self.objects) for i, o in enumerate(objs)}

    # -- tables ------------------------------------------------------------------------------------------
    def _index(self, table: list[str], item: str) -> int:
        if item not in table:
            table.append(item)
        return table.index(item)

    def const(self, value: Any) -> tuple[int, int]:
        """A value as the machine's (tag, number) pair; Untranslatable for one it does not hold."""
        if value is None:
            return NONE, 0
        if type(value) is bool:
            return BOOL, int(value)
        if type(value) is int:
            if not -_INT64 <= value < _INT64:
                raise Untranslatable("a number beyond 64 bits")
            return INT, value
        if type(value) is str:
            return STR, self._index(self.strings, value)
        found = self.object_ids.get(id(value))
        if found is None:
            raise Untranslatable(f"a constant of type {type(value).__name__}")
        return found

    def attr_tables(self) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
        """Per attribute read, its value for every card, suit and contract ((0, 0) where the machine cannot
        hold it: a run that reads it declines)."""
        out = []
        for name in self.attrs:
            read = self.g["_a_" + name]
            rows = []
            for objs in self.objects:
                row = []
                for o in objs:
                    try:
                        row.append(self.const(read(o)))
                    except Untranslatable:
                        row.append((0, 0))
                rows.append(tuple(row))
            out.append(tuple(rows))
        return tuple(out)

    # -- code --------------------------------------------------------------------------------------------
    def emit(self, op: str, *args: int) -> int:
        self.code.append(OP[op])
        self.code.extend(args)
        return len(self.code)  # just past the operation: a jump's target is patched at code[end - 1]

    def here(self) -> int:
        return len(self.code)

    def patch(self, end: int, target: int | None = None) -> None:
        self.code[end - 1] = self.here() if target is None else target

    def slot(self) -> int:
        if self.nslots >= MAX_SLOTS:
            raise Untranslatable("too many values")
        self.nslots += 1
        return self.nslots - 1

    def local(self, name: str, store: bool = False) -> int:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name not in self.fslots:
            if not store:
                raise Untranslatable(f"the name {name}")
            self.fslots[name] = self.slot()
        return self.fslots[name]

    def helper(self, name: str, expected: Any) -> None:
        """The global `name` must be the helper the builder put there."""
        if self.g.get(name) is not expected:
            raise Untranslatable(f"the helper {name}")

    # -- statements --------------------------------------------------------------------------------------
    def function(self, tree: ast.Module) -> None:
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef):
            raise Untranslatable("not one function")
        fdef = tree.body[0]
        if [a.arg for a in fdef.args.args] != [ENV, STATE]:
            raise Untranslatable("the function's arguments")
        self.block(fdef.body)
        self.emit("CONST", self._const_index((NONE, 0)))  # a block that falls off its end returns None:
        self.emit("RETURN")  # the machine refuses that return, so Python runs it

    def block(self, body: list[ast.stmt]) -> None:
        for st in body:
            self.statement(st)

    def statement(self, st: ast.stmt) -> None:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            self.expr(st.value)
            self.emit("STORE", self.local(st.targets[0].id, store=True))
        elif isinstance(st, ast.If):
            self.expr(st.test)
            skip = self.emit("JF", 0)
            self.block(st.body)
            if st.orelse:
                end = self.emit("JUMP", 0)
                self.patch(skip)
                self.block(st.orelse)
                self.patch(end)
            else:
                self.patch(skip)
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            self.transfer(st.value)
        elif isinstance(st, ast.Return) and st.value is not None:
            self.expr(st.value)
            self.emit("RETURN")
        elif not isinstance(st, ast.Pass):
            raise Untranslatable(f"the statement {type(st).__name__}")

    def transfer(self, call: ast.Call) -> None:
        f = call.func
        if isinstance(f, ast.Name) and f.id == "_set":  # `set:`: a value for the next deal
            self.helper(f.id, set_value)
            a = call.args
            if len(a) != 3 or call.keywords or not (isinstance(a[0], ast.Name) and a[0].id == STATE) \
                    or not (isinstance(a[1], ast.Constant) and type(a[1].value) is int and 0 <= a[1].value < 1 << 30):
                raise Untranslatable("set's arguments")
            self.reads.add(("set", ""))
            self.expr(a[2])
            self.emit("SET", a[1].value)
            return
        if not isinstance(f, ast.Name) or call.keywords or not f.id.startswith("_") or f.id[1:] not in TRANSFERS:
            raise Untranslatable("a statement other than a transfer")
        kind = f.id[1:]
        self.helper(f.id, TRANSFERS[kind])
        args = call.args
        want = {"pay": 4, "to_pool": 3, "from_pool": 3, "pay_each": 4}[kind]
        if len(args) != want or not (isinstance(args[0], ast.Name) and args[0].id == STATE):
            raise Untranslatable("a transfer's arguments")
        if kind == "pay_each":
            self.pay_each(args[1], args[2], args[3])
            return
        for arg in args[1:]:
            self.expr(arg)
        self.emit({"pay": "PAY", "to_pool": "TO_POOL", "from_pool": "FROM_POOL"}[kind])

    def pay_each(self, frm: ast.expr, to: ast.expr, fn: ast.expr) -> None:
        """`pay_each`: each payer pays each payee (not himself) the lambda's amount for the two of them."""
        if not isinstance(fn, ast.Lambda) or len(fn.args.args) != 2 or fn.args.defaults or fn.args.kwonlyargs:
            raise Untranslatable("pay_each's amount")
        lists = []
        for e in (frm, to):
            self.expr(e)
            self.emit("SEATS")
            s = self.slot()
            self.emit("STORE", s)
            lists.append(s)
        payer, payee, i, j = self.slot(), self.slot(), self.slot(), self.slot()
        zero = self._const_index((INT, 0))
        self.emit("CONST", zero)
        self.emit("STORE", i)
        outer = self.here()
        out_end = self.emit("ITER", lists[0], i, payer, 0)
        self.emit("CONST", zero)
        self.emit("STORE", j)
        inner = self.here()
        in_end = self.emit("ITER", lists[1], j, payee, 0)
        self.emit("LOAD", payer)
        self.emit("LOAD", payee)
        self.emit("CMP", CMP[ast.NotEq])
        self.emit("JF", inner)
        self.emit("LOAD", payer)
        self.emit("LOAD", payee)
        self.scopes.append({fn.args.args[0].arg: payer, fn.args.args[1].arg: payee})
        self.expr(fn.body)
        self.scopes.pop()
        self.emit("PAY1")
        self.emit("JUMP", inner)
        self.patch(in_end)
        self.emit("JUMP", outer)
        self.patch(out_end)

    # -- expressions -------------------------------------------------------------------------------------
    def _const_index(self, pair: tuple[int, int]) -> int:
        if pair not in self.consts:
            self.consts.append(pair)
        return self.consts.index(pair)

    def expr(self, e: ast.expr) -> None:
        if isinstance(e, ast.Constant):
            self.emit("CONST", self._const_index(self.const(e.value)))
        elif isinstance(e, ast.Name) and not self._is_local(e.id) and re.fullmatch(r"_k[0-9]+", e.id) \
                and e.id in self.g:  # a value of the variant the compiler holds as a global (`const_ref`)
            self.value(self.g[e.id])
        elif isinstance(e, ast.Name):
            self.emit("LOAD", self.local(e.id))
        elif isinstance(e, ast.Attribute):
            self.attribute(e)
        elif isinstance(e, ast.Call):
            self.call(e)
        elif isinstance(e, ast.BinOp):
            op = {ast.Add: "ADD", ast.Sub: "SUB", ast.Mult: "MUL"}.get(type(e.op))
            if op is None:
                raise Untranslatable(f"the operator {type(e.op).__name__}")
            self.expr(e.left)
            self.expr(e.right)
            self.emit(op)
        elif isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.Not, ast.USub)):
            self.expr(e.operand)
            self.emit("NOT" if isinstance(e.op, ast.Not) else "NEG")
        elif isinstance(e, ast.BoolOp):
            jump = "JF_KEEP" if isinstance(e.op, ast.And) else "JT_KEEP"
            ends = []
            for v in e.values[:-1]:
                self.expr(v)
                ends.append(self.emit(jump, 0))
            self.expr(e.values[-1])
            for end in ends:
                self.patch(end)
        elif isinstance(e, ast.Compare):
            self.compare(e)
        elif isinstance(e, ast.IfExp):
            self.expr(e.test)
            skip = self.emit("JF", 0)
            self.expr(e.body)
            end = self.emit("JUMP", 0)
            self.patch(skip)
            self.expr(e.orelse)
            self.patch(end)
        elif isinstance(e, ast.List):
            for x in e.elts:
                self.expr(x)
            self.emit("LIST", len(e.elts))
        elif isinstance(e, ast.ListComp):
            self.listcomp(e)
        else:
            raise Untranslatable(f"the expression {type(e).__name__}")

    def value(self, v: Any, depth: int = 0) -> None:
        """A constant value of the variant: pushed as it is, or a list built of its items."""
        if type(v) in (list, tuple) and depth < 2:
            for x in v:
                self.value(x, depth + 1)
            self.emit("LIST", len(v))
        else:
            self.emit("CONST", self._const_index(self.const(v)))

    def attribute(self, e: ast.Attribute) -> None:
        v = e.value
        if isinstance(v, ast.Name) and v.id == STATE:
            if e.attr == "pool":  # the pool as the transfers so far left it
                self.emit("POOL")
            else:
                self.reads.add(("state", e.attr))
                self.emit("STATE", self._index(self.names, e.attr))
        elif isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == STATE:
            self.reads.add(("state2", f"{v.attr}.{e.attr}"))
            self.emit("STATE2", self._index(self.names, v.attr), self._index(self.names, e.attr))
        elif isinstance(v, ast.Name) and v.id == ENV:
            if e.attr.startswith("f_"):  # a function of the environment, called later
                self.reads.add(("func", e.attr))
                self.emit("FUNC", self._index(self.names, e.attr))
            else:
                self.reads.add(("env", e.attr))
                self.emit("ENV", self._index(self.names, e.attr))
        else:
            raise Untranslatable("an attribute of a value")

    def call(self, e: ast.Call) -> None:
        if e.keywords or any(isinstance(a, ast.Starred) for a in e.args):
            raise Untranslatable("keyword or starred arguments")
        f = e.func
        name = f.id if isinstance(f, ast.Name) else ""
        if isinstance(f, ast.Attribute) or (name and self._is_local(name)):
            self.expr(f)  # the environment's function (hoisted into a local, or read in place)
            for a in e.args:
                self.expr(a)
            self.emit("CALLF", len(e.args))
            return
        if name.startswith("_b_") and name[3:] in PURE:
            self.helper(name, PURE[name[3:]][0])
            code = BUILTIN[name[3:]]
        elif name in RUNTIME:
            self.helper(name, RUNTIME[name])
            code = BUILTIN[name]
        elif name == "_gi":
            self.helper(name, _safe_index)
            code = BUILTIN[name]
        elif name == "_defenders":
            self.helper(name, defenders)
            if len(e.args) != 1 or not (isinstance(e.args[0], ast.Name) and e.args[0].id == STATE):
                raise Untranslatable("_defenders' argument")
            self.emit("CONST", self._const_index((INT, 0)))  # the first Python helper: defenders
            self.emit("BI", B_PY, 1)
            return
        elif name.startswith("_a_") and len(e.args) == 1:
            self.attr_reader(name)
            self.expr(e.args[0])
            self.emit("ATTR", self._index(self.attrs, name[3:]))
            return
        else:
            raise Untranslatable(f"the call of {name or type(f).__name__}")
        lo, hi = {"group_points": (3, 3), "prefix_len": (2, 2), "_div": (2, 2), "_mod": (2, 2), "_gi": (2, 2),
                  "max": (1, 64), "min": (1, 64)}.get(name[3:] if name.startswith("_b_") else name, (1, 1))
        if not lo <= len(e.args) <= hi:
            raise Untranslatable(f"{name} with {len(e.args)} arguments")
        for a in e.args:
            self.expr(a)
        self.emit("BI", code, len(e.args))

    def _is_local(self, name: str) -> bool:
        return name in self.fslots or any(name in s for s in self.scopes)

    def attr_reader(self, name: str) -> None:
        """`_a_NAME` must read attributes of cards, suits and contracts only (none for a plain value), as the
        compiler's attribute readers do: the machine reads its tables for those and none for the rest."""
        read = self.g.get(name)
        plain: tuple[Any, ...] = (0, None, [], "", True)
        if not callable(read) or any(read(x) is not None for x in plain):
            raise Untranslatable(f"the attribute reader {name}")

    def compare(self, e: ast.Compare) -> None:
        if any(type(op) not in CMP for op in e.ops):
            raise Untranslatable("a comparison")
        ops = [CMP[type(op)] for op in e.ops]
        for op, right in zip(e.ops, e.comparators, strict=True):
            if isinstance(op, (ast.Is, ast.IsNot)) and not (isinstance(right, ast.Constant) and right.value is None):
                raise Untranslatable("'is' other than with none")
        self.expr(e.left)
        if len(ops) == 1:
            self._operand(e.ops[0], e.comparators[0])
            self.emit("CMP", ops[0])
            return
        left, right_slot, ends = self.slot(), self.slot(), []
        self.emit("STORE", left)
        for k, (op, right) in enumerate(zip(e.ops, e.comparators, strict=True)):
            self._operand(op, right)
            self.emit("STORE", right_slot)
            self.emit("LOAD", left)
            self.emit("LOAD", right_slot)
            self.emit("CMP", CMP[type(op)])
            if k < len(ops) - 1:
                ends.append(self.emit("JF_KEEP", 0))
                self.emit("LOAD", right_slot)
                self.emit("STORE", left)
        for end in ends:
            self.patch(end)

    def _operand(self, op: ast.cmpop, right: ast.expr) -> None:
        """A comparison's right side; a tuple only after `in` (where it acts as a list does)."""
        if isinstance(right, ast.Tuple):
            if not isinstance(op, (ast.In, ast.NotIn)):
                raise Untranslatable("a tuple compared")
            for x in right.elts:
                self.expr(x)
            self.emit("LIST", len(right.elts))
        else:
            self.expr(right)

    def listcomp(self, e: ast.ListComp) -> None:
        out = self.slot()
        self.emit("EMPTY", out)
        gens = e.generators
        if any(g.is_async or not isinstance(g.target, ast.Name) for g in gens):
            raise Untranslatable("a comprehension's target")
        self.expr(gens[0].iter)  # the first list is read in the enclosing scope
        self.scopes.append({})
        self._loop(e, 0, out)
        self.scopes.pop()
        self.emit("LOAD", out)

    def _loop(self, e: ast.ListComp, k: int, out: int) -> None:
        g = e.generators[k]
        if k:
            self.expr(g.iter)
        items, i, var = self.slot(), self.slot(), self.slot()
        self.emit("STORE", items)
        self.emit("CONST", self._const_index((INT, 0)))
        self.emit("STORE", i)
        top = self.here()
        end = self.emit("ITER", items, i, var, 0)
        assert isinstance(g.target, ast.Name)
        self.scopes[-1][g.target.id] = var
        for cond in g.ifs:
            self.expr(cond)
            self.emit("JF", top)
        if k + 1 < len(e.generators):
            self._loop(e, k + 1, out)
        else:
            self.expr(e.elt)
            self.emit("APPEND", out)
        self.emit("JUMP", top)
        self.patch(end)

    def program(self) -> Any:
        fkinds = []
        for name in list(self.names):
            kind, attr = SEAT_READS.get(name, (None, ""))
            if kind is None:
                fkinds.append((F_PY, 0))
            else:
                at = self._index(self.names, kind)
                fkinds.append((F_SEAT_INT if attr == "int" else F_SEAT_CARDS, at))
        fkinds += [(F_PY, 0)] * (len(self.names) - len(fkinds))
        bases = tuple((c.base or c).index for c in self.objects[2])
        if any(c.index != i for i, c in enumerate(self.objects[2])):
            raise Untranslatable("contracts out of order")
        attrs = self.attr_tables()  # first: their strings join the table
        fields = tuple((STATE_FIELDS.get(n, 0), ENV_FIELDS.get(n, 0)) for n in self.names)
        return kernel.program(tuple(self.code), self.nslots, tuple(self.consts), tuple(self.names),
                              tuple(self.strings), self.objects, bases, attrs, tuple(fkinds), fields,
                              (defenders,), _env)


def _block(fn: Any, rules: Any) -> _Translator:
    """A settlement block translated (Untranslatable where it cannot be)."""
    t = _Translator(fn, rules)
    t.function(fn.tree)
    return t


def on_facts(t: _Translator) -> bool:
    """Whether a translated program reads only what a deal the kernel plays whole has (`STATE_FIELDS`,
    `ENV_FIELDS`, the functions of `SEAT_READS`), and sets nothing for the next deal."""
    for kind, name in t.reads:
        if kind == "state" and name not in STATE_FIELDS or kind == "env" and name not in ENV_FIELDS \
                or kind == "func" and name not in SEAT_READS or kind == "set" \
                or kind == "state2" and name != "ctx.trump_order_cards":
            return False
    return True


def facts_program(fn: Any, rules: Any, expr: bool = False) -> Any:
    """The program of a settlement block (or, `expr`, of a compiled condition) when it reads only a deal's
    facts (`on_facts`); None otherwise."""
    try:
        if expr:
            lam = fn.tree.body if getattr(fn, "tree", None) is not None else None
            if not isinstance(lam, ast.Lambda) or [a.arg for a in lam.args.args] != [ENV]:
                return None
            t = _Translator(fn.fn, rules)
            t.expr(lam.body)
            t.emit("TRUTH")
        else:
            t = _block(fn, rules)
        return t.program() if on_facts(t) else None
    except Untranslatable:
        return None


def _env(state: Any) -> DealEnv:
    """The environment a settlement block is given (as `State._run_block` makes it)."""
    return DealEnv(state, state.ctx)


_NONE = object()  # kept on a block without a program


def program(fn: Any, rules: Any) -> Any:
    """The machine's program of a settlement block of `rules`, made on first use and kept on the block (so it
    lives as long as the block does); None where the kernel is not built or the block has a form the machine
    does not run."""
    if not kernel.BUILT:
        return None
    prog = fn.__dict__.get("_machine")
    if prog is None:
        try:
            prog = _block(fn, rules).program()
        except Untranslatable:
            prog = _NONE
        fn.__dict__["_machine"] = prog
    return None if prog is _NONE else prog


def why_not(fn: Any, rules: Any) -> str:
    """Why a block stays in Python ("" when the machine runs it): for tests and diagnostics."""
    try:
        _block(fn, rules).program()
    except Untranslatable as ex:
        return str(ex)
    return ""
