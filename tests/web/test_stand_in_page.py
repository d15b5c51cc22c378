"""The seat sitting out taking over a hand (`sit_out.stand_in`) on the table page in Chromium: while he is asked,
the sitter's page draws the dealer's hand face up under the dealer's seat, and no other seat's page (nor the
spectator's) draws it; once he has bid, every page says whose hand he plays. Screenshots on a desktop and a
phone."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from .conftest import Server, shot  # noqa: E402
from .test_api import token  # noqa: E402
from .test_table_page import DESKTOP, PHONE, new_table, watch_errors  # noqa: E402

STAND_IN = Path(__file__).parent.parent / "data" / "stand_in.yaml"
SEEN = ".mini.hand[title='the hand you may take over']"


def _state(page, server, t: dict, seat: int) -> dict:
    return page.request.get(f"{server.url}/api/tables/{t['id']}?t={token(t['seats'][seat]['url'])}").json()["state"]


def _act(page, server, t: dict, action: str) -> None:
    deadline = time.time() + 30
    while time.time() < deadline:
        v = _state(page, server, t, 0)
        if v["to_move"] is not None and v["to_move"] >= 0:
            seat = v["to_move"]
            r = page.request.post(f"{server.url}/api/tables/{t['id']}/act",
                                  data={"token": token(t["seats"][seat]["url"]), "action": action})
            assert r.status == 200, r.text()
            return
        time.sleep(0.1)
    raise AssertionError("nobody to move")


def test_only_the_seat_sitting_out_sees_the_hand_he_may_take_over(browser, tmp_path_factory):
    folder = tmp_path_factory.mktemp("stand")
    shutil.copy(STAND_IN, folder / "stand_in.yaml")
    with Server(str(tmp_path_factory.mktemp("data")), str(folder)) as server:
        ctx = browser.new_context(**DESKTOP)
        page = ctx.new_page()
        errors = watch_errors(page)
        t = new_table(page, server, "dir:stand_in.yaml", ["human"] * 4, seed=3)
        for a in ("pass", "pass", "pass"):  # forehand, second hand and the dealer pass
            _act(page, server, t, a)
        v = _state(page, server, t, 0)
        sitter, dealer = v["stand_in"]["sitter"], v["stand_in"]["seat"]
        assert v["stand_in"]["asked"] and v["to_move"] == sitter and dealer == v["dealer"]
        hand = _state(page, server, t, dealer)["hand"]
        assert _state(page, server, t, sitter)["stand_in_hand"] == hand and len(hand) == 3
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            view = browser.new_context(**size).new_page()
            view.goto(server.url + t["seats"][sitter]["url"])
            view.wait_for_selector(SEEN)
            assert view.locator(f".seat[data-seat='{dealer}'] {SEEN} .card").count() == 3
            assert view.locator(f".seat[data-seat='{dealer}'] .backs").count() == 0
            assert "has passed: bid higher on that hand to play it in that seat's place, or pass." in \
                view.inner_text("body")
            shot(view, f"stand-in-asked-{name}")
        others = [s for s in range(4) if s != sitter]
        for url in [t["seats"][s]["url"] for s in others] + [t["spectator"]]:
            page.goto(server.url + url)
            page.wait_for_selector(".seat")
            assert page.locator(SEEN).count() == 0
        _act(page, server, t, "bid big")
        page.goto(server.url + t["seats"][dealer]["url"])
        page.wait_for_selector(f".seat[data-seat='{sitter}'] .badge:has-text('plays your hand')")
        assert page.locator(".me .badge:has-text('sits out')").count() == 1
        assert page.locator(SEEN).count() == 0
        shot(page, "stand-in-taken")
        assert errors == []
