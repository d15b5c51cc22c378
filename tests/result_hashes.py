"""A fingerprint of what the built-in variants do: for each variant, with its defaults and with each other choice
of each option, a session of seeded deals played by seeded random players, hashed over every deal's actions (in
notation), tricks, outcome, payments, pool and carried values. Two runs agree exactly when the rules played alike
on those deals; run it before and after a change to see which variants and choices the change touches:

    python tests/result_hashes.py [--defaults] [DEALS] > before.txt

`tests/golden/result_hashes.txt` pins the defaults of every built-in variant over 60 deals (test_result_hashes.py);
a change that means to change what a variant does regenerates it with
`python tests/result_hashes.py --defaults 60 > tests/golden/result_hashes.txt` and says why in its commit.
"""
from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from ombre_rules import load
from ombre_rules.players import RandomPlayer
from ombre_rules.session import Session
from ombre_rules.spec.resolve import builtin_index, resolve


def every_choice(defaults_only: bool = False) -> list[tuple[str, dict]]:
    """(variant file, options) for each built-in variant's defaults and (unless `defaults_only`) each other choice
    of each option."""
    out: list[tuple[str, dict]] = []
    for path in sorted(set(builtin_index().values())):
        spec = resolve(path)
        out.append((path, {}))
        if not defaults_only:
            out += [(path, {k: c}) for k, cs in spec.choices.items() for c in cs if c != spec.defaults[k]]
    return out


def fingerprint(variant: str, options: dict, deals: int, seed: int = 1) -> str:
    """The hash of one session of `deals` deals (sessions restart when the variant's session ends)."""
    rules = load(variant, options)
    h = hashlib.sha256()
    players = [RandomPlayer(seed * 100 + i) for i in range(rules.players)]
    session = Session(rules, seed=seed)
    for _ in range(deals):
        s = session.new_deal()
        while not s.is_terminal:
            seat = s.current_player
            s.apply(players[seat].act(None, s.legal_actions()))
        session.record(s)
        r = s.result
        assert r is not None
        h.update(json.dumps([[rules.action_str(a) for a in s.history], r.outcome, r.declarer, r.contract, r.trump,
                             list(r.tricks), list(r.payments), r.pool_after, r.session_after],
                            sort_keys=True, default=str).encode())
        if session.over:
            session.close()
            h.update(json.dumps([session.ledger, session.pool]).encode())
            session = Session(rules, seed=seed + len(session.deals))
    return h.hexdigest()[:16]


def lines(deals: int, defaults_only: bool = False) -> Iterator[str]:
    """One line per variant and choice: its fingerprint and its name."""
    for variant, options in every_choice(defaults_only):
        label = Path(variant).stem + "".join(f" {k}={v}" for k, v in options.items())
        yield f"{fingerprint(variant, options, deals)}  {label}"


def main(argv: list[str]) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="result_hashes.py", description="A fingerprint of many seeded deals' results "
                                "per built-in variant and option choice: run before and after a change and diff.")
    p.add_argument("deals", nargs="?", type=int, default=200, help="deals a session (default 200)")
    p.add_argument("--defaults", action="store_true", help="each variant with its defaults only")
    args = p.parse_args(argv)
    if args.deals < 1:
        p.error("deals must be at least 1")
    for line in lines(args.deals, args.defaults):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
