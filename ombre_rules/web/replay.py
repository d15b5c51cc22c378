"""The replay viewer's data: a finished deal (or a verified record) as one open snapshot per action."""
from __future__ import annotations

from typing import Any

from ..engine import State
from ..engine.carry import as_json
from ..errors import OmbreError
from ..records import FORMAT, ReplayError, replay
from ..ruleset import Ruleset
from ..spec.resolve import builtin_index, parse_variant_string, resolve
from .catalog import Catalog
from .errors import WebError
from .present import card_faces, carried, contract_titles, sort_hand, suits


def _snapshot(state: State, text: str | None, seat: int | None) -> dict[str, Any]:
    deck = state.rules.deck
    last = state.trick_log[-1] if state.trick_log else None
    snap = {
        "action": text, "by": seat, "phase": state.phase_name, "to_move": state.current_player,
        "hands": [sort_hand(state, deck.names(h)) for h in state.hands],
        "talon_size": len(state.talon),
        "discards": [deck.names(d) for d in state.discards],
        "trick": [deck.name(c) for c in state.trick],
        "leader": state.leader if state.trick else None,
        "last_trick": {"leader": last[0], "cards": [deck.name(c) for c in last[1]], "winner": last[2]}
        if last else None,
        "tricks": list(state.tricks),
        "declarer": state.declarer if state.declarer >= 0 else None,
        "contract": state.contract.name if state.contract else None,
        "trump": state.trump.name if state.trump is not None else None,
        "result": state.result.to_dict() if state.result else None,
    }
    snap["cards"] = card_faces(state, snap)
    return snap


def frames(rules: Ruleset, record: dict[str, Any], variant: str) -> dict[str, Any]:
    """Verify a record as `ombre replay` does, then give a snapshot of the deal before and after each action."""
    try:
        replay(record, rules)
    except ReplayError as e:
        raise WebError(400, e.message) from None
    deck = rules.deck
    hands = [deck.mask_of(h) for h in record["deal"]["hands"]]
    talon = [deck.parse(c) for c in record["deal"]["talon"]]
    turn_up = deck.parse(record["deal"]["turn_up"]) if record["deal"].get("turn_up") else None
    s = State(rules, seed=record.get("seed"), dealer=int(record.get("dealer") or 0),
              pool=int(record.get("pool") or 0), hands=hands, talon=talon, session=record.get("session"),
              turn_up=turn_up)
    out = [_snapshot(s, None, None)]
    began = as_json(rules, s.carry)
    for text in record["actions"]:
        seat = s.current_player
        s.apply_str(text)
        out.append(_snapshot(s, text, seat))
    return {"variant": variant, "title": rules.title, "players": rules.players, "suits": suits(rules),
            "contracts": contract_titles(rules), "carry": carried(rules), "session": began, "frames": out}


def record_rules(catalog: Catalog, record: Any) -> tuple[Ruleset, str]:
    """The rules an uploaded record names, if the server offers them (a built-in variant or one of its files)."""
    if not isinstance(record, dict) or not isinstance(record.get("variant"), str):
        raise WebError(400, f"not an {FORMAT} record: no 'variant'")
    if record.get("format") != FORMAT:
        raise WebError(400, f"not an {FORMAT} record")
    try:
        name, options = parse_variant_string(record["variant"])
    except OmbreError as e:
        raise WebError(400, e.message) from None
    if name in builtin_index():
        entry = catalog.get(resolve(builtin_index()[name]).data["id"])
    else:
        match = [e for e in catalog.entries() if e.source == name or e.name == name]
        if not match:
            raise WebError(400, f"the record's variant '{name}' is not offered by this server")
        entry = match[0]
    rules = catalog.rules(entry, options)
    return rules, catalog.display(entry, rules)
