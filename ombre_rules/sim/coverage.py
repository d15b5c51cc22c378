"""Rule coverage: how often a run of deals reached each contract, outcome, mechanic and option-dependent rule,
and which rules two compared variants differ by, with a warning for those a run barely reached. A run is
counted by what each deal reached (`Reached`), so coverage keeps a few counts, not the deals."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..ruleset import Ruleset
from ..spec.resolve import fmt_value

# sections that describe a variant rather than change its play
_DESCRIPTIVE = {"id", "title", "aliases", "sources", "extends", "options", "doc"}
_OPT = re.compile(r"\bopt\.([A-Za-z_]\w*)")

# what a deal offered or took, by mechanic (the names `sim.runner.play_deal` records; "stop" is the claim)
MECHANICS = {
    "discard": "exchange (a card discarded)", "draw": "exchange (cards drawn)",
    "cede": "ceding the first exchange", "hold": "holding a bid", "trump": "naming trumps",
    "concede": "concession", "accept": "consent to a concession", "refuse": "refusing a concession",
    "continue": "playing on (past a claim or a surrender)", "call": "calling a card",
    "give": "giving a card for a demanded one", "demand": "demanding a card",
    "take_over": "taking a game given up over",
}


class Reached(NamedTuple):
    """What coverage reads of a deal's result line: every rule's test is a function of these."""

    contract: str | None
    outcome: str
    fallback: bool
    played: bool  # a trick was played
    offered: tuple[str, ...]
    taken: tuple[str, ...]


def reached(x: dict) -> Reached:
    """What a deal's result line reached."""
    return Reached(x["contract"], x["outcome"], x["fallback"], bool(x["winners"]), tuple(x["offered"]),
                   tuple(x["taken"]))


@dataclass(frozen=True)
class Reach:
    """A rule as coverage counts it: its label and the test of what a deal reached."""

    label: str
    test: Callable[[Reached], bool]


def _every(_x: Reached) -> bool:
    return True


def _played(x: Reached) -> bool:
    return x.played


def _never(_x: Reached) -> bool:
    return False


def _offered(kind: str) -> Callable[[Reached], bool]:
    return lambda x: kind in x.offered


def _taken(kind: str) -> Callable[[Reached], bool]:
    return lambda x: kind in x.taken


def _contract(name: str) -> Callable[[Reached], bool]:
    return lambda x: x.contract == name


def _outcome(name: str) -> Callable[[Reached], bool]:
    return lambda x: x.outcome == name


def _fallback(x: Reached) -> bool:
    return x.fallback


SESSION_LABEL = "session rules"
_PLAY = {"claim": ("claim offered", "stop"), "concede": ("concession offered", "concede"),
         "surrender": ("surrender offered", "concede")}


def reach_of(path: tuple, data: dict) -> Reach:
    """The coverage rule that decides whether a deal reached the rule at `path` of a resolved variant file."""
    head = path[0]
    sub = path[1] if len(path) > 1 else None
    if head == "contracts" and sub is not None:
        return Reach(f"contract {sub}", _contract(sub))
    if head == "auction" and sub == "all_pass":
        return Reach("all-pass rule (every seat passed)", _fallback)
    if head == "scoring" and sub == "outcomes" and len(path) > 2:
        return Reach(f"outcome {path[2]}", _outcome(path[2]))
    if head == "outcomes" and isinstance(sub, int):
        name = data["outcomes"][sub].get("name", "?") if sub < len(data.get("outcomes") or []) else "?"
        return Reach(f"outcome {name}", _outcome(name))
    if head == "play" and sub == "surrender" and len(path) > 2 and path[2] == "takeover":
        return Reach(MECHANICS["take_over"], _offered("take_over"))
    if head == "play" and sub in _PLAY:
        label, kind = _PLAY[sub]
        return Reach(label, _offered(kind))
    if head == "exchange":
        return Reach("exchange (a card discarded)", _taken("discard"))
    if head in ("call", "demand"):
        return Reach(MECHANICS[head], _offered(head))
    if head == "session":
        return Reach(SESSION_LABEL, _never)
    if head in ("play", "let", "scoring") and not (head == "scoring" and sub == "ante"):
        return Reach("card play (a contract played)", _played)
    return Reach(f"{head} (every deal)", _every)


