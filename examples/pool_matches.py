"""Duplicate matches of the same two players on the same variant, played with other seeds (so on other
deals), pooled into one estimate of each player's gain over the other (`ombre_rules.sim.match.pool`: the
matches' gains weighted by the inverse of their variance, with the pooled 95% interval and p-value).

    ombre match preference pimcdd pimc:500 --deals 200 --seed 1 --jobs 2 > seed1.txt
    ombre match preference pimcdd pimc:500 --deals 600 --seed 2 --jobs 2 --json > seed2.json
    python examples/pool_matches.py seed1.txt seed2.json

Each file holds what `ombre match` printed: its text, or its one JSON object (--json). A second match of
the same seed plays the same deals and is refused: its luck would be counted twice. Deciding to pool is part
of the question: pool the runs planned, not the runs that came out well."""
from __future__ import annotations

import argparse
import json
import sys

from ombre_rules.errors import OmbreError
from ombre_rules.sim.match import from_text, pool


def read(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        txt = f.read()
    return json.loads(txt) if txt.lstrip().startswith("{") else from_text(txt)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE", help="the output of one `ombre match` (text or --json)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the text")
    a = p.parse_args()
    try:
        out = pool([read(f) for f in a.files])
    except (OSError, ValueError, KeyError, OmbreError) as e:
        print(f"pool_matches: {e}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps(out))
        return 0
    x, y = out["players"]
    print(f"{out['variant']}: {len(a.files)} matches, {out['deals']:,} deals (seeds "
          f"{', '.join(map(str, out['seeds']))}), pooled")
    for me, other in ((x, y), (y, x)):
        g = out["gain"][me]
        p_text = "< 0.001" if g["p"] < 0.001 else f"{g['p']:.3f}"
        print(f"{me} in a field of {other}: gains {g['mean']:+.3f} a deal and seat [{g['ci'][0]:+.3f}, "
              f"{g['ci'][1]:+.3f}], p {p_text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
