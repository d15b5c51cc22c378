"""Hostile requests (issue 33, items 6-7): cross-site requests refused, only JSON (or YAML for uploads) taken,
security headers on every answer, every malformed request a 4xx with a short message and no traceback, and the
limits per address and in all: tables, uploads, tables of bots only, tables put away when nobody is there."""
from __future__ import annotations

import json
import os
import time
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from ombre_rules.web.app import create_app  # noqa: E402
from ombre_rules.web.quota import Limits, Quota  # noqa: E402

from .test_api import new_table, token, upload  # noqa: E402

SEATS = ["human", "greedy", "greedy"]


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "data"), processes=False)) as c:
        yield c


def test_every_answer_has_the_security_headers(client):
    for path, policy in (("/", "script-src 'self'"), ("/api/variants", "frame-ancestors 'self'"),
                         ("/static/table.js", "default-src 'self'"), ("/api/nothing", "object-src 'none'"),
                         ("/api/variants/ombre-a-dos/rulebook", "style-src 'unsafe-inline'")):
        r = client.get(path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["x-frame-options"] == "SAMEORIGIN" and r.headers["referrer-policy"] == "no-referrer"
        assert policy in r.headers["content-security-policy"], (path, r.headers["content-security-policy"])
    assert "unsafe-inline" not in client.get("/").headers["content-security-policy"]


def test_cross_site_requests_are_refused(client):
    body = {"variant": "ombre", "seats": SEATS}
    r = client.post("/api/tables", json=body, headers={"origin": "https://evil.example"})
    assert (r.status_code, r.json()) == (403, {"error": "requests from 'https://evil.example' are not accepted"})
    r = client.post("/api/tables", json=body, headers={"sec-fetch-site": "cross-site"})
    assert (r.status_code, r.json()) == (403, {"error": "cross-site requests are not accepted"})
    # a form on another site can send text/plain without asking first: refused even without an Origin
    r = client.post("/api/tables", content=json.dumps(body), headers={"content-type": "text/plain"})
    assert (r.status_code, r.json()["error"]) == (415, "send this request as application/json (not text/plain)")
    r = client.post("/api/uploads?name=x.yaml", content=b"id: x\nextends: ombre\n",
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415 and r.json()["error"].startswith("send this request as application/yaml")
    assert client.app.state.tables.tables == {} and client.get("/api/variants").json()[-1]["origin"] == "built-in"
    # the same request from the server's own page is taken
    r = client.post("/api/tables", json=body, headers={"origin": "http://testserver"})
    assert r.status_code == 201
    t = r.json()
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/ws/tables/{t['id']}?t={token(t['spectator'])}",
                                      headers={"origin": "https://evil.example"}) as ws:
            ws.receive_json()


def test_malformed_requests_are_4xx_with_a_short_message(client):
    t = new_table(client, seed=3)
    tid, tok = t["id"], token(t["seats"][0]["url"])
    deep = b"[" * 60_000 + b"]" * 60_000
    r = client.post("/api/tables", content=deep, headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (400, "the request is not valid JSON: nested too deeply")
    big = ('{"variant": "ombre", "seats": ["human", "greedy", "greedy"], "seed": ' + "9" * 5000 + "}").encode()
    r = client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (400, "a number of 5000 digits (at most 30)")
    r = client.post("/api/tables", content=b'{"seed": NaN}', headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (400, "NaN is not a number this server takes")
    r = client.get(f"/api/tables/{tid}", params={"t": "é" * 32})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{tid}/act", json={"token": "ü" * 32, "action": "pass"})
    assert r.status_code == 403
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/ws/tables/{tid}?t={'ß' * 40}") as ws:
            ws.receive_json()
    r = client.get(f"/api/tables/{tid}/deals/{10 ** 30}/record", params={"t": tok})
    assert (r.status_code, r.json()["error"]) == (404, f"deal number of table '{tid}' is not finished")
    r = client.get(f"/api/tables/{tid}/deals/0/replay", params={"t": tok})
    assert (r.status_code, r.json()["error"]) == (404, f"deal 0 of table '{tid}' is not finished")
    r = client.post(f"/api/tables/{tid}/act", json={"token": tok, "action": "pass " + "x" * 10_000})
    assert r.status_code in (400, 409) and len(r.text) < 200, r.text
    v = client.get(f"/api/tables/{tid}", params={"t": tok}).json()["state"]
    while v["to_move"] != 0:
        time.sleep(0.02)
        v = client.get(f"/api/tables/{tid}", params={"t": tok}).json()["state"]
    r = client.post(f"/api/tables/{tid}/act", json={"token": tok, "action": "pass " + "x" * 10_000})
    assert (r.status_code, r.json()["error"]) == (400, "no action is that long: 'pass " + "x" * 35 + "…'")
    r = client.get("/api/tables/" + "z" * 300, params={"t": tok})
    assert (r.status_code, r.json()["error"]) == (404, f"no table '{'z' * 40}'")


def test_a_long_upload_name_is_cut_and_nothing_is_left_behind(client, tmp_path):
    r = upload(client, "n" * 300 + ".yaml", b"id: bad\nextends: ombre\ncontracts: {solo: {trump: sideways}}\n")
    assert r.status_code == 400 and r.json()["error"].startswith("n" * 60 + ".yaml:3:")
    assert os.listdir(tmp_path / "data" / "uploads") == []


def test_quotas_per_address_and_in_all():
    q = Quota("tables", per_client=2, total=3, window=100)
    q.take("a", now=0)
    q.take("a", now=1)
    with pytest.raises(Exception) as e:
        q.check("a", now=2)
    assert (e.value.status, e.value.message) == (429, "too many tables from your address: at most 2 an hour "
                                                      "(try again in 2 minutes)")
    q.check("b", now=2)
    q.take("b", now=2)
    with pytest.raises(Exception) as e:
        q.check("c", now=3)
    assert (e.value.status, e.value.message) == (503, "the server has started 3 tables this hour, its most: "
                                                      "try again later")
    q.check("a", now=100.5)  # the first start is an hour old: one more may start


def test_table_limits_and_idle_tables_put_away(tmp_path):
    limits = Limits(tables=Quota("tables", 3, 10), bot_tables=Quota("tables of bots only", 1, 5),
                    running_bot_tables=1, live_tables=2)
    with TestClient(create_app(str(tmp_path / "data"), processes=False, limits=limits)) as c:
        bots = new_table(c, seats=("random", "random", "random"), seed=1)
        r = c.post("/api/tables", json={"variant": "ombre", "seats": ["random"] * 3})
        assert (r.status_code, r.json()["error"]) == (429, "too many tables of bots only from your address: at "
                                                           "most 1 an hour (try again in 60 minutes)")
        tables = c.app.state.tables
        t1 = new_table(c, seed=2)
        r = c.post("/api/tables", json={"variant": "ombre", "seats": SEATS})
        assert (r.status_code, r.json()["error"]) == (503, "the server is full: every table is in play, try "
                                                           "again later")
        # nobody has been at the first two for a while: they are put away, still stored
        for t in tables.tables.values():
            t.active = t.seen = time.monotonic() - 3600
        assert sorted(tables.sweep(time.monotonic())) == sorted([bots["id"], t1["id"]])
        assert tables.tables == {}
        new_table(c, seed=3)  # the third of the hour (the refused one did not count)
        r = c.post("/api/tables", json={"variant": "ombre", "seats": SEATS})
        assert (r.status_code, r.json()["error"]) == (429, "too many tables from your address: at most 3 an hour "
                                                           "(try again in 60 minutes)")
        # a table put away comes back when someone opens it
        v = c.get(f"/api/tables/{t1['id']}", params={"t": token(t1["seats"][0]["url"])})
        assert v.status_code == 200 and t1["id"] in tables.tables


def test_a_table_of_bots_plays_only_while_watched(tmp_path):
    limits = Limits(unwatched_seconds=0.0)
    with TestClient(create_app(str(tmp_path / "data"), processes=False, limits=limits)) as c:
        t = new_table(c, seats=("random", "random", "random"), seed=4, deals=100)
        table = c.app.state.tables.tables[t["id"]]
        time.sleep(0.5)
        assert table.state.history == [] and table.deal_no == 0  # nobody watches: it does not start
        with c.websocket_connect(f"/ws/tables/{t['id']}?t={token(t['spectator'])}") as ws:
            first = ws.receive_json()
            while not ws.receive_json()["state"]["actions"]:
                pass
        assert first["table"]["here"] == [False, False, False]
        time.sleep(0.5)
        moved = (table.deal_no, len(table.state.history))
        time.sleep(1.0)
        assert (table.deal_no, len(table.state.history)) == moved  # the watcher left: it stopped
