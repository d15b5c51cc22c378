"""The simulator streams: statistics accumulated line by line equal those computed from the whole list, lines
reach their sinks (and --out) as they are played, and only a bounded number of chunks is ever in flight."""
import json
import math
import random
import re
import signal
import statistics
from collections import Counter
from concurrent.futures import Future
from itertools import islice

import pytest

from ombre_rules import load
from ombre_rules.cli import main
from ombre_rules.sim import runner
from ombre_rules.sim.coverage import Coverage, coverage
from ombre_rules.sim.inference import bca
from ombre_rules.sim.paired import differences
from ombre_rules.sim.runner import PACES, WINDOW, Pacer, collect, ordered, play_chunk
from ombre_rules.sim.stats import Metrics, Moments, by_player, metrics, per_deal, win_score

PROC, DASK = PACES["processes"], PACES["dask"]
FIRST_CHUNK = PROC.first

CB = "ombre(all_pass=contrabola)"


def _ref_ci(xs):
    """The list-based mean, sd and interval (the sd correctly rounded, as `statistics.stdev` gives it)."""
    m = sum(xs) / len(xs)
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    half = 1.959963984540054 * sd / math.sqrt(len(xs))
    return {"mean": m, "sd": sd, "ci": [m - half, m + half]}


def _ref_balance(scores, idx):
    rates = [sum(col) / len(idx) for col in zip(*[scores[i] for i in idx], strict=True)]
    return 1.0 - (max(rates) - min(rates))


def _ref_balance_of(counts):
    """Balance from how many deals had each tuple of win scores by position (list-based: no codes)."""
    n = sum(counts.values())
    players = len(next(iter(counts)))
    return 1.0 - (max(rates := [sum(k * sc[p] for sc, k in counts.items()) / n for p in range(players)])
                  - min(rates))


def _ref_boot(stat, scores):
    """The BCa interval of `stat` over the deals' tuples of win scores counted in deal order (the categories in
    the order they first occur, as the streamed codes count them)."""
    got = bca(stat, Counter(tuple(sc) for sc in scores))
    return {k: got[k] for k in ("ci", "p", "bias")}


def _scores(x, players):
    return [win_score(x["payments"][(x["dealer"] + 1 + k) % players]) for k in range(players)]


def _moments(xs):
    m = Moments()
    for x in xs:
        m.add(x)
    return m


def test_moments_of_integers_are_exact_and_of_floats_as_the_list_sum():
    rng = random.Random(3)
    for n in (2, 3, 17, 500):
        ints = [rng.randrange(-400, 400) for _ in range(n)]
        assert _moments(ints).ci() == _ref_ci(ints)  # mean, correctly rounded sd, interval: all exact
        floats = [rng.randrange(9) / 7 + 100 for _ in range(n)]
        got, want = _moments(floats).ci(), _ref_ci(floats)
        assert got["mean"] == want["mean"]  # the same sum in the same order
        assert got["sd"] == pytest.approx(want["sd"], rel=1e-12)
    assert _moments([]).ci() == {"mean": 0.0, "sd": 0.0, "ci": [0.0, 0.0]}
    assert _moments([7]).ci() == {"mean": 7.0, "sd": 0.0, "ci": [7.0, 7.0]}
    parts = [[rng.randrange(-50, 50) for _ in range(k)] for k in (5, 0, 9, 1)]
    whole = _moments([x for p in parts for x in p])
    merged = Moments.merged(_moments(p) for p in parts)
    assert (merged.n, merged.s, merged.t, merged.q) == (whole.n, whole.s, whole.t, whole.q)


@pytest.mark.parametrize("variant,names,deals", [("ombre", ["greedy", "random", "greedy"], 60),
                                                 ("quadrille", ["random"] * 4, 40)])
