"""A duplicate match between two players on the same deals, seats rotated (`ombre_rules.sim.match`, the
`ombre match` command), run from Python with a progress bar per line-up.

    python examples/duplicate.py ombre pimcdd pimc:500 --deals 300 --jobs 2
    python examples/duplicate.py quadrille pimcdd greedy --deals 200 --json
    python examples/duplicate.py preference pimcdd pimc:500 --deals 200 --jobs 2 --plain-worlds

prints each player's gain over the other per deal and seat, with its 95% interval, per seat, and the match's
wall time. `--plain-worlds` plays `pimcdd` with plain worlds instead of worlds weighed by the others' bids
(`ombre_rules.bots.infer`): what that weighing brings, in a match of its own (local processes inherit the
setting; a Dask cluster's workers do not)."""
from __future__ import annotations

import argparse
import json
import sys

from ombre_rules.sim.match import match, text


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant")
    p.add_argument("a", help="the player measured (e.g. pimcdd, pimcdd:40)")
    p.add_argument("b", help="the player it is measured against (e.g. pimc:500, greedy)")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="local processes")
    p.add_argument("--dask", help="a Dask scheduler's address (or local:N)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--json", action="store_true", help="one JSON line")
    p.add_argument("--plain-worlds", action="store_true",
                   help="pimcdd samples plain worlds, not weighed by the others' bids (its worlds before they were)")
    a = p.parse_args()
    if a.plain_worlds and a.dask:
        p.error("--plain-worlds is set in this process and the local processes it forks, not on a Dask cluster")
    if a.plain_worlds:  # set before the match's worker processes are forked: they inherit it
        from ombre_rules.bots import pimcdd

        pimcdd.WEIGHED = False
    opts = dict(o.split("=", 1) for o in a.option)
    r = match(a.variant, opts, a.a, a.b, a.deals, a.seed, a.jobs, a.dask, quiet=False)
    print(json.dumps(r) if a.json else text(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
