"""`ombre match VARIANT A B`: how much stronger bot A is than bot B, on the same deals with the seats rotated,
so that the cards' luck cancels (a duplicate match).

Each deal is played 2 + 2n times (n seats): by B at every seat and by A at every seat, then with A at one
seat and B at the others, for each seat, and the reverse. A's gain over B at a seat is what A's seat was paid
less what B was paid at that seat with the same cards and B everywhere else; a deal's gain is the mean over
its seats, and the match's gain is the mean over deals, with its paired 95% interval. The reverse (B in a
field of A) is reported too: against a field of the other bot, each one's gain over the other. With
--double-dummy each bot's cards are judged against the best play with every hand open, in the deals it
played at every seat: what it lost per card. With --before-play P, P makes every decision before the first
card at every seat, the same in every line-up (the same contracts, exchanges and hands): the match then
measures the card play alone, with far less noise than whole deals, whose bids differ. With --rows FILE, one
row per deal and line-up (the columns of `simulate --rows`, and `lineup`: "all B", "A at 0", ...): the data
to pool runs of other seeds, or to split the gain by contract, in a notebook."""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from array import array
from contextlib import nullcontext

from ..errors import OmbreError
from .inference import Z95, normal_p, se_p
from .rows import Target, row
from .runner import _rules, collect, run
from .stats import Moments, ratio_ci

DESCRIPTION = __doc__.split("\n\n", 1)[1]


def add_parser(sub, check_run, players_help: str, options) -> None:
    """The `match` command's parser; `check_run(args)` checks --deals and --jobs as simulate does, and
    `options(pairs)` reads --option as the other commands do."""
    s = sub.add_parser("match", help="a duplicate match of two bots: the same deals, the seats rotated, so that "
                       "luck cancels; each bot's gain over the other with its interval",
                       description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("variant", metavar="VARIANT|FILE", help="a built-in variant, NAME(key=value,...), or a file")
    s.add_argument("first", metavar="A", help=f"a player: {players_help}")
    s.add_argument("second", metavar="B", help="the player A is measured against")
    s.add_argument("--deals", type=int, default=500, help="deals to play, each 2 + 2 x seats times (default 500)")
    s.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    s.add_argument("--jobs", type=int, default=1, metavar="K", help="local processes to use (default 1)")
    s.add_argument("--dask", metavar="ADDRESS", help="run on this Dask scheduler, or local:N (the 'dask' extra)")
    s.add_argument("--double-dummy", action="store_true", help="also each bot's double-dummy loss per card, in "
                   "the deals it played at every seat (slow)")
    s.add_argument("--before-play", metavar="P", help="player P makes every decision before the first card (the "
                   "auction, the exchange), the same in every line-up: the match measures the card play alone")
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="set a variant option (repeatable)")
    s.add_argument("--rows", metavar="FILE", help="also write one row per deal and line-up to FILE (.csv, .jsonl "
                   "or .parquet): the columns of simulate --rows, and lineup ('all B', 'A at 0', ...)")
    s.add_argument("--json", action="store_true", help="print one JSON object instead of the text")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    s.set_defaults(fn=lambda args: cmd_match(args, check_run, options))


def lineups(a: str, b: str, n: int) -> list[tuple[str, list[str]]]:
    """(label, players by seat) of each way a deal is played."""
    out = [("all " + b, [b] * n), ("all " + a, [a] * n)]
    for s in range(n):
        out.append((f"{a} at {s}", [a if k == s else b for k in range(n)]))
        out.append((f"{b} at {s}", [b if k == s else a for k in range(n)]))
    return out