def test_streamed_metrics_equal_the_list_based_ones(variant, names, deals):
    lines = play_chunk(variant, {}, names, 8, 0, deals)
    p = len(names)
    m = Metrics(p)
    for x in iter(lines):
        m.add(x)
    got = m.result()
    played = [x for x in lines if x["contract"] is not None]
    assert got["deals"] == deals
    assert {c: d["count"] for c, d in got["contract_mix"].items()} == \
        {c: sum(1 for x in lines if (x["contract"] or "passed out") == c) for c in got["contract_mix"]}
    assert got["declarer_success"]["count"] == sum(1 for x in played if x["payments"][x["declarer"]] > 0)
    assert got["declarer_payment"] == _ref_ci([x["payments"][x["declarer"]] for x in played])
    assert got["Duration"] == _ref_ci([x["actions"] for x in lines])
    assert got["seat_payment"] == [_ref_ci([x["payments"][k] for x in lines]) for k in range(p)]
    deals_ = [per_deal(x, p) for x in lines]
    assert got["position_payment"] == [_ref_ci([d[f"payment_position_{k}"] for d in deals_]) for k in range(p)]
    pays = [q for x in lines for q in x["payments"]]
    assert got["payment_sd"] == statistics.stdev(pays)
    assert got["payment_spread"] == sum(abs(q) for q in pays) / len(pays)
    for key in ("LeadChange", "Drama", "DecisionMoves", "AdvantageP1"):
        xs = [d[key] for d in deals_ if d[key] is not None]
        assert got[key]["mean"] == sum(xs) / len(xs)
        assert got[key]["sd"] == pytest.approx(statistics.stdev(xs), rel=1e-12)
    scores = [_scores(x, p) for x in lines]
    assert got["position_win_rate"] == [sum(s[k] for s in scores) / deals for k in range(p)]
    assert got["Balance"]["value"] == _ref_balance(scores, range(deals))
    ref = _ref_boot(_ref_balance_of, scores)
    assert got["Balance"]["ci"] == pytest.approx(ref["ci"], rel=1e-12, abs=1e-15)
    assert (got["Balance"]["p"], got["Balance"]["bias"]) == pytest.approx((ref["p"], ref["bias"]), abs=1e-12)
    assert got == metrics(iter(lines), p)
    players = by_player(m, names)
    assert list(players) == list(dict.fromkeys(names))
    for nm, d in players.items():
        assert d["seats"] == [k for k, x in enumerate(names) if x == nm]
        mine = [x["payments"][k] for x in lines for k in d["seats"]]
        assert {k: v for k, v in d.items() if k != "win_rate"} == {"seats": d["seats"], **_ref_ci(mine)}
        assert d["win_rate"] == sum(win_score(q) for q in mine) / len(mine)


def test_streamed_differences_equal_the_list_based_ones():
    a = play_chunk("ombre", {}, ["greedy"] * 3, 5, 0, 50)
    b = play_chunk(CB, {}, ["greedy"] * 3, 5, 0, 30)  # the second variant stopped after 30 deals
    d = differences(iter(a), iter(b), 3, 3)
    pairs = list(zip(a, b, strict=False))
    for key in ("Duration", "declarer_payment", "LeadChange", "pass_out_rate"):
        diffs = [pb[key] - pa[key] for pa, pb in ((per_deal(x, 3), per_deal(y, 3)) for x, y in pairs)
                 if pa[key] is not None and pb[key] is not None]
        got = d["measures"][key]
        assert got["pairs"] == len(diffs) and got["mean"] == sum(diffs) / len(diffs)
        assert got["ci"] == pytest.approx(_ref_ci(diffs)["ci"], rel=1e-12, abs=1e-15)
    assert d["deals_differing"] == {"pairs": 30, "play": sum(1 for x, y in pairs if x["history"] != y["history"]),
                                    "result": sum(1 for x, y in pairs if (x["outcome"], x["payments"]) !=
                                                  (y["outcome"], y["payments"]))}
    sa, sb = [_scores(x, 3) for x, _y in pairs], [_scores(y, 3) for _x, y in pairs]
    assert d["Balance"]["value"] == pytest.approx(_ref_balance(sb, range(30)) - _ref_balance(sa, range(30)),
                                                  abs=1e-15)

    def diff(joint):  # a category is the tuple of both variants' win scores, the first variant's first
        a, b = Counter(), Counter()
        for sc, k in joint.items():
            a[sc[:3]] += k
            b[sc[3:]] += k
        return _ref_balance_of(b) - _ref_balance_of(a)

    ref = _ref_boot(diff, [x + y for x, y in zip(sa, sb, strict=True)])
    assert d["Balance"]["ci"] == pytest.approx(ref["ci"], rel=1e-12, abs=1e-15)
    assert d["Balance"]["p"] == ref["p"]


