"""The web API through Starlette's test client: every endpoint, the 403/4xx answers, restarts, records."""
from __future__ import annotations

import json
import re
import time
import warnings
from concurrent.futures import ProcessPoolExecutor

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # the test client's note that it would rather have httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from ombre_rules import State, load  # noqa: E402
from ombre_rules.cli import main as cli_main  # noqa: E402
from ombre_rules.records import replay  # noqa: E402
from ombre_rules.session import Session  # noqa: E402
from ombre_rules.web.app import create_app  # noqa: E402
from ombre_rules.web.catalog import MAX_UPLOAD  # noqa: E402

HOUSE = "id: house\nextends: ombre\ntitle: A house Ombre\ncontracts:\n  solo: {value: 20}\n"
BAD = "id: bad\nextends: ombre\ncontracts:\n  solo: {value: 20, trump: sideways}\n"


@pytest.fixture
def folders(tmp_path):
    variants = tmp_path / "variants"
    variants.mkdir()
    (variants / "house.yaml").write_text(HOUSE, encoding="utf-8")
    return str(tmp_path / "data"), str(variants)


@pytest.fixture
def client(folders):
    with TestClient(create_app(*folders, processes=False)) as c:
        yield c


def upload(c, name, data: bytes):
    return c.post(f"/api/uploads?name={name}", content=data, headers={"content-type": "application/yaml"})


def replay_post(c, data: bytes):
    return c.post("/api/replay", content=data, headers={"content-type": "application/json"})


def token(url: str) -> str:
    return url.split("?t=")[1]


def new_table(c, variant="ombre", seats=("human", "greedy", "greedy"), **kw):
    r = c.post("/api/tables", json={"variant": variant, "seats": list(seats), **kw})
    assert r.status_code == 201, r.text
    return r.json()


def wait_turn(c, tid, tok, timeout=20.0):
    """The view once it is this seat's turn or the deal is over (the bots move in the background)."""
    end = time.time() + timeout
    while time.time() < end:
        v = c.get(f"/api/tables/{tid}", params={"t": tok}).json()
        if v["state"]["phase"] == "done" or v["state"]["controls"]:
            return v
        time.sleep(0.02)
    raise AssertionError("the bots did not move")


def play_out(c, tid, tok):
    """Play the person's seat with the first control each time until the deal ends; the actions taken."""
    taken = []
    while True:
        v = wait_turn(c, tid, tok)
        if v["state"]["phase"] == "done":
            return v, taken
        a = v["state"]["controls"][0]["action"]
        r = c.post(f"/api/tables/{tid}/act", json={"token": tok, "action": a})
        assert r.status_code == 200, r.text
        taken.append(a)


def test_variants_lists_builtins_and_folder(client):
    vs = {v["key"]: v for v in client.get("/api/variants").json()}
    assert {"ombre", "quadrille", "taroc-lhombre", "dir:house.yaml"} <= set(vs)
    assert (vs["ombre"]["players"], vs["quadrille"]["players"]) == (3, 4)
    assert vs["dir:house.yaml"]["title"] == "A house Ombre"
    assert vs["dir:house.yaml"]["base"] == "ombre" and vs["ombre"]["base"] is None
    opt = {o["key"]: o for o in vs["ombre"]["options"]}["all_pass"]
    assert (opt["default"], opt["choices"]) == ("redeal", ["redeal", "spadille_force", "contrabola"])


def test_variant_canonical_string_and_errors(client):
    r = client.get("/api/variants/ombre", params={"all_pass": "spadille_force"})
    assert r.status_code == 200 and r.json()["variant"] == "ombre(all_pass=spadille_force)"
    assert (r.json()["seats"], r.json()["deals"]) == (3, 12)
    assert client.get("/api/variants/dir:house.yaml").json()["variant"] == "house.yaml"
    r = client.get("/api/variants/ombre", params={"all_pass": "nope"})
    assert r.status_code == 400 and "nope" in r.json()["error"]
    r = client.get("/api/variants/nosuch")
    assert (r.status_code, r.json()) == (404, {"error": "no variant 'nosuch'"})


