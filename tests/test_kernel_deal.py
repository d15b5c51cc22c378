"""The kernel's parts of a random deal before play: the shuffle (`kernel/src/shuffle.c`: its SHAKE-128 equals
hashlib's byte for byte, its deck order equals the Python shuffle's for seeds of every size and sign and every
deck size; a seed beyond 64 bits is left to Python) and an exchanger's random discards (`exchange.c`: the
engine's exchanges go through it, malformed arguments are refused). That whole deals come out the same with and
without the kernel is checked in test_kernel.py."""
from __future__ import annotations

import hashlib
import random

import pytest

from ombre_rules import State, kernel, load
from ombre_rules.engine import deal
from ombre_rules.engine.phases import DONE, EXCHANGE

built = pytest.mark.skipif(not kernel.BUILT, reason="the kernel is not built here")


@built
@pytest.mark.parametrize("size", [0, 1, 7, 8, 160, 167, 168, 169, 336, 500])
def test_shake128_equals_hashlib(size):
    for msg in (b"", b"0", b"123456789", b"-42/cut", bytes(range(100)), b"x" * 167):
        assert kernel.shake128(msg, size) == hashlib.shake_128(msg).digest(size), (msg, size)


@built
def test_shake128_refuses_a_long_message():
    with pytest.raises(ValueError, match="fewer than 168 bytes"):
        kernel.shake128(b"x" * 168, 8)


@built
def test_the_kernel_shuffles_as_python_does():
    rng = random.Random(5)
    seeds = [0, 1, -1, 2 ** 31, 2 ** 32 - 1, 2 ** 63 - 1, -2 ** 63] + [rng.getrandbits(32) for _ in range(300)]
    for n in (0, 1, 2, 24, 32, 36, 40, 48, 52, 64, 78, 300):
        for seed in seeds:
            with kernel.use(False):
                want = deal.shuffled(n, seed)
            assert kernel.shuffled(n, seed) == want, (n, seed)
            assert deal.shuffled(n, seed) == want  # the engine's shuffle, through the kernel


@built
def test_a_seed_beyond_64_bits_is_shuffled_by_python():
    assert kernel.shuffled(40, 2 ** 64) is None
    with kernel.use(False):
        want = deal.shuffled(40, 2 ** 64)
    assert deal.shuffled(40, 2 ** 64) == want
    assert sorted(want) == list(range(40))


@built
def test_ties_keep_deck_order():
    """Equal keys keep deck order in both: a seed whose keys tie is hard to find, so the sort is checked on
    the property directly: every order the kernel gives is sorted by the keys, equal keys rising."""
    for seed in range(200):
        keys = hashlib.shake_128(b"%d" % seed).digest(4 * 64)
        k = [int.from_bytes(keys[4 * i:4 * i + 4], "little") for i in range(64)]
        order = kernel.shuffled(64, seed)
        assert all((k[a], a) < (k[b], b) for a, b in zip(order, order[1:], strict=False))


@built
def test_the_engine_exchanges_through_the_kernel(monkeypatch):
    calls = []
    real = kernel.random_discards
    monkeypatch.setattr(kernel, "random_discards", lambda *a: calls.append(a[5]) or real(*a))
    s = State(load("ombre"), seed=4)
    s.random_playout(random.Random(4).random)
    assert s.contract is not None and calls  # the exchangers' turns
    with kernel.use(False):
        t = State(load("ombre"), seed=4)
        t.random_playout(random.Random(4).random)
    assert t.history == s.history and t.result.to_dict() == s.result.to_dict()


def _exchange_state():
    s = State(load("ombre"), seed=4)
    rand = random.Random(4).random
    while s.phase not in (EXCHANGE, DONE):
        acts = s.legal_actions()
        s.apply(acts[int(rand() * len(acts))])
    assert s.phase == EXCHANGE
    return s


@built
def test_bad_random_discards_are_refused():
    s = _exchange_state()
    seat = s.to_move

    def call(**kw):
        a = dict(rand=random.Random(1).random, cards=s.hl[seat][:], history=[], hands=list(s.hands),
                 discards=list(s.discards), seat=seat, k=0, lo=0, hi=8, cede=False, base=s.nc)
        a.update(kw)
        return kernel.random_discards(*a.values())

    for kw, error, message in [
        ({"seat": 3}, ValueError, "seat must be from 0 to 2"),
        ({"hi": 65}, ValueError, "most must be from 0 to 64"),
        ({"hands": tuple(s.hands)}, TypeError, "must be lists"),
        ({"discards": [0]}, TypeError, "must be lists"),
        ({"rand": lambda: 1.0}, ValueError, r"rand\(\) must give floats in \[0, 1\)"),
        ({"rand": None}, TypeError, "rand must be callable"),
        ({"cards": [99]}, ValueError, "a card of the hand must be from 0 to 63"),
        ({"hands": [0, 0, 0]}, ValueError, "the sorted list holds a card the hand does not"),
    ]:
        with pytest.raises(error, match=message):
            call(**kw)
    hands = list(s.hands)
    k, drew = call(rand=lambda: 0.0)  # always the first card, up to the most he may discard
    assert (k, drew) == (8, True) and hands == s.hands  # the lists given were changed, not the state's
