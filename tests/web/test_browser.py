"""End-to-end tests in Debian's Chromium: whole deals by clicking, two people at one table, a phone, the replay
viewer and a bad upload. Screenshots go to test-artefacts/ (gitignored)."""
from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("starlette")

from ombre_rules import State, load  # noqa: E402
from ombre_rules.engine.replay import events  # noqa: E402
from ombre_rules.records import to_record  # noqa: E402
from ombre_rules.session import Session  # noqa: E402
from ombre_rules.web.words import words  # noqa: E402

from .clicking import cards_shown, play_by_clicking, snapshot, spectator_leaks, turn  # noqa: E402
from .conftest import shot  # noqa: E402
from .test_uploads import OWN_SOURCES  # noqa: E402


def shown_payments(page) -> list[int]:
    cells = page.query_selector_all("#payments tbody tr td:nth-child(3)")
    return [int(c.inner_text().replace("+", "")) for c in cells]


@pytest.mark.parametrize("variant", ["ombre", "quadrille", "taroc-lhombre"])
def test_whole_deal_by_clicking_matches_engine(browser, server, variant):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/variant/{variant}")
    page.wait_for_selector("#create")
    if variant == "ombre":
        page.select_option("#against", "dir:house.yaml")
        page.frame_locator("#rulebook").locator("h1").wait_for(timeout=60000)
        page.frame_locator("#diff").locator("body").wait_for()
        shot(page, "variant-page")
    page.fill("#seed", "21")
    page.fill("#deals", "2")
    page.click("#create")
    page.wait_for_selector("#hand")
    shot(page, f"{variant}-start")
    table = server.app.state.tables.tables[page.url.split("/table/")[1].split("?")[0]]
    watcher = browser.new_page()  # a spectator: no hand, no discard, no lay-away, no card given back
    watcher.goto(f"{server.url}/table/{table.row.id}?t={table.row.spectator}")
    watcher.wait_for_selector(".me")
    mid = {}
    seen: list[tuple[str, str]] = []

    def on_move(n):
        if n == 6 and not mid:
            mid["done"] = True
            shot(page, f"{variant}-playing")
        seen.append(snapshot(watcher))

    clicked = play_by_clicking(page, on_move=on_move)
    shot(page, f"{variant}-result")
    shown = json.loads(page.get_attribute("#result", "data-result"))
    href = page.get_attribute("#download", "href")
    record = page.request.get(server.url + href).json()
    rules = load(variant)
    first = Session(rules, seed=21).new_deal()
    assert record["seed"] == first.seed and record["dealer"] == 0
    state = State(rules, seed=first.seed, dealer=0)
    mine = []
    for text in record["actions"]:
        if state.current_player == 0:
            mine.append(text)
        state.apply_str(text)
    assert mine == clicked
    seen.append(snapshot(watcher))
    assert len(seen) > 5 and spectator_leaks(rules, record, seen) == []
    watcher.close()
    assert shown == state.result.to_dict()
    assert shown_payments(page) == list(state.result.payments)
    # the account: every transfer but those of nothing (issue 33, item 11)
    assert len(page.query_selector_all("#account tr")) == len([e for e in state.account() if e.amount]) > 0
    assert errors == []
    page.close()


def _cards_in(text: str, cards: set[str]) -> set[str]:
    return {c for c in cards if re.search(rf"(?<![A-Za-z0-9]){re.escape(c)}(?![A-Za-z0-9])", text)}


