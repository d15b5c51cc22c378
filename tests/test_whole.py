"""Whole random deals in the kernel (`engine/whole.py`, `kernel/src/deals.c`): for every variant and option the
machine plays, each deal of `bench.run`'s loop comes out as the engine plays it (the same actions, payments and
pool, and the random numbers left in the same state), the deals it hands back included; `bench.run` gives the
same counts with and without it; the variants it does not play say why; malformed tables are refused."""
from __future__ import annotations

import random

import pytest
from variant_choices import every_choice, rules_of

from ombre_rules import State, bench, kernel, load
from ombre_rules.engine import whole

CHOICES = every_choice()
IDS = [p.rsplit("/", 1)[-1].removesuffix(".yaml") + "".join(f"({k}={c})" for k, c in sel) for p, sel in CHOICES]
built = pytest.mark.skipif(not kernel.BUILT, reason="the kernel is not built here")


def _engine_rows(rules, n: int, seed: int, pool: int = 0) -> tuple[list, tuple]:
    """bench.run's loop in the engine, the kernel off (pure Python): per deal (history, payments, pool after);
    the random state after."""
    rng = random.Random(seed)
    dealer = 0
    rows = []
    with kernel.use(False):
        for _ in range(n):
            s = State(rules, seed=rng.getrandbits(32), dealer=dealer, pool=pool)
            s.random_playout(rng.random)
            rows.append((tuple(s.history), s.res.payments, s.res.pool_after))
            pool, dealer = s.res.pool_after, rules.next_seat[dealer]
    return rows, rng.getstate()


@built
@pytest.mark.parametrize(("path", "sel"), CHOICES, ids=IDS)
def test_whole_deals_are_the_engines(path, sel):
    rules = rules_of(path, sel)
    machine = whole.deals(rules)
    if machine is None:
        assert whole.why_not(rules)
        return
    assert whole.why_not(rules) == ""
    want, state = _engine_rows(rules, 300, 11)
    rows: list = []
    rng = random.Random(11)
    tally = whole.Tally(0, 0)
    back = whole.play(rules, machine, 300, rng, tally, rows=rows)
    assert rows == want
    assert rng.getstate() == state
    assert tally.pool == want[-1][2] and tally.actions == sum(len(h) for h, _p, _q in want)
    assert back < 300 // 4  # most deals are the machine's


@built
def test_the_machine_plays_ombre_and_hands_back_claims():
    """The variants whose deals the machine plays, among those of the project (with their default options); and
    a deal it hands back (a claim to decide) is the engine's too."""
    played = {p.rsplit("/", 1)[-1].removesuffix(".yaml") for p, sel in CHOICES
              if not sel and whole.deals(rules_of(p, sel)) is not None}
    assert played == {"ombre", "ombre-a-dos"}
    rules = load("ombre-a-dos")
    handed: list[State] = []
    rows: list = []
    back = whole.play(rules, whole.deals(rules), 200, random.Random(3), whole.Tally(0, 0), rows=rows,
                      python=handed.append)
    assert back == len(handed) > 0
    assert all(s.claim_at >= 0 and len(s.trick_log) >= s.claim_at for s in handed)  # they reached the claim
    assert rows == _engine_rows(rules, 200, 3)[0]


@built
def test_why_the_machine_does_not_play_a_variant():
    assert whole.why_not(load("taroc-lhombre")) == "a deck of more than 64 cards"
    assert whole.why_not(load("preference")) == "carry"
    assert whole.why_not(load("quadrille")) == "an auction rule that reads more than the seats"
    assert whole.deals(load("quadrille")) is None