def test_coverage_keeps_counts_not_deals():
    lines = play_chunk(CB, {}, ["random"] * 3, 2, 0, 80)
    c = Coverage()
    for x in lines:
        c.add(x)
    assert c.deals == 80 and sum(c.seen.values()) == 80 and len(c.seen) < 40
    rules = load(CB)
    assert c.result(rules) == coverage(iter(lines), rules)
    assert c.count(lambda r: r.contract == "contrabola") == sum(1 for x in lines if x["contract"] == "contrabola")


def test_collect_hands_each_line_on_before_taking_the_next():
    seen = []

    def lines():
        for i in range(5):
            assert len(seen) == i  # every earlier line is already with the sink
            yield {"deal": i}

    assert collect(lines(), 5, "x", seen.append, quiet=True) == (5, False)
    assert [x["deal"] for x in seen] == [0, 1, 2, 3, 4]


def test_ctrl_c_in_a_sink_lets_the_line_finish():
    first, second = [], []

    def sink(x):
        first.append(x["deal"])
        if x["deal"] == 2:
            signal.raise_signal(signal.SIGINT)
        second.append(x["deal"])  # still reached: the interrupt waits until the line is passed on

    # Python's own handler, as a command starts with (a test run before this one may have left another)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert collect(({"deal": i} for i in range(9)), 9, "x", sink, quiet=True) == (3, True)
        assert first == second == [0, 1, 2]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, old)


def test_simulate_writes_lines_while_the_run_goes(tmp_path, monkeypatch, capsys):
    out = tmp_path / "deals.jsonl"
    real = runner.run
    looked = []

    def watched(*args, **kw):
        for k, line in enumerate(real(*args, **kw)):
            if k == 80:  # the run is not over: what --out holds so far is in its temporary file
                assert not out.exists()
                (part,) = tmp_path.glob(".deals.jsonl.*.part")
                text = part.read_text()
                looked.append([json.loads(x) for x in text[:text.rfind("\n") + 1].splitlines()])
            yield line

    monkeypatch.setattr(runner, "run", watched)
    assert main(["simulate", "ombre", "--players", "random", "--deals", "100", "--seed", "3", "--out", str(out)]) == 0
    (early,) = looked
    assert len(early) >= 50  # all but what the file's buffer holds
    assert early == [json.loads(x) for x in out.read_text().splitlines()][:len(early)]
    assert "100 lines written" in capsys.readouterr().out


class _Done(Future):
    def __init__(self, value, log):
        super().__init__()
        self.set_result(value)
        self.log = log

    def result(self, timeout=None):
        self.log["taken"] += 1
        return super().result()


def test_ordered_keeps_at_most_window_parts_in_flight():
    log = {"submitted": 0, "taken": 0, "most": 0}

    def submit(first, count):
        log["submitted"] += 1
        log["most"] = max(log["most"], log["submitted"] - log["taken"])
        return _Done((first, count), log)

    parts = [(10 * i, 10) for i in range(100)]
    got = list(ordered(submit, iter(parts), 6))
    assert got == parts and log["most"] == 6
    early = ordered(submit, iter(parts), 4)
    assert next(early) == parts[0]
    early.close()  # the consumer stops: nothing more is submitted
    assert log["submitted"] == len(parts) + 5


