"""A bounded load test of `ombre serve` on loopback (not part of the test run):

    python -m ombre_rules.web.load --variant VARIANT --tables 50

starts the server in a process of its own, opens N tables of one scripted person and greedy bots, plays them
all at once, and reports the time from the person's action (the POST) to the view that shows it (over the
WebSocket): median and 95th percentile, and the server's memory (resident, with its bot workers)."""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def memory(pid: int) -> tuple[int, int]:
    """Resident memory in KiB of the server process, and of it with every process it started."""
    own = _rss_kib(pid)
    total, todo = own, _children(pid)
    while todo:
        c = todo.pop()
        total += _rss_kib(c)
        todo += _children(c)
    return own, total


async def _table(client, url: str, variant: str, deals: int, seed: int, players: int, lat: list[float],
                 posts: list[float]) -> None:
    import websockets

    seats = ["human"] + ["greedy"] * (players - 1)
    r = await client.post(f"{url}/api/tables", json={"variant": variant, "seats": seats, "deals": deals, "seed": seed})
    r.raise_for_status()
    t = r.json()
    tok = t["seats"][0]["url"].split("?t=")[1]
    ws_url = url.replace("http", "ws", 1) + f"/ws/tables/{t['id']}?t={tok}"
    async with websockets.connect(ws_url, max_size=None) as ws:
        view = json.loads(await ws.recv())
        while True:
            st = view["state"]
            if st["phase"] == "done":
                if view["table"]["finished"]:
                    return
                await client.post(f"{url}/api/tables/{t['id']}/next", json={"token": tok})
            elif st["controls"]:
                moves = (view["table"]["deal"], len(st["actions"]))
                t0 = time.perf_counter()
                r = await client.post(f"{url}/api/tables/{t['id']}/act",
                                      json={"token": tok, "action": st["controls"][0]["action"]})
                r.raise_for_status()
                posts.append(time.perf_counter() - t0)
                while True:
                    view = json.loads(await ws.recv())
                    if (view["table"]["deal"], len(view["state"]["actions"])) > moves:
                        break
                lat.append(time.perf_counter() - t0)
                continue
            view = json.loads(await ws.recv())


async def _part(url: str, variant: str, deals: int, seeds: list[int]) -> tuple[list[float], list[float]]:
    """Play some of the tables (one client process's share); the latencies seen."""
    import httpx

    players = httpx.get(f"{url}/api/variants/{variant}").json()["seats"]
    lat: list[float] = []
    posts: list[float] = []
    limits = httpx.Limits(max_connections=len(seeds) * 2)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        await asyncio.gather(*(_table(client, url, variant, deals, seed, players, lat, posts) for seed in seeds))
    return lat, posts


def _client(job: tuple[str, str, int, list[int]]) -> tuple[list[float], list[float]]:
    return asyncio.run(_part(*job))


def _run(url: str, args, pid: int) -> dict:
    """Play the tables from `args.clients` client processes while sampling the server's memory."""
    seeds = [args.seed + i for i in range(args.tables)]
    jobs = [(url, args.variant, args.deals, seeds[k::args.clients]) for k in range(args.clients)]
    peak = [0, 0]
    t0 = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.clients) as pool:
        res = pool.map_async(_client, jobs)
        while not res.ready():
            own, total = memory(pid)
            peak[0], peak[1] = max(peak[0], own), max(peak[1], total)
            res.wait(0.2)
        parts = res.get()
    wall = time.perf_counter() - t0
    lat = sorted(x for p in parts for x in p[0])
    posts = sorted(x for p in parts for x in p[1])
    return {"tables": args.tables, "deals_per_table": args.deals, "variant": args.variant, "clients": args.clients,
            "actions_timed": len(lat), "median_ms": round(statistics.median(lat) * 1000, 1),
            "p95_ms": round(lat[max(0, int(len(lat) * 0.95) - 1)] * 1000, 1),
            "max_ms": round(lat[-1] * 1000, 1), "post_median_ms": round(statistics.median(posts) * 1000, 1),
            "wall_s": round(wall, 1),
            "server_rss_mib": round(peak[0] / 1024, 1), "server_with_workers_rss_mib": round(peak[1] / 1024, 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ombre_rules.web.load", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=50, help="tables played at once (default 50)")
    p.add_argument("--deals", type=int, default=1, help="deals per table (default 1)")
    p.add_argument("--variant", required=True, help="key of the variant the tables play (a built-in id)")
    p.add_argument("--workers", type=int, default=2, help="the server's bot processes (default 2)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first table (default 1)")
    p.add_argument("--clients", type=int, default=4, help="client processes the tables are shared among (default 4)")
    args = p.parse_args(argv)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "ombre_rules", "serve", "--port", str(port), "--data", data,
                                   "--bot-delay", "0", "--workers", str(args.workers),
                                   "--tables-per-hour", str(max(30, args.tables)), "--cold"], stderr=subprocess.DEVNULL)
        try:
            _wait(url)
            out = _run(url, args, server.pid)
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps(out))
    return 0


def _wait(url: str) -> None:
    import httpx

    end = time.time() + 30
    while time.time() < end:
        try:
            httpx.get(url + "/api/variants", timeout=2)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


if __name__ == "__main__":
    sys.exit(main())
