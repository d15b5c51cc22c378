"""States as ordinary Python objects: pickling by reference to the variant, and a one-line text form.

A pickled state holds its variant's canonical string, the ruleset digest, the deal and the actions, never the
compiled ruleset; unpickling takes the ruleset from a per-process cache (loading it once) and replays the
actions. The text form is the same information written for people:

    house.yaml(option=choice) | dealer 0 | pool 0 | seed 7 | actions bid CONTRACT, pass, pass, pass

A deal not made from a seed is written as `hands CARD CARD … / CARD … / … | talon CARD …` in place of `seed N`.
A variant that carries values between deals (`session.carry`) adds, after the pool, the values the deal began
with, and once the deal is over, at the end, those it leaves for the next deal, each as JSON by name (a suit by
its name): `… | pool 0 | session {"wins": 2} | seed 7 | actions … | next {"wins": 3}`.
"""
from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import IllegalActionError, OmbreError
from .carry import as_json, start_values
from .deal import shuffled
from .fields import Fields

if TYPE_CHECKING:
    from ..ruleset import Ruleset

S = TypeVar("S", bound=Fields)  # the class of the state made (State)
_RULES: dict[str, Ruleset] = {}
_LOCK = threading.Lock()


def rules_for(variant: str) -> Ruleset:
    """The ruleset of a canonical variant string, loaded once per process."""
    r = _RULES.get(variant)
    if r is None:
        from ..ruleset import load

        r = load(variant)
        with _LOCK:
            r = _RULES.setdefault(variant, r)
    return r


def remember(rules: Ruleset) -> None:
    """Put a ruleset loaded elsewhere into the cache, so that states of it unpickle onto the same object."""
    if rules.variant not in _RULES:
        with _LOCK:
            _RULES.setdefault(rules.variant, rules)


def reduce_state(state: Fields) -> tuple[Any, ...]:
    """`State.__reduce__`: rebuilt by `rebuild` from the variant name, the deal and the actions."""
    r = state.rules
    remember(r)
    return rebuild, (type(state), r.variant, r.digest, state.dealer, state.pool_before, tuple(state.deal_hands),
                     tuple(state.deal_talon), state.seed, tuple(state.history), as_json(r, state.carry))


def rebuild(cls: Callable[..., S], variant: str, digest: str, dealer: int, pool: int, hands: tuple[int, ...],
            talon: tuple[int, ...], seed: int | None, history: tuple[int, ...],
            session: dict[str, Any] | None = None) -> S:
    """A state (of class `cls`) from its pickled form; the variant must still compile to the same ruleset."""
    r = rules_for(variant)
    if r.digest != digest:
        raise OmbreError(f"variant '{variant}' is not the one this state was saved with (its rules changed)")
    s = cls(r, dealer=dealer, pool=pool, hands=list(hands), talon=list(talon), seed=seed, session=session)
    for a in history:
        s.apply(a)
    return s


def _seeded(state: Fields) -> bool:
    """Whether the state's deal is the one its seed deals."""
    if state.seed is None:
        return False
    r = state.rules
    masks, _lists, talon = r.deal(shuffled(r.deck.size, state.seed), state.dealer)
    return tuple(masks) == tuple(state.deal_hands) and tuple(talon) == tuple(state.deal_talon)


def to_text(state: Fields) -> str:
    """The position as one line: variant, dealer, pool, deal, actions (see the module docstring)."""
    r = state.rules
    deck = r.deck
    parts = [r.variant, f"dealer {state.dealer}", f"pool {state.pool_before}"]
    if r.carry is not None:
        parts.append("session " + _json(as_json(r, state.carry)))
    if _seeded(state):
        parts.append(f"seed {state.seed}")
    else:
        parts.append("hands " + " / ".join(" ".join(deck.names(h)) for h in state.deal_hands))
        parts.append(("talon " + " ".join(deck.name(c) for c in state.deal_talon)).rstrip())
    parts.append(" ".join(["actions"] + [", ".join(r.action_str(a) for a in state.history)]).rstrip())
    if r.carry is not None and state.result is not None:
        parts.append("next " + _json(as_json(r, state.carry_after)))
    return " | ".join(parts)


