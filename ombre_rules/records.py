"""JSON game records: variant, ruleset hash, seed, the deal, every action, the result; and replaying them."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import jsonschema

from . import outfile
from .engine import State
from .engine.carry import as_json
from .engine.rituals import check_cut, check_seat_draw, seating
from .errors import OmbreError, SpecError, did_you_mean, quoted
from .infile import read_bytes
from .resources import record_schema_path
from .ruleset import Ruleset, load
from .spec import schema

FORMAT = "ombre-record/1"


SAFE = 2**53 - 1  # the largest whole number every JSON reader holds exactly (RFC 8259, section 6)


def exact(n: int) -> int | str:
    """An amount as a record holds it: a JSON number up to SAFE, else its digits as a string, so that no
    reader rounds it (a pool doubled deal after deal passes 2**53 within a session)."""
    return n if -SAFE <= n <= SAFE else str(n)


def amount(v: int | str | None) -> int:
    """An amount read from a record (a number, or digits as a string beyond SAFE; None: 0)."""
    return 0 if v is None else int(v)


def _result(state: State) -> dict | None:
    res = state.result
    if res is None:
        return None
    out = res.to_dict()
    for k in ("pool_before", "pool_after"):
        out[k] = exact(out[k])
    out["payments"] = [exact(p) for p in out["payments"]]
    return out


def _account(state: State) -> list[dict]:
    return [{**e.to_dict(), "amount": exact(e.amount)} for e in state.account()]


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
        **({"draw": [{"seat": seat, "card": deck.name(c)} for seat, c in state.dealer_draw]}
           if state.dealer_draw else {}),
        **({"seats": [{"player": p, "card": deck.name(c), "seat": s} for p, (c, s) in
                      enumerate(zip(state.seat_draw, seating(r, state.seat_draw), strict=True))]}
           if state.seat_draw else {}),
        **({"cut": {"seat": r.cut.who[state.dealer], "at": state.cut_at}} if r.cut and state.cut_at >= 0 else {}),
        "pool": exact(state.pool_before),
        **({"session": as_json(r, state.carry)} if r.carry is not None else {}),
        "deal": {"hands": [deck.names(h) for h in state.deal_hands],
                 "talon": [deck.name(c) for c in state.deal_talon],
                 **({"turn_up": deck.name(state.turn_up)} if state.turn_up >= 0 else {})},
        "actions": [r.action_str(a) for a in state.history],
        "result": _result(state),
        "account": _account(state),
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
    first = [e for e in errors if _rank(e) == rank]
    amount_err = next((a for a in map(_amount_error, first) if a is not None), None)
    if amount_err is not None:
        field = ".".join(map(str, amount_err.absolute_path))
        raise ReplayError(f"record field '{field}' must be a whole number up to {SAFE} in size, or its digits "
                          f"as a string beyond that, not {amount_err.instance!r}"[:200])
    err = jsonschema.exceptions.best_match(first)
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


def _amount_error(err: jsonschema.ValidationError) -> jsonschema.ValidationError | None:
    """The error of an amount (a number, or digits as a string) within an error, if it is one."""
    todo = [err]
    while todo:
        e = todo.pop()
        options: Any = e.validator_value  # an anyOf's value: the list of its schemas
        if e.validator == "anyOf" and any(b.get("type") == "string" for b in options):
            return e
        todo += e.context or []
    return None


_ORDER = ("format", "variant", "ruleset_hash", "seed", "dealer", "draw", "pool", "session", "deal", "actions", "result",
          "account")


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
    raw = read_bytes(path, MAX_RECORD_BYTES, ReplayError)  # a regular file: never a FIFO or a device
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


def _deal(rules: Ruleset, deal: dict) -> tuple[list[int], list[int], int | None]:
    """The hands and talon of a record's deal: each card by its name, each named once; and the card turned
    for the deal, if the record names one."""
    deck = rules.deck
    seen: dict[int, str] = {}

    def card(name: str, where: str) -> int:
        c = deck.by_name.get(name)
        if c is None:
            raise ReplayError(f"bad card in the deal: unknown card {quoted(name)} in {where}"
                              f"{did_you_mean(name, deck.by_name)}")
        if c in seen:
            raise ReplayError(f"bad card in the deal: {name} is dealt twice ({seen[c]} and {where})")
        seen[c] = where
        return c

    hands = [sum(1 << card(n, f"hand {i + 1}") for n in h) for i, h in enumerate(deal["hands"])]
    talon = [card(n, "the talon") for n in deal["talon"]]
    turned = deal.get("turn_up")
    if turned is not None and turned not in deck.by_name:
        raise ReplayError(f"bad card in the deal: unknown turned card {quoted(turned)}"
                          f"{did_you_mean(turned, deck.by_name)}")
    return hands, talon, deck.by_name[turned] if turned is not None else None


def _drawn(rules: Ruleset, draw: list[dict]) -> tuple[tuple[int, int], ...]:
    """A record's draw for the first dealer as (seat, card) pairs: known cards and seats of the table (whether it
    makes the record's dealer is checked by State)."""
    if draw and rules.first_draw is None:
        raise ReplayError(f"record field 'draw': '{rules.variant}' draws for no first dealer")
    out = []
    for d in draw:
        c = rules.deck.by_name.get(d["card"])
        if c is None:
            raise ReplayError(f"record field 'draw': unknown card {quoted(d['card'])}"
                              f"{did_you_mean(d['card'], rules.deck.by_name)}")
        if d["seat"] >= rules.players:
            raise ReplayError(f"record field 'draw': {d['seat']} is not a seat of '{rules.variant}'")
        out.append((d["seat"], c))
    return tuple(out)