def test_two_people_see_only_their_own_cards(browser, server):
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    req = ctx_a.request.post(f"{server.url}/api/tables",
                             data={"variant": "ombre", "seats": ["human", "human", "greedy"], "seed": 8})
    t = req.json()
    table = server.app.state.tables.tables[t["id"]]
    pages, traffic = [], [[], []]
    for k, ctx in enumerate((ctx_a, ctx_b)):
        page = ctx.new_page()

        def capture_ws(ws, k=k):
            ws.on("framereceived", lambda payload, k=k: traffic[k].append(str(payload)))

        def capture_http(resp, k=k):
            if "/api/" in resp.url:
                traffic[k].append(resp.text())

        page.on("websocket", capture_ws)
        page.on("response", capture_http)
        page.goto(server.url + t["seats"][k]["url"])
        pages.append(page)
    for p in pages:
        p.wait_for_selector("#hand")
    ctx_s = browser.new_context()
    watcher = ctx_s.new_page()
    watcher.goto(server.url + t["spectator"])
    watcher.wait_for_selector(".me")
    checks = 0
    rules = table.rules
    seen: list[tuple[str, str]] = []
    for _ in range(200):
        s = table.state
        if s.is_terminal:
            break
        names = [set(s.rules.deck.names(h)) for h in s.hands]
        for k, p in enumerate(pages):
            other = names[1 - k]
            content = p.content()
            assert not cards_shown(content, rules, other), (k, cards_shown(content, rules, other))
            assert not _cards_in("\n".join(traffic[k]), other)
            assert _cards_in(content, names[k]) == names[k]
            checks += 1
        seen.append(snapshot(watcher))  # the spectator's page, checked once the deal is over
        if s.current_player == 2:
            pages[0].wait_for_function(f"() => document.body.dataset.moves !== '1:{len(s.history)}'", timeout=20000)
            continue
        page = pages[s.current_player]
        page.wait_for_function(f"() => document.body.dataset.moves === '1:{len(s.history)}'", timeout=20000)
        turn(page)
    assert table.state.is_terminal and checks > 20
    watcher.wait_for_selector("#result")
    seen.append(snapshot(watcher))
    # the spectator: no hand, and no discard of anyone (bug 1), in any form a card is written
    assert spectator_leaks(rules, to_record(table.state), seen) == []
    discards = sum(1 for e in events(table.state) if e.hidden)
    assert discards > 0 and watcher.inner_text("#history").count("discards a card") == discards
    # a closed page rejoins with its link and sees the same table
    pages[0].close()
    again = ctx_a.new_page()
    again.goto(server.url + t["seats"][0]["url"])
    again.wait_for_selector("#result")
    assert json.loads(again.get_attribute("#result", "data-result")) == table.state.result.to_dict()
    pages[0] = again
    shot(pages[0], "two-people-a")
    shot(pages[1], "two-people-b")
    shot(watcher, "spectator")
    ctx_s.close()
    ctx_a.close()
    ctx_b.close()


def test_replay_viewer_steps_through_a_record(browser, server, tmp_path):
    rules = load("quadrille")
    s = State(rules, seed=9)
    while not s.is_terminal:
        acts = s.legal_actions()
        s.apply(acts[1] if s.phase_name == "auction" and len(acts) > 1 and not s.history else acts[0])
    record = to_record(s)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#step")
    assert page.inner_text("#frame-action") == "The deal as dealt"
    first = State(rules, seed=9)
    hand = page.query_selector_all("#board .rh[data-seat='1'] .card")
    assert sorted(c.get_attribute("data-card") for c in hand) == sorted(rules.deck.names(first.hands[1]))
    face = words(rules).faces
    for k in range(3):
        page.click("#forward")
        seat = first.current_player
        first.apply_str(record["actions"][k])
        verb, _, card = record["actions"][k].partition(" ")
        assert page.inner_text("#frame-action") == f"Seat {seat}: {verb} {face.get(card, card)}".strip()
    shot(page, "replay-step")
    page.click("#back")
    verb, _, card = record["actions"][1].partition(" ")
    assert page.inner_text("#frame-action").endswith(f"{verb} {face.get(card, card)}".strip())
    page.click("#last")
    assert json.loads(page.get_attribute("#replay-result", "data-result")) == record["result"]
    shot(page, "replay")
    bad = dict(record, actions=record["actions"][:2] + ["play ZZ"])
    other = tmp_path / "bad.json"
    other.write_text(json.dumps(bad), encoding="utf-8")
    page.set_input_files("#record-file", str(other))
    page.wait_for_selector("#replay-errors")
    assert page.inner_text("#replay-errors").startswith("diverges at action 3 'play ZZ'")
    page.close()


