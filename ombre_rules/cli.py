"""The `ombre` command line."""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from typing import NoReturn

from . import __version__, book_cli, outfile
from . import bench as bench_mod
from .bots.pimc import DEFAULT_ROLLOUTS
from .checking import check_variant
from .errors import OmbreError, SpecErrors
from .outfile import open_output
from .players import MAX_ROLLOUTS, make_player
from .ruleset import Ruleset, load
from .sim.players_info import STRENGTH_DEALS, judged

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
  ombre solve deal.json --explain
  ombre diff VARIANT "VARIANT(OPTION=CHOICE)"
  ombre reference --out docs/reference.md
  ombre serve --port 8000 --data ombre-data
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # exit 2 with a one-line reason, as argparse does, plus a hint
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n(see '{self.prog} --help')\n")


def _options(pairs: list[str] | None) -> dict[str, str]:
    out = {}
    for p in pairs or []:
        if "=" not in p:
            raise OmbreError(f"bad --option '{p}' (expected key=value)")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _load(variant: str, pairs: list[str] | None) -> Ruleset:
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
            rng = spec.ranges.get(key)
            choices = "|".join([fmt_value(c) for c in spec.listed(key)] + ([f"{rng.lo}..{rng.hi}"] if rng else []))
            print(f"    {key}={fmt_value(spec.defaults[key])}  [{choices}]" + (f"  {o['doc']}" if o.get("doc") else ""))
    return 0


def _report(messages: list, fmt: str, to_stderr: bool) -> None:
    """Print messages as text (errors on stderr) or as JSON lines on stdout."""
    for m in messages:
        if fmt == "json":
            print(m.to_json())
        else:
            print(m.text(), file=sys.stderr if to_stderr else sys.stdout)


def cmd_check(args) -> int:
    from .messages import Message, expand, from_error

    bad = 0
    for path in expand(args.files):
        problems = check_variant(path)
        _report([from_error(p, path) for p in problems], args.format, True)
        if problems:
            bad += 1
        else:
            _report([Message(path, None, None, "ok", "ok")], args.format, False)
    return 1 if bad else 0


def cmd_play(args) -> int:
    from .records import to_record, write
    from .tty import play_table

    if args.record:
        outfile.target(args.record)  # an unwritable target is found before the deal
    rules = _load(args.variant, args.option)
    n = rules.players
    if args.human is not None and not 0 <= args.human < n:
        raise OmbreError(f"--human must be a seat from 0 to {n - 1}")
    if args.dealer is not None and not 0 <= args.dealer < n:
        raise OmbreError(f"--dealer must be a seat from 0 to {n - 1}")
    if args.deals < 1:
        raise OmbreError("--deals must be at least 1")
    if args.session and rules.session_end is None:
        raise OmbreError(f"{rules.variant} does not say when a session ends (no session.deals or session.end_when):"
                         f" give --deals N instead of --session")
    names = (args.players or "random").split(",")
    if len(names) == 1:
        names *= n
    if len(names) != n:
        raise OmbreError(f"--players names {len(names)} players; {rules.variant} has {n} seats")
    players = [make_player(nm, args.seed * 1000 + i, rules) for i, nm in enumerate(names)]
    done = play_table(rules, players, args.human, args.seed, -1 if args.dealer is None else args.dealer,
                      None if args.session else args.deals)
    if args.record and done:
        write(args.record, [to_record(s) for s in done])
        if args.record != outfile.STDOUT:
            print(f"record written to {args.record}")
    return 0


def cmd_replay(args) -> int:
    from .records import ReplayError, amount, read, replay

    recs = read(args.file)
    for i, rec in enumerate(recs):
        try:
            rep = replay(rec)
        except ReplayError as e:
            raise ReplayError(f"{args.file}: record {i + 1}: {e.message}") from None
        res = rep.result or {}
        pays = [amount(p) for p in res["payments"]] if res else None
        print(f"{args.file}: record {i + 1}: {rep.variant}: {rep.actions} actions replayed; "
              f"outcome {res.get('outcome')}, payments {pays}: identical")
    return 0


def cmd_bench(args) -> int:
    if args.deals < 1:
        raise OmbreError("--deals must be at least 1")
    rules = _load(args.variant, args.option)
    out = bench_mod.run(rules, args.deals, args.seed, loop=args.loop)
    if args.json:
        print(json.dumps(out))
    else:
        print(bench_mod.table(out))
    return 0


