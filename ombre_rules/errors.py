"""One error hierarchy: every error caused by input names its place and quotes the input."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Loc:
    """A place in a source file: 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class OmbreError(ValueError):
    """Base of every error caused by bad input (files, expressions, actions, arguments)."""

    def __init__(self, message: str, loc: Loc | None = None, context: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.context = context

    def __str__(self) -> str:
        head = f"{self.loc}: {self.message}" if self.loc else self.message
        return f"{head}\n{self.context}" if self.context else head


class SpecError(OmbreError):
    """A variant or scenario file is malformed, fails its schema, or names something unknown."""


class ExprError(SpecError):
    """An expression does not parse or does not check."""


class IllegalActionError(OmbreError):
    """An action that is well formed but not allowed now."""


class InvalidActionError(OmbreError):
    """Action text that does not parse."""


class SpecErrors(SpecError):
    """Several errors found in one file; each keeps its own place."""

    def __init__(self, errors: Sequence[OmbreError]) -> None:
        first: dict[str, OmbreError] = {}
        for e in errors:  # an error met twice (one expression compiled for several contracts) is shown once
            first.setdefault(str(e), e)
        unique = list(first.values())
        super().__init__(unique[0].message, unique[0].loc, unique[0].context)
        self.errors = unique

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


def did_you_mean(word: object, candidates: Iterable[object]) -> str:
    """A ' (did you mean 'x'?)' suffix when a close candidate exists, else ''."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in candidates], n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def quoted(text) -> str:
    """A value as a one-line message quotes it: control characters escaped, at most 60 characters."""
    import json

    # a lone surrogate (which UTF-8 cannot hold) is written as its escape
    inner = json.dumps(str(text), ensure_ascii=False)[1:-1].encode("utf-8", "backslashreplace").decode("utf-8")
    return f"'{inner[:57]}...'" if len(inner) > 60 else f"'{inner}'"


class ArgumentError(OmbreError):
    """A bad argument to the engine's API: a seat that does not exist, a value of the wrong type."""