def test_uploads_in_the_lobby(browser, server):
    """A bad file shows its error; a house rule with its own sources (bug 5) is checked in full, kept, and its
    rulebook shown; a file that extends no built-in variant is refused (item 8)."""
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(f"{server.url}/")
    page.wait_for_selector(".tile")
    assert page.query_selector(".tile[data-key='dir:house.yaml']")
    bad = b"id: mine\nextends: ombre\ncontracts:\n  solo: {value: 20, trump: sideways}\n"
    page.set_input_files("#upload-file", files=[{"name": "mine.yaml", "mimeType": "text/yaml", "buffer": bad}])
    page.click("#upload-go")
    page.wait_for_selector("#upload-errors")
    text = page.inner_text("#upload-errors")
    assert re.match(r"mine\.yaml:4:\d+: ", text) and "sideways" in text
    shot(page, "upload-error")
    alone = b"id: alone\nplayers: 3\n"
    page.set_input_files("#upload-file", files=[{"name": "alone.yaml", "mimeType": "text/yaml", "buffer": alone}])
    page.click("#upload-go")
    page.wait_for_selector("#upload-errors:has-text('alone.yaml')")
    assert page.inner_text("#upload-errors").startswith("alone.yaml:1:1: an uploaded file must extend a built-in")
    page.set_input_files("#upload-file", files=[{"name": "ours.yaml", "mimeType": "text/yaml",
                                                 "buffer": OWN_SOURCES.encode()}])
    page.click("#upload-go")
    page.wait_for_selector(".ok-box", timeout=120000)  # the check plays deals and makes the rulebook
    page.wait_for_selector(".tile[data-key^='upload:']")
    page.click(".ok-box a")
    page.frame_locator("#rulebook").locator("h1").wait_for(timeout=60000)
    assert page.frame_locator("#rulebook").locator("h1").inner_text() == "Our Ombre"
    page.close()


def test_the_session_panel_shows_the_carried_values_deal_after_deal(browser, server):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    errors = []
    # a person's table at its first deal: no couleur yet
    fresh = ctx.request.post(f"{server.url}/api/tables", data={"variant": "german-solo", "seed": 5,
                                                              "seats": ["human", "greedy", "greedy", "greedy"]}).json()
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + fresh["seats"][0]["url"])
    page.wait_for_selector("#session")
    assert page.inner_text("#session h3").lower() == "carried from deal to deal"
    assert page.inner_text("#session dt") == "Couleur"
    assert page.inner_text("#session .doc") == "the preference suit: in couleur games are paid double"
    assert page.inner_text("#session dd.now") == "not set"
    # a table of bots, two deals: the first is won in clubs, which fixes the couleur for the second
    t = ctx.request.post(f"{server.url}/api/tables",
                         data={"variant": "german-solo", "seats": ["greedy"] * 4, "seed": 5, "deals": 2}).json()
    table = server.app.state.tables.tables[t["id"]]
    page.goto(server.url + t["spectator"])
    # the page sets data-moves once its first state has come: until then the predicate is false, not an error
    page.wait_for_function("() => (document.body.dataset.moves || '').startsWith('2:') "
                           "&& document.querySelector('#result')", timeout=30000)
    first, second = (d.result for d in table.session.deals)
    assert (first.outcome, first.session_before, first.session_after) == ("won", {"couleur": None},
                                                                          {"couleur": "clubs"})
    assert second.session_before == second.session_after == {"couleur": "clubs"}
    assert page.inner_text("#session dd.now").split("\n") == ["\u2663 Clubs", "next deal: \u2663 Clubs"]
    assert json.loads(page.get_attribute("#session", "data-session")) == {"couleur": "clubs"}
    shot(page, "session-panel")
    # the replay of the first deal: no couleur as it began, clubs for the next deal once it is over
    page.goto(f"{server.url}/replay?table={t['id']}&deal=1&t={t['spectator'].split('?t=')[1]}")
    page.wait_for_selector("#replay-session")
    assert page.inner_text("#replay-session") == "Carried from deal to deal: Couleur not set"
    page.click("#last")
    assert page.inner_text("#replay-session") == ("Carried from deal to deal: Couleur not set "
                                                  "(next deal: \u2663 Clubs)")
    assert errors == []
    ctx.close()


