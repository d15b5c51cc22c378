"""`ombre solve`: double-dummy analysis of a deal from a record, a scenario, or a variant and seeds."""
from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
import time
from collections.abc import Callable
from functools import partial

from ..engine import State
from ..engine.phases import DONE, PLAY, XPLAY
from ..errors import OmbreError
from ..infile import open_binary
from ..players import make_player
from ..ruleset import load
from .analysis import AimUnknown, Analyst, CardVerdict, Limits, explain
from .search import MEASURES, SearchLimit, Unsearchable

DEFAULT_NODES = 5_000_000  # nodes of one analysis unless --max-nodes or --time says otherwise
MAX_SEEDS = 100_000
STOPPED = 3  # the exit code when a limit stopped the search (the bounds found are printed)

DESCRIPTION = """Double-dummy analysis: with every hand open, the best result each side can force from a position
of the play (after the exchange, when the first card is due, unless --after-trick or --at-action says a
later point). The declarer's side (the declarer and a partner, even a hidden one) plays for the most tricks
(or card points, when the deck counts points; --measure), the others for the fewest, or the reverse in a
contract won by taking few: the aim is the contract's, learnt from its settlement on random deals of it
(the basis is printed), or given with --aim (needed when the settlement does not tell). The principal
variation is then played out by the engine to its settlement: the outcome and payments that follow. A choice
that is not a card (stopping after a claim, conceding, consenting) is taken by its owner, each way played
out and the better paid kept. The search plays the cards to the end (or to the variant's early end).

SOURCE is a JSON record (ombre play --record), a scenario file (its deal and actions), or a variant with
--seed/--seeds and --dealer (the auction and the exchange, and with --explain the play, by --players bots),
or a variant with --line: a result line of 'ombre simulate --out' (its seed, dealer and actions).

--explain judges each card of the actual deal: the side's total with the best card and after the card
played; a card that lost tricks (or points) names the cards that would have kept them.

A search too large for its limit (--max-nodes, default 5,000,000, or --time) stops with the bounds it had
found and exit code 3."""


