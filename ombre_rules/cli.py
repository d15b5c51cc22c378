"""The `ombre` command line."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from . import bench as bench_mod
from .book import cli as book_cli
from .engine import State
from .errors import OmbreError, SpecErrors
from .log import format_deal
from .players import act, make_player
from .ruleset import Ruleset, load

EPILOG = """examples:
  ombre variants
  ombre play VARIANT --seed 7
  ombre play "VARIANT(OPTION=CHOICE)" --seed 3 --record deal.json
  ombre play VARIANT --seed 7 --human 1
  ombre replay deal.json
  ombre check variants/*.yaml
  ombre test tests/scenarios
  ombre bench VARIANT --deals 5000 --seed 1 --json
  ombre bench-bots --deals 200 --decisions 100 --json
  ombre simulate VARIANT --deals 1000 --players greedy --seed 1 --jobs 2 --out deals.jsonl
  ombre compare VARIANT1 VARIANT2 --deals 2000 --seed 1 --out report/
  ombre rules VARIANT --format html --out rules.html
  ombre diff VARIANT "VARIANT(OPTION=CHOICE)"
  ombre reference --out docs/reference.md
  ombre serve --port 8000 --data ombre-data
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # exit 2 with a one-line reason, as argparse does, plus a hint
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n(see '{self.prog} --help')\n")


def _options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for p in pairs or []:
        if "=" not in p:
            raise OmbreError(f"bad --option '{p}' (expected key=value)")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _load(variant: str, pairs: list[str]) -> Ruleset:
    return load(variant, _options(pairs))


# -- commands -------------------------------------------------------------------------------------
def cmd_variants(args) -> int:
    from .spec.resolve import builtin_index, fmt_value, resolve

    seen = set()
    for _name, path in sorted(builtin_index().items(), key=lambda kv: kv[1]):
        if path in seen:
            continue
        seen.add(path)
        spec = resolve(path)
        d = spec.data
        aliases = ", ".join(d.get("aliases") or [])
        print(f"{d['id']:<16} {d.get('title', '')}" + (f"  (aliases: {aliases})" if aliases else ""))
        for key, o in (d.get("options") or {}).items():
            choices = "|".join(fmt_value(c) for c in spec.choices[key])
            print(f"    {key}={fmt_value(spec.defaults[key])}  [{choices}]" + (f"  {o['doc']}" if o.get("doc") else ""))
    return 0


def check_variant(path: str) -> list[str]:
    """Every problem of a variant file: with its default options and with each other choice of each option."""
    from .spec.resolve import resolve

    problems: list[str] = []
    try:
        spec = resolve(path)
    except SpecErrors as e:
        return [str(x) for x in e.errors]
    except OmbreError as e:
        return [str(e)]
    runs = [{}] + [{k: c} for k, cs in spec.choices.items() for c in cs if c != spec.defaults[k]]
    for sel in runs:
        try:
            rules = load(path, sel)
            for ctx in list(rules._contexts.values()):
                for fid in range(len(rules.follow_lists)):
                    ctx.follow(fid)
        except SpecErrors as e:
            problems += [str(x) for x in e.errors]
        except OmbreError as e:
            problems.append(str(e))
    out = []
    for p in problems:
        if p not in out:
            out.append(p)
    return out


def cmd_check(args) -> int:
    bad = 0
    for path in args.files:
        problems = check_variant(path)
        for p in problems:
            print(p, file=sys.stderr)
        if problems:
            bad += 1
        else:
            print(f"{path}: ok")
    return 1 if bad else 0


def _human_turn(state: State, seat: int) -> int:
    v = state.view(seat)
    print(f"\n-- seat {seat}, {v['phase']} --")
    print(f"hand: {' '.join(v['hand'])}")
    if v["trump"]:
        who = f"; contract {v['contract']} by seat {v['declarer']}" if v["contract"] else ""
        print(f"trumps: {v['trump']}{who}")
    if v["current_trick"]:
        print(f"trick so far: {' '.join(v['current_trick'])}")
    print("legal: " + ", ".join(v["legal"]))
    while True:
        try:
            text = input(f"seat {seat}> ")
        except EOFError:
            raise KeyboardInterrupt from None
        try:
            a = state.rules.parse_action(text)
        except OmbreError as e:
            print(f"not understood: {e.message}")
            continue
        if a not in state.legal_actions():
            from .book.why import why_illegal

            why = why_illegal(state, a)
            print(f"'{state.rules.action_str(a)}' is not legal now{' (' + why + ')' if why else ''}; "
                  f"legal: {', '.join(v['legal'])}")
            continue
        return a


def cmd_play(args) -> int:
    from .records import to_record, write

    rules = _load(args.variant, args.option)
    n = rules.players
    if args.human is not None and not 0 <= args.human < n:
        raise OmbreError(f"--human must be a seat from 0 to {n - 1}")
    if not 0 <= args.dealer < n:
        raise OmbreError(f"--dealer must be a seat from 0 to {n - 1}")
    names = (args.players or "random").split(",")
    if len(names) == 1:
        names *= n
    if len(names) != n:
        raise OmbreError(f"--players names {len(names)} players; {rules.variant} has {n} seats")
    players = [make_player(nm, args.seed * 1000 + i, rules) for i, nm in enumerate(names)]
    state = State(rules, seed=args.seed, dealer=args.dealer)
    shown = 0

    def show_new() -> None:  # the log lines the watching seat has not seen yet
        nonlocal shown
        lines = format_deal(state, viewer=args.human)
        if lines[shown:]:
            print("\n".join(lines[shown:]))
        shown = len(lines)

    while not state.is_terminal:
        seat = state.current_player
        if seat == args.human:
            show_new()
            a = _human_turn(state, seat)
        else:
            a = act(players[seat], state, seat)
        state.apply(a)
    show_new()
    if args.record:
        write(args.record, [to_record(state)])
        print(f"record written to {args.record}")
    return 0


def cmd_replay(args) -> int:
    from .records import ReplayError, read, replay

    recs = read(args.file)
    for i, rec in enumerate(recs):
        try:
            rep = replay(rec)
        except ReplayError as e:
            raise ReplayError(f"{args.file}: record {i + 1}: {e.message}") from None
        res = rep.result or {}
        print(f"{args.file}: record {i + 1}: {rep.variant}: {rep.actions} actions replayed; "
              f"outcome {res.get('outcome')}, payments {res.get('payments')}: identical")
    return 0


def cmd_bench(args) -> int:
    if args.deals < 1:
        raise OmbreError("--deals must be at least 1")
    rules = _load(args.variant, args.option)
    out = bench_mod.run(rules, args.deals, args.seed, loop=args.loop)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['variant']}: {out['deals']} deals in {out['seconds']:.2f}s = {out['deals_per_s']:.0f} deals/s "
              f"({out['actions_per_deal']} actions/deal, {out['loop']} loop)")
        print(f"contracts: {out['contracts']}")
        print(f"outcomes: {out['outcomes']}")
    return 0


def cmd_bench_bots(args) -> int:
    from .sim import speed

    if args.deals < 1:
        raise OmbreError("--deals must be at least 1")
    if args.decisions < 1:
        raise OmbreError("--decisions must be at least 1")
    variants = args.variants or speed.builtin_variants()
    for v in variants:
        load(v)  # a bad name fails before any timing starts
    rows = speed.measure(variants, args.deals, args.decisions, args.seed)
    if args.json:
        print(json.dumps({"deals": args.deals, "decisions": args.decisions, "seed": args.seed, "variants": rows}))
    else:
        print(speed.table(rows))
    return 0


def _players(rules: Ruleset, text: str) -> list[str]:
    names = [x.strip() for x in text.split(",")]
    if len(names) == 1:
        names *= rules.players
    if len(names) != rules.players:
        raise OmbreError(f"--players names {len(names)} players; {rules.variant} has {rules.players} seats")
    for nm in set(names):
        make_player(nm, 0, rules)
    return names


def _run_checks(args) -> None:
    if args.deals < 1:
        raise OmbreError("--deals must be at least 1")
    if args.jobs < 1:
        raise OmbreError("--jobs must be at least 1")


def cmd_simulate(args) -> int:
    from .sim.runner import collect, run
    from .sim.stats import metrics

    _run_checks(args)
    opts = _options(args.option)
    rules = load(args.variant, opts)
    names = _players(rules, args.players)
    out = None
    if args.out:
        try:
            out = open(args.out + ".part", "w", encoding="utf-8")
        except OSError as e:
            raise OmbreError(f"cannot write '{args.out}': {e.strerror or e}") from None

    def sink(line: dict) -> None:
        if out is not None:
            out.write(json.dumps(line, separators=(",", ":")) + "\n")

    t0 = time.perf_counter()
    try:
        lines, stopped = collect(run(args.variant, opts, names, args.seed, args.deals, args.jobs, args.dask),
                                 args.deals, rules.variant, sink)
    finally:
        if out is not None:
            out.close()
            os.replace(args.out + ".part", args.out)
    dt = time.perf_counter() - t0
    m = metrics(lines, rules.players) if lines else None
    print(f"{rules.variant}: {len(lines)} deals in {dt:.2f}s = {len(lines) / max(dt, 1e-9):.1f} deals/s "
          f"(players {','.join(names)}, seed {args.seed})" + ("; interrupted" if stopped else ""))
    if m:
        print("contracts: " + ", ".join(f"{c} {d['count']}" for c, d in m["contract_mix"].items()))
        print("outcomes: " + ", ".join(f"{o} {d['count']}" for o, d in m["outcomes"].items()))
        ds = m["declarer_success"]
        print(f"declarer wins: {ds['count']} of {sum(1 for x in lines if x['contract'])} played "
              f"({100 * ds['rate']:.1f}%)")
        totals = [sum(x["payments"][k] for x in lines) for k in range(rules.players)]
        print("net payments by seat: " + ", ".join(f"seat {k} ({names[k]}) {t:+d}" for k, t in enumerate(totals)))
    if args.out:
        print(f"{len(lines)} lines written to {args.out}")
    return 130 if stopped else 0


def cmd_compare(args) -> int:
    from .sim import report
    from .sim.runner import collect, run
    from .sim.stats import metrics

    _run_checks(args)
    opts = _options(args.option)
    loaded = []
    for v in args.variants:
        rules = load(v, opts if len(args.variants) == 1 else {})
        loaded.append((v, rules))
    results: dict[str, dict] = {}
    stopped = False
    for v, rules in loaded:
        names = _players(rules, args.players)
        lines, stopped = collect(run(v, opts if len(args.variants) == 1 else {}, names, args.seed, args.deals,
                                     args.jobs, args.dask), args.deals, rules.variant)
        if lines:
            results[rules.variant] = metrics(lines, rules.players)
        if stopped:
            break
    if not results:
        print("ombre: interrupted before any deal was done", file=sys.stderr)
        return 130
    meta = {"deals": args.deals, "seed": args.seed, "players": [args.players], "variants": list(results),
            "interrupted": stopped}
    files = report.write(results, meta, args.out)
    print(report.table(results))
    print(f"written to {args.out}: {', '.join(files)}")
    if not any(f.endswith(".png") for f in files):
        print("(no charts: install the 'plot' extra, pip install 'ombre_rules[plot]')")
    return 130 if stopped else 0


def cmd_test(args) -> int:
    from .scenario import run_file

    files: list[str] = []
    for p in args.files:
        if os.path.isdir(p):
            for root, _dirs, fs in os.walk(p):
                files += [os.path.join(root, f) for f in sorted(fs) if f.endswith((".yaml", ".yml"))]
        else:
            files.append(p)
    if not files:
        raise OmbreError("no scenario files given")
    cache: dict = {}
    passed = failed = 0
    for f in sorted(files):
        try:
            rep = run_file(f, cache)
        except OmbreError as e:
            print(str(e), file=sys.stderr)
            failed += 1
            continue
        passed += len(rep.passed)
        failed += len(rep.failures)
        for fl in rep.failures:
            print(str(fl), file=sys.stderr)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="ombre", description="Play, check and test games of the Ombre family, each defined by a "
                "YAML variant file.", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    s = sub.add_parser("variants", help="list the built-in variants and their options")
    s.set_defaults(fn=cmd_variants)
    s = sub.add_parser("check", help="validate variant files (file:line:col messages, exit 1 on errors)")
    s.add_argument("files", nargs="+", metavar="FILE")
    s.set_defaults(fn=cmd_check)
    s = sub.add_parser("play", help="play one deal with bots (or a person) and print its log")
    s.add_argument("variant", metavar="VARIANT|FILE", help="a built-in variant, NAME(key=value,...), or a file")
    s.add_argument("--seed", type=int, default=0, help="seed of the deal and the bots (default 0)")
    s.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set a variant option (repeatable)")
    s.add_argument("--players", metavar="P1,P2,...", help="bot per seat (default random)")
    s.add_argument("--human", type=int, metavar="SEAT", help="play this seat yourself at the terminal")
    s.add_argument("--record", metavar="FILE", help="write the deal's JSON record to FILE")
    s.set_defaults(fn=cmd_play)
    s = sub.add_parser("replay", help="re-run a JSON record and verify it")
    s.add_argument("file", metavar="FILE")
    s.set_defaults(fn=cmd_replay)
    s = sub.add_parser("bench", help="time random legal play")
    s.add_argument("variant", metavar="VARIANT|FILE")
    s.add_argument("--deals", type=int, default=5000, help="deals to play (default 5000)")
    s.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set a variant option (repeatable)")
    s.add_argument("--json", action="store_true", help="end with one JSON line (includes deals_per_s)")
    s.add_argument("--loop", choices=bench_mod.LOOPS, default="playout",
                   help="playout: State.random_playout (default); api: the public legal_actions/apply loop, "
                        "which takes the same actions")
    s.set_defaults(fn=cmd_bench)
    s = sub.add_parser("bench-bots", help="time the bots: greedy deals/s and Monte-Carlo time per decision",
                       description="Time the bots on each variant, in one run and one process: deals per second "
                       "of 'simulate' with greedy players at every seat (the same deals it plays), and the time "
                       "of one Monte-Carlo (pimc) decision at its default budget, with pimc at one seat (the "
                       "seat moves round deal by deal) and greedy at the others. Decisions with a single legal "
                       "action are not timed.")
    s.add_argument("variants", nargs="*", metavar="VARIANT|FILE",
                   help="variants to time (default: every built-in variant)")
    s.add_argument("--deals", type=int, default=200, help="greedy deals to time per variant (default 200)")
    s.add_argument("--decisions", type=int, default=100, help="pimc decisions to time per variant (default 100)")
    s.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    s.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    s.set_defaults(fn=cmd_bench_bots)
    from .players import HELP as players_help

    s = sub.add_parser("simulate", help="play many deals with bots: one JSON line per deal and a summary",
                       description="Play many deals with bots. Deal i has its own seed (from --seed and i), "
                       "dealer i mod players and an empty pool, so the lines are the same whatever --jobs is.")
    s.add_argument("variant", metavar="VARIANT|FILE", help="a built-in variant, NAME(key=value,...), or a file")
    _sim_args(s, players_help)
    s.add_argument("--out", metavar="FILE.jsonl", help="write one JSON line per deal to this file")
    s.set_defaults(fn=cmd_simulate)
    s = sub.add_parser("compare", help="compare variants over the same deal seeds: report, charts, CSV, JSON",
                       description="Simulate each variant over the same deal seeds (common random numbers) and "
                       "compare contract mix, pass-out rate, declarer success, outcomes, payments, seat "
                       "advantage and deal length, with 95%% confidence intervals.")
    s.add_argument("variants", nargs="+", metavar="VARIANT|FILE")
    _sim_args(s, players_help)
    s.add_argument("--out", metavar="DIR", required=True, help="folder for report.md, metrics.csv/json, charts")
    s.set_defaults(fn=cmd_compare)
    s = sub.add_parser("test", help="run scenario files (or folders of them)")
    s.add_argument("files", nargs="+", metavar="SCENARIO")
    s.set_defaults(fn=cmd_test)
    book_cli.add_parsers(sub)
    from .web import serve

    s = sub.add_parser("serve", help="a card table in the browser: people and bots at shared tables")
    serve.add_arguments(s)
    s.set_defaults(fn=serve.cmd_serve)
    return p


def _sim_args(s, players_help: str) -> None:
    s.add_argument("--deals", type=int, default=1000, help="deals to play (default 1000)")
    s.add_argument("--players", default="greedy", metavar="P1,P2,...",
                   help=f"one player for every seat, or one per seat (default greedy): {players_help}")
    s.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    s.add_argument("--jobs", type=int, default=1, metavar="K", help="local processes to use (default 1)")
    s.add_argument("--dask", metavar="ADDRESS", help="run on the Dask cluster with this scheduler address "
                   "(needs the 'dask' extra)")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set a variant option (repeatable)")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.fn(args)
    except SpecErrors as e:
        for x in e.errors:
            print(str(x), file=sys.stderr)
        return 1
    except OmbreError as e:
        print(f"ombre: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nombre: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