def test_rulebook_and_diff(client):
    book = pytest.importorskip("ombre_rules.book")
    r = client.get("/api/variants/ombre-a-dos/rulebook")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.text == book.rulebook_html(load("ombre-a-dos"))
    r = client.get("/api/variants/dir:house.yaml/diff", params={"against": "ombre"})
    assert r.status_code == 200
    assert "20" in r.text and "house.yaml" in r.text and str(client.app.state.tables.catalog.folder) not in r.text
    r = client.get("/api/variants/ombre/diff")
    assert (r.status_code, r.json()["error"]) == (400, "say which variant to compare with: ?against=KEY")


def test_upload_good_and_bad(client):
    r = upload(client, "mine.yaml", HOUSE.replace("house", "mine").encode())
    assert r.status_code == 201 and r.json()["title"] == "A mine Ombre"
    key = r.json()["key"]
    assert key in {v["key"] for v in client.get("/api/variants").json()}
    r = upload(client, "bad.yaml", BAD.encode())
    assert r.status_code == 400
    assert re.match(r"bad\.yaml:4:\d+: ", r.json()["error"]), r.json()["error"]
    assert "sideways" in r.json()["error"] and "/" not in r.json()["error"].split(":")[0]
    r = upload(client, "big.yaml", b"#" * (MAX_UPLOAD + 1))
    assert r.status_code == 413
    r = upload(client, "x.yaml", b"id: x\n\xff\n")
    assert (r.status_code, r.json()["error"]) == (400, "x.yaml: not UTF-8 text (byte 7)")
    r = upload(client, "up.yaml", b"id: up\nextends: ../../etc/passwd.yaml\n")
    assert r.status_code == 400 and r.json()["error"].startswith("up.yaml:2:10: an uploaded file may only extend")
    kept = [v["file"] for v in client.get("/api/variants").json() if v["origin"] == "upload"]
    assert kept == ["mine.yaml"]


def test_create_table_refusals(client):
    bad = [({"variant": "ombre", "seats": ["human", "greedy"]}, 400, "this variant has 3 seats, not 2"),
           ({"variant": "ombre", "seats": ["human", "smart", "greedy"]}, 400, "unknown player 'smart'"),
           ({"variant": "ombre", "seats": ["human", "pimc:60s", "greedy"]}, 400, "at most 10 seconds"),
           ({"variant": "ombre", "seats": ["human", "pimcdd:60s", "greedy"]}, 400, "at most 10 seconds"),
           ({"variant": "ombre", "seats": ["human", "pimcdd:500", "greedy"]}, 400, "at most 200 worlds"),
           ({"variant": "ombre", "seats": ["human", "greedy", "greedy"], "deals": 0}, 400, "1 to 100 deals"),
           ({"variant": "ombre", "seats": "human"}, 400, "field 'seats' must be list"),
           ({"seats": ["human"]}, 400, "missing field 'variant'"),
           ({"variant": "nosuch", "seats": []}, 404, "no variant 'nosuch'")]
    for body, status, msg in bad:
        r = client.post("/api/tables", json=body)
        assert r.status_code == status and msg in r.json()["error"], (body, r.text)
    r = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("the request is not valid JSON")