def test_the_score_sheet_shows_the_sessions_close(browser, server):
    """A one-deal Tresillo table of bots: once its deal ends, the score sheet has a row for the session's close
    (the plate shared out) and the totals include it."""
    ctx = browser.new_context()
    t = ctx.request.post(f"{server.url}/api/tables",
                         data={"variant": "tresillo", "seats": ["greedy"] * 4, "seed": 5, "deals": 1}).json()
    page = ctx.new_page()
    page.goto(server.url + t["spectator"])
    page.wait_for_selector("#sheet tr:has-text(\"Session's close\")", timeout=30_000)
    table = server.app.state.tables.tables[t["id"]]
    deal, close = table.sheet
    rows = page.locator("#sheet tbody tr")
    texts = [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]
    signed = [f"{p:+d}" for p in close["payments"]]
    assert texts[1] == ["Session's close", *signed]
    assert texts[2] == ["Total", *[f"{p:+d}" for p in table.session.ledger]]
    assert sum(close["payments"]) == deal["pool"] > 0
    shot(page, "session-close")
    ctx.close()


@pytest.mark.parametrize(("width", "height", "name"), [(1280, 900, "desktop"), (390, 844, "phone")])
def test_the_double_dummy_bot_is_offered_and_plays(browser, server, width, height, name):
    """The strongest bot, `pimcdd`, is a seat's choice with a budget of seconds; a table with it plays a deal."""
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/variant/ombre")
    page.wait_for_selector("#create")
    kinds = page.eval_on_selector_all('select[data-seat="1"] option', "os => os.map(o => o.value)")
    assert kinds == ["you", "human", "random", "greedy", "pimc", "pimcdd"]
    page.select_option('select[data-seat="1"]', "pimcdd")
    budget = page.locator('select[data-seat="1"] ~ input.budget')
    assert budget.is_visible()
    budget.fill("0.3")
    page.fill("#seed", "4")
    page.fill("#deals", "1")
    shot(page, f"pimcdd-seat-{name}")
    page.click("#create")
    page.wait_for_selector("#hand")
    play_by_clicking(page)
    shot(page, f"pimcdd-result-{name}")
    table = page.url.split("/table/")[1].split("?")[0]
    seats = page.request.get(f"{server.url}/api/tables/{table}", params={"t": page.url.split("?t=")[1]}).json()
    assert "pimcdd:0.3s" in json.dumps(seats)
    assert errors == []
    page.close()