def _leaves(a: Any, b: Any, path: tuple, depth: int) -> Iterator[tuple]:
    """Paths (at most `depth` deep) where two resolved trees differ."""
    if a == b:
        return
    if a is None and isinstance(b, dict) or b is None and isinstance(a, dict):
        a, b = a or {}, b or {}
    if isinstance(a, dict) and isinstance(b, dict) and depth > 0:
        for k in list(a) + [k for k in b if k not in a]:
            yield from _leaves(a.get(k), b.get(k), path + (k,), depth - 1)
        return
    yield path


def _readers(data: Any, path: tuple = ()) -> Iterator[tuple[str, tuple]]:
    """(option, path) for every string of the file that reads `opt.OPTION`."""
    if isinstance(data, dict):
        for k, v in data.items():
            if path or k not in _DESCRIPTIVE:
                yield from _readers(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _readers(v, path + (i,))
    elif isinstance(data, str):
        for m in _OPT.finditer(data):
            yield m.group(1), path


def option_rules(rules: Ruleset) -> dict[str, list[tuple]]:
    """Per option of the variant, the paths of the rules it governs: what any choice's patch sets, and the
    expressions that read it (`opt.X`)."""
    data = rules.spec.data
    out: dict[str, list[tuple]] = {}
    for key, spec in (data.get("options") or {}).items():
        paths: list[tuple] = []
        raw = spec.get("choices")
        for patch in (raw.values() if isinstance(raw, dict) else []):
            for p in _leaves({}, patch or {}, (), 2):
                paths.append(p)
        out[key] = paths
    for key, p in _readers(data):
        out.setdefault(key, []).append(p)
    return out


def differing(a: Ruleset, b: Ruleset) -> list[tuple]:
    """The rule paths by which two variants differ: sections of their resolved files, and the expressions that
    read an option whose value differs between them."""
    da = {k: v for k, v in a.spec.data.items() if k not in _DESCRIPTIVE}
    db = {k: v for k, v in b.spec.data.items() if k not in _DESCRIPTIVE}
    paths = list(_leaves(da, db, (), 2))
    oa, ob = a.spec.options, b.spec.options
    for key in sorted(set(oa) | set(ob)):
        if oa.get(key) != ob.get(key):
            for r in (a, b):
                paths += [p for k, p in _readers(r.spec.data) if k == key]
    return list(dict.fromkeys(paths))


def has_rule(rules: Ruleset, path: tuple) -> bool:
    """Whether the variant has the rule at `path` (a contract another variant adds, it has not)."""
    if path[0] == "contracts" and len(path) > 1:
        return path[1] in rules.spec.data.get("contracts", {})
    return True


class Coverage:
    """What a run's deals reached, counted as they come: deals per distinct `Reached`."""

    def __init__(self) -> None:
        self.deals = 0
        self.seen: Counter[Reached] = Counter()

    def add(self, x: dict) -> None:
        self.deals += 1
        self.seen[reached(x)] += 1

    def count(self, test: Callable[[Reached], bool]) -> int:
        """How many deals pass a rule's test."""
        return sum(k for r, k in self.seen.items() if test(r))

    def result(self, rules: Ruleset) -> dict:
        """Counts of the deals that reached each contract, outcome, all-pass rule, claim, mechanic and option
        rule."""
        count = self.count
        mech = {}
        for kind, label in MECHANICS.items():
            off, took = count(_offered(kind)), count(_taken(kind))
            if off:
                mech[label] = {"offered": off, "taken": took}
        options = {}
        for key, paths in option_rules(rules).items():
            rows: dict[str, int] = {}
            for p in paths:
                if has_rule(rules, p):
                    r = reach_of(p, rules.spec.data)
                    rows.setdefault(r.label, count(r.test))
            options[f"{key}={fmt_value(rules.spec.options.get(key))}"] = rows
        return {
            "deals": self.deals,
            "contracts": {c.name: count(_contract(c.name)) for c in rules.contracts},
            "outcomes": {o: count(_outcome(o)) for o in rules.outcome_names},
            "all_pass": {"rule": rules.auction.all_pass, "reached": count(_fallback)},
            "claims": {"offered": count(_offered("stop")), "taken": count(_taken("stop"))},
            "mechanics": mech,
            "options": options,
        }


def coverage(lines: Iterable[dict], rules: Ruleset) -> dict:
    """Counts of the deals (result lines) that reached each rule (see `Coverage.result`)."""
    c = Coverage()
    for x in lines:
        c.add(x)
    return c.result(rules)
