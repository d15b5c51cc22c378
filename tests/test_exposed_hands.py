"""Several hands exposed (`expose.who` a list of seats), a contract's lay-away without a talon and a payment whose
amount reads `payer` and `payee`, beyond what the scenario files check (tests/scenarios/mechanics/
expose_several.yaml, contract_lay_away.yaml, payee_amount.yaml): a spectator and each seat see exactly the open
hands and nothing more, in the view, the observation encoding and the log; the bots' sampled worlds keep the open
hands where they are; the account says each payee's own amount; random play with and without the C kernel
agrees; and the rulebook says the rules."""
from __future__ import annotations

import random
from pathlib import Path

from ombre_rules import State, load
from ombre_rules.bots.sample import Knowledge
from ombre_rules.engine.view import public_cards, visible_cards
from ombre_rules.log import format_deal
from ombre_rules.obs import layout

MISERY = str(Path(__file__).parent / "data" / "misery.yaml")
HANDS = {0: "AS KS QS JH 10C", 1: "AC KC QC JC 10S", 2: "AH KH QH 10H JS", 3: "AD KD QD JD 10D"}


def _state(*actions: str) -> State:
    rules = load(MISERY)
    s = State(rules, dealer=3, hands=[rules.deck.mask_of(HANDS[i].split()) for i in range(4)], talon=[])
    for a in actions:
        s.apply_str(a)
    return s


def _mask(s: State, cards: str) -> int:
    return s.rules.deck.mask_of(cards.split())


def test_a_spectator_sees_every_open_hand_and_the_played_card_only():
    s = _state("pass", "bid royal", "pass", "pass")
    assert visible_cards(s, None) == 0
    assert s.view(None)["exposed_hands"] == []
    s.apply_str("play AS")
    every = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    assert visible_cards(s, None) == public_cards(s) == every | _mask(s, "AS")
    assert [e["seat"] for e in s.view(None)["exposed_hands"]] == [1, 2, 3, 0]


def test_with_one_hand_open_the_others_stay_hidden_from_every_seat():
    s = _state("pass", "bid spread", "pass", "pass", "play AS")
    declarer = _mask(s, "10S AC KC QC JC")
    assert visible_cards(s, None) == declarer | _mask(s, "AS")
    for seat in (0, 2, 3):
        assert visible_cards(s, seat) == s.hands[seat] | declarer | _mask(s, "AS")
    assert s.view(2)["exposed_hands"] == [{"seat": 1, "hand": ["10S", "AC", "KC", "QC", "JC"]}]


def test_the_encoding_puts_each_open_hand_under_its_seat():
    rules = load(MISERY)
    lay = layout(rules)
    at, c = lay.offset("exposed"), rules.deck.size
    for contract, seats in (("spread", [1]), ("royal", [0, 1, 2, 3])):
        s = _state("pass", f"bid {contract}", "pass", "pass", "play AS")
        ones = {i - at for i in lay.sparse(s, 2)[0] if at <= i < at + 4 * c}
        want = {seat * c + card for seat in seats for card in rules.deck.bits(s.hands[seat])}
        assert ones == want


def test_the_log_says_each_hand_laid_open_once():
    s = _state("pass", "bid royal", "pass", "pass", "play AS", "play 10S", "play JS", "play AD")
    lines = [ln.strip() for ln in format_deal(s, 3) if "lays the hand open" in ln]
    assert lines == ["seat 1 lays the hand open: 10S AC KC QC JC", "seat 2 lays the hand open: JS AH KH QH 10H",
                     "seat 3 (dealer) lays the hand open: AD KD QD JD 10D",
                     "seat 0 (forehand) lays the hand open: KS QS 10C JH"]


def test_sampled_worlds_keep_every_open_hand_in_its_place():
    s = _state("pass", "bid royal", "pass", "pass", "play AS")
    k = Knowledge(s.rules, s.view(2))
    assert k.known == [s.hands[0], s.hands[1], s.hands[2], s.hands[3]]


def test_the_account_gives_each_payee_its_own_amount():
    s = _state("pass", "pass", "pass", "pass",
               "play AS", "play 10S", "play JS", "play AD", "play KS", "play AC", "play AH", "play KD",
               "play QS", "play KC", "play KH", "play QD", "play JH", "play QC", "play QH", "play JD",
               "play 10H", "play 10D", "play 10C", "play JC")
    assert s.result is not None
    entries = [(e.payer, e.payee, e.amount, e.why) for e in s.result.account]
    assert entries == [(0, 1, 3, "3 (tricks(payer)) - 0 (tricks(payee)) = 3"),
                       (0, 2, 1, "3 (tricks(payer)) - 2 (tricks(payee)) = 1"),
                       (0, 3, 3, "3 (tricks(payer)) - 0 (tricks(payee)) = 3")]
    assert list(s.result.payments) == [-7, 3, 1, 3]


def test_random_deals_play_alike_with_and_without_the_kernel():
    from ombre_rules import kernel

    rules = load(MISERY)
    results = []
    for flag in (True, False):
        with kernel.use(flag):
            out = []
            for seed in range(40):
                s = State(rules, seed=seed, dealer=seed % 4)
                s.random_playout(random.Random(seed).random)
                assert s.result is not None
                out.append((s.contract.name if s.contract else None, tuple(s.tricks), tuple(s.result.payments),
                            tuple(s.discards)))
            results.append(out)
    assert results[0] == results[1]
    assert {r[0] for r in results[0]} >= {"misery", "royal"}
    assert all(sum(r[1]) == 4 and all(bin(d).count("1") == 1 for d in r[3]) for r in results[0] if r[0] == "misery")