def test_run_on_processes_bounds_the_chunks_in_flight(monkeypatch):
    """`run` with jobs: never more than WINDOW chunks a worker submitted and not yet taken (an executor that
    plays each chunk at once in this process stands in for the pool)."""
    import concurrent.futures

    log = {"submitted": 0, "taken": 0, "most": 0}

    class Pool:
        def __init__(self, jobs, initializer, initargs):
            initializer(*initargs)
            signal.signal(signal.SIGINT, signal.default_int_handler)  # the worker's start, undone here

        def submit(self, fn, *args):
            log["submitted"] += 1
            log["most"] = max(log["most"], log["submitted"] - log["taken"])
            return _Done(fn(*args), log)

        def shutdown(self, wait, cancel_futures):
            pass

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)
    pacers = []
    monkeypatch.setattr(runner, "Pacer", lambda *a: pacers.append(Pacer(*a)) or pacers[-1])
    events = []
    lines = runner.run("ombre-a-dos", {}, ["random"] * 2, 1, 300, jobs=2,
                       ready=lambda: events.append(("ready", log["submitted"])))
    lines = [events.append("line") or x for x in lines]
    assert [x["deal"] for x in lines] == list(range(300))
    # one start-up task a worker, then the window of chunks; `ready` between them, before any line
    assert events[0] == ("ready", 2) and events[1:] == ["line"] * 300
    sizes = pacers[0].sizes
    assert log["most"] == WINDOW * 2 and log["submitted"] == 2 + len(sizes) and sum(sizes) == 300
    assert sizes[:WINDOW * 2] == [FIRST_CHUNK] * (WINDOW * 2)  # sent before any chunk came back
    assert lines == play_chunk("ombre-a-dos", {}, ["random"] * 2, 1, 0, 300)


def test_chunks_shrink_towards_the_end():
    for deals, workers in ((1, 1), (7, 3), (2000, 2), (100_000, 4)):
        pacer = Pacer(deals, workers, PROC._replace(least_seconds=0.0))
        pacer.took((0.0, [{}] * 10))  # deals that cost nothing: PROC.most at most, and no least beyond one deal
        parts = list(pacer.parts())
        assert [f for f, _c in parts] == [sum(c for _f, c in parts[:i]) for i in range(len(parts))]
        sizes = [c for _f, c in parts]
        assert sum(sizes) == deals and max(sizes) <= PROC.most and sizes == sorted(sizes, reverse=True)
        assert sizes[-2 * workers + 1:] == [1] * min(len(sizes), 2 * workers - 1)


def test_dask_local_form(capsys):
    pytest.importorskip("distributed")
    here = list(runner.run("ombre", {}, ["greedy", "random", "greedy"], 6, 30))
    events = []
    there = [events.append("line") or x for x in runner.run("ombre", {}, ["greedy", "random", "greedy"], 6, 30,
                                                           dask="local:2", ready=lambda: events.append("ready"))]
    assert there == here and events == ["ready"] + ["line"] * 30


def _settings(keys):
    import dask

    return [dask.config.get(k) for k in keys]


def test_local_dask_workers_run_without_the_profiler():
    pytest.importorskip("distributed")
    keys = sorted(runner.LEAN_DASK)
    with runner._client("local:1") as client:
        seen = list(client.run(_settings, keys).values())
    # the system monitor, the tick, the memory monitor, the profiler: as LEAN_DASK sets them, in the worker
    assert seen == [["5s", "1s", "1s", False]]


def test_one_process_is_ready_before_its_first_deal():
    events = []
    lines = runner.run("ombre-a-dos", {}, ["random"] * 2, 1, 3, ready=lambda: events.append("ready"))
    assert [events.append("line") or x["deal"] for x in lines] == [0, 1, 2]
    assert events == ["ready", "line", "line", "line"]


