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
from ombre_rules.sim.match import from_text, pool, pooled_text


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
    print(json.dumps(out) if a.json else pooled_text(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
