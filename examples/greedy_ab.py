"""Greedy's speed against an earlier checkout, in one process: both engines play the same deals in alternating
batches, so that a busy or throttled machine slows both alike (two processes run one after the other see
different noise; on a shared machine that alone moves a ratio by a quarter).

    git worktree add ../old dfbbf64
    python examples/greedy_ab.py --old ../old [--variants ombre,ombre-a-dos] [--deals 500] [--rounds 6]

The earlier checkout's package is copied, with its variants and grammar, into a temporary folder under another
name and imported beside this one. Each round times `sim.speed.greedy_rate` (what `ombre bench-bots` times:
`simulate --players greedy` in one process, CPU time) on the same deals for each engine, the old one first;
the figure per variant is the total time of the old engine over that of this one, and each round's ratio is
printed too. Both engines keep their memos from round to round, as one long run would.
"""
from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def load_old(old: Path, into: Path):
    """The old checkout's `sim.speed`, imported as the package `ombre_old`."""
    if not (old / "ombre_rules" / "sim" / "speed.py").is_file():
        raise SystemExit(f"{old} is not a checkout of ombre_rules with sim/speed.py")
    shutil.copytree(old / "ombre_rules", into / "ombre_old")
    for data in ("variants", "grammar"):  # the source tree's data folders, found beside the package
        shutil.copytree(old / data, into / data)
    sys.path.insert(0, str(into))
    return importlib.import_module("ombre_old.sim.speed")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", type=Path, required=True, help="a checkout of an earlier commit")
    ap.add_argument("--variants", default="cinquillo,danish-lhombre,ombre-a-dos,ombre,quadrille,taroc-lhombre,"
                                          "tredrille", help="comma-separated built-in variants both engines have")
    ap.add_argument("--deals", type=int, default=500, help="greedy deals per batch (default 500)")
    ap.add_argument("--rounds", type=int, default=6, help="batches of each engine per variant (default 6)")
    a = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    new = importlib.import_module("ombre_rules.sim.speed")
    with tempfile.TemporaryDirectory() as tmp:
        old = load_old(a.old.resolve(), Path(tmp))
        print(f"{'variant':<16} {'old deals/s':>11} {'new deals/s':>11} {'ratio':>6}  rounds")
        for v in a.variants.split(","):
            old.greedy_rate(v, 50, 999)  # rank tables, aims and first memos built first
            new.greedy_rate(v, 50, 999)
            t_old = t_new = 0.0
            rounds = []
            for r in range(a.rounds):
                x = old.greedy_rate(v, a.deals, r + 1)["seconds"]
                y = new.greedy_rate(v, a.deals, r + 1)["seconds"]
                t_old += x
                t_new += y
                rounds.append(f"{x / y:.2f}")
            n = a.deals * a.rounds
            print(f"{v:<16} {n / t_old:>11.0f} {n / t_new:>11.0f} {t_old / t_new:>6.2f}  {' '.join(rounds)}",
                  flush=True)


if __name__ == "__main__":
    main()