def carry_words(rules: Ruleset, values: tuple[Any, ...]) -> str:
    """Carried values for people, by name: `board [15, 30], mode open` (none: not set)."""
    def word(v: Any) -> str:
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, list):
            return "[" + ", ".join(map(str, v)) + "]"
        return "none" if v is None or v == "" else str(v)

    return ", ".join(f"{n} {word(v)}" for n, v in (as_json(rules, values) or {}).items())


def _json(values: dict[str, Any] | None) -> str:
    """Values as one line of JSON that holds no field separator (a '|' in a string is written as an escape)."""
    return json.dumps(values, ensure_ascii=True, separators=(", ", ": ")).replace("|", "\\u007c")


def _values(key: str, value: str, text: str) -> dict[str, Any]:
    try:
        got = json.loads(value)
    except ValueError:
        got = None
    if not isinstance(got, dict):
        raise OmbreError(f"'{key}' wants the session's values as a JSON mapping of names, not '{value}', in '{text}'")
    return got


def _int(key: str, value: str, text: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise OmbreError(f"'{key}' wants a number, not '{value}', in '{text}'") from None


def from_text(cls: Callable[..., S], text: str, rules: Ruleset | None = None) -> S:
    """The state (of class `cls`) a line of `to_text` describes (its variant loaded once per process unless
    `rules` is given)."""
    fields = [f.strip() for f in text.strip().split(" | ")]
    if len(fields) < 2:
        raise OmbreError(f"not a position: '{text}' (expected 'VARIANT | dealer N | pool N | seed N | actions …')")
    r = rules if rules is not None else rules_for(fields[0])
    known = {"dealer", "pool", "session", "seed", "hands", "talon", "actions", "next"}
    got: dict[str, str] = {}
    for f in fields[1:]:
        key, _, value = f.partition(" ")
        if key not in known:
            raise OmbreError(f"unknown field '{key}' in '{text}' (fields: {', '.join(sorted(known))})")
        if key in got:
            raise OmbreError(f"field '{key}' given twice in '{text}'")
        got[key] = value.strip()
    dealer = _int("dealer", got.get("dealer", "0"), text)
    pool = _int("pool", got.get("pool", "0"), text)
    carried = _values("session", got["session"], text) if "session" in got else None
    if "hands" in got:
        seats = got["hands"].split("/")
        hands = [sum(1 << r.deck.parse(c) for c in s.split()) for s in seats]
        talon = [r.deck.parse(c) for c in got.get("talon", "").split()]
        seed = _int("seed", got["seed"], text) if "seed" in got else None
        state = cls(r, dealer=dealer, pool=pool, hands=hands, talon=talon, seed=seed, session=carried)
    elif "seed" in got:
        state = cls(r, dealer=dealer, pool=pool, seed=_int("seed", got["seed"], text), session=carried)
    else:
        raise OmbreError(f"a position needs 'seed N' or 'hands …': '{text}'")
    acts = got.get("actions", "")
    for i, a in enumerate(x.strip() for x in acts.split(",") if x.strip()):
        try:
            state.apply_str(a)
        except IllegalActionError as e:
            raise IllegalActionError(f"action {i + 1} of '{text}': {e.message}") from None
    if "next" in got:
        _check_next(state, _values("next", got["next"], text), text)
    return state


def _check_next(state: Fields, given: dict[str, Any], text: str) -> None:
    """`next`: the values the deal leaves, derived from the deal; given, they must be those."""
    r = state.rules
    if state.result is None:
        raise OmbreError(f"'next' gives the values a finished deal leaves, but the deal is not over, in '{text}'")
    left = as_json(r, state.carry_after)
    if as_json(r, start_values(r, given)) != left:
        raise OmbreError(f"'next' gives {_json(given)}, but the deal leaves {_json(left)}, in '{text}'")
