"""The table page in Chromium, for issue 33: the invite link (bug 2), the end-of-session links (bug 3), a seat
sitting out (bug 4) (uploads in the lobby, bug 5: test_browser.py), and the newcomer's table (items 9-13): explanations,
discards chosen then confirmed, cards in words, names, a move timer, out-of-turn clicks, a rematch, focus and a
live region; and a screenshot of each phase of one deal on a desktop and a phone."""
from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("starlette")

from ombre_rules import load  # noqa: E402
from ombre_rules.web.words import words  # noqa: E402

from .clicking import play_by_clicking, turn  # noqa: E402
from .conftest import shot  # noqa: E402

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}


def watch_errors(page) -> list[str]:
    """Every script error and console error of a page (a blocked inline style or script shows there)."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def new_table(page, server, variant: str, seats: list[str], **kw) -> dict:
    r = page.request.post(f"{server.url}/api/tables", data={"variant": variant, "seats": seats, **kw})
    assert r.status == 201, r.text()
    return r.json()


def wait_moves(page, before: str) -> None:
    page.wait_for_function(f"() => document.body.dataset.moves !== {json.dumps(before)}", timeout=30000)


def test_the_invite_links_are_shown_until_the_other_person_joins(browser, server):
    """Bug 2: seat 0 you, seat 1 another person: the links are shown, kept, and shown again at the table until
    seat 1 has opened its link."""
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/variant/ombre")
    page.wait_for_selector("#create")
    page.select_option("#seat-1", "human")
    page.click("#create")
    page.wait_for_selector("#links")
    seat_link = page.input_value("#links .seat-link")
    assert re.fullmatch(rf"{re.escape(server.url)}/table/[0-9a-f]+\?t=[0-9a-f]{{32}}", seat_link)
    assert page.input_value("#links .spectator-link").startswith(server.url + "/table/")
    shot(page, "invite-links")
    page.click("#go-seat")
    page.wait_for_selector("#invite")
    assert page.input_value("#invite .invite-link") == seat_link
    assert "not here yet" in page.inner_text(".seat[data-seat='1']")
    other = browser.new_context(**DESKTOP).new_page()
    other.goto(seat_link)
    other.wait_for_selector("#hand")
    page.wait_for_selector("#invite", state="detached")
    assert "not here yet" not in page.inner_text(".seat[data-seat='1']")
    assert other.evaluate("() => document.querySelector('.me').dataset.seat") == "1"
    assert errors == []
    other.context.close()
    ctx.close()


@pytest.mark.parametrize("variant", ["preference", "tresillo"])
def test_the_last_deal_links_open_that_deal(browser, server, variant):
    """Bug 3: on the last deal of a session that has closing payments, 'Replay this deal' and 'Download the
    record' open that deal (the close's row of the score sheet is not a deal)."""
    rules = load(variant)
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    t = new_table(page, server, variant, ["human"] + ["greedy"] * (rules.players - 1), seed=3, deals=1)
    page.goto(server.url + t["seats"][0]["url"])
    page.wait_for_selector("#hand")
    play_by_clicking(page)
    page.wait_for_selector("#sheet tr:has-text(\"Session's close\")")
    href = page.get_attribute("#download", "href")
    assert re.search(r"/deals/1/record\?t=", href)
    record = page.request.get(server.url + href)
    assert record.status == 200 and record.json()["result"] == json.loads(page.get_attribute("#result", "data-result"))
    page.click("text=Replay this deal")
    page.wait_for_selector("#step")
    page.click("#last")
    assert json.loads(page.get_attribute("#replay-result", "data-result")) == record.json()["result"]
    ctx.close()


def test_a_seat_that_sits_out_is_told_and_its_payments_explained(browser, server):
    """Bug 4: Tresillo's dealer sits the deal out: the page says so, and the result says what it pays anyway."""
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    t = new_table(page, server, "tresillo", ["human", "human", "greedy", "greedy"], seed=5)
    page.goto(server.url + t["seats"][0]["url"])
    page.wait_for_selector(".me")
    assert page.inner_text("#prompt") == "You sit this deal out (each deal the dealer sits out: he gets no cards): " \
                                         "watch the others play."
    assert "sits out" in page.inner_text(".me .name")
    table = server.app.state.tables.tables[t["id"]]
    other = t["seats"][1]["url"].split("?t=")[1]
    while not table.state.is_terminal:  # seat 1 plays its first legal action whenever its turn comes
        if table.state.current_player != 1:
            page.wait_for_timeout(30)
            continue
        action = table.rules.action_str(table.state.legal_actions()[0])
        assert page.request.post(f"{server.url}/api/tables/{t['id']}/act",
                                 data={"token": other, "action": action}).status == 200
    page.wait_for_selector("#result")
    mine = [e for e in table.state.account() if 0 in (e.payer, e.payee) and e.amount]
    paid = ", ".join(f"{e.label.replace('_', ' ').capitalize()} {'−' if e.payer == 0 else '+'}{e.amount}" for e in mine)
    assert mine and page.inner_text("#sat-out") == f"You sat this deal out. What you pay or get anyway: {paid}."
    shot(page, "sitting-out")
    ctx.close()


