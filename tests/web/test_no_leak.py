"""What each watcher of a table is sent over its WebSocket names no card it may not know (issue 33, bug 1): a
whole deal of every built-in variant, a person at seat 0 and random bots, the person's and the spectator's
frames each checked against the deal as it stood when the frame was sent. A card may be sent under its name,
as rank and suit symbol, or in words; none of the three may appear."""
from __future__ import annotations

import json
import random
import re
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from ombre_rules import State, load  # noqa: E402
from ombre_rules.engine.view import visible_cards  # noqa: E402
from ombre_rules.web.app import create_app  # noqa: E402
from ombre_rules.web.words import words  # noqa: E402

from .test_api import token  # noqa: E402

BUILTINS = ["boston", "cinquillo", "danish-lhombre", "german-solo", "ombre", "ombre-a-dos", "preference", "quadrille",
            "rocambor", "swedish-vira", "taroc-lhombre", "tredrille", "tresillo"]


def forms(rules, cards: int) -> dict[str, str]:
    """Every way a page may write each card of a mask: its name, its face, its words -> the card's name."""
    w = words(rules)
    out = {}
    for name in rules.deck.names(cards):
        for form in {name, w.faces[name], w.spoken[name]}:
            out[form] = name
    return out


def leaked(text: str, shapes: dict[str, str]) -> set[str]:
    return {name for form, name in shapes.items()
            if re.search(rf"(?<![\w]){re.escape(form)}(?![\w])", text)}


def hidden_from(state: State, seat: int | None) -> int:
    """The cards `seat` (None: a spectator) may not know now (a called card is named openly)."""
    m = 0
    for s in range(state.n):
        if s != seat:
            m |= state.hands[s] | state.discards[s]
    for c in state.talon:
        m |= 1 << c
    if state.called >= 0:
        m &= ~(1 << state.called)
    if state.turn_up >= 0 and state.rules.turn_up_from == "second_pack":  # shown as the second pack's card, its
        m &= ~(1 << state.turn_up)  # name is also a card of the deal's pack, and says nothing of that one
    return m & ~visible_cards(state, seat)


RULES_TEXT = ("contract_docs", "outcome_docs", "sit_out_doc", "doc", "phase_doc")


def sent(frame: dict, viewer: int | None) -> str:
    """What a frame says about the deal: without the rules' own words (a doc may name a card), for a seat
    without its legal actions (the cards one may call or demand are named wherever they lie), and without the
    draws for the first dealer and for seats (cards of a pack shuffled apart before the deal, public, no card of
    the deal; nor their faces unless the view names them elsewhere)."""
    table = {k: v for k, v in frame["table"].items() if k not in RULES_TEXT}
    state = {k: v for k, v in frame["state"].items()
             if k not in RULES_TEXT and k not in ("controls", "dealer_draw", "seat_draw", "cards")}
    named = json.dumps(state, ensure_ascii=False)
    state["cards"] = {k: v for k, v in (frame["state"].get("cards") or {}).items() if k in named}
    return json.dumps({**frame, "table": table, "state": state}, ensure_ascii=False)


def drain(ws, until) -> list[dict]:
    frames = []
    while True:
        frames.append(ws.receive_json())
        if until(frames[-1]):
            return frames


@pytest.mark.parametrize("variant", BUILTINS)
def test_no_frame_names_a_card_its_watcher_may_not_know(tmp_path, variant):
    rules = load(variant)
    rng = random.Random(variant)
    with TestClient(create_app(str(tmp_path / "data"), processes=False)) as c:
        t = c.post("/api/tables", json={"variant": variant, "seats": ["human"] + ["random"] * (rules.players - 1),
                                        "seed": 7}).json()
        tid, mine, spec = t["id"], token(t["seats"][0]["url"]), token(t["spectator"])
        seen: dict[int | None, list[dict]] = {0: [], None: []}
        with c.websocket_connect(f"/ws/tables/{tid}?t={mine}") as me, \
                c.websocket_connect(f"/ws/tables/{tid}?t={spec}") as watcher:
            done = -1  # the actions of the deal when seat 0 last acted: frames sent before its action are past
            while True:
                frames = drain(me, lambda f, done=done: len(f["state"]["actions"]) > done
                               and (f["state"]["phase"] == "done" or f["state"]["controls"]))
                seen[0] += frames
                v = frames[-1]["state"]
                if v["phase"] == "done":
                    break
                done = len(v["actions"])
                pick = rng.choice(v["controls"])["action"]
                assert c.post(f"/api/tables/{tid}/act", json={"token": mine, "action": pick}).status_code == 200
            seen[None] = drain(watcher, lambda f: f["state"]["phase"] == "done")
        record = c.get(f"/api/tables/{tid}/deals/1/record", params={"t": mine}).json()
    checked = 0
    for viewer, frames in seen.items():
        for f in frames:
            k = len(f["state"]["actions"])
            s = State(rules, seed=record["seed"], dealer=record["dealer"], pool=record.get("pool") or 0,
                      session=record.get("session"))
            for text in record["actions"][:k]:
                s.apply_str(text)
            assert f["state"]["phase"] == s.phase_name
            bad = leaked(sent(f, viewer), forms(rules, hidden_from(s, viewer)))
            assert not bad, f"{variant}: seat {viewer} is sent {sorted(bad)} in {s.phase_name} after {k} actions"
            checked += 1
    assert checked > 2 * len(record["actions"]) // 3
    assert seen[None][-1]["state"]["result"] == record["result"]
