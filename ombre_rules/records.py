"""JSON game records: variant, ruleset hash, seed, the deal, every action, the result; and replaying them."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import jsonschema

from . import outfile
from .engine import State
from .engine.carry import as_json
from .errors import OmbreError, SpecError, quoted
from .resources import record_schema_path
from .ruleset import Ruleset, load
from .spec import schema

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
        **({"session": as_json(r, state.carry)} if r.carry is not None else {}),
        "deal": {"hands": [deck.names(h) for h in state.deal_hands],
                 "talon": [deck.name(c) for c in state.deal_talon],
                 **({"turn_up": deck.name(state.turn_up)} if state.turn_up >= 0 else {})},
        "actions": [r.action_str(a) for a in state.history],
        "result": state.result.to_dict() if state.result else None,
        "account": [e.to_dict() for e in state.account()],
    }


def write(path: str, records: list[dict]) -> None:
    """Write one record as JSON, or several as a JSON list; all at once, so nothing is left half-written
    (`-`: standard output; see `outfile`)."""
    text = json.dumps(records[0] if len(records) == 1 else records, indent=1) + "\n"
    outfile.write_text(outfile.target(path), text)


class ReplayError(OmbreError):
    """A record that does not replay to what it says."""


MAX_RECORD_BYTES = 50_000_000  # a record file


_PY_TYPES = {"string": "str", "integer": "int", "array": "list", "object": "dict", "boolean": "bool"}


def check_shape(rec: Any) -> None:
    """A record has the shape of `spec/record.schema.json`; a ReplayError names the first field that does not."""
    errors = list(schema.validator(str(record_schema_path())).iter_errors(rec))
    if not errors:
        return
    rank = min(_rank(e) for e in errors)  # the first field in the record's order, as a reader meets them
    err = jsonschema.exceptions.best_match([e for e in errors if _rank(e) == rank])
    path = tuple(err.absolute_path)
    field = ".".join(map(str, path))
    if err.validator == "required":
        missing = err.message.split("'")[1]
        raise ReplayError(f"record field '{'.'.join(map(str, path + (missing,)))}' is missing")
    if path[:1] == ("actions",) and len(path) == 2:
        raise ReplayError("record field 'actions' must be a list of action strings")
    if err.validator == "type":
        want = [err.validator_value] if isinstance(err.validator_value, str) else err.validator_value
        want = " or ".join(_PY_TYPES.get(t, t) for t in want if t != "null")
        raise ReplayError(f"record field '{field}' must be {want}, not {err.instance!r}"[:160])
    msg, _path = schema.describe(err)
    if not field:
        raise ReplayError(f"record: {msg}")
    msg = msg.removeprefix(f"{field} ").removeprefix(f"{field}: ")
    raise ReplayError(f"record field '{field}' {msg}" if msg.startswith("is ") else f"record field '{field}': {msg}")


_ORDER = ("format", "variant", "ruleset_hash", "seed", "dealer", "pool", "session", "deal", "actions", "result")


def _rank(err: jsonschema.ValidationError) -> int:
    path = tuple(err.absolute_path)
    key = path[0] if path else (err.message.split("'")[1] if err.validator == "required" else "")
    return _ORDER.index(key) if key in _ORDER else len(_ORDER)


@dataclass
class ReplayReport:
    variant: str
    actions: int
    result: dict | None


def read(path: str) -> list[dict]:
    """The records of a file (one record, or a list of them), each checked against the record schema."""
    try:
        if os.path.isdir(path):
            raise ReplayError(f"cannot read '{path}': it is a folder")
        with open(path, "rb") as f:
            raw = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise ReplayError(f"cannot read '{path}': {e.strerror or e}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise ReplayError(f"cannot read '{path}': larger than {MAX_RECORD_BYTES} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ReplayError(f"cannot read '{path}': not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise ReplayError(f"{path}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    except RecursionError:
        raise ReplayError(f"{path}: not a record: nested too deeply") from None
    except ValueError as e:  # a number of more digits than Python converts
        raise ReplayError(f"{path}: not valid JSON: {str(e).split(';')[0]}") from None
    recs = data if isinstance(data, list) else [data]
    if not recs:
        raise ReplayError(f"{path}: no records in the file")
    for i, rec in enumerate(recs):
        if not isinstance(rec, dict) or rec.get("format") != FORMAT:
            raise ReplayError(f"{path}: record {i + 1} is not an {FORMAT} record")
        try:
            check_shape(rec)
        except ReplayError as e:
            raise ReplayError(f"{path}: record {i + 1}: {e.message}") from None
    return recs


def replay(rec: dict, rules: Ruleset | None = None) -> ReplayReport:
    """Re-run a record and check it: same ruleset, same deal from its seed, every action legal, same result."""
    check_shape(rec)
    try:
        rules = rules or load(rec["variant"])
    except SpecError as e:
        raise ReplayError(f"cannot load variant {quoted(rec.get('variant'))}: {str(e).splitlines()[0]}") from None
    except KeyError:
        raise ReplayError("record has no 'variant'") from None
    if rec.get("ruleset_hash") and rec["ruleset_hash"] != rules.digest:
        raise ReplayError(f"ruleset differs: the record was made with rules {rec['ruleset_hash']}, "
                          f"'{rules.variant}' is now {rules.digest}")
    deck = rules.deck
    try:
        hands = [deck.mask_of(h) for h in rec["deal"]["hands"]]
        talon = [deck.parse(c) for c in rec["deal"]["talon"]]
        turn_up = deck.parse(rec["deal"]["turn_up"]) if rec["deal"].get("turn_up") else None
    except (KeyError, TypeError) as e:
        raise ReplayError(f"record has no usable deal ({e})") from None
    except OmbreError as e:
        raise ReplayError(f"bad card in the deal: {e}") from None
    seed = rec.get("seed")
    dealer = int(rec.get("dealer") or 0)
    if dealer >= rules.players:
        raise ReplayError(f"record field 'dealer': {dealer} is not a seat of '{rules.variant}' "
                          f"(0 to {rules.players - 1})")
    try:
        if seed is not None:
            fresh = State(rules, seed=seed, dealer=dealer)
            if list(fresh.deal_hands) != hands or list(fresh.deal_talon) != talon \
                    or turn_up is not None and fresh.turn_up != turn_up:
                raise ReplayError(f"the deal differs from what seed {seed} deals")
        state = State(rules, seed=seed, dealer=dealer, pool=int(rec.get("pool") or 0), hands=hands, talon=talon,
                      session=rec.get("session"), turn_up=turn_up)
    except ReplayError:
        raise
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
        if want is None:
            raise ReplayError(f"the record has no result; the replay ends in outcome '{got['outcome']}'")
        diffs = [f"{k}: record {want.get(k)!r}, replay {got.get(k)!r}" for k in got if want.get(k) != got.get(k)]
        raise ReplayError("result differs: " + "; ".join(diffs))
    return ReplayReport(rules.variant, len(rec.get("actions", [])), got)
