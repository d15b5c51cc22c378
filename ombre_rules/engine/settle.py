"""The end of a deal (phase DONE): the contract's settlement block (or the all-pass one) run on the state,
the outcome and the Result (result.py); and the ante paid when the cards are dealt.

Driven by `outcomes`, `scoring` (`let`, `outcomes`, `ante`) and `let`; compiled in ruleset/settlement.py
into one function per contract."""
from __future__ import annotations

from typing import Any

from .. import kernel
from ..envs import DealEnv
from ..errors import OmbreError
from ..lang.block import Generated
from ..lang.compiler import block_error
from ..ruleset.carry import set_value
from ..ruleset.machine import program
from .carry import as_json
from .fields import Fields
from .phases import DONE
from .result import Result

PASSED_OUT = "passed out"  # how every output spells a deal that every seat passed and nobody played


class SettleStage(Fields):
    """Paying and ending the deal (a mixin of State)."""

    __slots__ = ()

    def _ante(self) -> None:
        """Pay the ante; when it depends on the seats alone its effect is cached per dealer."""
        r = self.rules
        ante = r.ante
        assert ante is not None  # called when the variant has an ante
        if not r.ante_static:
            self._run_block(ante)
            return
        key = ("ante", self.dealer)
        done = r.seat_cache.get(key)
        if done is None:
            before = self.pool
            self._run_block(ante)
            r.seat_cache[key] = (tuple(self.payments), self.pool - before)
        else:
            self.payments = list(done[0])
            self.pool += done[1]

    def _run_block(self, fn: Generated) -> Any:
        try:
            return fn(DealEnv(self, self.ctx), self)
        except OmbreError:
            raise
        except Exception as ex:
            raise block_error(fn, ex) from None

    def _finish(self, all_pass: bool = False) -> None:
        self.phase = DONE
        self.to_move = -1
        r = self.rules
        if all_pass:
            fn = r.finish_all_pass
        else:
            assert self.contract is not None  # a deal not passed out ends with its contract
            fn = self.contract.finish
        prog = program(fn, r) if kernel.ON else None
        done = prog.run(self, self.payments, self.pool) if prog is not None else None
        try:
            if done is not None:  # the settlement machine ran it (it gives None where Python must)
                self.outcome, pays, self.pool, sets = done
                self.payments[:] = pays
                for i, value in sets:
                    set_value(self, i, value)
            else:
                self.outcome = self._run_block(fn)
        except OmbreError:  # refused (a carried value past its limit): the state as before the last action
            self._rewind(len(self.history) - 1)
            raise
        # kept without its account (State.result adds one that reads the state: no cycle through the state)
        self.res = _new_tuple(Result, (self.outcome, self.declarer if self.declarer >= 0 else None,
                                       self.contract.name if self.contract else None,
                                       self.trump.name if self.trump is not None else None, tuple(self.tricks),
                                       tuple(self.payments), self.pool_before, self.pool, (),
                                       as_json(r, self.carry), as_json(r, self.carry_after)))

    def _legal_done(self) -> list[int]:
        """The deal is over: nothing is legal."""
        return []



_new_tuple = tuple.__new__  # a Result made without the Python-level __new__ of a named tuple
