"""Many deals with bots: one deterministic result line per deal, the same whatever the number of processes or
machines that play them. Deal i has its own seed (from the run's seed and i alone), dealer i mod players and
an empty pool, so deals are independent of each other and of the order they are played in."""
from __future__ import annotations

import hashlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator

from ..engine import DONE, State
from ..errors import OmbreError
from ..players import make_player
from ..ruleset import Ruleset, load


def deal_seed(seed: int, i: int) -> int:
    """The seed of deal i of a run: the same in every variant (common random numbers)."""
    return int.from_bytes(hashlib.blake2b(b"%d/%d" % (seed, i), digest_size=4).digest(), "little")


def fallback_taken(rules: Ruleset, state: State) -> bool:
    """Whether every seat passed the first round, so that the variant's all-pass rule was applied."""
    ap = rules.auction
    res = state.result
    return res.contract is None or state.round_no > 0 or \
        (ap.force_contract is not None and res.contract == ap.force_contract.name)


def play_deal(rules: Ruleset, names: list[str], seed: int, i: int) -> dict:
    """Play deal i of a run with one named player per seat; its result line, with what the deal reached: the
    mechanics offered (legal at some decision) and taken, the decisions with a choice, each trick's winner."""
    s = deal_seed(seed, i)
    n = rules.players
    players = [make_player(nm, s * 16 + k, rules) for k, nm in enumerate(names)]
    state = State(rules, seed=s, dealer=i % n)
    verbs = rules.action_verbs
    offered: set[str] = set()
    decisions = choices = 0
    high = rules.A_DISCARD
    wants_view = [getattr(p, "view_actions", True) for p in players]
    while state.phase != DONE:
        seat = state.to_move
        legal = state.legal_actions()
        decisions += 1
        if len(legal) > 1:
            choices += 1
        if max(legal) >= high:
            offered.update(verbs[a] for a in legal if a >= high)
        # as players.act does, with the legal list already made
        state.apply(players[seat].act(state.view(seat, wants_view[seat]), legal))
    res = state.result
    return {"deal": i, "seed": s, "dealer": state.dealer, "declarer": res.declarer, "contract": res.contract,
            "trump": res.trump, "outcome": res.outcome, "tricks": list(res.tricks), "payments": list(res.payments),
            "pool_before": res.pool_before, "pool_after": res.pool_after, "actions": len(state.history),
            "history": [rules.action_str(a) for a in state.history], "fallback": fallback_taken(rules, state),
            "offered": sorted(offered), "taken": sorted({verbs[a] for a in state.history if a >= high}),
            "decisions": decisions, "choices": choices, "winners": [w for _l, _c, w in state.trick_log],
            **({"session": res.session_after} if res.session_after is not None else {})}


_RULES: dict[tuple, Ruleset] = {}


def _rules(variant: str, options: dict) -> Ruleset:
    key = (variant, tuple(sorted(options.items())))
    r = _RULES.get(key)
    if r is None:
        r = _RULES[key] = load(variant, options)
    return r


def play_chunk(variant: str, options: dict, names: list[str], seed: int, first: int, count: int) -> list[dict]:
    """Deals first .. first+count-1 of a run (what one process or one cluster task plays)."""
    rules = _rules(variant, options)
    return [play_deal(rules, names, seed, i) for i in range(first, first + count)]


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def chunks(deals: int, workers: int) -> list[tuple[int, int]]:
    """(first, count) pieces of a run: a few per worker, so the load evens out and progress shows."""
    size = max(1, min(200, deals // (workers * 8) if workers > 1 else 50))
    return [(i, min(size, deals - i)) for i in range(0, deals, size)]


def run(variant: str, options: dict, names: list[str], seed: int, deals: int, jobs: int = 1,
        dask: str | None = None) -> Iterator[dict]:
    """The result lines of a run, in deal order, played here, in `jobs` local processes, or on the Dask
    cluster at address `dask`."""
    rules = _rules(variant, options)
    if len(names) != rules.players:
        raise OmbreError(f"--players names {len(names)} players; {rules.variant} has {rules.players} seats")
    for nm in set(names):
        make_player(nm, 0, rules)  # unknown names fail here, before any work starts
    if dask is not None:
        yield from _run_dask(variant, options, names, seed, deals, dask)
        return
    if jobs <= 1:
        for first, count in chunks(deals, 1):
            yield from play_chunk(variant, options, names, seed, first, count)
        return
    from concurrent.futures import ProcessPoolExecutor

    ex = ProcessPoolExecutor(jobs, initializer=_quiet_worker)
    try:
        futs = [ex.submit(play_chunk, variant, options, names, seed, f, c) for f, c in chunks(deals, jobs)]
        for fut in futs:
            yield from fut.result()
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


def _run_dask(variant: str, options: dict, names: list[str], seed: int, deals: int, address) -> Iterator[dict]:
    try:
        from distributed import Client
    except ImportError:
        raise OmbreError("--dask needs the 'dask' extra: pip install 'ombre_rules[dask]'") from None
    try:
        client = Client(address, timeout="5s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise OmbreError(f"cannot reach the Dask scheduler at '{address}': {e}") from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        parts = chunks(deals, workers)
        futs = client.map(play_chunk, [variant] * len(parts), [options] * len(parts), [names] * len(parts),
                          [seed] * len(parts), [f for f, _c in parts], [c for _f, c in parts], pure=False)
        try:
            for fut in futs:
                yield from fut.result()
        finally:
            client.cancel(futs)
    finally:
        client.close()


def _clock(seconds: float) -> str:
    """A duration as m:ss (h:mm:ss from an hour).

    >>> _clock(75), _clock(3725)
    ('1:15', '1:02:05')
    """
    s = int(seconds + 0.5)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


class Progress:
    """A one-line progress bar on stderr with the rate and the time left, shown only when stderr is a terminal
    (and not asked to be quiet)."""

    def __init__(self, total: int, label: str, stream=None, quiet: bool = False) -> None:
        self.total = total
        self.label = label
        self.stream = stream or sys.stderr
        self.on = not quiet and self.total > 0 and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = time.perf_counter()
        self.last = 0.0

    def line(self, done: int, elapsed: float) -> str:
        """The bar's text after `done` deals in `elapsed` seconds."""
        frac = done / self.total
        rate = done / max(elapsed, 1e-9)
        left = f"ETA {_clock((self.total - done) / rate)}" if done < self.total and done else \
            f"in {_clock(elapsed)}" if done else "ETA --:--"
        return f"{self.label} [{'#' * int(30 * frac):<30}] {done}/{self.total} {rate:.0f} deals/s {left}"

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if not self.on or (now - self.last < 0.2 and done < self.total):
            return
        self.last = now
        self.stream.write("\r" + self.line(done, now - self.t0) + "\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


def collect(lines: Iterator[dict], total: int, label: str, sink: Callable[[dict], None] | None = None,
            quiet: bool = False) -> tuple[list[dict], bool]:
    """Take a run's lines (passing each to `sink`), with a progress bar; Ctrl-C stops and keeps what is done.
    Returns the lines and whether the run was interrupted."""
    out: list[dict] = []
    bar = Progress(total, label, quiet=quiet)
    try:
        for line in lines:
            out.append(line)
            if sink is not None:
                sink(line)
            bar.update(len(out))
    except KeyboardInterrupt:
        bar.close()
        close = getattr(lines, "close", None)
        if close is not None:
            try:
                close()
            except KeyboardInterrupt:
                pass
        return out, True
    bar.close()
    return out, False


def cpu_count() -> int:
    return os.cpu_count() or 1
