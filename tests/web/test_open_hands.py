"""Several hands laid open (a contract's `expose.who` naming a list of seats) on the table page in Chromium: the
spectator's page draws every open hand, face up, under its seat, and no card back for it; the seat's own page
draws the other open hands and its own hand once. Screenshots on a desktop and a phone."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from .conftest import Server, shot  # noqa: E402
from .test_api import token  # noqa: E402
from .test_table_page import DESKTOP, PHONE, new_table, watch_errors  # noqa: E402

MISERY = Path(__file__).parent.parent / "data" / "misery.yaml"


def _until(page, url: str, done) -> dict:
    deadline = time.time() + 30
    while time.time() < deadline:
        v = page.request.get(url).json()["state"]
        if done(v):
            return v
        time.sleep(0.1)
    raise AssertionError("the table did not get there")


def test_the_spectator_sees_every_open_hand_face_up(browser, tmp_path_factory):
    folder = tmp_path_factory.mktemp("open")
    shutil.copy(MISERY, folder / "misery.yaml")
    with Server(str(tmp_path_factory.mktemp("data")), str(folder)) as server:
        ctx = browser.new_context(**DESKTOP)
        page = ctx.new_page()
        errors = watch_errors(page)
        t = new_table(page, server, "dir:misery.yaml", ["human", "random", "random", "random"], seed=3)
        mine = token(t["seats"][0]["url"])
        url = f"{server.url}/api/tables/{t['id']}?t={mine}"
        while True:  # seat 0 bids royal when it may (or passes), then plays, until a card is on the table
            v = _until(page, url, lambda v: v["controls"] or v["phase"] == "done" or v["trick_history"]
                       or v["current_trick"])
            if v["trick_history"] or v["current_trick"] or v["phase"] == "done":
                break
            acts = [c["action"] for c in v["controls"]]
            pick = "bid royal" if "bid royal" in acts else "pass" if "pass" in acts else acts[0]
            assert page.request.post(f"{server.url}/api/tables/{t['id']}/act",
                                     data={"token": mine, "action": pick}).status == 200
        spectator = page.request.get(f"{server.url}/api/tables/{t['id']}?t={token(t['spectator'])}").json()["state"]
        assert spectator["contract"] == "royal"  # seed 3: the random bots let seat 0's royal stand
        open_hands = {e["seat"]: e["hand"] for e in spectator["exposed_hands"]}
        assert sorted(open_hands) == [0, 1, 2, 3]
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            view = browser.new_context(**size).new_page()
            view.goto(server.url + t["spectator"])
            view.wait_for_selector(".seat .mini.hand[title='hand laid open']")
            for seat, hand in open_hands.items():
                box = view.locator(f".seat[data-seat='{seat}']")
                assert box.locator(".mini.hand[title='hand laid open'] .card").count() == len(hand)
                assert box.locator(".backs").count() == 0
            shot(view, f"open-hands-spectator-{name}")
        page.goto(server.url + t["seats"][0]["url"])
        page.wait_for_selector(".seat .mini.hand[title='hand laid open']")
        assert page.locator(".seat[data-seat='0'] .mini.hand[title='hand laid open']").count() == 0
        for seat in (1, 2, 3):
            assert page.locator(f".seat[data-seat='{seat}'] .mini.hand[title='hand laid open'] .card").count() == \
                len(open_hands[seat])
        shot(page, "open-hands-seat-0")
        assert errors == []
