"""JSON game records: variant, ruleset hash, seed, the deal, every action, the result; and replaying them."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from .engine import State
from .errors import OmbreError, SpecError
from .ruleset import Ruleset, load

FORMAT = "ombre-record/1"


def to_record(state: State) -> dict[str, Any]:
    """The record of a deal (finished or not)."""
    r = state.rules
    deck = r.deck
    return {
        "format": FORMAT,
        "variant": r.variant,
        "ruleset_hash": r.digest,
        "seed": state.seed,
        "dealer": state.dealer,
        "pool": state.pool_before,
        "deal": {"hands": [deck.names(h) for h in state.deal_hands],
                 "talon": [deck.name(c) for c in state.deal_talon]},
        "actions": [r.action_str(a) for a in state.history],
        "result": state.result.to_dict() if state.result else None,
        "account": [e.to_dict() for e in state.account()],
    }


def write(path: str, records: list[dict]) -> None:
    """Write one record as JSON, or several as a JSON list; all at once, so nothing is left half-written."""
    text = json.dumps(records[0] if len(records) == 1 else records, indent=1) + "\n"
    tmp = path + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        raise OmbreError(f"cannot write '{path}': {e.strerror or e}") from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


class ReplayError(OmbreError):
    """A record that does not replay to what it says."""


_FIELDS = (("variant", (str,), False), ("ruleset_hash", (str,), True), ("seed", (int,), True),
           ("dealer", (int,), True), ("pool", (int,), True), ("deal", (dict,), False), ("actions", (list,), False),
           ("result", (dict,), True))


def _check_shape(rec: dict) -> None:
    """Each field of a record has the type it must have; a ReplayError names the first that does not."""
    for key, types, optional in _FIELDS:
        if rec.get(key) is None:
            if optional:
                continue
            raise ReplayError(f"record field '{key}' is missing")
        if not isinstance(rec[key], types) or isinstance(rec[key], bool):
            raise ReplayError(f"record field '{key}' must be {types[0].__name__}, not {rec[key]!r}"[:120])
    if not all(isinstance(a, str) for a in rec["actions"]):
        raise ReplayError("record field 'actions' must be a list of action strings")
    hands = rec["deal"].get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands) or \
            not isinstance(rec["deal"].get("talon"), list):
        raise ReplayError("record field 'deal' must hold 'hands' (lists of cards) and 'talon' (a list)")


@dataclass
class ReplayReport:
    variant: str
    actions: int
    result: dict | None


def read(path: str) -> list[dict]:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise ReplayError(f"cannot read '{path}': {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise ReplayError(f"{path}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    recs = data if isinstance(data, list) else [data]
    for i, rec in enumerate(recs):
        if not isinstance(rec, dict) or rec.get("format") != FORMAT:
            raise ReplayError(f"{path}: record {i + 1} is not an {FORMAT} record")
    return recs


def replay(rec: dict, rules: Ruleset | None = None) -> ReplayReport:
    """Re-run a record and check it: same ruleset, same deal from its seed, every action legal, same result."""
    _check_shape(rec)
    try:
        rules = rules or load(rec["variant"])
    except SpecError as e:
        raise ReplayError(f"cannot load variant '{rec.get('variant')}': {e}") from None
    except KeyError:
        raise ReplayError("record has no 'variant'") from None
    if rec.get("ruleset_hash") and rec["ruleset_hash"] != rules.digest:
        raise ReplayError(f"ruleset differs: the record was made with rules {rec['ruleset_hash']}, "
                          f"'{rules.variant}' is now {rules.digest}")
    deck = rules.deck
    try:
        hands = [deck.mask_of(h) for h in rec["deal"]["hands"]]
        talon = [deck.parse(c) for c in rec["deal"]["talon"]]
    except (KeyError, TypeError) as e:
        raise ReplayError(f"record has no usable deal ({e})") from None
    except OmbreError as e:
        raise ReplayError(f"bad card in the deal: {e}") from None
    seed = rec.get("seed")
    dealer = int(rec.get("dealer") or 0)
    if seed is not None:
        fresh = State(rules, seed=seed, dealer=dealer)
        if list(fresh.deal_hands) != hands or list(fresh.deal_talon) != talon:
            raise ReplayError(f"the deal differs from what seed {seed} deals")
    try:
        state = State(rules, seed=seed, dealer=dealer, pool=int(rec.get("pool") or 0), hands=hands, talon=talon)
    except OmbreError as e:
        raise ReplayError(f"bad deal: {e.message}") from None
    for i, text in enumerate(rec.get("actions", [])):
        try:
            state.apply_str(text)
        except OmbreError as e:
            raise ReplayError(f"diverges at action {i + 1} '{text}': {e.message}") from None
    got = state.result.to_dict() if state.result else None
    want = rec.get("result")
    if want != got:
        if got is None:
            raise ReplayError(f"the actions end before the deal does (phase {state.phase_name}); "
                              f"the record says {want}")
        diffs = [f"{k}: record {want.get(k)!r}, replay {got.get(k)!r}" for k in got
                 if want is None or want.get(k) != got.get(k)]
        raise ReplayError("result differs: " + "; ".join(diffs))
    return ReplayReport(rules.variant, len(rec.get("actions", [])), got)
