"""Random legal play of many deals, timed: the engine's speed on the same work as the yardstick."""
from __future__ import annotations

import random
import time

from . import kernel
from .engine import whole
from .ruleset import Ruleset

LOOPS = ("playout", "api")


def run(rules: Ruleset, deals: int, seed: int, warmup: int = 200, loop: str = "playout") -> dict:
    """Play `deals` deals with uniformly random legal actions; counts and timing.

    `loop` is how: "playout" with State.random_playout (or, where the kernel plays the variant's whole deals,
    `engine/whole.py`: the same deals from the same random numbers), "api" with the public
    legal_actions/apply loop (the same actions for the same seed, slower). `warmup` untimed deals first build
    the rank and follow tables every trump context needs, as the yardstick warms up too."""
    if loop not in LOOPS:
        raise ValueError(f"loop must be one of {', '.join(LOOPS)}, not {loop!r}")
    if warmup:
        run(rules, warmup, seed + 999, 0, loop)
    api = loop == "api"
    rng = random.Random(seed)
    machine = whole.deals(rules) if not api and kernel.ON else None
    if machine is not None:  # the whole deals in the kernel: the same deals from the same random numbers
        tally = whole.Tally(0, 0)
        t0 = time.perf_counter()
        back = whole.play(rules, machine, deals, rng, tally)
        dt = time.perf_counter() - t0
        return _out(rules, loop, deals, seed, dt, tally.actions, tally.contracts, tally.outcomes,
                    f"whole deals in the kernel ({back} handed back to Python)")
    tally = whole.Tally(0, 0)
    play = whole.engine_deal
    t0 = time.perf_counter()
    for _ in range(deals):
        play(rules, rng.getrandbits(32), rng, tally, api)
    dt = time.perf_counter() - t0
    how = "the engine" + (f" (whole deals in the kernel: no, {whole.why_not(rules)})" if not api and kernel.ON
                          else "")
    return _out(rules, loop, deals, seed, dt, tally.actions, tally.contracts, tally.outcomes, how)


def _out(rules: Ruleset, loop: str, deals: int, seed: int, dt: float, actions: int, contracts: dict[str, int],
         outcomes: dict[str, int], how: str) -> dict:
    return {"variant": rules.variant, "loop": loop, "deals": deals, "seed": seed, "seconds": round(dt, 4),
            "deals_per_s": round(deals / dt, 1), "actions_per_deal": round(actions / deals, 2), "played_by": how,
            "contracts": dict(sorted(contracts.items())), "outcomes": dict(sorted(outcomes.items()))}


def table(out: dict) -> str:
    """A `run` result as readable text: the timing line, then the contracts and outcomes with their shares."""
    n = out["deals"]
    lines = [f"{out['variant']}: {n} deals in {out['seconds']:.2f}s = {out['deals_per_s']:.0f} deals/s "
             f"({out['actions_per_deal']} actions a deal, {out['loop']} loop, seed {out['seed']})",
             f"played by {out['played_by']}", ""]
    for title, counts in (("contract", out["contracts"]), ("outcome", out["outcomes"])):
        width = max([len(title)] + [len(k) for k in counts])
        lines.append(f"{title:<{width}}  {'deals':>7}  {'share':>6}")
        for k, c in sorted(counts.items(), key=lambda kc: (-kc[1], kc[0])):
            lines.append(f"{k:<{width}}  {c:>7}  {100 * c / n:>5.1f}%")
        lines.append("")
    return "\n".join(lines).rstrip()
