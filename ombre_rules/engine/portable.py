"""States as ordinary Python objects: pickling by reference to the variant, and a one-line text form.

A pickled state holds its variant's canonical string, the ruleset digest, the deal and the actions, never the
compiled ruleset; unpickling takes the ruleset from a per-process cache (loading it once) and replays the
actions. The text form is the same information written for people:

    house.yaml(option=choice) | dealer 0 | pool 0 | seed 7 | actions bid CONTRACT, pass, pass, pass

A deal not made from a seed is written as `hands CARD CARD … / CARD … / … | talon CARD …` in place of `seed N`,
with `| turn_up CARD` after the talon when the variant turns a card for the deal (`deal.turn_up`).
A variant that carries values between deals (`session.carry`) adds, after the pool, the values the deal began
with, and once the deal is over, at the end, those it leaves for the next deal, each as JSON by name (a suit by
its name): `… | pool 0 | session {"wins": 2} | seed 7 | actions … | next {"wins": 3}`.
"""
from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import IllegalActionError, InvalidActionError, OmbreError, quoted
from .carry import as_json, start_values
from .deal import dealt_order, dealt_turn_up
from .fields import Fields

if TYPE_CHECKING:
    from ..cards import Deck
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
                     tuple(state.deal_talon), state.seed, tuple(state.history), as_json(r, state.carry),
                     state.turn_up if state.turn_up >= 0 else None, state.dealer_draw,
                     state.seat_draw, state.cut_at if state.cut_at >= 0 else None)


def rebuild(cls: Callable[..., S], variant: str, digest: str, dealer: int, pool: int, hands: tuple[int, ...],
            talon: tuple[int, ...], seed: int | None, history: tuple[int, ...],
            session: dict[str, Any] | None = None, turn_up: int | None = None,
            dealer_draw: tuple[tuple[int, int], ...] = (), seat_draw: tuple[int, ...] = (),
            cut: int | None = None) -> S:
    """A state (of class `cls`) from its pickled form; the variant must still compile to the same ruleset."""
    r = rules_for(variant)
    if r.digest != digest:
        raise OmbreError(f"variant '{variant}' is not the one this state was saved with (its rules changed)")
    s = cls(r, dealer=dealer, pool=pool, hands=list(hands), talon=list(talon), seed=seed, session=session,
            turn_up=turn_up, dealer_draw=dealer_draw, seat_draw=seat_draw, cut=cut)
    for a in history:
        s.apply(a)
    return s


def _seeded(state: Fields) -> bool:
    """Whether the state's deal is the one its seed deals."""
    if state.seed is None:
        return False
    r = state.rules
    order, _at = dealt_order(r, state.seed)
    masks, _lists, talon = r.deal(order, state.dealer)
    return tuple(masks) == tuple(state.deal_hands) and tuple(talon) == tuple(state.deal_talon) \
        and (r.turn_up_from is None or dealt_turn_up(r, order, state.dealer, state.seed) == state.turn_up)


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
        if state.turn_up >= 0:
            parts.append(f"turn_up {deck.name(state.turn_up)}")
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
    except (ValueError, RecursionError):
        got = None
    if not isinstance(got, dict):
        raise OmbreError(f"'{key}' wants the session's values as a JSON mapping of names, not {quoted(value)}, "
                         f"in {_shown(text)}")
    return got


def _shown(text: str, most: int = 120) -> str:
    """A line quoted in a message: unprintable characters escaped, at most `most` characters."""
    inner = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return f"'{inner[:most - 3]}...'" if len(inner) > most else f"'{inner}'"


def _int(key: str, value: str, text: str) -> int:
    if not _INT.fullmatch(value):
        raise OmbreError(f"'{key}' wants a number, not {quoted(value)}, in {_shown(text)}")
    return int(value)


_INT = re.compile(r"-?(0|[1-9][0-9]{0,99})")  # a number as `to_text` writes it: ASCII digits, no sign but '-'
_FIELDS = ("dealer", "pool", "session", "seed", "hands", "talon", "turn_up", "actions", "next")  # in the order written


def _fields(text: str) -> tuple[list[str], dict[str, str]]:
    """The fields of a line: the variant, then each other field once, by name, in the order `to_text` writes."""
    parts = text.split(" | ")
    if len(parts) < 2:
        raise OmbreError(f"not a position: {_shown(text)} (expected 'VARIANT | dealer N | pool N | seed N | "
                         f"actions …')")
    got: dict[str, str] = {}
    for f in parts[1:]:
        key, _, value = f.partition(" ")
        if key not in _FIELDS:
            raise OmbreError(f"unknown field {quoted(key)} in {_shown(text)} (fields: {', '.join(sorted(_FIELDS))})")
        if key in got:
            raise OmbreError(f"field '{key}' given twice in {_shown(text)}")
        if got and _FIELDS.index(key) < _FIELDS.index(list(got)[-1]):
            raise OmbreError(f"field '{key}' comes before '{list(got)[-1]}' in a position, in {_shown(text)}")
        got[key] = value
    return parts, got


