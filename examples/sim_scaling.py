"""How `ombre simulate` scales, side by side in one run: deals/s with --jobs 1; with K independent --jobs 1
processes at once, each playing 1/K of the deals (their rates summed: what the machine gives K processes that share
nothing, the ceiling of the modes that follow); with --jobs K; on a Dask cluster of K one-thread local workers
(started here with the settings --dask local:K uses, warmed by a short run, then used by its address); with --dask
local:K (the run starts its own cluster); and deals/s and peak memory against --deals.

    python examples/sim_scaling.py [--variant ombre] [--deals 2000] [--players greedy] [--jobs 2]
        [--rounds 3] [--sizes 100,1000,10000,100000] [--size-players random] [--size-jobs 1] [--no-dask]

Each command runs as its own process; the modes take turns in every round and each keeps its best round, so that
other work on the machine biases the ratios less (the load average is printed with every round). The rate is the
one `simulate` prints (its clock starts once the workers are up, with their rules); the wall time includes the
start-up of Python and the rules. CPU seconds are those of the `simulate` process and of the processes it started
and waited for (local workers; not those of a cluster reached by address). Peak memory is the maximum resident set
of the `simulate` process or of one of those it waited for. The size series writes every line (--out) to a
temporary file.

On a machine shared with other work the jobs ratio measures little: Linux's autogroup scheduling (on when
/proc/sys/kernel/sched_autogroup_enabled is 1) shares the CPU between sessions, not processes, so a second
worker in the same session adds no CPU while the other sessions keep both cores busy.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

RATE = re.compile(r"(\d+) deals in ([\d.]+)s = ([\d.]+) deals/s")


def start(variant: str, deals: int, players: str, extra: list[str]) -> tuple:
    """An `ombre simulate` process started, for `finish`."""
    cmd = [sys.executable, "-m", "ombre_rules", "simulate", variant, "--deals", str(deals), "--players", players,
           "--seed", "1", "-q", *extra]
    out = tempfile.TemporaryFile("w+")
    return cmd, out, time.perf_counter(), subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)


def finish(job: tuple) -> dict:
    """A started process waited for: its printed rate, its wall time, its CPU time and peak resident memory."""
    cmd, out, t0, p = job
    with out:
        _pid, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    m = RATE.search(text)
    if p.returncode or not m:
        raise SystemExit(f"failed ({p.returncode}): {' '.join(cmd)}\n{text}")
    return {"deals_per_s": float(m.group(3)), "seconds": float(m.group(2)), "wall": wall,
            "cpu": usage.ru_utime + usage.ru_stime, "max_rss_mb": usage.ru_maxrss / 1024}


def simulate(variant: str, deals: int, players: str, extra: list[str]) -> dict:
    """One `ombre simulate` process, waited for (see `finish`)."""
    return finish(start(variant, deals, players, extra))


def side_by_side(variant: str, deals: int, players: str, k: int) -> dict:
    """K independent `--jobs 1` processes at once, each playing deals/K: what this machine gives K processes that
    share nothing (the ceiling of --jobs K here). The rates are summed; the wall time is the longest."""
    runs = [finish(j) for j in [start(variant, deals // k, players, ["--jobs", "1"]) for _ in range(k)]]
    return {"deals_per_s": sum(r["deals_per_s"] for r in runs), "wall": max(r["wall"] for r in runs),
            "cpu": sum(r["cpu"] for r in runs)}


def load() -> str:
    """The load average, printed beside each figure."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def best(runs: list[dict]) -> dict:
    return max(runs, key=lambda r: r["deals_per_s"])


def scaling(a, modes: dict[str, list[str] | None]) -> None:
    """Each mode (its extra arguments, or None for `side_by_side`) once a round, in turn; each one's best round."""
    runs: dict[str, list[dict]] = {m: [] for m in modes}
    for i in range(a.rounds):
        for m, extra in modes.items():
            runs[m].append(side_by_side(a.variant, a.deals, a.players, a.jobs) if extra is None else
                           simulate(a.variant, a.deals, a.players, extra))
        print(f"round {i + 1}: " + ", ".join(f"{m} {runs[m][-1]['deals_per_s']:.1f}" for m in modes) +
              f" deals/s ({load()})", flush=True)
    one = best(runs["--jobs 1"])
    print(f"\n{a.variant}, {a.deals} deals, players {a.players}: best of {a.rounds} rounds")
    print(f"{'mode':<22} {'deals/s':>9} {'ratio':>6} {'wall s':>7} {'wall ratio':>10} {'cpu s':>6}")
    for m in modes:
        b = best(runs[m])
        print(f"{m:<22} {b['deals_per_s']:>9.1f} {b['deals_per_s'] / one['deals_per_s']:>6.2f} {b['wall']:>7.2f} "
              f"{one['wall'] / b['wall']:>10.2f} {b['cpu']:>6.1f}")


def sizes(a) -> None:
    print(f"\n{a.variant}, players {a.size_players}, --jobs {a.size_jobs}, --out to a file ({load()})")
    print(f"{'deals':>8} {'deals/s':>9} {'seconds':>8} {'max RSS MB':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in a.sizes:
            r = simulate(a.variant, n, a.size_players, ["--jobs", str(a.size_jobs), "--out",
                                                        os.path.join(tmp, "deals.jsonl")])
            print(f"{n:>8} {r['deals_per_s']:>9.1f} {r['seconds']:>8.2f} {r['max_rss_mb']:>10.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="ombre")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--players", default="greedy")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the jobs/Dask comparison (0: none)")
    ap.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",") if x], default=[100, 1000, 10000, 100000])
    ap.add_argument("--size-players", default="random")
    ap.add_argument("--size-jobs", type=int, default=1)
    ap.add_argument("--no-dask", action="store_true", help="leave out the two Dask modes")
    a = ap.parse_args()
    modes: dict[str, list[str] | None] = {"--jobs 1": ["--jobs", "1"], f"{a.jobs} x --jobs 1 at once": None,
                                          f"--jobs {a.jobs}": ["--jobs", str(a.jobs)]}
    if not a.rounds:
        pass
    elif a.no_dask:
        scaling(a, modes)
    else:
        import dask
        from distributed import LocalCluster

        from ombre_rules.sim.runner import LEAN_DASK

        with dask.config.set(LEAN_DASK), \
                LocalCluster(n_workers=a.jobs, threads_per_worker=1, processes=True, dashboard_address=None) as c:
            simulate(a.variant, 4 * a.jobs, a.players, ["--dask", c.scheduler_address])  # rules loaded by every worker
            modes[f"--dask ({a.jobs} workers)"] = ["--dask", c.scheduler_address]
            modes[f"--dask local:{a.jobs}"] = ["--dask", f"local:{a.jobs}"]
            scaling(a, modes)
    if a.sizes:
        sizes(a)


if __name__ == "__main__":
    main()
