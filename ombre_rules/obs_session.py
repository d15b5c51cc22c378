"""The `session` slice of the observation encoding: the values a session carries into the deal (`session.carry`),
public to every seat, as a bounded vector in the file's order.

Each value takes a fixed number of entries by its type: a number two (its part above zero and below zero), a
yes/no one (0/1), a suit one per suit of the deck (one-hot; none when not set), a string one per word the file's
`set:` steps (and its start value) give it, then one for any other word (one-hot; none for the empty string), a
list of numbers three (its length, its sum above zero and below zero). Counts are clipped at `CLIP`.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .lang import types as T

if TYPE_CHECKING:
    from .ruleset import Ruleset

CLIP = 1000  # the largest count an entry holds (a number, a list's length or sum)
MAX_WORDS = 32  # words of a string value with an entry of their own (the rest share "another word")
SIZE_TEXT = "V"  # the slice's size in the general table
MEANING = ("the values the session carries into the deal (`session.carry`), in the file's order: a number as its "
           "part above and below zero, a yes/no as 0/1, a suit one-hot (S), a string one-hot over the words the "
           "file's `set:` steps give it and one for any other, a list as its length and its sum above and below "
           f"zero (counts clipped at {CLIP})")


@dataclass(frozen=True, slots=True)
class Part:
    """The entries of one carried value: from `start` (within the slice), their meanings and largest values."""

    index: int  # the value's place in `State.carry`
    type: str
    start: int
    labels: tuple[str, ...]
    highs: tuple[float, ...]
    words: tuple[str, ...] = ()


def parts(rules: Ruleset) -> tuple[Part, ...]:
    """The entries of every carried value of a ruleset (none without `session.carry`)."""
    carry = rules.carry
    if carry is None:
        return ()
    out: list[Part] = []
    at = 0
    words = _words(rules)
    for i, (name, t) in enumerate(zip(carry.names, carry.types, strict=True)):
        ws: tuple[str, ...] = ()
        labels: tuple[str, ...]
        highs: tuple[float, ...]
        if t == T.INT:
            labels, highs = (f"{name} above zero", f"{name} below zero"), (CLIP, CLIP)
        elif t == T.BOOL:
            labels, highs = (name,), (1.0,)
        elif t == T.SUIT:
            labels = tuple(f"{name} {s.name}" for s in rules.deck.suits)
            highs = (1.0,) * len(labels)
        elif t == T.STR:
            start = carry.start[i]
            ws = tuple(sorted(words.get(i, set()) | ({start} if start else set())))[:MAX_WORDS]
            labels = tuple(f"{name} {w}" for w in ws) + (f"{name} another word",)
            highs = (1.0,) * len(labels)
        else:
            labels = (f"{name} length", f"{name} sum above zero", f"{name} sum below zero")
            highs = (CLIP, CLIP, CLIP)
        out.append(Part(i, t, at, labels, tuple(float(h) for h in highs), ws))
        at += len(labels)
    return tuple(out)


def _words(rules) -> dict[int, set[str]]:
    """The strings each `set:` step may give a carried value: the string literals of its expression (those
    not compared with something), read from the generated code."""
    out: dict[int, set[str]] = {}
    for tree in rules.compiler.generated:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_set" \
                    and len(node.args) == 3 and isinstance(node.args[1], ast.Constant) \
                    and isinstance(node.args[1].value, int):
                compared = {id(c) for n in ast.walk(node.args[2]) if isinstance(n, ast.Compare)
                            for c in [n.left, *n.comparators]}
                out.setdefault(node.args[1].value, set()).update(
                    n.value for n in ast.walk(node.args[2])
                    if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value and id(n) not in compared)
    return out


def _clip(v: int) -> tuple[float, float]:
    return float(min(max(v, 0), CLIP)), float(min(max(-v, 0), CLIP))


def entries(ps: tuple[Part, ...], values: tuple) -> tuple[list[int], list[tuple[int, float]]]:
    """The entries of the slice (from 0) that are 1, and the (entry, value) of the non-zero counts."""
    ones: list[int] = []
    vals: list[tuple[int, float]] = []
    for p in ps:
        v = values[p.index]
        if p.type == T.INT:
            vals.extend((p.start + k, x) for k, x in enumerate(_clip(v)) if x)
        elif p.type == T.BOOL:
            if v:
                ones.append(p.start)
        elif p.type == T.SUIT:
            if v is not None:
                ones.append(p.start + v.index)
        elif p.type == T.STR:
            if v:
                ones.append(p.start + (p.words.index(v) if v in p.words else len(p.words)))
        else:
            counts = (float(min(len(v), CLIP)), *_clip(sum(v)))
            vals.extend((p.start + k, x) for k, x in enumerate(counts) if x)
    return ones, vals