def add_parser(sub, load_variant, seat_players) -> None:
    """The `solve` command's parser; `load_variant(name, options)` and `seat_players(rules, text)` are the
    command line's own helpers."""
    s = sub.add_parser("solve", help="double-dummy analysis of a deal: best play with all hands open",
                       description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("source", metavar="RECORD.json|SCENARIO.yaml|VARIANT")
    s.add_argument("--seed", type=int, help="the deal of VARIANT with this seed (default 0)")
    s.add_argument("--seeds", metavar="A..B", help="the deals of VARIANT with seeds A to B; ends with deals "
                   "solved per second (the search, not the bots' auction and exchange)")
    s.add_argument("--dealer", type=int, default=0, metavar="SEAT", help="the dealer of VARIANT's deals (default 0)")
    s.add_argument("--line", metavar="FILE.jsonl", help="the deal of a result line of 'ombre simulate --out' in "
                   "VARIANT (the variant it was played in): its seed, dealer and actions; --deal K takes the K-th "
                   "line of the file (deal K-1 of the run); '-' reads standard input")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set a variant option (repeatable)")
    s.add_argument("--players", default="greedy", metavar="P1,P2,...",
                   help="bots for a VARIANT's auction, exchange and (with --explain) play (default greedy)")
    s.add_argument("--deal", type=int, default=1, metavar="K", help="the K-th record, scenario or line of a "
                   "file that holds several (default 1)")
    at = s.add_mutually_exclusive_group()
    at.add_argument("--after-trick", type=int, metavar="T", help="solve once T tricks are played")
    at.add_argument("--at-action", type=int, metavar="N", help="solve after the first N actions of the deal")
    s.add_argument("--explain", action="store_true", help="judge each card of the actual deal")
    s.add_argument("--measure", choices=("auto",) + MEASURES, default="auto",
                   help="what the side counts: tricks, or the card points of the piles it wins, the cards' own "
                        "points (auto: points if the deck gives any)")
    s.add_argument("--aim", choices=("auto", "more", "fewer"), default="auto",
                   help="whether the declarer's side wants more of the measure or fewer (auto: the contract's, "
                        "learnt from its settlement; an error when that does not tell)")
    s.add_argument("--max-nodes", type=int, metavar="N", help=f"stop after N nodes (default {DEFAULT_NODES:,} "
                   "unless --time is given)")
    s.add_argument("--time", type=float, metavar="SECONDS", help="stop after this many seconds")
    s.add_argument("--json", action="store_true", help="one JSON object per deal")
    s.set_defaults(fn=cmd_solve, load=load_variant, seat_players=seat_players)


# -- where the deal comes from ----------------------------------------------------------------------------
def _seeds(args) -> list[int]:
    if args.seeds is None:
        return [args.seed or 0]
    if args.seed is not None:
        raise OmbreError("give --seed or --seeds, not both")
    m = re.fullmatch(r"\s*(-?\d{1,18})\s*\.\.\s*(-?\d{1,18})\s*", args.seeds)
    if not m or int(m[1]) > int(m[2]):
        raise OmbreError(f"bad --seeds '{args.seeds}' (expected A..B with A <= B, e.g. 1..20)")
    a, b = int(m[1]), int(m[2])
    if b - a + 1 > MAX_SEEDS:
        raise OmbreError(f"--seeds names more than {MAX_SEEDS:,} deals")
    return list(range(a, b + 1))


def _from_record(path: str, k: int) -> tuple[State, list[int], str]:
    """A record's deal before its actions (checked as `ombre replay` checks it; a record whose actions stop
    before the end of the deal is fine), and its actions."""
    from ..records import ReplayError, read, replay

    recs = read(path)
    if not 1 <= k <= len(recs):
        raise OmbreError(f"--deal {k}: {path} holds {len(recs)} record{'s' if len(recs) != 1 else ''}")
    rec = dict(recs[k - 1])
    actions = rec.pop("actions")
    rec["actions"], rec["result"], rec["account"] = [], None, []
    try:
        replay(rec)  # the variant, its hash and the deal
        rules = load(rec["variant"])
        deck = rules.deck
        st = State(rules, seed=rec.get("seed"), dealer=int(rec.get("dealer") or 0),
                   pool=int(rec.get("pool") or 0), hands=[deck.mask_of(h) for h in rec["deal"]["hands"]],
                   talon=[deck.parse(c) for c in rec["deal"]["talon"]],
                   turn_up=deck.parse(rec["deal"]["turn_up"]) if rec["deal"].get("turn_up") else None)
        acts = [rules.parse_action(a) for a in actions]
    except OmbreError as e:
        raise ReplayError(f"{path}: record {k}: {e.message}") from None
    return st, acts, f"{path}: record {k}"


def _from_scenario(path: str, k: int) -> tuple[State, list[int], str]:
    from ..errors import SpecError
    from ..scenario import scenario_deal

    st, texts, name = scenario_deal(path, k)
    acts = []
    for i, text in enumerate(texts):
        try:
            acts.append(st.rules.parse_action(text))
        except OmbreError as e:
            raise SpecError(f"{path}: action {i + 1}: {e.message}") from None
    return st, acts, f"{path}: {name}"


def _from_seed(args, seed: int) -> tuple[State, list[int], str]:
    rules = args.load(args.source, args.option)
    names = args.seat_players(rules, args.players)
    bots = [make_player(nm, seed * 1000 + i, rules) for i, nm in enumerate(names)]
    s = State(rules, seed=seed, dealer=args.dealer)
    while s.phase != DONE:
        s.apply(bots[s.to_move].act(s.view(s.to_move), s.legal_actions()))
    dealt = f", dealer {args.dealer}" if args.dealer else ""
    return State(rules, seed=seed, dealer=args.dealer), list(s.history), f"{rules.variant} seed {seed}{dealt}"


MAX_LINE = 1 << 22  # bytes of one result line


def _read_line(path: str, k: int) -> bytes:
    """The K-th line of a file of result lines ('-': standard input), at most MAX_LINE bytes long."""
    where = "standard input" if path == "-" else f"'{path}'"
    try:
        with contextlib.nullcontext(sys.stdin.buffer) if path == "-" else open_binary(path) as f:
            for i in range(1, k + 1):
                text = f.readline(MAX_LINE + 1)
                if not text:
                    raise OmbreError(f"--deal {k}: {where} holds {i - 1} line(s)")
                while len(text) > MAX_LINE and not text.endswith(b"\n"):
                    if i == k:
                        raise OmbreError(f"{where}: line {k} is longer than {MAX_LINE:,} bytes")
                    text = f.readline(MAX_LINE + 1)  # the rest of a long line that is not the one asked for
    except OSError as e:
        raise OmbreError(f"cannot read {where}: {e.strerror or e}") from None
    return text


def _from_line(args) -> tuple[State, list[int], str]:
    """The deal of the K-th result line of `args.line` (a file of `ombre simulate --out`, or '-') in the variant
    `args.source`: its seed, dealer and actions."""
    k, where = args.deal, "standard input" if args.line == "-" else args.line
    text = _read_line(args.line, k)
    label = f"{where}: line {k}"
    try:
        x = json.loads(text.decode("utf-8"))
    except (ValueError, RecursionError):  # not UTF-8, not JSON, a number too long or nesting too deep
        x = None
    if not (isinstance(x, dict) and type(x.get("seed")) is int and type(x.get("dealer")) is int
            and isinstance(x.get("history"), list) and all(isinstance(a, str) for a in x["history"])):
        raise OmbreError(f"{label}: not a result line of 'ombre simulate' (its seed, dealer and history)")
    rules = args.load(args.source, args.option)
    if not 0 <= x["dealer"] < rules.players:
        raise OmbreError(f"{label}: dealer {x['dealer']} is not a seat of {rules.variant}")
    acts = []
    for i, a in enumerate(x["history"]):
        try:
            acts.append(rules.parse_action(a))
        except OmbreError as e:
            raise OmbreError(f"{label}: action {i + 1} '{a[:40]}': {e.message} (is {rules.variant} the variant it "
                             "was played in?)") from None
    return State(rules, seed=x["seed"], dealer=x["dealer"]), acts, label


def _start(state: State, actions: list[int], args) -> int:
    """Apply the actions up to the point asked for; how many were applied."""
    for i, a in enumerate(actions):
        if args.at_action is not None:
            if i == args.at_action:
                return i
        elif state.phase in (PLAY, XPLAY) and not state.trick and \
                len(state.trick_log) >= (args.after_trick or 0):
            return i
        try:
            state.apply(a)
        except OmbreError as e:
            raise OmbreError(f"action {i + 1} '{state.rules.action_str(a)}' does not replay: {e.message}") from None
    n = len(actions)
    if args.at_action is not None and args.at_action > n:
        raise OmbreError(f"--at-action {args.at_action}: the deal has {n} actions")
    return n


# -- the command --------------------------------------------------------------------------------------------
def cmd_solve(args) -> int:
    if args.deal < 1:
        raise OmbreError("--deal must be at least 1")
    if args.max_nodes is not None and args.max_nodes < 1:
        raise OmbreError("--max-nodes must be at least 1")
    if args.time is not None and not 0 < args.time <= 86_400:
        raise OmbreError("--time must be more than 0 and at most 86400 seconds")
    for name in ("after_trick", "at_action"):
        v = getattr(args, name)
        if v is not None and v < 0:
            raise OmbreError(f"--{name.replace('_', '-')} must be at least 0")
    src = args.source
    if src.endswith(".json") or src.endswith((".yaml", ".yml")) and _is_scenario(src):
        if args.seed is not None or args.seeds or args.line or args.dealer:
            raise OmbreError("--seed, --seeds, --dealer and --line are for a VARIANT, not a record or a scenario")
        read = _from_record if src.endswith(".json") else _from_scenario
        jobs: list[Callable[[], tuple[State, list[int], str]]] = [lambda: read(src, args.deal)]
    elif args.line is not None:
        if args.seed is not None or args.seeds or args.dealer:
            raise OmbreError("--line gives the deal's seed and dealer: no --seed, --seeds or --dealer with it")
        jobs = [partial(_from_line, args)]
    else:
        n = args.load(src, args.option).players
        if not 0 <= args.dealer < n:
            raise OmbreError(f"--dealer must be a seat from 0 to {n - 1}")
        jobs = [partial(_from_seed, args, s) for s in _seeds(args)]
    measure = None if args.measure == "auto" else args.measure
    aim = {"auto": None, "more": 1, "fewer": -1}[args.aim]
    total = value_total = value_cpu = 0.0
    solved = 0
    code = 0
    for job in jobs:
        state, actions, label = job()
        done = _start(state, actions, args)
        if state.phase not in (PLAY, XPLAY):
            if len(jobs) == 1:
                raise OmbreError(f"{label}: no card is due at the point asked for (phase {state.phase_name})")
            print(json.dumps({"deal": label, "skipped": f"no card is due (phase {state.phase_name})"}) if args.json
                  else f"{label}: skipped, no card is due (phase {state.phase_name})")
            continue
        limits = Limits(args.max_nodes if args.max_nodes is not None or args.time is not None else DEFAULT_NODES,
                        args.time)
        t0 = time.perf_counter()
        try:
            an = Analyst(state, measure, aim, limits)
        except (AimUnknown, Unsearchable) as e:
            if len(jobs) == 1:
                raise
            print(json.dumps({"deal": label, "skipped": e.message}) if args.json else f"{label}: skipped, {e.message}")
            continue
        try:
            out = _analyse(an, state, actions[done:], args.explain)
        except SearchLimit as e:
            out = {"stopped": e.message, "bounds": list(e.bounds) if e.bounds is not None else None}
            code = STOPPED
        dt = time.perf_counter() - t0
        out.update(_head(state, an, label), nodes=an.nodes, seconds=round(dt, 3))
        if "stopped" not in out:
            total += dt
            value_total += out["value_seconds"]
            value_cpu += out["value_cpu_seconds"]
            solved += 1
        print(json.dumps(out) if args.json else _text(out, state))
    if len(jobs) > 1 and solved:
        print(f"{solved} deals solved in {total:.2f}s = {solved / max(total, 1e-9):.2f} deals/s with the play-out"
              f"{' and --explain' if args.explain else ''}; the value alone {value_total:.2f}s = "
              f"{solved / max(value_total, 1e-9):.2f} deals/s ({value_cpu:.2f}s of processor time = "
              f"{solved / max(value_cpu, 1e-9):.2f} deals/s)", file=sys.stderr if args.json else sys.stdout)
    return code


def _is_scenario(path: str) -> bool:
    """A YAML file that is a scenario (it names a variant) rather than a variant file."""
    from ..spec.yamlpos import load_file

    try:
        data = load_file(path).data
    except OmbreError:
        return False
    return isinstance(data, dict) and ("variant" in data or "scenarios" in data)


def _analyse(an: Analyst, state: State, rest: list[int], judge: bool) -> dict:
    t0, c0 = time.perf_counter(), time.process_time()
    value = an.value(state)
    value_seconds, value_cpu = time.perf_counter() - t0, time.process_time() - c0
    try:
        end = an.play_out(state)
    except SearchLimit as e:
        e.bounds = (value, value)  # the value is known; the play-out to the settlement is not
        raise
    r = state.rules
    pv = end.history[len(state.history):]
    line = [r.action_str(a) for a in pv]
    first = len(state.trick_log)
    played = [{"trick": first + i + 1, "leader": lead, "cards": [r.deck.name(c) for c in cards], "winner": w}
              for i, (lead, cards, w) in enumerate(end.trick_log[first:])]
    out = {"value": value, "value_seconds": round(value_seconds, 3), "value_cpu_seconds": round(value_cpu, 3),
           "line": line, "play": played,
           "choices": [r.action_str(a) for a in pv if a >= end.nc],
           "outcome": end.result.outcome,
           "tricks": list(end.result.tricks), "payments": list(end.result.payments)}
    if judge:
        out["explain"] = [_verdict(v, r) for v in explain(an, state, rest)]
    return out


def _verdict(v: CardVerdict, r) -> dict:
    return {"trick": v.trick, "seat": v.seat, "card": r.deck.name(v.card), "best": v.best, "after": v.after,
            "lost": v.lost, "keep": [r.deck.name(c) for c in v.keep]}


def _head(state: State, an: Analyst, label: str) -> dict:
    r = state.rules
    assert state.contract is not None  # cards are being played
    return {"deal": label, "variant": r.variant, "contract": state.contract.name, "declarer": state.declarer,
            "trump": state.trump.name if state.trump is not None else None, "side": list(an.side),
            "measure": an.measure, "aim": "more" if an.aim > 0 else "fewer", "aim_basis": an.basis,
            "from_trick": len(state.trick_log) + 1, "cards_in_trick": len(state.trick)}


def _text(out: dict, state: State) -> str:
    what = "tricks" if out["measure"] == "tricks" else "card points"
    side = ", ".join(f"seat {p}" for p in out["side"])
    lines = [f"{out['deal']}: {out['contract']} by seat {out['declarer']}"
             + (f", trumps {out['trump']}" if out["trump"] else "")
             + f"; side: {side} (wants {out['aim']} {what}); from trick {out['from_trick']}"
             + (f" ({out['cards_in_trick']} card(s) played to it)" if out["cards_in_trick"] else ""),
             f"aim: {out['aim_basis']}"]
    if "stopped" in out:
        b = out["bounds"]
        lines.append(f"stopped: {out['stopped']}; "
                     + (f"the side's {what}: at least {b[0]}, at most {b[1]} (bounds, not an answer)" if b
                        else "no bound yet")
                     + "; raise --max-nodes or --time, or solve from a later trick (--after-trick T)")
        return "\n".join(lines)
    lines.append(f"double-dummy: {out['value']} {what} for the declarer's side")
    lines.append("principal variation (trick: leader's card first, -> winner): " + "; ".join(
        f"{t['trick']}: seat {t['leader']} {' '.join(t['cards'])} -> {t['winner']}" for t in out["play"]))
    if out["choices"]:
        lines.append("other choices: " + ", ".join(out["choices"]))
    pays = " ".join(f"{p:+d}" for p in out["payments"])
    lines.append(f"play-out: outcome {out['outcome']}, tricks {' '.join(map(str, out['tricks']))}, payments {pays}")
    for v in out.get("explain", []):
        mark = "ok" if not v["lost"] else f"lost {v['lost']} (kept by {', '.join(v['keep'])})"
        lines.append(f"  trick {v['trick']}: seat {v['seat']} {v['card']}: {v['best']} -> {v['after']} {mark}")
    if "explain" in out:
        by_seat: dict[int, int] = {}
        for v in out["explain"]:
            by_seat[v["seat"]] = by_seat.get(v["seat"], 0) + v["lost"]
        lines.append("lost to double-dummy: " + ", ".join(f"seat {p} {n}" for p, n in sorted(by_seat.items())))
    lines.append(f"searched {out['nodes']:,} nodes in {out['seconds']:.2f}s")
    return "\n".join(lines)
