"""What a report says of the bots that played: each one's kind and budget, what greedy learnt of the variant
(the contracts it bids less or never, from its own play), and where its strength is measured (`ombre match`:
the same deals with the seats rotated, and each bot's double-dummy loss per card)."""
from __future__ import annotations

from typing import Any

from ..bots.greedy import LEARN_DEALS, MIN_SUCCESS, learnt
from ..bots.pimc import DEFAULT_ROLLOUTS
from ..bots.pimcdd import DEFAULT_WORLDS, GREEDY_PER_WORLD, WEIGHED_CARDS
from ..errors import OmbreError

# each run's first deals whose card play is judged double-dummy, to state the bots' strength in every report:
# with the compiled kernel a deal's solves take milliseconds, in pure Python seconds
STRENGTH_DEALS = {True: 50, False: 10}


def judged(strength: int | None, every: bool, deals: int) -> int:
    """How many of a run's first deals are judged double-dummy: all with `every` (--double-dummy), else
    `strength` (--strength N), else the default for this install (`STRENGTH_DEALS`, by whether the kernel is
    on); never more than the run's deals."""
    if every:
        return deals
    if strength is None:
        from .. import kernel

        strength = STRENGTH_DEALS[kernel.ON]
    if strength < 0:
        raise OmbreError("--strength must be 0 (no measure) or more")
    return min(strength, deals)


_OPPONENT = {"pimcdd": "pimc", "pimc": "greedy", "greedy": "random"}  # whom a bot of one kind is measured against
_GREEDY_BASED = ("greedy", "pimc", "pimcdd")  # bots that bid as greedy does or play greedy's play-outs


def budget(name: str) -> str:
    """A player's kind and budget in words."""
    base, _, arg = name.partition(":")
    if base == "random":
        return "uniform over the legal actions (no budget)"
    if base == "greedy":
        return "greedy: hand evaluation and cheap tricks, no search (no budget)"
    if base == "pimcdd":
        if arg.endswith("s"):
            return f"Monte-Carlo over double-dummy solves, {arg[:-1]} seconds a decision"
        n = int(arg) if arg else DEFAULT_WORLDS
        return (f"Monte-Carlo over double-dummy solves, {n} worlds a card ({GREEDY_PER_WORLD * n} greedy play-outs "
                f"for another choice, and for a defender's card where the defenders are paid apart; worlds weighed "
                f"by the others' bids and cards where the hands hold at most {WEIGHED_CARDS})")
    if arg.endswith("s"):
        return f"Monte-Carlo over greedy play-outs, {arg[:-1]} seconds a decision"
    return f"Monte-Carlo over greedy play-outs, {int(arg) if arg else DEFAULT_ROLLOUTS} play-outs a decision"


def _learnt(rules) -> dict:
    """What greedy learnt of a variant from its own play, for the report."""
    got = learnt(rules)
    names = {c.index: c.name for c in rules.contracts}
    bids, made = got.before
    return {"min_success": MIN_SUCCESS, "rounds": got.rounds, "deals_a_round": LEARN_DEALS,
            "success_needed": {names[k]: v for k, v in sorted(got.needed.items())},
            "asks_more": {names[k]: v for k, v in sorted(got.extra.items())},
            "before": {c: {"bids": n, "made": made[c]} for c, n in bids.most_common()}}


def players_info(runs: list[Any], judged: int = 0) -> dict:
    """Per player name of the runs: its budget and the seats and variants it played; per variant with greedy
    (or pimc and pimcdd, whose play-outs are greedy's), what greedy learnt; how many of each run's first deals
    were `judged` double-dummy, and how to measure the bots' strength against each other."""
    names = list(dict.fromkeys(nm for r in runs for nm in r.players))
    out: dict = {"players": {nm: {"budget": budget(nm),
                                  "seats": {r.name: [k for k, x in enumerate(r.players) if x == nm]
                                            for r in runs if nm in r.players}} for nm in names},
                 "greedy_learnt": {r.name: _learnt(r.rules) for r in runs
                                   if any(nm.partition(":")[0] in _GREEDY_BASED for nm in r.players)}}
    v = runs[0].rules.variant if runs else "VARIANT"
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]] if len(names) > 1 else \
        [(nm, _OPPONENT.get(nm.partition(":")[0], "greedy")) for nm in names]
    out["judged"] = judged
    out["strength"] = ("measured on the same deals with the seats rotated, so that the cards' luck cancels: "
                       + "; ".join(f"ombre match \"{v}\" {a} {b} --deals 2000 --double-dummy" for a, b in pairs)
                       + " (each bot's gain over the other per deal, with its interval, and each one's double-dummy "
                         "loss per card)")
    return out
