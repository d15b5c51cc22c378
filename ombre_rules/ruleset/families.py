"""Contract families (`families`): one declaration for a ladder of similar contracts, expanded before anything
else is compiled into ordinary entries of `contracts`, one per combination of the family's variables.

Each member is the family's `contract` template, with the `cases` of its variables' values merged over it; its
name and title are made from the `name` and `title` patterns (a case's own `title` first), `{VAR}` replaced by
the value; its `level` is worked out from the `level` formula (integers, the variables, `+ - * //` and
parentheses; a word stands for its place in its list, from 0); every variable is bound as an attribute
(`contract.VAR`). A member's keys keep the places of the template's keys, so an error in one names the family's
line. Members follow the file's own contracts, in the order of the variables (the first varies slowest)."""
from __future__ import annotations

import copy
import re
from dataclasses import replace
from itertools import product
from typing import Any

from lark import Tree
from lark.exceptions import LarkError

from ..errors import SpecError, SpecErrors
from ..lang.compiler import parse
from ..spec.resolve import ResolvedSpec
from ..spec.yamlpos import PositionedDoc

MAX_MEMBERS = 500  # contracts one family may make
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,62}")


def _values(spec: Any) -> list[Any]:
    """A variable's values: a list as written, or the integers `from`..`to`."""
    if isinstance(spec, dict):
        return list(range(int(spec["from"]), int(spec["to"]) + 1))
    return list(spec)


def _fill(pattern: str, env: dict[str, Any]) -> str:
    out = pattern
    for k, v in env.items():
        out = out.replace("{" + k + "}", str(v))
    return out


def _number(t: Any, env: dict[str, int], where: Any) -> int:
    """A level formula's value: integers, variables, `+ - * //`, a minus sign."""
    if isinstance(t, Tree):
        if t.data == "int":
            return int(str(t.children[0]))
        if t.data == "name" and str(t.children[0]) in env:
            return env[str(t.children[0])]
        if t.data == "neg":
            return -_number(t.children[0], env, where)
        if t.data == "binop" and str(t.children[1]) in ("+", "-", "*", "//"):
            a, b = _number(t.children[0], env, where), _number(t.children[2], env, where)
            op = str(t.children[1])
            if op == "//":
                if b == 0:
                    raise SpecError("the level formula divides by 0", where)
                return a // b
            return a + b if op == "+" else a - b if op == "-" else a * b
    raise SpecError("a level formula holds integers, the family's variables, + - * // and parentheses only", where)


def _member(doc: PositionedDoc, fp: tuple, fam: dict, name: str, env: dict[str, Any], nums: dict[str, int]) -> dict:
    entry = copy.deepcopy(fam.get("contract") or {})
    for var, value in env.items():
        case = ((fam.get("cases") or {}).get(var) or {}).get(str(value))
        if case:
            entry.update(copy.deepcopy(case))
    level = fam["level"]
    if isinstance(level, str):
        where = doc.loc(fp + ("level",))
        try:
            tree = parse(level)
        except LarkError:
            raise SpecError(f"cannot read the level formula '{level}'", where) from None
        level = _number(tree, nums, where)
    if level < 1:
        raise SpecError(f"the level formula gives {level} for {name}: a level is 1 or more", doc.loc(fp + ("level",)))
    entry["level"] = level
    entry["title"] = _fill(str(entry.get("title") or fam.get("title", fam["name"])), env)  # a case's own first
    if isinstance(entry.get("doc"), str):
        entry["doc"] = _fill(entry["doc"], env)
    entry["attrs"] = {**(entry.get("attrs") or {}), **env}
    return entry


def _places(doc: PositionedDoc, where: dict, keys: dict, fp: tuple, fam: dict, env: dict[str, Any],
            to: tuple) -> None:
    """A member's keys take the places of the template's (and of a case's) keys; the rest the family's."""
    where[to] = doc.source(fp)
    keys[to] = doc.key_loc(fp)
    subs = [(fp + ("contract",), to)]
    for var, value in env.items():
        if str(value) in ((fam.get("cases") or {}).get(var) or {}):
            subs.append((fp + ("cases", var, str(value)), to))
    subs.append((fp + ("level",), to + ("level",)))
    for src, dst in subs:
        n = len(src)
        for p, s in doc.where.items():
            if p[:n] == src:
                where[dst + p[n:]] = s
        for p, at in doc.keys.items():
            if p[:n] == src:
                keys[dst + p[n:]] = at
    for k in ("title", "attrs"):
        where.setdefault(to + (k,), doc.source(fp))


def expand_families(spec: ResolvedSpec) -> ResolvedSpec:
    """The spec with every family's members added to `contracts` (the spec itself when it has none)."""
    families = spec.data.get("families")
    if not families:
        return spec
    doc = spec.doc
    contracts = dict(spec.data["contracts"])
    where, keys = dict(doc.where), dict(doc.keys)
    errors: list[SpecError] = []
    for fname, fam in families.items():
        fp = ("families", fname)
        names = list(fam["vars"])
        lists = [_values(fam["vars"][v]) for v in names]
        count = 1
        for values in lists:
            count *= len(values)
        if count > MAX_MEMBERS:
            errors.append(SpecError(f"family '{fname}' makes {count} contracts, more than {MAX_MEMBERS}",
                                    doc.key_loc(fp + ("vars",))))
            continue
        for combo in product(*lists):
            env = dict(zip(names, combo, strict=True))
            nums = {v: (x if type(x) is int else lists[i].index(x)) for i, (v, x) in enumerate(env.items())}
            name = _fill(str(fam["name"]), env)
            if not _NAME.fullmatch(name) or name in contracts:
                why = "the name of another contract" if name in contracts else "not a name"
                errors.append(SpecError(f"family '{fname}' makes a contract '{name}': {why}",
                                        doc.loc(fp + ("name",))))
                break
            try:
                contracts[name] = _member(doc, fp, fam, name, env, nums)
            except SpecError as e:
                errors.append(e)
                break
            _places(doc, where, keys, fp, fam, env, ("contracts", name))
    if errors:
        raise SpecErrors(errors)
    data = {**spec.data, "contracts": contracts}
    return replace(spec, doc=PositionedDoc(data, where, doc.file, keys))
