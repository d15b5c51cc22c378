"""Bots think off the event loop: each decision runs in a worker process (or thread), rebuilt from plain data.

A decision gets the variant, the deal (seed, dealer, pool) and the actions so far, and replays them into a
fresh state in the worker; the worker keeps the compiled rules of the variants it has seen."""
from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache

from ..engine import State
from ..players import act, make_player
from ..ruleset import Ruleset, load

MAX_SECONDS = 10.0
MAX_ROLLOUTS = 5000


@dataclass(frozen=True, slots=True)
class Decision:
    """Everything a worker needs to choose one bot's action, as picklable data."""

    source: str
    options: tuple[tuple[str, str], ...]
    seed: int
    dealer: int
    pool: int
    history: tuple[int, ...]
    seat: int
    player: str
    player_seed: int


@lru_cache(maxsize=32)
def _rules(source: str, options: tuple[tuple[str, str], ...]) -> Ruleset:
    return load(source, dict(options))


def decide(d: Decision) -> int:
    """The bot's action for the seat to move (runs in a worker)."""
    rules = _rules(d.source, d.options)
    state = State(rules, seed=d.seed, dealer=d.dealer, pool=d.pool)
    for a in d.history:
        state.apply(a)
    player = make_player(d.player, seed=d.player_seed, rules=rules)
    return act(player, state, d.seat)


def check_budget(kind: str) -> None:
    """Refuse Monte-Carlo budgets a shared server should not run (raises ValueError with the reason)."""
    base, _, arg = kind.partition(":")
    if base != "pimc" or not arg:
        return
    try:
        amount = float(arg[:-1]) if arg.endswith("s") else int(arg)
    except ValueError:
        return  # make_player names the bad budget
    if arg.endswith("s") and amount > MAX_SECONDS:
        raise ValueError(f"bot '{kind}': at most {MAX_SECONDS:g} seconds a decision here")
    if not arg.endswith("s") and amount > MAX_ROLLOUTS:
        raise ValueError(f"bot '{kind}': at most {MAX_ROLLOUTS} play-outs a decision here")


class BotPool:
    """Worker processes (or threads, with `processes=False`) that make the bots' decisions."""

    def __init__(self, workers: int = 2, processes: bool = True) -> None:
        self.workers = max(1, workers)
        self.processes = processes
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.processes:
                self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="bot")
        return self._executor

    async def decide(self, d: Decision) -> int:
        return await asyncio.get_running_loop().run_in_executor(self._pool(), decide, d)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