@built
@pytest.mark.parametrize(("house", "why"), [
    ('contracts:\n  solo: {bid_when: "pool >= 30"}\n', "bid conditions or compulsory bids"),
    ('contracts:\n  solo: {bid_when: "len([c for c in hand(bidder) if c.rank == K]) == 4"}\n',
     "bid conditions or compulsory bids"),
    ("auction:\n  first: dealer\n", ""),
    ("auction:\n  first: declarer\n", None),
])
def test_an_auction_that_reads_the_deal_is_refused(house, why, tmp_path):
    """The auction is explored once per dealer: a rule of it that reads the cards or the pool keeps the
    variant in Python (the machine would play other auctions than the engine's)."""
    path = tmp_path / "house.yaml"
    path.write_text("extends: ombre\n" + house)
    try:
        rules = load(str(path))
    except Exception:  # a file the loader refuses (declarer is none before the auction)
        assert why is None
        return
    assert whole.why_not(rules) == why
    if not why:
        rows: list = []
        whole.play(rules, whole.deals(rules), 100, random.Random(4), whole.Tally(0, 0), rows=rows)
        assert rows == _engine_rows(rules, 100, 4)[0]


@built
def test_bench_counts_the_same_with_and_without_the_machine():
    rules = load("ombre")
    on = bench.run(rules, 400, 5, warmup=0)
    with kernel.use(False):
        off = bench.run(rules, 400, 5, warmup=0)
    assert on["played_by"].startswith("whole deals in the kernel")
    assert off["played_by"] == "the engine"
    for key in ("contracts", "outcomes", "actions_per_deal", "deals"):
        assert on[key] == off[key]


@built
def test_a_pool_beyond_the_machines_reach_is_played_by_the_engine():
    """The engine plays while the pool is beyond 50 bits (until a deal pays it out), the same deals."""
    rules = load("ombre")
    rows: list = []
    rng = random.Random(2)
    back = whole.play(rules, whole.deals(rules), 40, rng, whole.Tally(0, 2 ** 60), rows=rows)
    want, state = _engine_rows(rules, 40, 2, pool=2 ** 60)
    assert rows == want and rng.getstate() == state
    assert back >= 1 and rows[0][2] != 0




@built
@pytest.mark.parametrize(("at", "value", "error", "message"), [
    (0, (9, 40, 4, 0, 0, 0, 0, 13, 3, 4), ValueError, "a header out of range"),
    (1, (0, 1), ValueError, "next seat: a tuple of 3 ints"),
    (6, (0, 0, 10 ** 6), ValueError, "a root must be from 0 to"),
    (16, (None,) * 5, TypeError, "a settlement must be a Program"),
    (14, (1,) * 20, TypeError, "tables must be Tables of the deck, or None"),
])
def test_malformed_tables_are_refused(at, value, error, message, monkeypatch):
    args = _lowered_args(monkeypatch, load("ombre"))
    args[at] = value
    with pytest.raises(error, match=message):
        kernel.deals(*args)


def _lowered_args(monkeypatch, rules) -> list:
    """The arguments `engine/whole.py` gives the kernel's Deals for the ruleset (each test breaks one)."""
    got = {}
    real = kernel.deals
    with monkeypatch.context() as m:
        m.setattr(kernel, "deals", lambda *a: got.setdefault("args", a) and real(*a))
        m.setattr(whole, "_MACHINES", type(whole._MACHINES)())
        assert whole.deals(rules) is not None
    return list(got["args"])


@built
def test_a_bad_run_is_refused():
    rules = load("ombre")
    m = whole.deals(rules)
    state = random.Random(1).getstate()[1]
    with pytest.raises(ValueError, match="a Mersenne Twister state: 625 ints"):
        m.run(1, state[:-1], 0, 0, False)
    with pytest.raises(ValueError, match="dealer must be from 0 to 2"):
        m.run(1, state, 3, 0, False)
    with pytest.raises(ValueError, match="pool: an int of at most 50 bits"):
        m.run(1, state, 0, 2 ** 60, False)


@built
def test_programs_of_another_deck_are_refused(monkeypatch):
    good = _lowered_args(monkeypatch, load("ombre"))
    theirs = whole.deals(load("ombre-a-dos")).settle
    args = list(good)
    args[16] = theirs[:1] * len(args[16])
    with pytest.raises(ValueError, match="a settlement program of another deck or contracts"):
        kernel.deals(*args)
    args = list(good)
    args[17] = tuple(args[16][:1]) + args[17][1:]  # a settlement where a claim's condition stands
    with pytest.raises(ValueError, match="a claim program of another deck or contracts, or not a condition"):
        kernel.deals(*args)