def match(variant: str, options: dict, a: str, b: str, deals: int, seed: int = 1, jobs: int = 1,
          dask: str | None = None, double_dummy: bool = False, quiet: bool = True,
          before: str | None = None, rows: Target | None = None) -> dict:
    """Play the match (see the module); its gains (each bot's over the other, per deal and seat, and per seat),
    losses per card, the deals played and the match's wall time. `before` names the player of every decision
    before the first card, in every line-up (the card play alone is measured); `rows`, a file that takes a row
    per deal and line-up."""
    t0 = time.perf_counter()
    rules = _rules(variant, options)
    n = rules.players
    pays: dict[str, list[array]] = {}  # per line-up, per seat, the payment deal by deal
    dd: dict[str, list[tuple[float, float]]] = {a: [], b: []}  # per bot at every seat: (lost, cards) a deal
    played = deals
    with rows.open(n, double_dummy, ("lineup",)) if rows is not None else nullcontext() as table:
        for label, names in lineups(a, b, n):
            per = pays[label] = [array("q") for _ in range(n)]
            measure = double_dummy and label in ("all " + a, "all " + b)
            who = names[0]

            def sink(x: dict, per=per, measure=measure, who=who, label=label) -> None:
                for k, p in enumerate(x["payments"]):
                    per[k].append(p)
                if table is not None:
                    table.add({"lineup": label, **row(rules.variant, x, n)})
                if measure and x.get("double_dummy"):
                    d = x["double_dummy"]
                    dd[who].append((sum(d["lost"]), sum(d["cards"])))

            done, stopped = collect(run(variant, options, names, seed, deals, jobs, dask, deals if measure else 0,
                                        before=before), deals,
                                    f"{rules.variant}: {label}", sink, quiet)
            played = min(played, done)
            if stopped:
                break
    return {"variant": rules.variant, "players": [a, b], "seats": n, "seed": seed, "deals": played,
            "before_play": before,
            "gain": {a: _gain(pays, a, b, n, played), b: _gain(pays, b, a, n, played)},
            **({"double_dummy": {x: {"deals": len(v), **ratio_ci(v)} for x, v in dd.items()}} if double_dummy else {}),
            "interrupted": played < deals, "seconds": round(time.perf_counter() - t0, 1)}


def _gain(pays: dict, x: str, y: str, n: int, deals: int) -> dict:
    """x's gain over y per deal and seat: x alone among y's, against y at every seat, the same cards; its mean
    per seat too, and the deals it did better and worse on."""
    field, m = pays.get("all " + y), Moments()
    if field is None or any(f"{x} at {s}" not in pays for s in range(n)):
        return {"mean": 0.0, "ci": [0.0, 0.0], "p": 1.0, "pairs": 0, "by_seat": [], "better": 0, "worse": 0}
    by_seat = [[pays[f"{x} at {s}"][s][i] - field[s][i] for i in range(deals)] for s in range(n)]
    gains = [sum(g[i] for g in by_seat) / n for i in range(deals)]
    for g in gains:
        m.add(g)
    d = m.ci()
    return {"mean": d["mean"], "ci": d["ci"], "p": normal_p(d["mean"], d["sd"], m.n), "pairs": m.n,
            "by_seat": [sum(g) / deals if deals else 0.0 for g in by_seat],
            "better": sum(g > 0 for g in gains), "worse": sum(g < 0 for g in gains)}


def pool(outs: list[dict]) -> dict:
    """Matches of the same two players (and variant) on other deals, pooled: each player's gain in a field of
    the other as the mean of the matches' gains weighted by the inverse of their variance (each from its 95%
    interval), with the pooled interval and p-value, and the deals in all. The matches' deals must differ
    (other seeds): the same deals twice would count their luck twice."""
    if not outs:
        raise OmbreError("no match to pool")
    a, b = outs[0]["players"]
    for o in outs:
        if o["players"] != [a, b] or o["variant"] != outs[0]["variant"]:
            raise OmbreError(f"pool matches of one variant and one pair of players: {outs[0]['variant']} "
                             f"{a} against {b}, not {o['variant']} {' against '.join(o['players'])}")
    seeds = [o["seed"] for o in outs]
    if len(set(seeds)) < len(seeds):
        raise OmbreError(f"two matches with seed {max(seeds, key=seeds.count)} play the same deals: pool matches "
                         f"of different seeds")
    gain = {}
    for x in (a, b):
        w = m = 0.0
        for o in outs:
            g = o["gain"][x]
            se = (g["ci"][1] - g["ci"][0]) / (2 * Z95)
            if se <= 0:
                raise OmbreError(f"the match of seed {o['seed']} has no spread to weigh it by ({x}'s interval is "
                                 f"a point)")
            w += 1 / se ** 2
            m += g["mean"] / se ** 2
        mean, se = m / w, w ** -0.5
        gain[x] = {"mean": mean, "ci": [mean - Z95 * se, mean + Z95 * se], "p": se_p(mean, se)}
    return {"variant": outs[0]["variant"], "players": [a, b], "seeds": seeds,
            "deals": sum(o["deals"] for o in outs), "gain": gain}


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def text(out: dict) -> str:
    a, b = out["players"]
    lines = [f"{out['variant']}: {out['deals']:,} deals, each played {2 + 2 * out['seats']} ways (seed {out['seed']})"]
    if out.get("before_play"):
        lines.append(f"the card play alone: {out['before_play']} made every decision before the first card, the "
                     f"same in every line-up")
    for x, y in ((a, b), (b, a)):
        g = out["gain"][x]
        lines.append(f"{x} in a field of {y}: gains {g['mean']:+.3f} a deal and seat over {y} "
                     f"[{g['ci'][0]:+.3f}, {g['ci'][1]:+.3f}], p {_p(g['p'])}; better on {g['better']:,} deals, "
                     f"worse on {g['worse']:,}; by seat {', '.join(f'{v:+.3f}' for v in g['by_seat'])}")
    for x, d in out.get("double_dummy", {}).items():
        lines.append(f"{x} at every seat: loses {d['mean']:.4f} [{d['ci'][0]:.4f}, {d['ci'][1]:.4f}] a card to "
                     f"double-dummy play ({d['deals']:,} deals measured)")
    if out["interrupted"]:
        lines.append("interrupted: the figures cover the deals played in every way")
    lines.append(f"{out['seconds']:.0f} s")
    return "\n".join(lines)