def test_tokens_views_and_refusals(client):
    t = new_table(client, seats=("human", "human", "greedy"), seed=3)
    tid, a, b = t["id"], token(t["seats"][0]["url"]), token(t["seats"][1]["url"])
    spec = token(t["spectator"])
    assert t["seats"][2]["url"] is None and len({a, b, spec}) == 3
    assert client.get(f"/api/tables/{tid}", params={"t": "wrong"}).status_code == 403
    assert client.get(f"/api/tables/{tid}").status_code == 403
    assert client.get("/api/tables/nosuch", params={"t": a}).status_code == 404
    rules = load("ombre")
    state = Session(rules, seed=3).new_deal()
    va = client.get(f"/api/tables/{tid}", params={"t": a}).json()
    assert va["you"] == 0 and sorted(va["state"]["hand"]) == sorted(state.view(0)["hand"])
    vs = client.get(f"/api/tables/{tid}", params={"t": spec}).json()
    assert vs["you"] is None and vs["state"]["hand"] == [] and vs["state"]["controls"] == []
    for other in (state.view(0)["hand"], state.view(1)["hand"]):
        assert not set(other) & set(vs["state"]["cards"])
    vb = client.get(f"/api/tables/{tid}", params={"t": b}).json()
    assert not set(state.view(0)["hand"]) & set(vb["state"]["cards"])
    # seat 1 (forehand) moves first: seat 0 may not, the spectator may not, a stranger may not
    assert va["state"]["to_move"] == 1
    r = client.post(f"/api/tables/{tid}/act", json={"token": a, "action": "pass"})
    assert (r.status_code, r.json()["error"]) == (409, "it is seat 1's turn, not seat 0's")
    r = client.post(f"/api/tables/{tid}/act", json={"token": spec, "action": "pass"})
    assert (r.status_code, r.json()["error"]) == (403, "a spectator may not act")
    assert client.post(f"/api/tables/{tid}/act", json={"token": "x" * 32, "action": "pass"}).status_code == 403
    r = client.post(f"/api/tables/{tid}/act", json={"token": b, "action": "play AS"})
    assert r.status_code == 400 and r.json()["error"].startswith("'play AS' is not legal for seat 1 in auction")
    r = client.post(f"/api/tables/{tid}/act", json={"token": b, "action": "jump"})
    assert r.status_code == 400 and r.json()["error"].startswith("unknown action 'jump'")
    r = client.post(f"/api/tables/{tid}/act", json={"token": b})
    assert (r.status_code, r.json()["error"]) == (400, "missing field 'action'")
    r = client.post(f"/api/tables/{tid}/next", json={"token": b})
    assert (r.status_code, r.json()["error"]) == (409, "the deal is still being played")
    vb = client.get(f"/api/tables/{tid}", params={"t": b}).json()
    labels = [(c["action"], c["label"]) for c in vb["state"]["controls"]]
    assert labels == [("pass", "Pass"), ("bid entrada", "Entrada"), ("bid vuelta", "Vuelta"), ("bid solo", "Solo")]


def test_refused_cards_have_a_reason(client):
    t = new_table(client, seats=("human", "human", "human"), seed=7)
    tid = t["id"]
    toks = [token(s["url"]) for s in t["seats"]]
    rules = load("ombre")
    s = Session(rules, seed=7).new_deal()
    script = iter(["bid solo", "pass", "pass", "trump hearts"])
    while not (s.phase_name == "play" and len(s.trick) == 1):
        text = next(script, None) or rules.action_str(s.legal_actions()[0])
        r = client.post(f"/api/tables/{tid}/act", json={"token": toks[s.current_player], "action": text})
        assert r.status_code == 200, r.text
        s.apply_str(text)
    v = client.get(f"/api/tables/{tid}", params={"t": toks[s.current_player]}).json()["state"]
    legal = {rules.action_str(a)[5:] for a in s.legal_actions()}
    assert {c["card"] for c in v["controls"]} == legal
    refused = v["refused"]
    assert set(refused) == set(v["hand"]) - legal and refused
    led = rules.deck.cards[s.trick[0]]
    face = {c.name: f"{c.rank}{c.suit.attrs['symbol']}" for c in rules.deck.cards}  # cards as people read them
    for reason in refused.values():
        head, _, held = reason.partition(" and you hold ")
        assert head == f"must follow suit: {face[led.name]} led ({led.suit.name})", reason
        assert set(held.split()) <= {face[c] for c in legal}