def _cards(deck: Deck, value: str, where: str, seen: set[int], text: str) -> list[int]:
    """The cards of a hand or the talon, each named once in the whole deal."""
    out = []
    for name in value.split(" ") if value else []:
        c = deck.by_name.get(name)
        if c is None:
            raise OmbreError(f"{quoted(name)} in {where} is not a card of the deck, in {_shown(text)}")
        if c in seen:
            raise OmbreError(f"card {name} is named twice in the deal, in {_shown(text)}")
        seen.add(c)
        out.append(c)
    return out


def from_text(cls: Callable[..., S], text: str, rules: Ruleset | None = None) -> S:
    """The state (of class `cls`) a line of `to_text` describes (its variant loaded once per process unless
    `rules` is given). Only the line `to_text` writes for the state it describes is read: fields in its order
    and form, each card named once; anything else is an OmbreError saying what differs."""
    line = text.strip()
    if not line.isprintable():
        raise OmbreError(f"a position is one line of printable characters: {_shown(line)}")
    parts, got = _fields(line)
    r = rules if rules is not None else rules_for(parts[0])
    if parts[0] != r.variant:
        raise OmbreError(f"the position names variant {quoted(parts[0])}, not {quoted(r.variant)}")
    dealer = _int("dealer", got.get("dealer", "0"), line)
    pool = _int("pool", got.get("pool", "0"), line)
    carried = _values("session", got["session"], line) if "session" in got else None
    if "hands" in got:
        if "seed" in got:
            raise OmbreError(f"a position gives 'seed N' or 'hands …', not both: {_shown(line)}")
        seen: set[int] = set()
        hands = [sum(1 << c for c in _cards(r.deck, h, f"hand {i + 1}", seen, line))
                 for i, h in enumerate(got["hands"].split(" / "))]
        talon = _cards(r.deck, got.get("talon", ""), "the talon", seen, line)
        turned = _cards(r.deck, got["turn_up"], "turn_up", set(), line) if got.get("turn_up") else []
        if len(turned) > 1:
            raise OmbreError(f"'turn_up' names one card, in {_shown(line)}")
        state = cls(r, dealer=dealer, pool=pool, hands=hands, talon=talon, session=carried,
                    turn_up=turned[0] if turned else None)
    elif "seed" in got:
        state = cls(r, dealer=dealer, pool=pool, seed=_int("seed", got["seed"], line), session=carried)
    else:
        raise OmbreError(f"a position needs 'seed N' or 'hands …': {_shown(line)}")
    acts = got.get("actions", "")
    for i, a in enumerate(acts.split(", ") if acts else []):
        try:
            state.apply_str(a)
        except (IllegalActionError, InvalidActionError) as e:
            raise type(e)(f"action {i + 1} of {_shown(line)}: {e.message}") from None
    if "next" in got:
        _check_next(state, _values("next", got["next"], line), line)
    _canonical(parts, to_text(state).split(" | "), line)
    return state


def _canonical(given: list[str], written: list[str], text: str) -> None:
    """The line read is the one `to_text` writes for the state it gave: the first field that differs is named."""
    if given == written:
        return
    keys = [f.partition(" ")[0] for f in written[1:]]
    have = {f.partition(" ")[0]: f for f in given[1:]}
    for key, want in zip(keys, written[1:], strict=True):
        if key not in have:
            raise OmbreError(f"field '{key}' is missing (it reads {_shown(want)}) in {_shown(text)}")
        if have[key] != want:
            raise OmbreError(f"field '{key}' reads {_shown(have[key])}, but the position it gives is written "
                             f"{_shown(want)}, in {_shown(text)}")
    extra = next(k for k in have if k not in keys)
    raise OmbreError(f"field '{extra}' does not belong in this position, in {_shown(text)}")


def _check_next(state: Fields, given: dict[str, Any], text: str) -> None:
    """`next`: the values the deal leaves, derived from the deal; given, they must be those."""
    r = state.rules
    if state.result is None:
        raise OmbreError(f"'next' gives the values a finished deal leaves, but the deal is not over, in {_shown(text)}")
    left = as_json(r, state.carry_after)
    if as_json(r, start_values(r, given)) != left:
        raise OmbreError(f"'next' gives {_json(given)}, but the deal leaves {_json(left)}, in {_shown(text)}")