def _seats(rules: Ruleset, seats: list[dict], seed: int | None, dealer: int) -> tuple[int, ...]:
    """A record's draw for seats as the card each player drew, checked: players in order, known cards, each at
    its seat, and the draw its seed makes (`engine/rituals.py`)."""
    if not seats:
        return ()
    drawn = []
    for p, d in enumerate(seats):
        c = rules.deck.by_name.get(d["card"])
        if d["player"] != p:
            raise ReplayError(f"record field 'seats': player {p} must come next, not player {d['player']}")
        if c is None:
            raise ReplayError(f"record field 'seats': unknown card {quoted(d['card'])}"
                              f"{did_you_mean(d['card'], rules.deck.by_name)}")
        drawn.append(c)
    try:
        check_seat_draw(rules, tuple(drawn), seed, dealer)
    except OmbreError as e:
        raise ReplayError(f"record field 'seats': {e.message}") from None
    for p, (d, s) in enumerate(zip(seats, seating(rules, tuple(drawn)), strict=True)):
        if d["seat"] != s:
            raise ReplayError(f"record field 'seats': player {p} drew {d['card']}, the card of seat {s}, not of "
                              f"seat {d['seat']}")
    return tuple(drawn)


def _cut(rules: Ruleset, cut: dict | None, dealer: int, fresh: State | None) -> int | None:
    """A record's cut as the number of cards lifted, checked: the cutting seat, the packets' sizes, and the cut
    its seed makes (`fresh`: the seed's deal)."""
    if cut is None:
        return None
    try:
        at = check_cut(rules, cut["at"], cut["seat"], dealer)
    except OmbreError as e:
        raise ReplayError(f"record field 'cut': {e.message}") from None
    if fresh is not None and fresh.cut_at != at:
        raise ReplayError(f"record field 'cut': the cut differs from what seed {fresh.seed} cuts: "
                          f"{fresh.cut_at} cards lifted, not {at}")
    return at


def replay(rec: dict, rules: Ruleset | None = None) -> ReplayReport:
    """Re-run a record and check it: same ruleset, same deal from its seed, every action legal, same result,
    same account (every transfer, its label, payer, payee, amount and reason)."""
    check_shape(rec)
    try:
        rules = rules or load(rec["variant"])
    except SpecError as e:
        raise ReplayError(f"cannot load variant {quoted(rec.get('variant'))}: {str(e).splitlines()[0]}") from None
    if rec.get("ruleset_hash") and rec["ruleset_hash"] != rules.digest:
        raise ReplayError(f"ruleset differs: the record was made with rules {rec['ruleset_hash']}, "
                          f"'{rules.variant}' is now {rules.digest}")
    hands, talon, turn_up = _deal(rules, rec["deal"])
    seed = rec.get("seed")
    dealer = rec.get("dealer") or 0
    if dealer >= rules.players:
        raise ReplayError(f"record field 'dealer': {dealer} is not a seat of '{rules.variant}' "
                          f"(0 to {rules.players - 1})")
    dealer_draw = _drawn(rules, rec.get("draw") or [])
    seat_draw = _seats(rules, rec.get("seats") or [], seed, dealer)
    try:
        fresh = None if seed is None else State(rules, seed=seed, dealer=dealer)
        cut = _cut(rules, rec.get("cut"), dealer, fresh)
        if fresh is not None:
            if list(fresh.deal_hands) != hands or list(fresh.deal_talon) != talon \
                    or turn_up is not None and fresh.turn_up != turn_up:
                raise ReplayError(f"the deal differs from what seed {seed} deals")
        state = State(rules, seed=seed, dealer=dealer, pool=amount(rec.get("pool")), hands=hands, talon=talon,
                      session=rec.get("session"), turn_up=turn_up, dealer_draw=dealer_draw, seat_draw=seat_draw,
                      cut=cut)
    except ReplayError:
        raise
    except OmbreError as e:
        raise ReplayError(f"bad deal: {_one_line(e.message)}") from None
    for i, text in enumerate(rec["actions"]):
        try:
            state.apply_str(text)
        except OmbreError as e:
            raise ReplayError(f"diverges at action {i + 1} {quoted(text)}: {_one_line(e.message)}") from None
    got = _result(state)
    want = rec.get("result")
    if want != got:
        if got is None:
            raise ReplayError(f"the actions end before the deal does (phase {state.phase_name}); "
                              f"the record says {want}"[:300])
        if want is None:
            raise ReplayError(f"the record has no result; the replay ends in outcome '{got['outcome']}'")
        keys = list(got) + [k for k in want if k not in got]
        diffs = [f"{k}: record {want.get(k)!r}, replay {got.get(k)!r}" for k in keys if want.get(k) != got.get(k)]
        raise ReplayError(("result differs: " + "; ".join(diffs))[:300])
    if "account" in rec:
        _check_account(rec["account"], _account(state))
    return ReplayReport(rules.variant, len(rec["actions"]), got)


def _one_line(message: str) -> str:
    """A message that may quote the record's text, kept on one line (a newline in it escaped)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def _check_account(want: list, got: list[dict]) -> None:
    """The record's account is the replay's: the same transfers in the same order, field by field."""
    for i, (w, g) in enumerate(zip(want, got, strict=False)):
        if w != g:
            keys = list(g) + [k for k in w if k not in g]
            diffs = [f"{k}: record {w.get(k)!r}, replay {g.get(k)!r}" for k in keys if w.get(k) != g.get(k)]
            raise ReplayError(f"account differs at transfer {i + 1}: " + "; ".join(diffs)[:300])
    if len(want) != len(got):
        raise ReplayError(f"account differs: the record lists {len(want)} transfers, the replay makes {len(got)}")