@pytest.mark.parametrize("width, height, name", [(1280, 900, "desktop"), (390, 844, "phone")])
def test_the_first_deal_shows_the_draw_for_the_dealer(browser, server, width, height, name):
    """A Préférence table of seed 3: the session's first dealer is drawn (seat 0 the ten of diamonds, seat 1 the
    eight of clubs, seat 2 the seven of hearts: suit first, so seat 2 deals), and the info box shows the draw."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    errors = []
    t = ctx.request.post(f"{server.url}/api/tables", data={"variant": "preference", "seed": 3,
                                                          "seats": ["human", "greedy", "greedy"]}).json()
    table = server.app.state.tables.tables[t["id"]]
    assert table.state.dealer == 2 and len(table.state.dealer_draw) == 3
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + t["seats"][0]["url"])
    page.wait_for_selector("#dealer-draw")
    assert page.inner_text("#dealer-draw") == "You 10\u2666, Seat 1 · greedy bot 8\u2663, Seat 2 · greedy bot 7\u2665"
    shot(page, f"dealer-draw-{name}")
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("width, height, name", [(1280, 900, "desktop"), (390, 844, "phone")])
def test_the_players_sit_where_they_draw_and_the_cut_is_shown(browser, server, width, height, name):
    """A Tresillo table with the seat draw by suits and the cut, seed 2: the players given in order (Ann, a
    person, then three bots) draw AH, AC, AS, AD, so Ann sits at seat 1 (forehand: seat 0 deals and sits out) and
    her link opens seat 1; the info box shows the draw and who cut how many cards."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    errors = []
    t = ctx.request.post(f"{server.url}/api/tables", data={
        "variant": "tresillo", "options": {"seat_draw": "suits", "cut": "left"}, "seed": 2,
        "seats": ["human", "greedy", "greedy", "greedy"], "names": ["Ann", "Bob", "Cid", "Dee"]}).json()
    table = server.app.state.tables.tables[t["id"]]
    assert table.row.seats == ["greedy", "human", "greedy", "greedy"] and table.names == ["Dee", "Ann", "Cid", "Bob"]
    assert [s["seat"] for s in t["seats"] if s["url"]] == [1] and table.state.cut_at == 17
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + next(s["url"] for s in t["seats"] if s["url"]))
    page.wait_for_selector("#seat-draw")
    assert page.inner_text("#seat-draw") == ("You A\u2665 (seat 1), Bob \u00b7 greedy bot A\u2663 (seat 3), "
                                             "Cid \u00b7 greedy bot A\u2660 (seat 2), Dee \u00b7 greedy bot "
                                             "A\u2666 (seat 0)")
    assert page.inner_text("#cut") == "Bob \u00b7 greedy bot lifted 17 cards"  # seat 3, the dealer's left
    shot(page, f"seat-draw-{name}")
    assert errors == []
    ctx.close()


def test_the_variant_page_takes_you_to_the_seat_you_draw(browser, server):
    """From Tresillo's page with the seat draw chosen, seed 2, "You" first and three bots: you are player 0, who
    draws the ace of hearts, so the page takes you to seat 1."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/variant/tresillo")
    page.wait_for_selector("#create")
    page.select_option("#opt-seat_draw", "suits")
    page.fill("#seed", "2")
    page.fill("#deals", "1")
    page.click("#create")
    page.wait_for_selector("#seat-draw")
    table = server.app.state.tables.tables[page.url.split("/table/")[1].split("?")[0]]
    assert table.seat_of(page.url.split("?t=")[1]) == 1 and table.session.seats == (1, 3, 2, 0)
    assert page.inner_text("#seat-draw").startswith("You A\u2665 (seat 1), ")
    assert errors == []
    page.close()


@pytest.mark.parametrize("width, height, name", [(1280, 900, "desktop"), (390, 844, "phone")])
def test_the_card_turned_for_the_deal_is_shown_to_everyone(browser, server, width, height, name):
    """A Euchre table of seed 21 (seat 0 deals and is a person): the upcard, turned from the rest of the pack,
    lies face up beside the talon and is named in the info box, for the seat and for a spectator alike."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    errors = []
    t = ctx.request.post(f"{server.url}/api/tables", data={"variant": "euchre", "seed": 21,
                                                          "seats": ["human", "greedy", "greedy", "greedy"]}).json()
    table = server.app.state.tables.tables[t["id"]]
    state = table.state
    assert state.dealer == 0
    card = state.rules.deck.name(state.turn_up)
    assert card == "JS"
    for url in (t["seats"][0]["url"], t["spectator"]):
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + url)
        page.wait_for_selector("#turn-up")
        text = page.inner_text("#turn-up")
        # on the talon until the dealer takes it up: then his
        assert text in ("J\u2660 (on the talon)", "J\u2660 (You hold it)" if url != t["spectator"] else
                        "J\u2660 (Seat 0 holds it)"), text
        if text.endswith("(on the talon)"):
            assert page.inner_text("#turn-up-card").split("\n")[-1] == "turned up"
        shot(page, f"turn-up-{name}-{'seat' if url != t['spectator'] else 'spectator'}")
        page.close()
    assert errors == []
    ctx.close()
