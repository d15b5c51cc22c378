"""Called partners: random play of every variant and option that calls a card keeps every invariant, and no
seat's view, log or bot input shows the partner before the rules reveal him."""
from __future__ import annotations

import json
import random

import pytest
from sizes import share

from ombre_rules import State, load
from ombre_rules.engine.view import visible_cards
from ombre_rules.log import format_deal
from ombre_rules.players import act
from ombre_rules.records import replay, to_record

DEALS = share(10_000)
RECORD_EVERY = 25  # one deal in so many also goes through a JSON record and `records.replay`

# Each variant alone, then each option: options of different keys share a run (each still gets DEALS deals);
# choices of one key, and options that change the same mechanic, get runs of their own.
RUNS = [
    "quadrille",
    "quadrille(all_pass=redeal,deal_packets=3-4-3,ante_mode=dealer,codille_threshold=3,forbid_trump_king_call=true,"
    "queen_call=free)",
    "quadrille(deal_packets=4-3-3,roi_rendu=true,roi_rendu_fee=10,no_hold=true)",
    "tredrille",
    "tredrille(removed_suit=hearts,beast=pot)",
    "cinquillo",
    "cinquillo(all_pass=spadille_forced_call,scoring=cg_new)",
    "cinquillo(all_pass=fifth_may_solo,scoring=es_proportional,codille_leftover=carry)",
]

_COMPARED = tuple(n for n in State.__slots__ if n != "rules")


def _pick(s: State, legal: list[int], rand) -> int:
    """Random play, except that a bidder passes more often than not and otherwise bids low, so that most deals
    are alliances with a called card."""
    if s.phase == 0 and len(legal) > 1:
        x = rand()
        if x < 0.65:
            return legal[0]
        return legal[1] if x < 0.98 else legal[-1]
    return legal[int(rand() * len(legal))]


def _conserved(s: State, full: int) -> None:
    held = 0
    for m in s.hands + s.discards + [1 << c for c in s.talon + s.trick]:
        assert not held & m, "a card is in two places"
        held |= m
    for _l, cards, _w in s.trick_log:
        for c in cards:
            assert not held >> c & 1, "a card is in two places"
            held |= 1 << c
    assert held == full, "cards not conserved"


def _same_as_replay(s: State, twin: State) -> None:
    """A fresh state of the same deal, given the same actions, equals `twin` (a clone of `s` now) field by field,
    and has the same legal actions."""
    r = State(s.rules, seed=s.seed, dealer=s.dealer, pool=s.pool_before)
    for a in s.history:
        r.apply(a)
    if not r.is_terminal:
        assert r.legal_actions() == twin.legal_actions()
    for name in _COMPARED:
        assert getattr(r, name) == getattr(twin, name), f"replay differs in {name}"


def _check_views(s: State, seats: set[int], quoted: list[tuple[str, str]]) -> None:
    """No view of these seats names a card the seat may not know, and each shows the partner exactly when
    `_knows` says."""
    others = 0
    for h, d in zip(s.hands, s.discards, strict=True):
        others |= h | d
    for c in s.talon:
        others |= 1 << c
    if s.called >= 0:  # the called card is named openly; who holds it is checked below
        others &= ~(1 << s.called)
    calling = s.phase_name == "call"
    for seat in seats:
        hidden = others & ~(s.hands[seat] | s.discards[seat]) & ~visible_cards(s, seat)
        if calling and seat == s.current_player:  # the cards one may call are named, not placed
            for a in s.legal_actions():
                hidden &= ~(1 << (a - s.rules.A_CALL))
        v = s.view(seat)
        assert v["partner"] == (s.partner if _knows(s, seat) else None), f"seat {seat}: partner shown early"
        text = json.dumps(v)
        while hidden:
            low = hidden & -hidden
            q, sp = quoted[low.bit_length() - 1]
            assert q not in text and sp not in text, f"seat {seat} sees {q}"
            hidden ^= low