def test_whole_deal_against_bots_matches_engine_and_record_replays(client, tmp_path):
    t = new_table(client, seed=11, deals=2)
    tid, tok = t["id"], token(t["seats"][0]["url"])
    assert client.get(f"/api/tables/{tid}/deals/1/record", params={"t": tok}).status_code == 404
    v, _ = play_out(client, tid, tok)
    rec = client.get(f"/api/tables/{tid}/deals/1/record", params={"t": tok})
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    record = rec.json()
    rep = replay(record)
    assert rep.result == v["state"]["result"] == record["result"]
    s = State(load("ombre"), seed=record["seed"], dealer=0)
    for text in record["actions"]:
        s.apply_str(text)
    assert s.result.to_dict() == v["state"]["result"]
    # the account: the engine's transfers (none of nothing), each amount's terms in the rulebook's words
    shown = v["state"]["account"]
    assert [(e["label"], e["from"], e["to"], e["amount"]) for e in shown] == \
        [(e.label, e.payer, e.payee, e.amount) for e in s.account() if e.amount] and shown
    assert [e["why"] for e in shown if e["label"].startswith("codille (")] == \
        ["15 (the pool divided by (rounded down) the number of the defenders with the most tricks)"]
    path = tmp_path / "deal.json"
    path.write_text(rec.text, encoding="utf-8")
    assert cli_main(["replay", str(path)]) == 0
    assert v["table"]["sheet"][0]["payments"] == record["result"]["payments"]
    assert v["table"]["ledger"] == record["result"]["payments"]
    # the replay viewer's frames of the finished deal
    fr = client.get(f"/api/tables/{tid}/deals/1/replay", params={"t": tok}).json()
    assert len(fr["frames"]) == len(record["actions"]) + 1 and fr["frames"][-1]["result"] == record["result"]
    assert fr["frames"][0]["hands"] and sorted(fr["frames"][0]["hands"][1]) == sorted(record["deal"]["hands"][1])
    # next deal: the dealer moves on; a third is refused
    assert client.post(f"/api/tables/{tid}/next", json={"token": tok}).json() == {"ok": True, "deal": 2}
    v2, _ = play_out(client, tid, tok)
    assert v2["state"]["dealer"] == 1 and v2["table"]["finished"]
    r = client.post(f"/api/tables/{tid}/next", json={"token": tok})
    assert (r.status_code, r.json()["error"]) == (409, "the session is over (2 deals)")


def test_restart_rebuilds_tables_from_stored_actions(folders):
    with TestClient(create_app(*folders, processes=False)) as c:
        t = new_table(c, variant="quadrille", seats=("human", "greedy", "greedy", "greedy"), seed=4)
        tid, tok = t["id"], token(t["seats"][0]["url"])
        v = wait_turn(c, tid, tok)
        c.post(f"/api/tables/{tid}/act", json={"token": tok, "action": v["state"]["controls"][0]["action"]})
        before = wait_turn(c, tid, tok)
    with TestClient(create_app(*folders, processes=False)) as c:
        after = c.get(f"/api/tables/{tid}", params={"t": tok}).json()
        assert after["state"] == before["state"] and after["table"]["deal"] == 1
        assert c.get(f"/api/tables/{tid}", params={"t": "bad"}).status_code == 403


def test_replay_upload(client):
    rules = load("ombre")
    s = State(rules, seed=5)
    while not s.is_terminal:
        s.apply(s.legal_actions()[-1] if s.phase_name == "auction" and not s.history else s.legal_actions()[0])
    from ombre_rules.records import to_record

    record = to_record(s)
    r = replay_post(client, json.dumps(record).encode())
    assert r.status_code == 200
    frames = r.json()["frames"]
    assert len(frames) == len(record["actions"]) + 1 and frames[-1]["result"] == record["result"]
    assert [f["action"] for f in frames[1:]] == record["actions"]
    bad = dict(record, actions=record["actions"][:3] + ["play ZZ"])
    r = replay_post(client, json.dumps(bad).encode())
    assert r.status_code == 400 and r.json()["error"].startswith("diverges at action 4 'play ZZ'")
    assert replay_post(client, b"[1, 2").status_code == 400
    r = replay_post(client, json.dumps({"format": "other"}).encode())
    assert (r.status_code, r.json()["error"]) == (400, "not an ombre-record/1 record (one deal)")
    elsewhere = dict(record, variant="/etc/x.yaml")
    r = replay_post(client, json.dumps(elsewhere).encode())
    assert (r.status_code, r.json()["error"]) == (400, "the record's variant '/etc/x.yaml' is not offered by this "
                                                       "server")


def test_websocket_views(client):
    t = new_table(client, seats=("human", "human", "greedy"), seed=3)
    tid, a = t["id"], token(t["seats"][0]["url"])
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/ws/tables/{tid}?t=nope") as ws:
            ws.receive_json()
    with client.websocket_connect(f"/ws/tables/{tid}?t={a}") as ws:
        first = ws.receive_json()
        assert first["type"] == "view" and first["you"] == 0 and len(first["state"]["hand"]) == 9
        b = token(t["seats"][1]["url"])
        assert client.post(f"/api/tables/{tid}/act", json={"token": b, "action": "pass"}).status_code == 200
        nxt = ws.receive_json()
        assert nxt["state"]["actions"] == [{"seat": 1, "phase": "auction", "action": "pass"}]


