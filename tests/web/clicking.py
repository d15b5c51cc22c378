"""A scripted person at the table page: what it clicks, and whole deals played by clicking."""
from __future__ import annotations

import json
import re

READY = """() => document.querySelector('#result') ||
    document.querySelector('#hand button.legal, #controls button[data-action], #confirm')"""


def cards_shown(text: str, rules, cards: set[str]) -> set[str]:
    """The cards of `cards` a text names in any way a page writes one: its name, rank and suit symbol, words."""
    from ombre_rules.web.words import words

    w = words(rules)
    out = set()
    for c in cards:
        for form in {c, w.faces[c], w.spoken[c]}:
            if re.search(rf"(?<![\w]){re.escape(form)}(?![\w])", text):
                out.add(c)
    return out


def _click(page, selector: str) -> None:
    """Click what a selector finds now (found again if the page is drawn anew meanwhile)."""
    page.locator(selector).first.click()


def turn(page, clicked: list[str] | None = None) -> bool:
    """Take this page's turn the simple way (a bid if there is one, the first legal card, one card to put away
    then confirm); the actions sent are added to `clicked`. False when the deal is over."""
    page.wait_for_function(READY, timeout=30000)
    if page.query_selector("#result"):
        return False
    before = page.get_attribute("body", "data-moves")
    exchange = page.get_attribute("body", "data-phase") == "exchange"
    if page.query_selector("#confirm") is not None:
        # choose cards until the count is enough (one at least when one may be put away), then confirm
        while True:
            enough = page.is_enabled("#confirm")
            picked = page.eval_on_selector_all("#hand button.picked", "bs => bs.map(b => b.dataset.action)")
            card = page.get_attribute("#hand button.pick:not(.picked)", "data-card") \
                if page.query_selector("#hand button.pick:not(.picked)") else None
            if (enough and (picked or card is None)) or card is None:
                break
            _click(page, f"#hand button.pick[data-card='{card}']")
            page.wait_for_selector(f"#hand button.picked[data-card='{card}']")
            if exchange and page.is_enabled("#confirm"):
                picked = page.eval_on_selector_all("#hand button.picked", "bs => bs.map(b => b.dataset.action)")
                break
        sent = picked + (["draw"] if exchange else [])
        _click(page, "#confirm")
    else:
        target = None
        if page.get_attribute("body", "data-phase") == "auction" and page.query_selector(
                "#controls button[data-action]:not(.pass)"):
            target = "#controls button[data-action]:not(.pass)"
        target = target or ("#hand button.legal" if page.query_selector("#hand button.legal") else
                            "#controls button[data-action]")
        action = page.get_attribute(target, "data-action")
        sent = [action]
        _click(page, f"[data-action='{action}']")
    page.wait_for_function(f"() => document.body.dataset.moves !== {json.dumps(before)}", timeout=30000)
    if clicked is not None:
        clicked += sent
    return True


def play_by_clicking(page, limit: int = 400, on_move=None) -> list[str]:
    """Click through the deal for this page's seat until the result shows; the actions sent."""
    clicked: list[str] = []
    for _ in range(limit):
        if not turn(page, clicked):
            return clicked
        if on_move:
            on_move(len(clicked))
    raise AssertionError("the deal did not end")


SNAPSHOT = """() => {
    const d = document.documentElement.cloneNode(true);
    d.querySelectorAll('#phase-doc, #contract-doc, #control-doc').forEach((e) => e.remove());
    d.querySelectorAll('[title]').forEach((e) => e.removeAttribute('title'));
    return [document.body.dataset.moves || '', d.outerHTML];
}"""


def snapshot(page) -> tuple[str, str]:
    """A page as it is now, read at once: its deal and action count (body data-moves) and its HTML without the
    rules' own words (a line on a phase or a contract may name a card: the file's text, not the deal's)."""
    return tuple(page.evaluate(SNAPSHOT))


def spectator_leaks(rules, record: dict, snapshots: list[tuple[str, str]]) -> list[tuple[str, set[str]]]:
    """The cards a spectator's page showed that it may not know, snapshot by snapshot (each checked against the
    deal of the record as it stood after the snapshot's actions): no hand, no discard, no lay-away."""
    from ombre_rules import State
    from ombre_rules.engine.view import public_cards

    out = []
    for moves, html in snapshots:
        deal, _, k = moves.partition(":")
        if deal != "1" or not k:
            continue
        s = State(rules, seed=record["seed"], dealer=record["dealer"], pool=record.get("pool") or 0,
                  session=record.get("session"))
        for text in record["actions"][:int(k)]:
            s.apply_str(text)
        private = 0
        for h, d in zip(s.hands, s.discards, strict=True):
            private |= h | d
        private &= ~public_cards(s)
        if s.called >= 0:  # a called card is named openly
            private &= ~(1 << s.called)
        shown = cards_shown(html, rules, set(rules.deck.names(private)))
        if shown:
            out.append((moves, shown))
    return out