def _run(rules, deals: int, seed: int) -> tuple[dict, dict, dict]:
    """Play `deals` random deals (dealer and pool carried on), checking every invariant on each: legal actions
    never empty and without repeats, cards conserved, every deal ends, payments balance with the pool, a clone
    taken at a random step ends identically, a replay to that step equals it field by field, and at another
    random step neither a random seat's view nor the declarer's leaks a card or the partner. Returns the
    counts of outcomes, of contracts, and of contracts played with a called partner."""
    rng = random.Random(seed)
    rand = rng.random
    full = rules.deck.full_mask
    quoted = [(f'"{rules.deck.name(c)}"', f' {rules.deck.name(c)}"') for c in range(rules.deck.size)]
    outcomes: dict[str, int] = {}
    contracts: dict[str, int] = {}
    partners: dict[str, int] = {}
    pool = dealer = 0
    for i in range(deals):
        s = State(rules, seed=rng.getrandbits(32), dealer=dealer, pool=pool)
        clone_at, view_at, view_seat = rng.randrange(30), rng.randrange(45), rng.randrange(rules.players)
        twin = None
        steps = 0
        while not s.is_terminal:
            legal = s.legal_actions()
            assert legal, f"deal {i}: no legal action in {s.phase_name}"
            if steps == clone_at or steps == view_at:
                assert len(set(legal)) == len(legal)
                _conserved(s, full)
                if steps == clone_at:
                    twin = s.clone()
                    _same_as_replay(s, twin)
                if steps == view_at:
                    _check_views(s, {view_seat, s.declarer if s.declarer >= 0 else view_seat}, quoted)
            a = _pick(s, legal, rand)
            s.apply(a)
            if twin is not None:
                twin.apply(a)
            steps += 1
            assert steps < 500, "deal does not end"
        _conserved(s, full)
        if twin is None:  # the deal ended before the random step: check the end instead
            twin = s.clone()
            _same_as_replay(s, twin)
        if view_at >= steps:
            _check_views(s, {view_seat, s.declarer if s.declarer >= 0 else view_seat}, quoted)
        res = s.result
        assert twin.result == res and twin.history == s.history
        assert sum(res.payments) + res.pool_after - res.pool_before == 0
        assert res.pool_after >= 0
        if i % RECORD_EVERY == 0:
            rec = json.loads(json.dumps(to_record(s)))
            assert replay(rec, rules).result == res.to_dict()
        outcomes[res.outcome] = outcomes.get(res.outcome, 0) + 1
        contracts[str(res.contract)] = contracts.get(str(res.contract), 0) + 1
        if s.partner >= 0:
            partners[res.contract] = partners.get(res.contract, 0) + 1
        pool = res.pool_after
        dealer = rules.next_seat[dealer]
    return outcomes, contracts, partners


@pytest.mark.parametrize("variant", RUNS)
def test_random_deals_keep_every_invariant(variant):
    rules = load(variant)
    outcomes, contracts, partners = _run(rules, DEALS, 3)
    assert sum(outcomes.values()) == DEALS
    assert {"won", "remise", "codille"} <= set(outcomes)
    assert contracts.get("ask", 0) > DEALS // 5
    if rules.contract_by_name["ask"].call.demand:  # the king is demanded: nobody is a partner
        assert partners.get("ask", 0) == 0
    else:  # a called partner: asked for, or (Cinquillo) by the dealer forced to call once the four eldest pass
        assert partners["ask"] + partners.get("forced_call", 0) > DEALS // 5


def _knows(s: State, seat: int) -> bool:
    """Whether the rules let `seat` know the partner now, worked out from the deal's history alone."""
    r = s.rules
    if s.partner < 0 or s.contract.call.demand:  # a demanded card's holder is no partner (he is only owed a card)
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
            views = [s.view(viewer) for viewer in range(s.n)]
            for viewer, v in enumerate(views):
                known = _knows(s, viewer)
                assert v["partner"] == (s.partner if known else None), (deal, step, viewer)
                if s.partner >= 0 and not known:
                    hidden_steps += 1
                    if step == log_at:
                        text = "\n".join(format_deal(s, viewer=viewer))
                        assert "partner" not in text, text
            a = act(bots[seat], s, seat)
            assert bots[seat].seen[-1] == views[seat]
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
