"""Scenario files: a variant, a deal, scripted actions, and the expected legal sets, tricks, outcome and
payments. They are the main rule tests and a tool for house-rule authors (`ombre test FILE…`).

A file holds one scenario (a mapping) or several (`scenarios: [...]`, each inheriting the file's other keys).
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .engine import State
from .engine.carry import as_json, start_values
from .engine.piles import piles
from .engine.session_end import close_session, session_over
from .errors import Loc, OmbreError, SpecError
from .ruleset import Ruleset, load
from .spec.yamlpos import PositionedDoc, load_file

KEYS = {"name", "variant", "options", "dealer", "pool", "hands", "talon", "seed", "actions", "expect", "doc",
        "session", "deals_played"}
EXPECT_KEYS = {"legal", "illegal", "trick_winners", "tricks", "outcome", "payments", "pool", "declarer",
               "contract", "trump", "phase", "to_move", "hand", "view", "stopped", "committed", "partner",
               "called", "pile", "discards", "summary", "session", "session_end"}


@dataclass
class Failure:
    loc: Loc
    scenario: str
    message: str

    def __str__(self) -> str:
        return f"{self.loc}: {self.scenario}: {self.message}"


@dataclass
class Report:
    file: str
    passed: list[str] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)


def _seat_key(k: Any, loc: Loc, n: int) -> int:
    if type(k) is int:
        s = k
    elif isinstance(k, str) and re.fullmatch(r"[0-9]{1,9}", k):
        s = int(k)
    else:
        raise SpecError(f"seat {_shown(k)} is not a seat number", loc)
    if not 0 <= s < n:
        raise SpecError(f"no seat {s} in a {n}-player game", loc)
    return s


_SCALAR = (str, int, float, bool)


def _scalars(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, _SCALAR) for x in v)


# what a value of each kind is (see `_TOP`)
_KINDS: dict[str, Callable[[Any], bool]] = {
    "whole": lambda v: type(v) is int,
    "text": lambda v: isinstance(v, str),
    "scalar": lambda v: isinstance(v, _SCALAR),
    "scalars": _scalars,
    "mapping": lambda v: isinstance(v, dict),
    "scalar mapping": lambda v: isinstance(v, dict) and all(isinstance(x, _SCALAR) for x in v.values()),
    "cards by seat": lambda v: isinstance(v, dict) and all(x is None or _scalars(x) for x in v.values()),
}
_WORDS = {"whole": "a whole number", "text": "text", "scalar": "a single value", "scalars": "a list of single values",
          "mapping": "a mapping", "scalar mapping": "a mapping of names to single values",
          "cards by seat": "a mapping of seats to lists of cards"}
# the kind of each key of a scenario (None is allowed where a key may be left empty), and of each check of `expect`
_TOP = {"name": "scalar", "variant": "text", "options": "scalar mapping", "dealer": "whole", "pool": "whole",
        "seed": "whole", "hands": "cards by seat", "talon": "scalars", "actions": "scalars", "expect": "mapping",
        "doc": "scalar", "session": "mapping", "deals_played": "whole"}
_MAY_BE_EMPTY = {"options", "talon", "actions", "expect", "session", "hands"}
_CHECK = {"after": "whole", "before": "scalar", "occurrence": "whole", "seat": "whole", "actions": "scalars",
          "action": "scalar", "message": "scalar", "not_contains": "scalars"}
_EXPECT = {"hand": "cards by seat", "pile": "cards by seat", "discards": "cards by seat", "session": "mapping",
           "summary": "mapping"}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _Runner:
    def __init__(self, doc: PositionedDoc, base: tuple, data: dict, cache: dict) -> None:
        self.doc = doc
        self.base = base
        self.d = data
        self.cache = cache
        self.name = str(data.get("name") or os.path.basename(doc.file))

    def loc(self, *path) -> Loc:
        full = self.base + tuple(path)
        while len(full) > len(self.base) and full not in self.doc.where:
            full = full[:-1]
        return self.doc.loc(full)

    def _want(self, value: Any, kind: str, *path: Any) -> None:
        if not _KINDS[kind](value):
            raise SpecError(f"'{'.'.join(map(str, path))}' must be {_WORDS[kind]}, not {_shown(value)}",
                            self.loc(*path))

    def check_shape(self) -> None:
        """Every key of the scenario has the kind it must have, or a SpecError at its place: a scenario is
        untrusted input, and a value of the wrong kind must not reach the code that reads it."""
        d = self.d
        for key, kind in _TOP.items():
            if key in d and not (d[key] is None and key in _MAY_BE_EMPTY):
                self._want(d[key], kind, key)
        for key, want in (d.get("expect") or {}).items():
            if key in ("legal", "illegal", "view"):
                for i, chk in enumerate(_as_list(want)):
                    if not isinstance(chk, dict):
                        raise SpecError(f"each '{key}' check is a mapping, not {_shown(chk)}",
                                        self.loc("expect", key, i))
                    for k, kind in _CHECK.items():
                        if k in chk:
                            self._want(chk[k], kind, "expect", key, i, k)
                    need = {"view": "seat", "illegal": "action"}.get(key)
                    if need and need not in chk:
                        raise SpecError(f"a '{key}' check needs '{need}'", self.loc("expect", key, i))
            elif key in _EXPECT:
                self._want(want, _EXPECT[key], "expect", key)

    def rules(self) -> Ruleset:
        variant = self.d.get("variant")
        if not isinstance(variant, str):
            raise SpecError("a scenario needs 'variant'", self.loc())
        here = os.path.dirname(self.doc.file)
        name = variant
        head = variant.split("(")[0]
        if head.endswith((".yaml", ".yml")) and not os.path.isabs(head):
            cand = os.path.join(here, head)
            if os.path.exists(cand):
                name = cand + variant[len(head):]
        opts = {str(k): v for k, v in (self.d.get("options") or {}).items()}
        key = (name, tuple(sorted((k, str(v)) for k, v in opts.items())))
        if key not in self.cache:
            try:
                self.cache[key] = load(name, opts)
            except SpecError as e:
                if e.loc is None:
                    raise SpecError(e.message, self.loc("variant")) from None
                raise
        return self.cache[key]

    def state(self, rules: Ruleset) -> State:
        d = self.d
        n = rules.players
        dealer = _seat_key(d.get("dealer", 0), self.loc("dealer"), n)
        pool = d.get("pool", 0)
        carried = d.get("session")
        try:
            start_values(rules, carried)
        except OmbreError as e:
            raise SpecError(e.message, self.loc("session")) from None
        if "hands" not in d:
            return State(rules, seed=d.get("seed", 0), dealer=dealer, pool=pool, session=carried)
        deck = rules.deck
        hands = [0] * n
        seen: dict[int, str] = {}

        def take(name: Any, where: str, path: tuple) -> int:
            try:
                c = deck.parse(str(name))
            except OmbreError as e:
                raise SpecError(e.message, self.loc(*path)) from None
            if c in seen:
                raise SpecError(f"card {deck.name(c)} is dealt twice ({seen[c]} and {where})", self.loc(*path))
            seen[c] = where
            return c

        raw = d["hands"]
        if not isinstance(raw, dict):
            raise SpecError("'hands' maps seats to lists of cards", self.loc("hands"))
        for k, cards in raw.items():
            s = _seat_key(k, self.loc("hands", k), n)
            for i, name in enumerate(cards or []):
                hands[s] |= 1 << take(name, f"seat {s}", ("hands", k, i))
        talon = [take(name, "the talon", ("talon", i)) for i, name in enumerate(d.get("talon") or [])]
        missing = [deck.name(c) for c in range(deck.size) if c not in seen]
        if missing:
            raise SpecError(f"the deal leaves out {', '.join(missing)}", self.loc("hands"))
        try:
            return State(rules, dealer=dealer, pool=pool, hands=hands, talon=talon, session=carried)
        except SpecError:
            raise
        except OmbreError as e:
            raise SpecError(e.message, self.loc("hands")) from None

    def run(self) -> list[Failure]:
        fails: list[Failure] = []
        extra = set(self.d) - KEYS - {"scenarios"}
        if extra:
            k = sorted(extra)[0]
            return [Failure(self.loc(k), self.name, f"unknown key '{k}' (expected one of: {', '.join(sorted(KEYS))})")]
        self.check_shape()
        rules = self.rules()
        state = self.state(rules)
        expect = self.d.get("expect") or {}
        bad = set(expect) - EXPECT_KEYS
        if bad:
            k = sorted(bad)[0]
            return [Failure(self.loc("expect", k), self.name,
                            f"unknown expectation '{k}' (expected one of: {', '.join(sorted(EXPECT_KEYS))})")]
        actions = [str(a) for a in (self.d.get("actions") or [])]
        checks: dict[int, list[tuple[str, int, Any]]] = {}
        for i, chk in enumerate(_as_list(expect.get("legal"))):
            at = self._when(chk, actions, ("expect", "legal", i))
            checks.setdefault(at, []).append(("legal", i, chk))
        for i, chk in enumerate(_as_list(expect.get("illegal"))):
            at = self._when(chk, actions, ("expect", "illegal", i))
            checks.setdefault(at, []).append(("illegal", i, chk))
        for i, chk in enumerate(_as_list(expect.get("view"))):
            at = self._when(chk, actions, ("expect", "view", i))
            checks.setdefault(at, []).append(("view", i, chk))
        for step in range(len(actions) + 1):
            for kind, i, chk in checks.get(step, []):
                fails += self._check(kind, i, chk, state, step)
            if step == len(actions):
                break
            text = actions[step]
            try:
                state.apply_str(text)
            except OmbreError as e:
                fails.append(Failure(self.loc("actions", step), self.name,
                                     f"step {step + 1} '{text}': {e.message}"))
                return fails
        fails += self._final(expect, state)
        return fails

    def _when(self, chk: dict, actions: list[str], path: tuple) -> int:
        if "after" in chk:
            at = chk["after"]
            if not 0 <= at <= len(actions):
                raise SpecError(f"'after: {at}' is outside the {len(actions)} actions", self.loc(*path, "after"))
            return at
        if "before" in chk:
            want = str(chk["before"]).strip()
            nth = chk.get("occurrence", 1)
            seen = 0
            for i, a in enumerate(actions):
                if a.strip() == want:
                    seen += 1
                    if seen == nth:
                        return i
            raise SpecError(f"'before: {want}' does not match any action", self.loc(*path))
        return len(actions)

    def _check(self, kind: str, i: int, chk: dict, state: State, step: int) -> list[Failure]:
        r = state.rules
        out = []
        path = ("expect", kind, i)
        if kind != "view" and "seat" in chk and chk["seat"] != state.current_player:
            out.append(Failure(self.loc(*path), self.name,
                               f"after {step} actions: seat to move is {state.current_player}, expected {chk['seat']}"))
        if kind == "legal":
            got = sorted(r.action_str(a) for a in state.legal_actions())
            want = sorted(str(a) for a in chk.get("actions", []))
            if got != want:
                missing = sorted(set(want) - set(got))
                extra = sorted(set(got) - set(want))
                out.append(Failure(self.loc(*path), self.name,
                                   f"after {step} actions: legal set differs; missing {missing}, unexpected {extra}"))
        elif kind == "illegal":
            text = str(chk.get("action"))
            probe = state.clone()
            try:
                probe.apply_str(text)
                out.append(Failure(self.loc(*path), self.name, f"after {step} actions: '{text}' was accepted"))
            except OmbreError as e:
                said = chk.get("message")
                if said is not None and str(said) not in e.message:
                    out.append(Failure(self.loc(*path), self.name,
                                       f"after {step} actions: message '{e.message}' lacks '{said}'"))
        elif kind == "view":
            v = state.view(_seat_key(chk["seat"], self.loc(*path, "seat"), state.n))
            for key, want in chk.items():
                if key in ("seat", "after", "before", "occurrence"):
                    continue
                if key == "not_contains":
                    shown = _flatten(v)
                    leaked = [c for c in want if str(c) in shown]
                    if leaked:
                        out.append(Failure(self.loc(*path), self.name, f"view of seat {chk['seat']} shows {leaked}"))
                    continue
                seen = v.get(key, _ABSENT)
                if isinstance(want, list) and isinstance(seen, list) and key in ("hand", "my_discards", "my_draws",
                                                                                  "leftover_shown"):
                    seen, want = sorted(seen), sorted(str(x) for x in want)
                if seen != want:
                    out.append(Failure(self.loc(*path, key), self.name,
                                       f"after {step} actions: view of seat {chk['seat']}: {key} is {seen!r}, "
                                       f"expected {want!r}"))
        return out

    def _final(self, expect: dict, state: State) -> list[Failure]:
        out = []
        res = state.result

        def fail(key: str, got: Any, want: Any) -> None:
            out.append(Failure(self.loc("expect", key), self.name, f"{key} is {got!r}, expected {want!r}"))

        r = state.rules
        actual = {
            "trick_winners": [w for _l, _c, w in state.trick_log],
            "tricks": list(state.tricks),
            "outcome": res.outcome if res else None,
            "payments": list(res.payments) if res else None,
            "pool": state.pool,
            "declarer": state.declarer if state.declarer >= 0 else None,
            "contract": state.contract.name if state.contract else None,
            "trump": state.trump.name if state.trump is not None else None,
            "phase": state.phase_name,
            "to_move": state.current_player,
            "stopped": state.stopped,
            "committed": state.committed,
            "partner": state.partner if state.partner >= 0 else None,
            "called": r.deck.name(state.called) if state.called >= 0 else None,
        }
        for key, want in expect.items():
            if key in ("legal", "illegal", "view"):
                continue
            if key in ("hand", "pile", "discards"):
                masks = {"hand": state.hands, "pile": piles(state), "discards": state.discards}[key]
                for seat, cards in want.items():
                    got = r.deck.names(masks[_seat_key(seat, self.loc("expect", key, seat), state.n)])
                    if sorted(got) != sorted(str(c) for c in cards or []):
                        fail(key, got, cards)
                continue
            if key == "session":
                left = as_json(r, state.carry_after) or {}
                for name, value in (want or {}).items():
                    if left.get(name, _ABSENT) != value:
                        fail(key, {name: left.get(name)}, {name: value})
                continue
            if key == "session_end":
                out += self._session_end(want, state)
                continue
            if key == "summary":
                env = state.env()
                values = {label: state.eval(e, env) for label, e in r.summary}
                for label, value in want.items():
                    if values.get(label) != value:
                        fail(key, {label: values.get(label)}, {label: value})
                continue
            if actual.get(key) != want:
                fail(key, actual.get(key), want)
        return out


    def _session_end(self, want: Any, state: State) -> list[Failure]:
        """`expect.session_end`: whether the session ends after this deal (the `deals_played`-th, the ledger
        this deal's payments) and what its close pays."""
        path = ("expect", "session_end")
        if not isinstance(want, dict) or set(want) - {"ends", "payments", "pool"}:
            raise SpecError("session_end expects a mapping of ends, payments and pool", self.loc(*path))
        if state.result is None:
            return [Failure(self.loc(*path), self.name, "session_end: the deal is not over")]
        n = self.d.get("deals_played", 1)
        if type(n) is not int or n < 1:
            raise SpecError(f"deals_played must be a whole number from 1, not {n!r}", self.loc("deals_played"))
        ledger = list(state.result.payments)
        got: dict[str, Any] = {"ends": session_over(state, n, ledger)}
        closed = close_session(state, n, ledger)
        got["payments"], got["pool"] = list(closed.payments), closed.pool_after
        return [Failure(self.loc(*path, k), self.name, f"session_end: {k} is {got[k]!r}, expected {v!r}")
                for k, v in want.items() if got[k] != v]


_ABSENT = object()


def _flatten(v: Any) -> str:
    return json.dumps(v)


def _as_list(x: Any) -> list:
    if x is None:
        return []
    return x if isinstance(x, list) else [x]


def _items(data: dict) -> list[tuple[tuple, dict]]:
    """(path, data) of each scenario of a file: the file itself, or each of its `scenarios` with the keys
    they share."""
    if "scenarios" not in data:
        return [((), data)]
    shared = {k: v for k, v in data.items() if k != "scenarios"}
    return [(("scenarios", i), {**shared, **sc}) for i, sc in enumerate(data["scenarios"] or [])]


def _scenarios(doc: PositionedDoc) -> list[tuple[tuple, dict]]:
    """The scenarios of a parsed file, once its shape is checked: a mapping, whose `scenarios` (if any) is a list
    of mappings; a SpecError at the place of the first that is not."""
    data = doc.data
    if not isinstance(data, dict):
        raise SpecError(f"a scenario file is a mapping, not {_shown(data)}", doc.loc(()))
    many = data.get("scenarios")
    if "scenarios" in data and many is not None:
        if not isinstance(many, list):
            raise SpecError(f"'scenarios' is a list of scenarios (mappings), not {_shown(many)}",
                            doc.loc(("scenarios",)))
        for i, sc in enumerate(many):
            if not isinstance(sc, dict):
                raise SpecError(f"each scenario is a mapping, not {_shown(sc)}", doc.loc(("scenarios", i)))
    return _items(data)


def run_file(path: str, cache: dict | None = None) -> Report:
    """Run every scenario in a file."""
    cache = {} if cache is None else cache
    report = Report(path)
    doc = load_file(path)
    for base, sc in _scenarios(doc):
        runner = _Runner(doc, base, sc, cache)
        try:
            fails = runner.run()
        except SpecError as e:
            fails = [Failure(e.loc or runner.loc(), runner.name, e.message)]
        if fails:
            report.failures += fails
        else:
            report.passed.append(runner.name)
    return report


def scenario_deal(path: str, index: int = 1) -> tuple[State, list[str], str]:
    """The deal of the `index`-th scenario of a file (1-based) before its actions, its actions as text, and
    its name: what a scenario gives to tools that replay it their own way (`ombre solve`)."""
    doc = load_file(path)
    items = _scenarios(doc)
    if not 1 <= index <= len(items):
        raise OmbreError(f"{path} holds {len(items)} scenario{'s' if len(items) != 1 else ''}, not {index}")
    base, sc = items[index - 1]
    runner = _Runner(doc, base, sc, {})
    runner.check_shape()
    return runner.state(runner.rules()), [str(a) for a in sc.get("actions") or []], runner.name
