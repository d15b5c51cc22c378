"""The settlement machine (`ruleset/machine.py`, `kernel/src/vm.c`): every settlement block of every variant and
option translates; on seeded random deals the machine gives the outcome, payments, pool and carried values the
Python block gives, block by block; it declines (and Python settles) where it cannot be exact; a program made
of malformed code is refused with a message."""
from __future__ import annotations

import random

import pytest
from variant_choices import every_choice, rules_of

from ombre_rules import State, kernel, load
from ombre_rules.envs import SEAT_READS, DealEnv
from ombre_rules.ruleset.carry import set_value
from ombre_rules.ruleset.machine import OP, program, why_not

CHOICES = every_choice()
IDS = [p.rsplit("/", 1)[-1].removesuffix(".yaml") + "".join(f"({k}={c})" for k, c in sel) for p, sel in CHOICES]
built = pytest.mark.skipif(not kernel.BUILT, reason="the kernel is not built here")


def _blocks(rules):
    return [c.finish for c in rules.contracts] + [rules.finish_all_pass]


@built
@pytest.mark.parametrize(("path", "sel"), CHOICES, ids=IDS)
def test_the_machine_settles_as_python_does(path, sel, monkeypatch):
    """Each settlement of seeded random deals (played with the kernel off, so Python settles) is also run by the
    machine on the state just before the Python block runs: the same outcome, payments, pool and values for the
    next deal. With a deck the kernel takes (64 cards at most), the machine declines none of them."""
    rules = rules_of(path, sel)
    assert [why_not(b, rules) for b in _blocks(rules)] == [""] * len(_blocks(rules))
    seen, ran = [], []
    real = State._run_block

    def checked(self, fn):
        prog = program(fn, self.rules) if fn is not self.rules.ante else None
        got = prog.run(self, list(self.payments), self.pool) if prog is not None else None
        before = self.carry_after
        out = real(self, fn)
        if prog is not None:
            seen.append(out)
            if got is not None:
                outcome, pays, pool, sets = got
                after = self.carry_after
                self.carry_after = before
                for i, v in sets:
                    set_value(self, i, v)
                mine, self.carry_after = self.carry_after, after
                assert (outcome, list(pays), pool, mine) == (out, self.payments, self.pool, after)
                ran.append(out)
        return out

    monkeypatch.setattr(State, "_run_block", checked)
    pool = 0
    with kernel.use(False):
        for i in range(12):
            s = State(rules, seed=9000 + i, dealer=i % rules.players, pool=pool)
            s.random_playout(random.Random(i).random)
            pool = s.res.pool_after
    assert len(seen) == 12
    if rules.deck.size <= kernel.MAX_CARDS:
        assert ran == seen


@built
def test_the_engine_settles_through_the_machine(monkeypatch):
    """With the kernel on, the engine's settlement is the machine's: the Python block does not run."""
    rules = load("ombre")
    calls = []
    real = State._run_block
    monkeypatch.setattr(State, "_run_block", lambda self, fn: calls.append(fn) or real(self, fn))
    for i in range(10):
        s = State(rules, seed=i)
        s.random_playout(random.Random(i).random)
    assert [fn for fn in calls if fn is not rules.ante] == []


@built
def test_a_pool_beyond_64_bits_is_settled_by_python():
    """The machine declines numbers it cannot hold exactly; Python settles them, as without the kernel."""
    rules = load("ombre")
    out = []
    for on in (False, True):
        with kernel.use(on):
            s = State(rules, seed=3, pool=2 ** 70)
            s.random_playout(random.Random(3).random)
            out.append(s.result.to_dict())
    assert out[0] == out[1]
    assert out[1]["pool_after"] >= 2 ** 70


@built
def test_the_seat_reads_agree_with_the_environment():
    """SEAT_READS names, for each function the machine reads straight from the state, the list it reads: on
    finished deals, the same values as the environment's own methods."""
    rules = load("quadrille")
    for i in range(5):
        s = State(rules, seed=i)
        s.random_playout(random.Random(i).random)
        env = DealEnv(s, s.ctx)
        for fname, (attr, kind) in SEAT_READS.items():
            for seat in range(rules.players):
                got = getattr(env, fname)(seat)
                items = getattr(s, attr)
                want = items[seat] if kind == "int" else rules.deck.cards_in(items[seat] if items else 0)
                assert got == want, (fname, seat)
            assert getattr(env, fname)(None) == (0 if kind == "int" else [])


@built
@pytest.mark.parametrize(("code", "message"), [
    ((99,), "a bad operation at 0"),
    ((OP["CONST"], 5), "an operand out of range at 0"),
    ((OP["JUMP"], 50), "an operand out of range at 0"),
    ((OP["LOAD"],), "a bad operation at 0"),
    ((OP["ITER"], 0, 0, 0, 9), "an operand out of range at 0"),
    ((OP["JUMP"], 3, OP["CONST"], 0, OP["RETURN"]), "a jump into an operation at 0"),
    ((OP["CONST"], 0, OP["BI"], 12, 1, OP["RETURN"]), "an operand out of range at 2"),  # _div of one value
    ((OP["CONST"], 0, OP["BI"], 9, 2, OP["RETURN"]), "an operand out of range at 2"),  # group_points of two
])
def test_a_program_of_malformed_code_is_refused(code, message):
    rules = load("ombre")
    deck = rules.deck
    objects = (tuple(deck.cards), tuple(deck.suits), tuple(rules.contracts))
    bases = tuple(c.index for c in rules.contracts)
    with pytest.raises(ValueError, match=message):
        kernel.program(code, 1, ((1, 0),), (), (), objects, bases, (), (), (), (), DealEnv)


@built
def test_a_program_refuses_a_constant_it_cannot_hold():
    rules = load("ombre")
    objects = (tuple(rules.deck.cards), tuple(rules.deck.suits), tuple(rules.contracts))
    bases = tuple(c.index for c in rules.contracts)
    with pytest.raises(ValueError, match="a constant: no such string or object"):
        kernel.program((OP["CONST"], 0, OP["RETURN"]), 0, ((4, 0),), (), (), objects, bases, (), (), (), (), DealEnv)
    prog = kernel.program((OP["CONST"], 0, OP["RETURN"]), 0, ((2, 7),), (), (), objects, bases, (), (), (), (),
                          DealEnv)
    assert prog.run(State(rules, seed=1), [0, 0, 0], 0) is None  # a number is no outcome: declined


@built
def test_a_loop_from_a_negative_place_is_declined():
    """ITER from a negative index: the machine declines (Python runs the block) rather than read before a list."""
    rules = load("ombre")
    objects = (tuple(rules.deck.cards), tuple(rules.deck.suits), tuple(rules.contracts))
    bases = tuple(c.index for c in rules.contracts)
    code = (OP["CONST"], 0, OP["STORE"], 1, OP["EMPTY"], 0, OP["ITER"], 0, 1, 2, 11, OP["CONST"], 1, OP["RETURN"])
    prog = kernel.program(code, 3, ((2, -10 ** 9), (4, 0)), (), ("x",), objects, bases, (), (), (), (), DealEnv)
    assert prog.run(State(rules, seed=1), [0, 0, 0], 0) is None
