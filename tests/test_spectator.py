"""The spectator's view (`State.view(None)`) shows what every seat sees and nothing more: after every action of
random deals of every built-in variant no card of a hand, a discard, a lay-away, a card given back or the
undrawn stock is named in it unless it is public; and each action that hides a card is shown to the spectator
as its bare verb, to its own seat (and a receiver) in full, to the other seats as the bare verb."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ombre_rules import State, load
from ombre_rules.engine.replay import events
from ombre_rules.engine.view import public_cards, visible_cards
from ombre_rules.spec.resolve import builtin_index, resolve

BUILTINS = sorted({resolve(p).data["id"] for p in builtin_index().values()})
# the options that change who sees what: the stock left over, a seat sitting out
SHOWING = ["ombre(leftover_stock=last_exchanger)", "ombre(leftover_stock=all)", "ombre(four_players=dealer_sits_out)",
           "danish-lhombre(leftover_talon_visible=true)",
           str(Path(__file__).parent / "data" / "misery.yaml")]  # several hands open, every seat laying away
DEALS = 12
HIDDEN_KINDS = {("exchange", "discard"), ("lay-away", "discard"), ("give", "give")}
SEEN_KINDS: set[tuple[str, str]] = set()


def _named(text: str, names: set[str]) -> list[str]:
    return sorted(n for n in names if f'"{n}"' in text or f" {n}\"" in text)


def _check(state: State) -> None:
    deck = state.rules.deck
    v = state.view(None)
    assert (v["seat"], v["hand"], v["my_discards"], v["my_draws"]) == (None, [], [], [])
    assert "legal" not in v
    private = 0
    for s in range(state.n):
        private |= state.hands[s] | state.discards[s]
    for c in state.talon:
        private |= 1 << c
    if state.called >= 0:  # a called card is named openly; who holds it is checked below (partner)
        private &= ~(1 << state.called)
    private &= ~public_cards(state)
    if state.turn_up >= 0 and state.rules.turn_up_from == "second_pack":  # its name is also a card of the deal's
        private &= ~(1 << state.turn_up)  # pack: shown as the second pack's card, it says nothing of that one
    assert visible_cards(state, None) == public_cards(state)
    leaked = _named(json.dumps(v), set(deck.names(private)))
    assert not leaked, f"the spectator sees {leaked} in {state.phase_name}"
    evs = events(state)
    assert [a["action"] for a in v["actions"]] == [e.text if not e.hidden else e.text.split()[0] for e in evs]
    for e in evs:
        if e.hidden:
            SEEN_KINDS.add((e.phase, e.text.split()[0]))
            for s in range(state.n):
                assert e.public(s)["action"] == (e.text if s in (e.seat, e.receiver) else e.text.split()[0])
    if v["partner"] is not None:
        assert all(state.view(s)["partner"] == v["partner"] for s in range(state.n))


def _play(variant: str, seed: int) -> int:
    rules = load(variant)
    rng = random.Random(seed)
    checks = 0
    dealer = 0
    for _ in range(DEALS):
        s = State(rules, seed=rng.getrandbits(32), dealer=dealer)
        _check(s)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
            _check(s)
            checks += 1
        dealer = rules.next_seat[dealer]
    return checks


@pytest.mark.parametrize("variant", BUILTINS + SHOWING)
def test_the_spectator_sees_no_private_card_after_any_action(variant):
    assert _play(variant, 7) > DEALS * 8


def test_every_kind_of_hidden_action_was_checked():
    """Runs after the sweep above in the same process (pytest keeps a file's order; under xdist it plays the
    variants that have each kind itself)."""
    if SEEN_KINDS != HIDDEN_KINDS:
        for variant in ("ombre", "taroc-lhombre", "quadrille"):
            _play(variant, 7)
    assert SEEN_KINDS == HIDDEN_KINDS


def test_a_discard_is_hidden_from_the_spectator():
    """Bug 1 of issue 33: the spectator (seat -1 before) was taken for the receiver (-1) of every discard."""
    rules = load("ombre")
    s = State(rules, seed=3)
    while s.phase_name != "exchange":
        s.apply(s.legal_actions()[-1] if s.phase_name == "auction" else s.legal_actions()[0])
    seat = s.current_player
    card = next(a for a in s.legal_actions() if rules.action_str(a).startswith("discard "))
    s.apply(card)
    text = rules.action_str(card)
    assert s.view(None)["actions"][-1] == {"seat": seat, "phase": "exchange", "action": "discard"}
    assert s.view(seat)["actions"][-1]["action"] == text
    assert events(s)[-1].public(-1)["action"] == "discard"
    assert text.split()[1] not in json.dumps(s.view(None))
