"""Many deals with bots: one deterministic result line per deal, the same whatever the number of processes or
machines that play them. Deal i has its own seed (from the run's seed and i alone), dealer i mod players and
an empty pool, so deals are independent of each other and of the order they are played in."""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import ExitStack, closing, contextmanager, suppress
from itertools import islice
from typing import Any, NamedTuple

from ..engine import DONE, State
from ..engine.phases import EXCHANGE, PLAY, XPLAY
from ..errors import OmbreError
from ..players import act, make_player, prepare
from ..ruleset import Ruleset, load
from ..solve.analysis import deal_loss


def deal_seed(seed: int, i: int) -> int:
    """The seed of deal i of a run: the same in every variant (common random numbers)."""
    return int.from_bytes(hashlib.blake2b(b"%d/%d" % (seed, i), digest_size=4).digest(), "little")


def fallback_taken(rules: Ruleset, state: State) -> bool:
    """Whether every seat passed the first round, so that the variant's all-pass rule was applied."""
    res = state.result
    assert res is not None  # a finished deal
    return res.contract is None or state.ap_at > 0


def play_deal(rules: Ruleset, names: list[str], seed: int, i: int, double_dummy: bool = False,
              before: str | None = None) -> dict:
    """Play deal i of a run with one named player per seat; its result line, with what the deal reached: the
    mechanics offered (legal at some decision) and taken, the decisions with a choice, each trick's winner,
    and whether the declarer bid or held of his own choice (not so when a rule forced the contract on him).
    `before` names the player who makes every decision before the first card at every seat instead (seeded as
    the seat's player is): the same auction and exchange whoever plays the cards."""
    s = deal_seed(seed, i)
    n = rules.players
    players = [make_player(nm, s * 16 + k, rules) for k, nm in enumerate(names)]
    cards = players  # the players from the first card on
    if before is not None:
        players = [make_player(before, s * 16 + k, rules) for k in range(n)]
    state = State(rules, seed=s, dealer=i % n)
    verbs = rules.action_verbs
    offered: set[str] = set()
    decisions = choices = 0
    high = rules.A_DISCARD
    picker, xpick = _shared(players, state)
    history = state.history
    bid, trump, hold = rules.A_BID, rules.A_TRUMP, rules.A_HOLD
    chose: set[int] = set()  # the seats that bid or held of their own choice (with another action legal)
    while state.phase != DONE:
        if players is not cards and state.phase in (PLAY, XPLAY):  # the first card: the line-up's players
            players = cards
            picker, xpick = _shared(players, state)
        if picker is not None and state.phase == PLAY:
            was = len(history)
            choices += _play_tricks(state, picker(state))
            decisions += len(history) - was  # each card played was a decision
            if state.phase == DONE:
                break
        if xpick is not None and state.phase == EXCHANGE:
            was = len(history)
            choices += _play_exchange(state, xpick, offered)
            decisions += len(history) - was  # each discard and draw was a decision
            offered.update(verbs[a] for a in history[was:])  # a lone action was offered too
            continue
        seat = state.to_move
        legal = state.legal_actions()
        decisions += 1
        if max(legal) >= high:
            offered.update(verbs[a] for a in legal if a >= high)
        a = act(players[seat], state, seat, legal)
        if len(legal) > 1:
            choices += 1
            if bid <= a < trump or a == hold:
                chose.add(seat)
        state.apply(a)
    res = state.res  # the result as the deal's end kept it (State.result adds its account: not needed here)
    assert res is not None  # played to its end
    return {"deal": i, "seed": s, "dealer": state.dealer, "declarer": res.declarer, "contract": res.contract,
            "trump": res.trump, "outcome": res.outcome, "tricks": list(res.tricks), "payments": list(res.payments),
            "pool_before": res.pool_before, "pool_after": res.pool_after, "actions": len(state.history),
            "history": list(map(rules.action_texts.__getitem__, state.history)),
            "fallback": fallback_taken(rules, state),
            "offered": sorted(offered), "taken": sorted({verbs[a] for a in state.history if a >= high}),
            "decisions": decisions, "choices": choices, "winners": [w for _l, _c, w in state.trick_log],
            "declarer_chose": res.declarer in chose,
            **({"double_dummy": deal_loss(state)} if double_dummy else {}),
            **({"session": res.session_after} if res.session_after is not None else {})}


def _shared(players: list, state: State) -> tuple[Any, Any]:
    """The card-choosing function every seat's player shares (plain tricks are then played in the engine's
    loop), and the exchange-choosing function made for `state` (a discard or draw read from the state, not
    from the seat's facts); None for either the players do not all share."""
    pickers = {getattr(p, "trick_picker", None) for p in players}
    picker = pickers.pop() if len(pickers) == 1 else None
    xpickers = {getattr(p, "exchange_picker", None) for p in players}
    make_xpick = xpickers.pop() if len(xpickers) == 1 else None
    return picker, make_xpick(state) if make_xpick is not None else None