def test_simulate_says_how_long_it_took_to_set_up(capsys):
    from ombre_rules.cli import main

    assert main(["simulate", "ombre-a-dos", "--deals", "6", "--jobs", "2", "-q"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert re.fullmatch(r"ombre-a-dos: 6 deals in \d+\.\d\ds = [\d.]+ deals/s \(players greedy,greedy, seed 1; "
                        r"set up in \d+\.\d\ds before it(; shut down in \d+\.\d\ds after it)?\)", first), first
    assert main(["simulate", "ombre-a-dos", "--deals", "6", "-q"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert re.fullmatch(r"ombre-a-dos: 6 deals in \d+\.\d\ds = [\d.]+ deals/s \(players greedy,greedy, seed 1"
                        r"(; set up in \d+\.\d\ds before it)?\)", first), first
    assert main(["simulate", "ombre", "--deals", "2", "--dask", "local:0"]) == 1
    assert "bad --dask 'local:0' (expected a scheduler address or local:N, 0 < N <= 256)" in capsys.readouterr().err


def test_the_pacer_sizes_chunks_by_the_play_time_reported():
    p = Pacer(2000, 2, PROC._replace(least_seconds=0.05))
    parts = p.parts()
    first = [next(parts) for _ in range(3)]
    assert first == [(0, FIRST_CHUNK), (FIRST_CHUNK, FIRST_CHUNK), (2 * FIRST_CHUNK, FIRST_CHUNK)]
    p.took((0.4, [{}] * 100))  # 4 ms a deal: chunks of 0.2 s are 50 deals, none shorter than 0.05 s (12)
    rest = list(parts)
    sizes = [c for _f, c in first + rest]
    assert [f for f, _c in first + rest] == [sum(sizes[:i]) for i in range(len(sizes))] and sum(sizes) == 2000
    # 50 while half a worker's share of what is left is more, then that half, down to 12 and the rest
    left = 2000 - 3 * FIRST_CHUNK
    want = []
    while left:
        want.append(min(left, max(12, min(50, left // 4))))
        left -= want[-1]
    assert sizes[3:] == want and want[:3] == [50, 50, 50] and want[-2:] == [12, 9]


def test_the_first_chunks_are_at_most_half_a_workers_share():
    assert [c for _f, c in islice(Pacer(2000, 2, DASK).parts(), 3)] == [16, 16, 16]
    assert [c for _f, c in Pacer(40, 2, DASK).parts()] == [10, 7, 5, 4, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1]
    assert [c for _f, c in Pacer(6, 2, PROC).parts()] == [1] * 6


def test_the_pacer_keeps_chunks_of_cheap_deals_at_most_its_most():
    p = Pacer(3000, 2, PROC._replace(least_seconds=0.05))
    parts = p.parts()
    head = next(parts)
    p.took((0.001, [{}] * 100))  # 10 microseconds a deal
    sizes = [head[1]] + [c for _f, c in parts]
    assert PROC.most == 250 and sizes == [FIRST_CHUNK] + [250] * 11 + [3000 - FIRST_CHUNK - 11 * 250]


def test_dask_chunks_are_longer_than_local_ones():
    # 0.5 ms a deal: a chunk of one second of play on Dask (2000 deals, 1000 at most), of 0.2 s locally (400,
    # 250 at most); near the end no shorter than 0.15 s (300 deals) on Dask, 5 ms (10 deals) locally
    sizes = {}
    for name, pace in PACES.items():
        p = Pacer(20_000, 2, pace)
        parts = p.parts()
        head = next(parts)
        p.took((0.05, [{}] * 100))
        sizes[name] = [head[1]] + [c for _f, c in parts]
    assert sizes["dask"] == [16] + [1000] * 16 + [996, 747, 560, 420, 315, 300, 300, 300, 46]
    assert sizes["processes"] == [4] + [250] * 76 + [249, 186, 140, 105, 79, 59, 44, 33, 25, 19, 14, 10, 10, 10, 10, 3]
    assert sum(sizes["dask"]) == sum(sizes["processes"]) == 20_000
