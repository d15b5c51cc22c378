"""The end of a deal (phase DONE): the contract's settlement block (or the all-pass one) run on the state,
the outcome and the Result; and the ante paid when the cards are dealt.

Driven by `outcomes`, `scoring` (`let`, `outcomes`, `ante`) and `let`; compiled in ruleset/settlement.py
into one function per contract."""
from __future__ import annotations

from typing import Any, NamedTuple

from ..envs import DealEnv
from ..errors import OmbreError
from ..lang.compiler import block_error
from .carry import as_json
from .phases import DONE

PASSED_OUT = "passed out"  # how every output spells a deal that every seat passed and nobody played


class Result(NamedTuple):
    """How a deal ended: the outcome, tricks, and each seat's net payment (pool changes included)."""

    outcome: str
    declarer: int | None
    contract: str | None
    trump: str | None
    tricks: tuple[int, ...]
    payments: tuple[int, ...]
    pool_before: int
    pool_after: int
    account: Any = ()  # the transfers, labelled (`explain.account.Account`), worked out when first read
    session_before: dict | None = None  # the values carried between deals, by name (None: the variant has none)
    session_after: dict | None = None  # and those left for the next deal

    def to_dict(self) -> dict:
        out = {"outcome": self.outcome, "declarer": self.declarer, "contract": self.contract,
               "trump": self.trump, "tricks": list(self.tricks), "payments": list(self.payments),
               "pool_before": self.pool_before, "pool_after": self.pool_after}
        if self.session_after is not None:
            out["session_before"] = self.session_before
            out["session_after"] = self.session_after
        return out



class SettleStage:
    """Paying and ending the deal (a mixin of State)."""

    __slots__ = ()

    def _ante(self) -> None:
        """Pay the ante; when it depends on the seats alone its effect is cached per dealer."""
        r = self.rules
        if not r.ante_static:
            self._run_block(r.ante)
            return
        key = ("ante", self.dealer)
        done = r.seat_cache.get(key)
        if done is None:
            before = self.pool
            self._run_block(r.ante)
            r.seat_cache[key] = (tuple(self.payments), self.pool - before)
        else:
            self.payments = list(done[0])
            self.pool += done[1]

    def _run_block(self, fn) -> Any:
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
        self.outcome = self._run_block(r.finish_all_pass if all_pass else self.contract.finish)
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
