"""Players: a seat's policy. A player sees only its seat's observation and the legal actions."""
from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from .engine.view import Seat, seat_facts
from .errors import OmbreError, did_you_mean, quoted

if TYPE_CHECKING:
    from .bots import GreedyPlayer, PimcddPlayer, PimcPlayer
    from .engine import State
    from .ruleset import Ruleset


class Player(Protocol):
    def act(self, view: Any, legal: list[int]) -> int:
        """Choose one of `legal` (action ids) seeing only `view`, the seat's observation (`State.view`), or
        what the player's `view_actions` asks for instead (see `observe`)."""


class RandomPlayer:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"
    view_actions = None  # it sees nothing: no view is built for it
    forced_unseen = False  # its generator is drawn from even when one action is legal

    def __init__(self, seed: int | None = None, rules: Ruleset | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: dict | None, legal: list[int]) -> int:
        return self.rng.choice(legal)


PLAYERS = ("random", "greedy", "pimc", "pimcdd")
MAX_ROLLOUTS = 100_000  # play-outs of one Monte-Carlo decision
MAX_SECONDS = 600.0  # seconds of one Monte-Carlo decision
MAX_WORLDS = 10_000  # worlds of one pimcdd decision
HELP = ("random (uniform over legal actions), greedy (cheap tricks, hand evaluation), "
        "pimc (Monte-Carlo over greedy play-outs; pimc:N for N play-outs a decision, pimc:Xs for X seconds), "
        "pimcdd (Monte-Carlo over double-dummy solves, the strongest; pimcdd:N for N worlds a decision, "
        "pimcdd:Xs for X seconds)")


def observe(player: Player, state: State, seat: int) -> dict[str, Any] | Seat | None:
    """What `player` is shown of `seat`: its view (with or without the action list, as `view_actions` says),
    or, for a player whose `view_actions` is "facts", the same view's facts as card masks (`engine.view.Seat`),
    or nothing (None) for a player whose `view_actions` is None, one that chooses without looking."""
    wants = getattr(player, "view_actions", True)
    if wants is None:
        return None
    if wants == "facts":
        return seat_facts(state, seat)
    return state.view(seat, wants)


def act(player: Player, state: State, seat: int, legal: list[int] | None = None) -> int:
    """Ask a player for the move of `seat`, giving it that seat's view and the legal actions (`legal`, when the
    caller has them already), nothing else (no view when only one action is legal and the player takes it
    unseen, as its `forced_unseen` says)."""
    if legal is None:
        legal = state.legal_actions()
    if len(legal) == 1 and getattr(player, "forced_unseen", False):
        return legal[0]
    return player.act(observe(player, state, seat), legal)


def _bots() -> tuple[type[GreedyPlayer], type[PimcPlayer], type[PimcddPlayer]]:
    """The bots' classes, imported when first asked for (a run of random players never loads them)."""
    global _BOTS
    if _BOTS is None:
        from .bots import GreedyPlayer, PimcddPlayer, PimcPlayer

        _BOTS = (GreedyPlayer, PimcPlayer, PimcddPlayer)
    return _BOTS


_BOTS: tuple[type[GreedyPlayer], type[PimcPlayer], type[PimcddPlayer]] | None = None


def make_player(name: str, seed: int | None = None, rules: Ruleset | None = None) -> Player:
    """A player by name: `random`, `greedy`, `pimc`, `pimc:N` (N play-outs a decision), `pimc:Xs` (X seconds),
    `pimcdd`, `pimcdd:N` (N worlds a decision), `pimcdd:Xs`."""
    base, _, arg = name.partition(":")
    if base not in PLAYERS:
        raise OmbreError(f"unknown player {quoted(name)}{did_you_mean(base, PLAYERS)} (players: {', '.join(PLAYERS)})")
    if base == "random":
        if arg:
            raise OmbreError(f"player 'random' takes no budget: '{name}'")
        return RandomPlayer(seed)
    if rules is None:
        raise OmbreError(f"player '{base}' needs the variant's rules")
    GreedyPlayer, PimcPlayer, PimcddPlayer = _bots()
    if base == "greedy":
        if arg:
            raise OmbreError(f"player 'greedy' takes no budget: '{name}'")
        return GreedyPlayer(seed, rules)
    cls, most, unit = ((PimcPlayer, MAX_ROLLOUTS, "play-outs") if base == "pimc"
                       else (PimcddPlayer, MAX_WORLDS, "worlds"))
    if not arg:
        return cls(seed, rules)
    try:
        if arg.endswith("s"):
            secs = float(arg[:-1])
            if 0 < secs <= MAX_SECONDS:  # false for nan and inf too
                return cls(seed, rules, seconds=secs)
        elif arg.isdigit() and len(arg) <= 7 and 0 < int(arg) <= most:
            return cls(seed, rules, int(arg))
    except ValueError:
        pass
    raise OmbreError(f"bad budget in {quoted(name)} (expected {base}:N {unit}, 0 < N <= {most}, or "
                     f"{base}:Xs seconds, 0 < X <= {MAX_SECONDS:g})")


def prepare(names: Iterable[str], rules: Ruleset) -> None:
    """Make the named players (an unknown name fails here) and let each kind learn now what it learns once per
    variant (its class's `prepare(rules)`, if it has one): a run does this before its clock starts and before
    its worker processes are forked, so that they inherit it and no deal pays for it."""
    done = set()
    for nm in names:
        p = make_player(nm, 0, rules)
        prep = getattr(p, "prepare", None)
        if prep is not None and type(p) not in done:
            done.add(type(p))
            prep(rules)