def _script(path: str) -> str:
    """A script file that exists (an argument type: otherwise a usage error, exit 2)."""
    if not os.path.isfile(path):
        raise argparse.ArgumentTypeError(f"no script file '{path}'")
    return path


def cmd_bench_bots(args) -> int:
    from .sim import speed

    if args.deals < 1:
        raise OmbreError("--deals must be at least 1")
    if args.decisions < 1:
        raise OmbreError("--decisions must be at least 1")
    variants = args.variants or speed.builtin_variants()
    for v in variants:
        load(v)  # a bad name fails before any timing starts
    if not 0 < args.rollouts <= MAX_ROLLOUTS:
        raise OmbreError(f"--rollouts must be from 1 to {MAX_ROLLOUTS}")
    rows = speed.measure(variants, args.deals, args.decisions, args.seed, args.rollouts, args.yardstick)
    if args.json:
        print(json.dumps({"deals": args.deals, "decisions": args.decisions, "seed": args.seed,
                          "rollouts": args.rollouts, **({"yardstick": args.yardstick} if args.yardstick else {}),
                          "variants": rows}))
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


MAX_DEALS = 100_000_000  # --deals of one run
MAX_JOBS = 256  # --jobs: local processes


def _run_checks(args) -> None:
    for name, value, most in (("deals", args.deals, MAX_DEALS), ("jobs", args.jobs, MAX_JOBS)):
        if value < 1:
            raise OmbreError(f"--{name} must be at least 1")
        if value > most:
            raise OmbreError(f"--{name} must be at most {most}")


def cmd_simulate(args) -> int:
    from .sim.runner import _rules, collect, run
    from .sim.stats import Tally

    _run_checks(args)
    if args.out:
        outfile.target(args.out)  # an unwritable target is found before the run
    rows = _rows_target(args)
    opts = _options(args.option)
    rules = _rules(args.variant, opts)
    names = _players(rules, args.players)
    tally = Tally(rules.players)
    t0 = time.perf_counter()
    started = [t0]  # when the workers were up: the play's clock starts there
    last = [t0]  # and stops when the last line has been passed on (the workers' shutdown is timed apart)

    def ready() -> None:
        started[0] = last[0] = time.perf_counter()

    with open_output(args.out) if args.out else contextlib.nullcontext() as out, \
            rows.table(rules) if rows else contextlib.nullcontext() as table:
        def sink(line: dict) -> None:
            if out is not None:
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
            if table is not None:
                table.add(line)
            tally.add(line)
            last[0] = time.perf_counter()

        done, stopped = collect(run(args.variant, opts, names, args.seed, args.deals, args.jobs, args.dask,
                                    ready=ready), args.deals, rules.variant, sink, args.quiet)
    info = sys.stderr if args.out == "-" else sys.stdout
    dt = last[0] - started[0]
    setup, teardown = started[0] - t0, time.perf_counter() - last[0]
    print(f"{rules.variant}: {done} deals in {dt:.2f}s = {done / max(dt, 1e-9):.1f} deals/s "
          f"(players {','.join(names)}, seed {args.seed}"
          + (f"; set up in {setup:.2f}s before it" if setup >= 0.005 else "")
          + (f"; shut down in {teardown:.2f}s after it" if teardown >= 0.005 else "") + ")"
          + ("; interrupted" if stopped else ""), file=info)
    if done:
        print("contracts: " + ", ".join(f"{c} {k}" for c, k in tally.contracts.most_common()), file=info)
        print("outcomes: " + ", ".join(f"{o} {k}" for o, k in tally.outcomes.most_common()), file=info)
        won, played = sum(tally.won.values()), sum(tally.played.values())
        print(f"declarer wins: {won} of {played} played ({100 * won / played if played else 0.0:.1f}%)", file=info)
        print("net payments by seat: " + ", ".join(f"seat {k} ({names[k]}) {t:+d}"
                                                   for k, t in enumerate(tally.seat_total)), file=info)
    if args.out:
        print(f"{done} lines written to {'standard output' if args.out == '-' else args.out}", file=info)
    if rows:
        print(f"{done} rows written to {args.rows}", file=info)
    return 130 if stopped else 0


