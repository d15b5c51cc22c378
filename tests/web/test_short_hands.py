"""Hands of unequal size (a contract's lay-away by named seats) on the table page in Chromium: once the
declarer's hand is empty his seat shows no card, the last trick is played by the two others alone, and the
card on the table and the list of tricks name the seats that played them, passing over him. Screenshots on a
desktop and a phone."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from .conftest import Server, shot  # noqa: E402
from .test_api import token  # noqa: E402
from .test_table_page import DESKTOP, PHONE, new_table, watch_errors  # noqa: E402

SHORT = Path(__file__).parent.parent / "data" / "short_hand.yaml"


def test_a_seat_out_of_cards_shows_none_and_is_passed_over(browser, tmp_path_factory):
    folder = tmp_path_factory.mktemp("short")
    shutil.copy(SHORT, folder / "short_hand.yaml")
    with Server(str(tmp_path_factory.mktemp("data")), str(folder)) as server:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watch_errors(page)
        t = new_table(page, server, "dir:short_hand.yaml", ["human", "human", "human"], seed=5)
        tokens = [token(s["url"]) for s in t["seats"]]
        api = f"{server.url}/api/tables/{t['id']}"

        def state() -> dict:
            return page.request.get(f"{api}?t={token(t['spectator'])}").json()["state"]

        def act(seat: int, action: str) -> None:
            assert page.request.post(f"{api}/act", data={"token": tokens[seat], "action": action}).status == 200

        # the first seat to bid declares the misère with four cards, the others pass; then the first legal card
        while True:
            v = state()
            if v["phase"] == "play" and len(v["trick_history"]) == 4 and v["current_trick"]:
                break
            seat = v["to_move"]
            mine = page.request.get(f"{api}?t={tokens[seat]}").json()["state"]
            acts = [c["action"] for c in mine["controls"]]
            act(seat, "bid misere" if "bid misere" in acts else "pass" if "pass" in acts else acts[0])
        declarer = v["declarer"]
        assert v["contract"] == "misere" and v["hand_sizes"][declarer] == 0
        assert v["short_hands"] == [4 if s == declarer else 5 for s in range(3)]
        leader = v["trick_history"][-1]["winner"]
        if leader == declarer:  # he won the fourth trick with his last card: the next seat leads
            leader = (declarer + 1) % 3
        others = [s for s in range(3) if s != declarer]
        assert v["to_move"] == [s for s in others if s != leader][0]
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            view = browser.new_context(**size).new_page()
            view.goto(server.url + t["spectator"])
            view.wait_for_selector("#trick .play")
            assert view.locator(f".seat[data-seat='{declarer}'] .backs .card").count() == 0
            for s in others:
                assert view.locator(f".seat[data-seat='{s}'] .backs .card").count() == 1 - (s == leader)
            assert [view.locator("#trick .play").nth(0).get_attribute("data-seat")] == [str(leader)]
            shot(view, f"short-hands-spectator-{name}")
        act(v["to_move"], [c["action"] for c in page.request.get(f"{api}?t={tokens[v['to_move']]}").json()
                           ["state"]["controls"]][0])
        done = state()
        assert done["phase"] == "done" and len(done["trick_history"][-1]["cards"]) == 2
        page.goto(server.url + t["spectator"])
        page.wait_for_selector("#tricks li")
        rows = page.locator("#tricks li")
        assert rows.count() == 5
        labels = [rows.nth(j).locator(".played .by").all_inner_texts() for j in range(5)]
        # seed 5: seat 1 declares; in the fifth trick seat 2 leads and seat 0 answers, passing over him
        assert declarer == 1
        assert labels == [["S1", "S2", "S0"], ["S2", "S0", "S1"], ["S2", "S0", "S1"], ["S0", "S1", "S2"], ["S2", "S0"]]
        assert [tr["leader"] for tr in done["trick_history"]] == [1, 2, 2, 0, 2]
        shot(page, "short-hands-done")
        assert errors == []