def test_monte_carlo_bots_in_worker_processes(folders):
    with TestClient(create_app(*folders, workers=1, processes=True)) as c:
        t = new_table(c, seats=("pimc:20", "greedy", "pimcdd:4"), seed=2)
        spec = token(t["spectator"])
        end = time.time() + 60
        while time.time() < end:
            v = c.get(f"/api/tables/{t['id']}", params={"t": spec}).json()
            if v["state"]["phase"] == "done":
                break
            time.sleep(0.05)
        rec = c.get(f"/api/tables/{t['id']}/deals/1/record", params={"t": spec}).json()
        assert replay(rec).result == v["state"]["result"]
        assert isinstance(c.app.state.tables.pool._searchers, ProcessPoolExecutor)


def test_pages_and_unknown_routes(client):
    for path in ("/", "/variant/ombre", "/table/abc", "/replay", "/static/table.js", "/static/style.css"):
        assert client.get(path).status_code == 200, path
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {"error": "Not Found"}
    assert client.post("/api/variants").status_code == 405


@pytest.mark.parametrize("variant", ["ombre", "ombre-a-dos", "danish-lhombre", "quadrille", "tredrille", "cinquillo",
                                     "taroc-lhombre"])
def test_every_variant_playable_through_the_api(client, variant):
    """A person at seat 0 against random bots: at each turn the controls are the engine's legal actions and the
    hand is the engine's; the deal ends with the engine's result for the same seed and actions."""
    import random

    rules = load(variant)
    t = new_table(client, variant=variant, seats=["human"] + ["random"] * (rules.players - 1), seed=3)
    tid, tok = t["id"], token(t["seats"][0]["url"])
    table = client.app.state.tables.tables[tid]
    rng = random.Random(variant)
    phases = set()
    while True:
        v = wait_turn(client, tid, tok)["state"]
        if v["phase"] == "done":
            break
        s = table.state
        phases.add(v["phase"])
        assert [c["action"] for c in v["controls"]] == [rules.action_str(a) for a in s.legal_actions()]
        assert sorted(v["hand"]) == sorted(rules.deck.names(s.hands[0]))
        pick = rng.choice(v["controls"])["action"]
        assert client.post(f"/api/tables/{tid}/act", json={"token": tok, "action": pick}).status_code == 200
    record = client.get(f"/api/tables/{tid}/deals/1/record", params={"t": tok}).json()
    assert replay(record).result == v["result"]
    assert "auction" in phases or "lay-away" in phases


