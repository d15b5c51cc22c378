"""Why a card may not be played: the play obligation that binds, in the variant's words or rendered."""
from __future__ import annotations

from typing import Any

from .account import terms
from .phrase import phrase


def follow_items(rules: Any, contract: Any) -> list[dict]:
    """The play obligations (`play.follow`) that apply to a contract: its own, else the variant's."""
    data = rules.spec.data
    own = ((data["contracts"].get(contract.key) or {}).get("play") or {})
    if "follow" in own:
        return list(own["follow"] or [])
    return list((data.get("play") or {}).get("follow") or [])


def obligation_text(rules: Any, item: dict) -> str:
    """An obligation in words: its `doc:`, else its `must` rendered."""
    if item.get("doc"):
        return str(item["doc"])
    return "must play a card where " + phrase(item.get("must"), terms(rules), rules.spec.options)


def why_illegal(state: Any, action: int) -> str | None:
    """The obligation that makes a card of the seat to move unplayable now (`must follow suit: SUIT led
    and you hold CARD`), or None when the action is refused for another reason."""
    rules = state.rules
    deck = rules.deck
    if state.phase_name != "play" or not 0 <= action < deck.size or not state.trick or state.contract is None:
        return None
    hand = state.hands[state.to_move]
    if not hand >> action & 1:
        return None
    for i, (bind, must) in enumerate(state.follow_rows[state.led]):
        if hand & bind:
            if must >> action & 1:
                return None
            items = follow_items(rules, state.contract)
            text = obligation_text(rules, items[i]) if i < len(items) else "a play obligation binds"
            ctx = state.ctx
            # the card led (under play.follow_answers = highest the rules answer a higher card of its suit)
            led = state.trick[0] if state.follow_high else state.led % deck.size  # (rows by winning card too)
            if ctx is not None and ctx.trump_mask >> led & 1:
                suit = f"trumps ({ctx.trump.name})"
            else:
                suit = deck.cards[led].suit.name
            held = " ".join(deck.names(hand & bind))
            return f"{text}: {deck.name(led)} led ({suit}) and you hold {held}"
    return None