def _play_tricks(state: State, pick: Callable[[int, list[int], list[tuple[int, int]], int], int]) -> int:
    """`state.play_tricks(pick)`; how many times `pick` was asked (the cards played with a choice)."""
    asked = 0

    def counted(seat: int, cards: list[int], trick: list[tuple[int, int]], played: int) -> int:
        nonlocal asked
        asked += 1
        return pick(seat, cards, trick, played)

    state.play_tricks(counted)
    return asked


def _play_exchange(state: State, pick: Callable[[int, int, bool, bool], int], offered: set[str]) -> int:
    """`state.play_exchange(pick)`; how many times `pick` was asked (the exchange's choices), with the verbs of
    what each choice offered added to `offered`."""
    r = state.rules
    verbs = r.action_verbs
    discard, draw_v, cede_v = verbs[r.A_DISCARD], verbs[r.A_DRAW], verbs[r.A_CEDE]
    asked = 0

    def counted(seat: int, may: int, draw: bool, cede: bool) -> int:
        nonlocal asked
        asked += 1
        if may:
            offered.add(discard)
        if draw:
            offered.add(draw_v)
        if cede:
            offered.add(cede_v)
        return pick(seat, may, draw, cede)

    state.play_exchange(counted)
    return asked


_RULES: dict[tuple, Ruleset] = {}


def _rules(variant: str, options: dict) -> Ruleset:
    key = (variant, tuple(sorted(options.items())))
    r = _RULES.get(key)
    if r is None:
        r = _RULES[key] = load(variant, options)
    return r


def play_chunk(variant: str, options: dict, names: list[str], seed: int, first: int, count: int,
               judged: int = 0, before: str | None = None) -> list[dict]:
    """Deals first .. first+count-1 of a run (what one process or one cluster task plays); those before deal
    `judged` with the double-dummy measure; every decision before the first card by `before`, if named."""
    rules = _rules(variant, options)
    return [play_deal(rules, names, seed, i, i < judged, before) for i in range(first, first + count)]


def _everyone(names: list[str], before: str | None) -> list[str]:
    """The players a run makes: the seats' and the one of the decisions before the first card, if named."""
    return names + [before] if before is not None else names


def _prepared(variant: str, options: dict, names: list[str]) -> None:
    """The rules loaded and the players prepared (`players.prepare`) in this process, once, before any chunk."""
    prepare(names, _rules(variant, options))


def _worker_start(variant: str, options: dict, names: list[str]) -> None:
    """A local worker's start: Ctrl-C is the parent's to handle; the rules loaded and the players prepared
    (with the fork start method they come so from the parent)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _prepared(variant, options, names)


def _worker_ready(pause: float) -> None:
    """A first task for each local worker: it is up, with its rules, once this returns. The pause keeps a
    worker from taking a second one before every other worker has started."""
    time.sleep(pause)


WINDOW = 3  # chunks in flight per worker: the one it plays and two queued behind it


class Pace(NamedTuple):
    """How a backend's chunks are sized, against what one of its tasks costs beside the play."""
    first: int  # deals of each chunk sent out before any has come back (the pace is not known yet)
    seconds: float  # the play a chunk is sized to, once the pace is known
    least_seconds: float  # the shortest play a chunk near the end is given
    most: int  # deals of one chunk at most: its lines travel back together


# a local process's task costs about a millisecond; a Dask task several (in the scheduler, the client and the
# worker, on the same cores as the play on a small machine): its chunks are longer, so that this stays small
PACES = {"processes": Pace(first=4, seconds=0.2, least_seconds=0.005, most=250),
         "dask": Pace(first=16, seconds=1.0, least_seconds=0.15, most=1000)}