def test_record_of_a_house_rule_table_names_the_file(client, folders, tmp_path, monkeypatch):
    t = new_table(client, variant="dir:house.yaml", seats=("human", "greedy", "greedy"), seed=6)
    tid, tok = t["id"], token(t["seats"][0]["url"])
    play_out(client, tid, tok)
    assert folders[1] not in json.dumps(client.get(f"/api/tables/{tid}", params={"t": tok}).json())
    text = client.get(f"/api/tables/{tid}/deals/1/record", params={"t": tok}).text
    assert json.loads(text)["variant"] == "house.yaml" and folders[1] not in text
    (tmp_path / "deal.json").write_text(text, encoding="utf-8")
    (tmp_path / "house.yaml").write_text(HOUSE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert cli_main(["replay", "deal.json"]) == 0
    assert replay_post(client, text.encode()).status_code == 200


def test_serve_refuses_bad_arguments(capsys, tmp_path):
    assert cli_main(["serve", "--port", "0"]) == 1
    assert capsys.readouterr().err == "ombre: error: bad --port 0\n"
    assert cli_main(["serve", "--variants", str(tmp_path / "none")]) == 1
    assert capsys.readouterr().err == f"ombre: error: --variants: no such folder '{tmp_path / 'none'}'\n"
    assert cli_main(["serve", "--workers", "0"]) == 1
    assert capsys.readouterr().err == "ombre: error: --workers must be 1 to 64, not 0\n"
    assert cli_main(["serve", "--tables-per-hour", "0"]) == 1
    assert capsys.readouterr().err == "ombre: error: --tables-per-hour must be 1 to 100000, not 0\n"


def test_the_session_values_are_public_and_follow_the_deals(client):
    t = new_table(client, variant="german-solo", seats=("human", "greedy", "greedy", "greedy"), seed=4, deals=3)
    tid, tok = t["id"], token(t["seats"][0]["url"])
    spectator = token(t["spectator"])
    first = client.get(f"/api/tables/{tid}", params={"t": tok}).json()
    assert first["table"]["carry"] == [{"name": "couleur", "label": "Couleur", "type": "suit",
                                        "doc": "the preference suit: in couleur games are paid double"}]
    assert first["state"]["session"] == {"couleur": None} and first["table"]["session"] is None
    seen = []
    for deal in range(3):
        v, _ = play_out(client, tid, tok)
        public = client.get(f"/api/tables/{tid}", params={"t": spectator}).json()
        assert public["state"]["session"] == v["state"]["session"]
        assert public["state"]["result"]["session_after"] == v["table"]["session"]
        seen.append((v["state"]["result"]["outcome"], v["state"]["session"]["couleur"], v["table"]["session"]))
        if deal < 2:
            assert client.post(f"/api/tables/{tid}/next", json={"token": tok}).status_code == 200
    assert seen == [("won", None, {"couleur": "diamonds"}), ("lost", "diamonds", {"couleur": "diamonds"}),
                    ("lost", "diamonds", {"couleur": "diamonds"})]


def test_the_last_deal_of_a_table_makes_the_variants_closing_payments(client):
    # Tresillo shares the plate out when the session ends (session.close): 3 shares and the rest to the dealer
    t = new_table(client, variant="tresillo", seats=("human", "greedy", "greedy", "greedy"), seed=5, deals=1)
    tid, tok = t["id"], token(t["seats"][0]["url"])
    v, _ = play_out(client, tid, tok)
    res, table = v["state"]["result"], v["table"]
    deal, close = table["sheet"]
    assert (deal["payments"], deal["pool"]) == (res["payments"], res["pool_after"])
    share, rest = divmod(res["pool_after"], 4)
    assert res["pool_after"] > 0, "the deal must leave something in the plate to share"
    assert close["close"] and close["outcome"] == "session_close"
    assert close["payments"] == [share + (rest if seat == v["state"]["dealer"] else 0) for seat in range(4)]
    assert close["pool"] == table["pool"] == 0
    assert table["ledger"] == [a + b for a, b in zip(res["payments"], close["payments"], strict=True)]
    assert table["finished"] and sum(table["ledger"]) == 0


def test_a_seat_draw_places_the_players_and_a_rematch_link_follows_each_to_his_new_seat(client):
    """Tresillo with the seat draw, seed 2: the kinds given per player (a person first) are placed where each
    draws (player 0 the ace of hearts: seat 1); after the deal, a rematch draws again, and the old seat's link leads
    to the seat its player draws there."""
    t = new_table(client, "tresillo", ("human", "greedy", "greedy", "greedy"), options={"seat_draw": "suits"},
                  seed=2, names=["Ann", "", "", ""])
    assert t["player_seats"] == [1, 3, 2, 0]
    assert [(s["seat"], s["kind"], s["url"] is not None) for s in t["seats"]] == [
        (0, "greedy", False), (1, "human", True), (2, "greedy", False), (3, "greedy", False)]
    tok = token(t["seats"][1]["url"])
    v, _taken = play_out(client, t["id"], tok)
    assert v["you"] == 1 and v["table"]["names"] == ["", "Ann", "", ""]
    r = client.post(f"/api/tables/{t['id']}/rematch", json={"token": tok})
    assert r.status_code in (200, 201), r.text
    link = client.get(f"/api/tables/{t['id']}", params={"t": tok}).json()["table"]["rematch"]
    new = client.app.state.tables.get(link.split("/table/")[1].split("?")[0])
    at = new.session.seats[1]  # the person was player 1 of the rematch (the seat he had)
    assert new.row.seats[at] == "human" and new.names[at] == "Ann"
    assert client.get(f"/api/tables/{new.row.id}", params={"t": token(link)}).json()["you"] == at