def test_the_table_explains_itself(browser, server):
    """Items 9 and 13: a line for each bid (its title and the ? button), the phase in a line, the rules of the
    phase one click away; cards named in words; the prompt in a live region."""
    rules = load("ombre")
    w = words(rules)
    page = browser.new_context(**DESKTOP).new_page()
    errors = watch_errors(page)
    t = new_table(page, server, "ombre", ["human", "human", "greedy"], seed=3)
    page.goto(server.url + t["seats"][1]["url"])  # seat 1 (forehand) bids first
    page.wait_for_selector("#controls button[data-action='bid solo']")
    assert page.get_attribute("[data-action='bid solo']", "title") == w.contracts["solo"] == \
        "The Ombre names trumps and plays the cards he was dealt (the defenders may still exchange). Level 3. Worth 15."
    page.click("button[aria-label='What is Solo?']")
    assert page.inner_text("#control-doc") == f"Solo: {w.contracts['solo']}"
    assert page.inner_text("#phase-doc").startswith(w.lines["auction"])
    assert page.inner_text("#prompt") == "Your turn to bid: choose a contract, or pass."
    assert page.text_content("#live") == page.inner_text("#prompt")
    spoken = {b.get_attribute("data-card"): b.get_attribute("aria-label")
              for b in page.query_selector_all("#hand .card")}
    assert spoken and all(label.startswith(w.spoken[card]) for card, label in spoken.items())
    assert "ace of spades" in w.spoken.values()
    page.click("#rules-open")
    page.wait_for_selector("#rules-panel:not([hidden])")
    assert page.get_attribute("#rules-frame", "src").endswith("/api/variants/ombre/rulebook#auction")
    page.frame_locator("#rules-frame").locator("#auction h2").wait_for(timeout=60000)
    assert page.frame_locator("#rules-frame").locator("#auction h2").inner_text() == "The bidding"
    page.click("#rules-close")
    assert page.is_hidden("#rules-panel")
    assert errors == []
    page.context.close()


def test_discards_are_chosen_then_confirmed(browser, server):
    """Item 10: cards to put away are picked and can be taken back; nothing is sent before the confirmation."""
    page = browser.new_context(**DESKTOP).new_page()
    t = new_table(page, server, "ombre", ["human", "human", "human"], seed=3)
    toks = [s["url"] for s in t["seats"]]
    table = server.app.state.tables.tables[t["id"]]
    for text in ("bid entrada", "pass", "pass"):  # seat 1 bids, the others pass; seat 1 names trumps
        seat = table.state.current_player
        assert page.request.post(f"{server.url}/api/tables/{t['id']}/act",
                                 data={"token": toks[seat].split("?t=")[1], "action": text}).status == 200
    seat = table.state.current_player
    page.request.post(f"{server.url}/api/tables/{t['id']}/act",
                      data={"token": toks[seat].split("?t=")[1], "action": "trump hearts"})
    seat = table.state.current_player
    assert table.state.phase_name == "exchange"
    page.goto(server.url + toks[seat])
    page.wait_for_selector("#confirm")
    assert page.inner_text("#prompt") == "Your turn: discard up to 9 cards, then draw as many. Choose the cards, " \
                                         "then confirm."
    hand = [b.get_attribute("data-card") for b in page.query_selector_all("#hand button.pick")]
    before = len(table.state.history)
    page.click(f"#hand button[data-card='{hand[0]}']")
    page.click(f"#hand button[data-card='{hand[1]}']")
    assert page.inner_text("#chosen-count") == "2 cards chosen (0 to 9)"
    assert page.inner_text("#confirm") == "Discard 2 and draw 2"
    page.click(f"#hand button[data-card='{hand[0]}']")  # taken back
    page.click("#clear")
    assert page.inner_text("#chosen-count") == "0 cards chosen (0 to 9)" and len(table.state.history) == before
    page.click(f"#hand button[data-card='{hand[2]}']")
    page.click(f"#hand button[data-card='{hand[3]}']")
    page.click("#confirm")
    page.wait_for_function(f"() => document.body.dataset.moves !== '1:{before}'")
    assert [table.rules.action_str(a) for a in table.state.history[before:before + 3]] == \
        [f"discard {hand[2]}", f"discard {hand[3]}", "draw"]
    page.context.close()