def _rows_target(args):
    """The --rows file of simulate or compare, checked before the run (its format by its extension)."""
    if not args.rows:
        return None
    from .sim.rows import Target

    return Target(args.rows)


def cmd_compare(args) -> int:
    from .sim import compare, report
    from .sim.runner import _rules

    _run_checks(args)
    if args.min_reached < 1:
        raise OmbreError("--min-reached must be at least 1")
    if args.out != outfile.STDOUT:
        outfile.folder_target(args.out)  # before the run, not after it
    rows = _rows_target(args)
    opts = _options(args.option)
    runs = []
    for v in args.variants:  # --option applies to every variant, as `play --option` does (and is refused alike)
        rules = _rules(v, opts)
        runs.append(compare.Run(v, opts, rules, _players(rules, args.players)))
    sweep = compare.swept(runs, args.sweep, _players) if args.sweep else None
    if sweep is not None:
        runs = sweep[0]
    judge = judged(args.strength, args.double_dummy, args.deals)
    stopped = compare.play(runs, args.seed, args.deals, args.jobs, args.dask, args.quiet, judge, rows)
    a = compare.analyse(runs, args.seed, args.min_reached, judge)
    if not a["variants"]:
        print("ombre: interrupted before any deal was done", file=sys.stderr)
        return 130
    meta = {"version": __version__, "deals": args.deals, "seed": args.seed, "players": args.players,
            "min_reached": args.min_reached,
            "players_by_variant": {r.name: r.players for r in runs},
            "played": {r.name: r.deals for r in runs},
            "variants": list(a["variants"]), "interrupted": stopped,
            **({"sweep": sweep[1].meta()} if sweep is not None else {}), **({"rows": args.rows} if rows else {})}
    out = sys.stderr if args.out == "-" else sys.stdout
    for w in a["warnings"]:
        print(f"warning: {w}", file=out)
    files = report.write(a, meta, args.out)
    print(report.table(a["variants"]), file=out)
    for v, kinds in a["players"].items():
        judged_here = [(nm, d["double_dummy"]) for nm, d in kinds.items() if d.get("double_dummy", {}).get("measured")]
        if judged_here:
            print(f"strength, {v}: " + "; ".join(
                f"{nm} lost {d['lost_per_card']['mean']:.4f} {'/'.join(d['measure'])} a card against double-dummy "
                f"play ({d['measured']} deals judged)" for nm, d in judged_here), file=out)
    if stopped:
        print("interrupted: " + ", ".join(f"{v} {n} of {args.deals} deals" for v, n in meta["played"].items()),
              file=out)
    if rows:
        print(f"rows written to {args.rows}", file=out)
    if files:
        print(f"written to {args.out}: {', '.join(files)}", file=out)
        if not any(f.endswith(".png") for f in files):
            print("(no charts: install the 'plot' extra, pip install 'ombre_rules[plot]')", file=out)
    return 130 if stopped else 0


