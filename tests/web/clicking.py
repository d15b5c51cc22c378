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