def test_names_timer_turns_and_a_rematch(browser, server):
    """Item 12: names typed once (kept in the browser), the move timer, 'not your turn', the trick list saying
    who played which card, and a new session at the end with every seat's own link."""
    a_ctx, b_ctx = browser.new_context(**DESKTOP), browser.new_context(**DESKTOP)
    a_ctx.add_init_script("localStorage.setItem('ombre.name', JSON.stringify('Ana'))")
    a, b = a_ctx.new_page(), b_ctx.new_page()
    errors = watch_errors(a) + watch_errors(b)
    t = new_table(a, server, "ombre", ["human", "human", "greedy"], seed=8, deals=1, timer=60)
    a.goto(server.url + t["seats"][0]["url"])
    b.goto(server.url + t["seats"][1]["url"])
    b.wait_for_selector(".seat[data-seat='0'] .name:has-text('Ana')")
    assert re.fullmatch(r"[01]:\d\d left", b.inner_text(".me .clock"))  # seat 1 moves first
    a.click("#hand button.card >> nth=0", force=True)  # aria-disabled: not playable now, yet clickable
    a.wait_for_selector(".toast")
    assert a.inner_text(".toast") == "Not your turn: waiting for Seat 1."
    b.click("#settings summary")
    b.fill("#my-name", "Bo")
    b.click("[data-focus='save-name']")
    a.wait_for_selector(".seat[data-seat='1'] .name:has-text('Bo')")
    table = server.app.state.tables.tables[t["id"]]
    while not table.state.is_terminal:
        page = {0: a, 1: b}.get(table.state.current_player)
        if page is None:
            a.wait_for_timeout(50)
            continue
        page.wait_for_function(f"() => document.body.dataset.moves === '1:{len(table.state.history)}'")
        turn(page)
    a.wait_for_selector("#tricks li")
    first = table.state.trick_log[0]
    labels = a.eval_on_selector_all("#tricks li:first-child .played .by", "xs => xs.map(x => x.textContent)")
    seat_names = {0: "You", 1: "Bo", 2: "S2"}
    n = table.rules.players
    assert labels == [seat_names[(first[0] + k) % n] for k in range(n)]
    a.click("#rematch")
    a.wait_for_function(f"() => !location.pathname.includes({json.dumps(t['id'])})")
    a.wait_for_selector("#hand")
    assert a.evaluate("() => document.querySelector('.me').dataset.seat") == "0"
    b.wait_for_selector("#rematch-link")
    b.click("#rematch-link")
    b.wait_for_selector("#hand")
    assert b.url.split("/table/")[1].split("?")[0] == a.url.split("/table/")[1].split("?")[0]
    assert b.evaluate("() => document.querySelector('.me').dataset.seat") == "1"
    assert "Ana" in b.inner_text(".seat[data-seat='0'] .name") and errors == []
    a_ctx.close()
    b_ctx.close()


def test_focus_stays_where_it_was_when_the_view_changes(browser, server):
    """Item 13: a person moving through the hand with the keyboard keeps its place when another seat plays."""
    a_ctx, b_ctx = browser.new_context(**DESKTOP), browser.new_context(**DESKTOP)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    t = new_table(a, server, "ombre", ["human", "human", "greedy"], seed=8)
    a.goto(server.url + t["seats"][0]["url"])
    b.goto(server.url + t["seats"][1]["url"])
    a.wait_for_selector("#hand button.card")
    b.wait_for_selector("#controls button[data-action]")
    card = a.get_attribute("#hand button.card >> nth=2", "data-card")
    a.focus(f"#hand button[data-card='{card}']")
    before = a.get_attribute("body", "data-moves")
    b.click("#controls button[data-action='pass']")
    wait_moves(a, before)
    assert a.evaluate("() => document.activeElement.dataset.focus") == f"card:{card}"
    a_ctx.close()
    b_ctx.close()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_each_phase_of_a_deal_on_a_desktop_and_a_phone(browser, server, device):
    """A screenshot of each phase of one deal (test-artefacts/), on a phone without sideways scrolling and with
    every card of the hand on the screen; the Create button on a phone's first screen; no script or style
    error (the page keeps to its Content-Security-Policy)."""
    ctx = browser.new_context(**(PHONE if device == "phone" else DESKTOP))
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/variant/ombre")
    page.wait_for_selector("#create")
    box = page.locator("#create").bounding_box()
    assert box["y"] + box["height"] <= page.viewport_size["height"]
    shot(page, f"{device}-variant", full=False)
    page.fill("#seed", "21")
    page.click("#create")
    page.wait_for_selector("#hand")
    phases: list[str] = []

    def look(_n: int) -> None:
        phase = page.get_attribute("body", "data-phase")
        if phase not in phases:
            phases.append(phase)
            shot(page, f"{device}-{len(phases)}-{phase}", full=False)
        if device == "phone":
            width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], width
            boxes = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => { const r = c.getBoundingClientRect(); "
                                                             "return [r.x, r.width]; })")
            assert all(x >= 0 and x + w <= 390 for x, w in boxes), boxes

    look(0)
    play_by_clicking(page, on_move=look)
    shot(page, f"{device}-result", full=False)
    assert phases[:1] == ["auction"] and "play" in phases
    next_box = page.locator("#next").bounding_box()
    assert next_box["y"] + next_box["height"] <= page.viewport_size["height"]  # the Next deal button in view
    assert errors == []
    ctx.close()