def cmd_test(args) -> int:
    from .messages import Message, expand, from_error, junit
    from .scenario import run_file

    files = expand(args.files)
    if not files:
        raise OmbreError("no scenario files given")
    cache: dict = {}
    passed = failed = 0
    results: list[tuple[str, list[str], list[tuple[str, Message]]]] = []
    for f in sorted(files):
        try:
            rep = run_file(f, cache)
        except OmbreError as e:
            m = from_error(e, f)
            _report([m], args.format, True)
            results.append((f, [], [(os.path.basename(f), m)]))
            failed += 1
            continue
        fails = [(fl.scenario, Message(fl.loc.file, fl.loc.line, fl.loc.col, "failed",
                                       f"{fl.scenario}: {fl.message}")) for fl in rep.failures]
        results.append((f, rep.passed, fails))
        passed += len(rep.passed)
        failed += len(fails)
        _report([m for _sc, m in fails], args.format, True)
        if args.format == "json":
            _report([Message(f, None, None, "passed", name) for name in rep.passed], "json", False)
    if args.junit:
        with open_output(args.junit) as out:
            out.write(junit(results))
    if args.format == "text":
        print(f"{passed} passed, {failed} failed", file=sys.stderr if args.junit == "-" else sys.stdout)
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="ombre", description="Play, check and test games of the Ombre family, each defined by a "
                "YAML variant file.", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"ombre {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    s = sub.add_parser("variants", help="list the built-in variants and their options")
    s.set_defaults(fn=cmd_variants)
    s = sub.add_parser("check", help="validate variant files or folders of them (file:line:col messages, exit 1 "
                       "on errors)")
    s.add_argument("files", nargs="+", metavar="FILE|FOLDER")
    _format_arg(s)
    s.set_defaults(fn=cmd_check)
    s = sub.add_parser("play", help="play a deal (or --deals N) with bots or a person and print its log")
    s.add_argument("variant", metavar="VARIANT|FILE", help="a built-in variant, NAME(key=value,...), or a file")
    s.add_argument("--seed", type=int, default=0, help="seed of the deal and the bots (default 0)")
    s.add_argument("--dealer", type=int, default=None,
                   help="the dealer's seat (default 0; a session's first dealer by the variant's draw if it has one)")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set a variant option (repeatable)")
    s.add_argument("--players", metavar="P1,P2,...", help="bot per seat (default random); in a session with "
                   "a draw for seats (session.seats), per player, each at the seat he draws")
    s.add_argument("--human", type=int, metavar="SEAT", help="play this seat yourself at the terminal (type help "
                   "or ? at the prompt); with a draw for seats, this player")
    s.add_argument("--deals", type=int, default=1, metavar="N", help="play N deals: a session, the dealer moving "
                   "round and the pool carried over, with a score sheet at the end (default 1)")
    s.add_argument("--session", action="store_true", help="play a whole session as the variant defines it (its "
                   "session.deals or session.end_when), with its closing payments (session.close)")
    s.add_argument("--record", metavar="FILE", help="write the deal's JSON record to FILE")
    s.set_defaults(fn=cmd_play)
    s = sub.add_parser("replay", help="re-run a JSON record and verify it")
    s.add_argument("file", metavar="FILE")
    s.set_defaults(fn=cmd_replay)
    s = sub.add_parser("bench", help="time random legal play",
                       description="Time random legal play of a variant: deals per second, then its contracts "
                       "and outcomes. Where the compiled kernel can play the variant's whole deals it plays them, "
                       "the same deals from the same random numbers; the output says what played them, and why "
                       "not the kernel otherwise.")
    s.add_argument("variant", metavar="VARIANT|FILE")
    s.add_argument("--deals", type=int, default=5000, help="deals to play (default 5000)")
    s.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set a variant option (repeatable)")
    s.add_argument("--json", action="store_true", help="end with one JSON line (includes deals_per_s)")
    s.add_argument("--loop", choices=bench_mod.LOOPS, default="playout",
                   help="playout: State.random_playout, or the kernel's whole deals (default); api: the public "
                        "legal_actions/apply loop, which takes the same actions")
    s.set_defaults(fn=cmd_bench)
    s = sub.add_parser("bench-bots", help="time the bots: greedy deals/s and Monte-Carlo time per decision",
                       description="Time the bots on each variant, in one run and one process: deals per second "
                       "of 'simulate' with greedy players at every seat (the same deals it plays), and the time "
                       "of one Monte-Carlo (pimc) decision at --rollouts play-outs, with pimc at one seat (the "
                       "seat moves round deal by deal) and greedy at the others, also as a multiple of the time "
                       "of 1000 random deals ('bench') of the variant. Decisions with a single legal action are "
                       "not timed. Times are the process's CPU time, so that a run on a busy machine stays "
                       "comparable with itself.")
    s.add_argument("variants", nargs="*", metavar="VARIANT|FILE",
                   help="variants to time (default: every built-in variant)")
    s.add_argument("--deals", type=int, default=200, help="greedy deals to time per variant (default 200)")
    s.add_argument("--decisions", type=int, default=100, help="pimc decisions to time per variant (default 100)")
    s.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS,
                   help=f"pimc play-outs a decision (default {DEFAULT_ROLLOUTS})")
    s.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    s.add_argument("--yardstick", type=_script, metavar="PATH",
                   help="also time this yardstick script for 1000 random deals (run as 'python PATH --deals 1000 "
                        "--reps 1 --warmup 500 --seed S --json FILE', 3 times, median) and give a pimc decision's "
                        "time as a multiple of it (per_yardstick_1000)")
    s.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    s.set_defaults(fn=cmd_bench_bots)
    from .players import HELP as players_help

    s = sub.add_parser("simulate", help="play many deals with bots: one JSON line per deal and a summary",
                       description="Play many deals with bots. Deal i has its own seed (from --seed and i), "
                       "dealer i mod players and an empty pool, so the lines are the same whatever --jobs is.")
    s.add_argument("variant", metavar="VARIANT|FILE", help="a built-in variant, NAME(key=value,...), or a file")
    _sim_args(s, players_help)
    s.add_argument("--out", metavar="FILE.jsonl", help="write one JSON line per deal to this file")
    _rows_arg(s)
    s.set_defaults(fn=cmd_simulate)
    s = sub.add_parser("compare", help="compare variants over the same deal seeds: report, charts, CSV, JSON",
                       description="Simulate each variant over the same deal seeds (common random numbers) and "
                       "compare contract mix, pass-out rate, declarer success, outcomes, payments, seat "
                       "advantage, deal length and the Ludii metrics, with 95 percent confidence intervals and "
                       "paired differences from the first variant; rule coverage says which rules the deals "
                       "reached.")
    s.add_argument("variants", nargs="+", metavar="VARIANT|FILE")
    _sim_args(s, players_help)
    s.add_argument("--out", metavar="DIR", required=True, help="folder for report.md, report.html, metrics.csv/json "
                   "and charts ('-': the Markdown report on standard output)")
    s.add_argument("--min-reached", type=int, default=30, metavar="N",
                   help="warn about a rule the variants differ by that fewer than N deals reached (default 30)")
    judge = s.add_mutually_exclusive_group()
    judge.add_argument("--strength", type=int, metavar="N", help="the bots' measured strength: judge each "
                       "player's cards in each run's first N deals against double-dummy play (the tricks or card "
                       f"points they lost); default {STRENGTH_DEALS[True]} with the compiled kernel, "
                       f"{STRENGTH_DEALS[False]} in pure Python; 0: no measure")
    judge.add_argument("--double-dummy", action="store_true", help="judge every deal so (slow without the "
                       "compiled kernel)")
    s.add_argument("--sweep", metavar="OPTION[=VALUES]", help="compare one VARIANT with each value of an option: "
                   "OPTION (every choice), OPTION=V1,V2,... or OPTION=A..B[:STEP] (its numeric choices in the "
                   "range, and the whole numbers there that an option with a range takes); or players=P/Q/... "
                   "(each line-up of players on the same deals); a trend chart and paired differences against the "
                   "first value")
    _rows_arg(s)
    s.set_defaults(fn=cmd_compare)
    from .sim import match

    match.add_parser(sub, _run_checks, players_help, _options)
    book_cli.add_parsers(sub, _load)
    from .solve import cli as solve_cli

    solve_cli.add_parser(sub, _load, _players)
    s = sub.add_parser("test", help="run scenario files (or folders of them)")
    s.add_argument("files", nargs="+", metavar="SCENARIO|FOLDER")
    _format_arg(s)
    s.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE ('-': standard output)")
    s.set_defaults(fn=cmd_test)
    from .web import serve

    s = sub.add_parser("serve", help="a card table in the browser: people and bots at shared tables")
    serve.add_arguments(s)
    s.set_defaults(fn=serve.cmd_serve)
    return p


def _format_arg(s) -> None:
    s.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default; errors on standard error) or json: one JSON object per line and message, "
                        "with file, line, column, code and message, on standard output")


def _rows_arg(s) -> None:
    s.add_argument("--rows", metavar="FILE", help="also write one row per deal (and variant) to FILE: .csv, .jsonl "
                   "or .parquet (the 'analysis' extra); ombre_rules.analysis.load reads it")


def _sim_args(s, players_help: str) -> None:
    s.add_argument("--deals", type=int, default=1000, help="deals to play (default 1000)")
    s.add_argument("--players", default="greedy", metavar="P1,P2,...",
                   help=f"one player for every seat, or one per seat (default greedy): {players_help}")
    s.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    s.add_argument("--jobs", type=int, default=1, metavar="K", help="local processes to use (default 1)")
    s.add_argument("--dask", metavar="ADDRESS", help="run on the Dask cluster with this scheduler address, or "
                   "on a local cluster of N one-thread worker processes started for the run (local:N) (needs the "
                   "'dask' extra)")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set a variant option (repeatable)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar (it is shown on standard error "
                   "only when that is a terminal)")


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
