"""The full check of an uploaded file, run in a process of its own with limits, never in the server's.

An upload is kept only when everything the server will do with it works: it loads with every option choice
(as `ombre check` checks it), its rulebook is made, its diff against the built-in variant it extends is made,
and deals are played with it. The check runs in a child process (started from a fork server that has the
package imported) whose memory is capped (`resource.RLIMIT_AS`) and whose computing time the server watches
step by step: a file whose one compile takes more than a second of computing, or that would grow without
bound, is refused at once and its process killed."""
from __future__ import annotations

import multiprocessing
import os
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from ..errors import OmbreError

STEP_CPU = {"read": 1.0, "compile": 1.0, "deal": 1.0, "rulebook": 30.0, "diff": 5.0}  # seconds of computing
STEP_WALL = 8.0  # seconds a step may take on the clock, over its computing time (a busy machine)
TOTAL_WALL = 180.0
MEMORY = 1 << 30  # bytes of address space the checking process may use
MAX_RUNS = 64  # option choices an upload may have (each is compiled)
DEALS = 4  # deals played with an upload, by random players
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_doing = ["reading the file"]  # the step the child is at (for its messages)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the check found: the problems (none: keep the file) and its rulebook, made on the way."""

    problems: list[str]
    rulebook: str | None = None


def _cpu(pid: int) -> float | None:
    """Seconds of computing a process has used (None where /proc cannot tell)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK
    except (OSError, IndexError, ValueError):
        return None


def _limit_memory() -> None:
    try:
        import resource

        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = MEMORY if hard == resource.RLIM_INFINITY else min(MEMORY, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, ValueError, OSError):  # no resource module (not POSIX) or not allowed: the clock watches
        pass


def _steps(conn: Connection, path: str, base: str | None) -> Verdict:
    """The check itself (in the child): each step announced to the parent before it runs. Deals are played
    right after the first compile, so that a file whose numbers grow without bound is stopped early."""
    from ..book import diff_html, rulebook_html
    from ..checking import check_variant
    from ..errors import OmbreError, SpecErrors
    from ..players import act, make_player
    from ..ruleset import Ruleset, load
    from ..session import Session
    from ..spec.resolve import fmt_value, resolve

    def step(kind: str, what: str) -> None:
        _doing[0] = what
        conn.send(("step", kind, what))

    step("read", "reading the file")
    try:
        spec = resolve(path)
        step("compile", "compiling it with its default options")
        rules = load(path)
    except SpecErrors as e:
        return Verdict([str(x) for x in e.errors])
    except OmbreError as e:
        return Verdict([str(e)])
    step("deal", "playing deals with it")
    session = Session(rules, seed=1)
    for k in range(DEALS):
        state = session.new_deal()
        player = make_player("random", seed=k, rules=rules)
        while not state.is_terminal:
            state.apply(act(player, state, state.current_player))
        session.record(state)
    runs = sum(1 for k, cs in spec.choices.items() for c in cs if c != spec.defaults[k])
    if runs > MAX_RUNS:
        return Verdict([f"{path}: {runs} option choices besides the defaults; an upload may have at most "
                        f"{MAX_RUNS}"])

    def before(sel: dict[str, Any]) -> None:
        step("compile", "compiling it with " + (", ".join(f"{k}={fmt_value(v)}" for k, v in sel.items())
                                                 or "its default options"))

    problems = check_variant(path, before)
    if problems:
        return Verdict([str(p) for p in problems])
    step("rulebook", "making its rulebook")
    book = rulebook_html(rules)
    if base is not None:
        step("diff", "comparing it with " + base)
        diff_html(Ruleset.load(base), rules)
    return Verdict([], book)


def _child(conn: Connection, path: str, base: str | None) -> None:
    _limit_memory()
    try:
        verdict = _steps(conn, path, base)
    except MemoryError:
        verdict = Verdict([f"{path}: checking it needs more than {MEMORY >> 20} MiB of memory: refused"])
    except OmbreError as e:
        verdict = Verdict([f"{path}: {_doing[0]} fails: {e}"])
    except Exception as e:  # noqa: BLE001 - whatever breaks, the upload is refused with what broke
        where = traceback.extract_tb(e.__traceback__)[-1]
        verdict = Verdict([f"{path}: {_doing[0]} fails: {type(e).__name__}: {str(e)[:300]} "
                           f"(in {os.path.basename(where.filename)}:{where.lineno})"])
    conn.send(("done", verdict.problems, verdict.rulebook))
    conn.close()


_CONTEXT: Any = None


def _context() -> Any:
    """The fork server context (the package imported once in the server that forks the checks)."""
    global _CONTEXT
    if _CONTEXT is None:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if "forkserver" in methods:
            ctx.set_forkserver_preload(["ombre_rules.web.vet", "ombre_rules.book", "ombre_rules.checking"])
        _CONTEXT = ctx
    return _CONTEXT


def vet(path: str, base: str | None = None) -> Verdict:
    """Check the file at `path` (which extends the built-in `base`) in a child process; the problems name
    `path` (the caller shows them under the file's name)."""
    ctx = _context()
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, path, base), daemon=True)
    proc.start()
    send.close()
    kind, what = "read", "starting the check"
    start = step_wall = time.monotonic()
    step_cpu = 0.0
    started = False  # the child has announced its first step (it reads the file only after that)
    try:
        while True:
            if recv.poll(0.02):
                try:
                    msg = recv.recv()
                except EOFError:
                    break
                if msg[0] == "done":
                    return Verdict(list(msg[1]), msg[2])
                _, kind, what = msg
                started = True
                step_wall = time.monotonic()
                step_cpu = _cpu(proc.pid) or 0.0
                continue
            now = time.monotonic()
            if not started:  # the fork server still starting (the first check of a server): no file work yet
                if now - start > TOTAL_WALL:
                    return Verdict([f"{path}: the check did not start in {TOTAL_WALL:g} s: refused"])
                if not proc.is_alive() and not recv.poll():
                    break
                continue
            cpu = _cpu(proc.pid)
            used = (cpu - step_cpu) if cpu is not None else now - step_wall
            if used > STEP_CPU[kind] or now - step_wall > STEP_CPU[kind] + STEP_WALL or now - start > TOTAL_WALL:
                return Verdict([f"{path}: {what} takes too long (more than {STEP_CPU[kind]:g} s of computing, "
                                f"the most a server gives it): refused"])
            if not proc.is_alive() and not recv.poll():
                break
        return Verdict([f"{path}: the check stopped while {what} (it needs more memory than a server gives "
                        f"it, {MEMORY >> 20} MiB): refused"])
    finally:
        recv.close()
        if proc.is_alive():
            proc.kill()
        proc.join(5)


def _warm() -> None:
    """Build the expression parser here, once: the fork server imports this module before it forks the checks,
    so each check starts with the parser built (building it costs most of a second, which counted against an
    upload's first step)."""
    from ..lang.compiler import parser

    parser()


_warm()