def chunk_size(left: int, workers: int, least: int, most: int) -> int:
    """The deals of the next chunk with `left` deals still to send: half a worker's share of them (guided
    scheduling: chunks shrink towards the end, so that every worker is busy until the last deal), but at least
    `least` and at most `most` (and never more than are left).

    >>> sizes, left = [], 40
    >>> while left:
    ...     sizes.append(chunk_size(left, 2, 1, 100))
    ...     left -= sizes[-1]
    >>> sizes
    [10, 7, 5, 4, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1]
    """
    return min(left, max(least, min(most, left // (2 * workers))))


class Pacer:
    """The chunks of a run, sized by the play time the workers report: each chunk about `pace.seconds` of play
    (`pace.most` deals at most), shrinking towards the end but no shorter than `pace.least_seconds`, so that a
    backend's cost per task stays small against the play whatever a deal costs (a random deal takes tens of
    microseconds, a Monte-Carlo one seconds). Until a chunk has come back the chunks are `pace.first` deals
    (but half a worker's share at most)."""

    def __init__(self, deals: int, workers: int, pace: Pace) -> None:
        self.deals = deals
        self.workers = workers
        self.pace = pace
        self.played = 0  # deals of the chunks that came back, and the seconds their play took
        self.seconds = 0.0
        self.sizes: list[int] = []  # every chunk sent, in order

    def took(self, result: tuple[float, list[dict]]) -> None:
        """A chunk's result came back: (its play's seconds, its lines)."""
        self.seconds += result[0]
        self.played += len(result[1])

    def parts(self) -> Iterator[tuple[int, int]]:
        """(first, count) of each chunk, in deal order, sized as the pace is known when it is asked for."""
        pace = self.pace
        first = 0
        while first < self.deals:
            if self.played:
                per = max(self.seconds / self.played, 1e-7)
                most = max(1, min(pace.most, int(pace.seconds / per)))
                least = max(1, min(most, int(pace.least_seconds / per)))
            else:
                most, least = pace.first, 1
            count = chunk_size(self.deals - first, self.workers, least, most)
            self.sizes.append(count)
            yield first, count
            first += count


def timed_chunk(variant: str, options: dict, names: list[str], seed: int, first: int, count: int,
                judged: int = 0, before: str | None = None) -> tuple[float, list[dict]]:
    """`play_chunk` on a worker, with the seconds its play took (what the `Pacer` sizes chunks by)."""
    t0 = time.perf_counter()
    lines = play_chunk(variant, options, names, seed, first, count, judged, before)
    return time.perf_counter() - t0, lines


def ordered(submit: Callable[[int, int], Any], parts: Iterable[tuple[int, int]], window: int,
            seen: Callable[[Any], None] | None = None) -> Generator[Any, None, None]:
    """The result of `submit(first, count)` (a future) for each part, in order, with at most `window` parts
    submitted and not yet taken: the next part goes out as the oldest result is taken (after `seen` has been
    shown it), before it is handed on. The parts still out are cancelled when the consumer stops."""
    todo = iter(parts)
    pending = deque(submit(*p) for p in islice(todo, window))
    try:
        while pending:
            result = pending.popleft().result()
            if seen is not None:
                seen(result)
            pending.extend(submit(*p) for p in islice(todo, 1))
            yield result
    finally:
        for fut in pending:
            fut.cancel()


def run(variant: str, options: dict, names: list[str], seed: int, deals: int, jobs: int = 1,
        dask: str | None = None, judged: int = 0,
        ready: Callable[[], None] | None = None, before: str | None = None) -> Iterator[dict]:
    """The result lines of a run, in deal order, as they are played: here, in `jobs` local processes, or on the
    Dask cluster at address `dask` (`local:N`: a cluster of N one-thread worker processes started for the run).
    At most WINDOW chunks a worker are out at any time, so memory does not grow with the run. The first
    `judged` deals carry the double-dummy measure (how well each seat's cards were played). `ready` is called
    once the workers are up, with the rules loaded, just before the first deal goes out: what comes after it is
    the run's play. `before` names the player who makes every decision before the first card, at every seat
    (`play_deal`)."""
    rules = _rules(variant, options)
    if len(names) != rules.players:
        raise OmbreError(f"--players names {len(names)} players; {rules.variant} has {rules.players} seats")
    # unknown names fail here, before any work starts; what the players learn once per variant is learnt
    # here too, before the clock starts and before local workers are forked (they inherit it)
    every = _everyone(names, before)
    prepare(every, rules)
    if dask is not None:
        yield from _run_dask(variant, options, names, seed, deals, dask, judged, ready, before)
        return
    if jobs <= 1:
        if ready is not None:
            ready()
        for i in range(deals):
            yield play_deal(rules, names, seed, i, i < judged, before)
        return
    from concurrent.futures import ProcessPoolExecutor

    ex = ProcessPoolExecutor(jobs, initializer=_worker_start, initargs=(variant, options, every))
    try:
        # every worker started and its rules loaded before the play begins (a worker starts at its first task)
        for f in [ex.submit(_worker_ready, 0.05) for _ in range(jobs)]:
            f.result()
        if ready is not None:
            ready()

        pacer = Pacer(deals, jobs, PACES["processes"])

        def submit(first: int, count: int):
            return ex.submit(timed_chunk, variant, options, names, seed, first, count, judged, before)

        with closing(ordered(submit, pacer.parts(), WINDOW * jobs, pacer.took)) as results:
            for _seconds, lines in results:
                yield from lines
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


LOCAL = "local:"
MAX_LOCAL_WORKERS = 256  # N of --dask local:N
# a local cluster's settings, so that its processes spend little beside the play: no sampling profiler in the
# workers (every 10 ms it takes the interpreter's lock from the play to read its stack) and slower housekeeping
# timers (the event loops' tick, the system and memory monitors)
LEAN_DASK = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
             "distributed.admin.system-monitor.interval": "5s", "distributed.worker.memory.monitor-interval": "1s"}


@contextmanager
def _client(address: str) -> Iterator[Any]:
    """A Dask client of the scheduler at `address`, or of a local cluster started for the run (`local:N`)."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise OmbreError("--dask needs the 'dask' extra: pip install 'ombre_rules[dask]'") from None
    with ExitStack() as stack:
        scheduler: Any = address
        if address.startswith(LOCAL):
            n = address[len(LOCAL):]
            if not (n.isdigit() and 0 < int(n) <= MAX_LOCAL_WORKERS):
                raise OmbreError(f"bad --dask '{address}' (expected a scheduler address or local:N, "
                                 f"0 < N <= {MAX_LOCAL_WORKERS})")
            # forked workers start at once, with the rules this process has loaded (spawned ones import and load)
            forked = "fork" in multiprocessing.get_all_start_methods()
            stack.enter_context(dask.config.set({**LEAN_DASK, "distributed.worker.multiprocessing-method":
                                                 "fork" if forked else "spawn"}))
            scheduler = stack.enter_context(LocalCluster(n_workers=int(n), threads_per_worker=1, processes=True,
                                                         dashboard_address=None))
        client = Client.__new__(Client)
        try:
            Client.__init__(client, scheduler, timeout="5s", set_as_default=False)
        except Exception as e:  # any address Dask cannot use or reach (a bad scheme, no port, a TLS one, ...)
            # marked closed: the client that never connected would otherwise try to close itself when collected
            # (at exit), wait 10 s for a loop that is gone and print a traceback after the clean error
            client.status = "closed"
            with suppress(Exception):
                client._loop_runner.stop()
            raise OmbreError(f"cannot reach the Dask scheduler at '{address}': {e}") from None
        yield stack.enter_context(client)


def _run_dask(variant: str, options: dict, names: list[str], seed: int, deals: int, address: str,
              judged: int = 0, ready: Callable[[], None] | None = None, before: str | None = None) -> Iterator[dict]:
    with _client(address) as client:
        workers = max(1, sum(client.nthreads().values()))
        client.run(_prepared, variant, options, _everyone(names, before))  # rules and players ready before the play
        if ready is not None:
            ready()

        pacer = Pacer(deals, workers, PACES["dask"])

        def submit(first: int, count: int):
            return client.submit(timed_chunk, variant, options, names, seed, first, count, judged, before,
                                 pure=False)

        with closing(ordered(submit, pacer.parts(), WINDOW * workers, pacer.took)) as results:
            for _seconds, lines in results:
                yield from lines


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


class _Whole:
    """Ctrl-C while a line is being passed on takes effect once it is passed on, so that every sink has it (or
    none has); at any other moment it interrupts at once. Only in the main thread, with Python's own handler."""

    def __init__(self) -> None:
        self.busy = self.asked = False
        self.old: Any = None  # the SIGINT handler to restore, once ours is in place

    def __enter__(self) -> _Whole:
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.old = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc) -> None:
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)

    def _handler(self, signum, frame) -> None:
        if not self.busy:
            raise KeyboardInterrupt
        self.asked = True


def collect(lines: Iterable[dict], total: int, label: str, sink: Callable[[dict], None] | None = None,
            quiet: bool = False) -> tuple[int, bool]:
    """Pass a run's lines to `sink` one by one as they come (nothing is kept), with a progress bar; Ctrl-C
    stops and keeps what is done. Returns how many lines were taken and whether the run was interrupted."""
    done = 0
    bar = Progress(total, label, quiet=quiet)
    with _Whole() as whole:
        try:
            for line in lines:
                whole.busy = True
                if sink is not None:
                    sink(line)
                done += 1
                whole.busy = False
                if whole.asked:
                    raise KeyboardInterrupt
                bar.update(done)
        except KeyboardInterrupt:
            bar.close()
            close = getattr(lines, "close", None)
            if close is not None:
                try:
                    close()
                except KeyboardInterrupt:
                    pass
            return done, True
    bar.close()
    return done, False


def cpu_count() -> int:
    return os.cpu_count() or 1
