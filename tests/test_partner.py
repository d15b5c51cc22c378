"""Called partners: random play of every variant and option that calls a card keeps every invariant, and no
seat's view, log or bot input shows the partner before the rules reveal him."""
from __future__ import annotations

import random

import pytest
from test_conformance import _run

from ombre_rules import State, load
from ombre_rules.log import format_deal
from ombre_rules.players import act

DEALS = 10_000
OPTION_DEALS = 2_000

OPTION_RUNS = [
    "quadrille(all_pass=redeal)",
    "quadrille(deal_packets=3-4-3)",
    "quadrille(deal_packets=4-3-3)",
    "quadrille(ante_mode=dealer)",
    "quadrille(codille_threshold=3)",
    "quadrille(forbid_trump_king_call=true)",
    "quadrille(queen_call=free)",
    "quadrille(roi_rendu=true)",
    "tredrille",
    "tredrille(removed_suit=hearts)",
    "cinquillo(all_pass=spadille_forced_call)",
    "cinquillo(all_pass=fifth_may_solo)",
    "cinquillo(scoring=cg_new)",
    "cinquillo(scoring=es_proportional)",
    "cinquillo(codille_leftover=carry)",
]


@pytest.mark.parametrize("variant", ["quadrille", "cinquillo"])
def test_random_deals_keep_every_invariant(variant):
    outcomes = _run(load(variant), DEALS, 3, views=True)
    assert sum(outcomes.values()) == DEALS
    assert {"won", "remise", "codille"} <= set(outcomes)


@pytest.mark.parametrize("variant", OPTION_RUNS)
def test_each_option_keeps_every_invariant(variant):
    outcomes = _run(load(variant), OPTION_DEALS, 4, views=True)
    assert sum(outcomes.values()) == OPTION_DEALS


def _knows(s: State, seat: int) -> bool:
    """Whether the rules let `seat` know the partner now, worked out from the deal's history alone."""
    r = s.rules
    if s.partner < 0:
        return False
    if seat == s.partner or s.is_terminal:
        return True
    played = {c for _l, cards, _w in s.trick_log for c in cards} | set(s.trick)
    if s.called in played:
        return True
    claim = s.contract.play.claim
    if claim is not None and len(s.trick_log) >= claim[0]:
        first = s.trick_log[:claim[0]]
        side_won = all(w in (s.declarer, s.partner) for _l, _c, w in first)
        decider = first[-1][2]
        if side_won and seat == s.declarer:
            return True
        spoke = s.committed or s.stopped or r.A_STOP in s.history
        if side_won and decider == s.partner and spoke:
            return True
    return False


class _Spy:
    """A bot that records what it is given and plays at random; in the auction it opens with the lowest bid half
    the time and otherwise passes (so that many deals have a called partner)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seen: list[dict] = []

    def act(self, view: dict, legal: list[int]) -> int:
        self.seen.append(view)
        if view["phase"] == "auction" and len(legal) > 1:
            bid_yet = any(e["action"].startswith("bid") for e in view["actions"])
            return legal[0] if bid_yet or self.rng.random() < 0.5 else legal[1]
        return self.rng.choice(legal)


@pytest.mark.parametrize("variant", ["quadrille", "cinquillo", "quadrille(all_pass=redeal)"])
def test_the_partner_stays_hidden_until_revealed(variant):
    rules = load(variant)
    rng = random.Random(11)
    hidden_steps = revealed = 0
    for deal in range(300):
        s = State(rules, seed=rng.getrandbits(32), dealer=deal % rules.players)
        bots = [_Spy(deal * 10 + i) for i in range(rules.players)]
        log_at = rng.randrange(45)
        step = 0
        while not s.is_terminal:
            seat = s.current_player
            for viewer in range(s.n):
                known = _knows(s, viewer)
                v = s.view(viewer)
                assert v["partner"] == (s.partner if known else None), (deal, step, viewer)
                if s.partner >= 0 and not known:
                    hidden_steps += 1
                    if step == log_at:
                        text = "\n".join(format_deal(s, viewer=viewer))
                        assert "partner" not in text, text
            a = act(bots[seat], s, seat)
            assert bots[seat].seen[-1] == s.view(seat)
            s.apply(a)
            step += 1
        if s.partner >= 0:
            revealed += 1
            assert s.view(0)["partner"] == s.partner
    assert hidden_steps > 1000 and revealed > 10


def test_the_declarer_does_not_know_his_partner_after_the_call():
    rules = load("quadrille")
    s = State(rules, seed=0)
    for text in ["bid ask", "pass", "pass", "pass", "trump hearts"]:
        s.apply_str(text)
    partners = []
    for call in [a for a in s.legal_actions()]:
        t = s.clone()
        t.apply(call)
        if t.partner >= 0:
            partners.append(t.partner)
            assert t.view(t.declarer)["partner"] is None
            assert "partner" not in "\n".join(format_deal(t, viewer=t.declarer))
            others = [p for p in range(4) if p not in (t.declarer, t.partner)]
            for p in others:
                assert t.view(p)["partner"] is None
            assert t.view(t.partner)["partner"] == t.partner
    assert len(set(partners)) >= 2