def pooled_text(out: dict) -> str:
    """A `pool` result as text: the matches and deals, then each player's pooled gain in a field of the other."""
    a, b = out["players"]
    lines = [f"{out['variant']}: {len(out['seeds'])} matches, {out['deals']:,} deals (seeds "
             f"{', '.join(map(str, out['seeds']))}), pooled"]
    for x, y in ((a, b), (b, a)):
        g = out["gain"][x]
        lines.append(f"{x} in a field of {y}: gains {g['mean']:+.3f} a deal and seat [{g['ci'][0]:+.3f}, "
                     f"{g['ci'][1]:+.3f}], p {_p(g['p'])}")
    return "\n".join(lines)


_HEAD = re.compile(r"^(?P<variant>.+): (?P<deals>[\d,]+) deals, each played \d+ ways \(seed (?P<seed>-?\d+)\)$")
_GAIN = re.compile(r"^(?P<x>.+?) in a field of (?P<y>.+?): gains (?P<mean>[+-]\d+\.\d+) a deal and seat over .+? "
                   r"\[(?P<lo>[+-]\d+\.\d+), (?P<hi>[+-]\d+\.\d+)\]")


def from_text(txt: str) -> dict:
    """What `pool` needs of a match, read back from its printed text (`text`, or `ombre match`'s output
    without --json): variant, players, seed, deals and each player's gain with its interval (to 3 decimals)."""
    lines = txt.strip().splitlines()
    head = _HEAD.match(lines[0]) if lines else None
    gains = [g for g in map(_GAIN.match, lines) if g is not None]
    if head is None or len(gains) != 2:
        raise OmbreError("not the text of a match: its first line names the variant, the deals and the seed, and "
                         "two lines give each player's gain in a field of the other")
    return {"variant": head["variant"], "players": [gains[0]["x"], gains[0]["y"]], "seed": int(head["seed"]),
            "deals": int(head["deals"].replace(",", "")),
            "gain": {g["x"]: {"mean": float(g["mean"]), "ci": [float(g["lo"]), float(g["hi"])]} for g in gains}}


def cmd_match(args, check_run, options) -> int:
    check_run(args)
    opts = options(args.option)
    rules = _rules(args.variant, opts)
    from ..players import make_player

    for nm in (args.first, args.second, args.before_play):
        if nm is not None:
            make_player(nm, 0, rules)  # an unknown name or budget fails before any deal
    if args.first == args.second:
        raise OmbreError("match two different players (A and B are the same)")
    rows = Target(args.rows) if args.rows else None
    out = match(args.variant, opts, args.first, args.second, args.deals, args.seed, args.jobs, args.dask,
                args.double_dummy, args.quiet, args.before_play, rows)
    print(json.dumps(out) if args.json else text(out))
    if rows is not None:
        print(f"rows written to {args.rows}", file=sys.stderr if args.json else sys.stdout)
    return 130 if out["interrupted"] else 0
