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
MAX_WORLDS = 200  # of a pimcdd decision


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
    session: dict | None = None  # the values carried between deals as the deal began (session.carry)


@lru_cache(maxsize=32)
def _rules(source: str, options: tuple[tuple[str, str], ...]) -> Ruleset:
    return load(source, dict(options))


def decide(d: Decision) -> int:
    """The bot's action for the seat to move (runs in a worker)."""
    rules = _rules(d.source, d.options)
    state = State(rules, seed=d.seed, dealer=d.dealer, pool=d.pool, session=d.session)
    for a in d.history:
        state.apply(a)
    player = make_player(d.player, seed=d.player_seed, rules=rules)
    return act(player, state, d.seat)


def check_budget(kind: str) -> None:
    """Refuse Monte-Carlo budgets a shared server should not run (raises ValueError with the reason)."""
    base, _, arg = kind.partition(":")
    if base not in ("pimc", "pimcdd") or not arg:
        return
    try:
        amount = float(arg[:-1]) if arg.endswith("s") else int(arg)
    except ValueError:
        return  # make_player names the bad budget
    if arg.endswith("s") and amount > MAX_SECONDS:
        raise ValueError(f"bot '{kind}': at most {MAX_SECONDS:g} seconds a decision here")
    most, unit = (MAX_ROLLOUTS, "play-outs") if base == "pimc" else (MAX_WORLDS, "worlds")
    if not arg.endswith("s") and amount > most:
        raise ValueError(f"bot '{kind}': at most {most} {unit} a decision here")


class BotPool:
    """Where the bots think: Monte-Carlo searches in worker processes (or threads, with `processes=False`), so
    they never hold the event loop; the quick bots (a fraction of a millisecond a move) in a thread, which costs
    less than sending the deal to another process."""

    def __init__(self, workers: int = 2, processes: bool = True) -> None:
        self.workers = max(1, workers)
        self.processes = processes
        self._searchers: Executor | None = None
        self._quick: Executor | None = None

    def _pool(self, player: str) -> Executor:
        if self._quick is None:
            self._quick = ThreadPoolExecutor(1, thread_name_prefix="bot")
        if not player.startswith("pimc"):
            return self._quick
        if self._searchers is None:
            self._searchers = (ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
                               if self.processes else ThreadPoolExecutor(self.workers, thread_name_prefix="search"))
        return self._searchers

    async def decide(self, d: Decision) -> int:
        return await asyncio.get_running_loop().run_in_executor(self._pool(d.player), decide, d)

    def close(self) -> None:
        for ex in (self._searchers, self._quick):
            if ex is not None:
                ex.shutdown(wait=False, cancel_futures=True)
        self._searchers = self._quick = None
