"""The reference's tables of the limits a variant file must keep and of the values that may be none, made from
the constants the loader and the compiler enforce, so that they cannot drift."""
from __future__ import annotations

from ..cards import MAX_CARDS
from ..envs import FUNC_NONE_WHEN, NONE_WHEN, UNSET_VARS
from ..lang.compiler import MAX_COMPREHENSIONS, MAX_DEPTH, MAX_EXPR_CHARS, MAX_INT_DIGITS
from ..lang.types import MAX_LIST, MAX_NUMBER, SESSION_NUMBER
from ..ruleset.compiled import MAX_ITEMS as CARRIED_ITEMS
from ..ruleset.settlement import ALL_PASSED
from ..spec import resolve, yamlpos


def none_rows() -> list[list[str]]:
    """Each value an expression may read that may be none, and when it is."""
    rows = [[f"`{v}`", f"before the contract is fixed (bid conditions, the ante) and {ALL_PASSED} (`let:`, the "
                       f"all-pass scoring)"] for v in sorted(UNSET_VARS)]
    rows += [[f"`{v}`", when] for v, when in sorted(NONE_WHEN.items())]
    rows += [[f"`{f}(...)`", when] for f, when in sorted(FUNC_NONE_WHEN.items())]
    rows += [["`first(xs)`, `xs[i]`", "for an empty list, an index the list may not have"],
             ["`contract.NAME`", "for a contract without the attribute (none at all where the contract's own rules "
                                 "stand, if it lacks it)"],
             ["`suit.NAME`", "for a suit without the attribute"],
             ["`session.NAME`", "until a `set:` gives it a value, if it starts as none; a string or a suit whenever "
                                "a `set:` may give it none"],
             ["`x.NAME`, `suit(x)`", "when x may be none"]]
    return rows


def limit_rows() -> list[list[str]]:
    """Each limit a variant file is held to when it loads (and the one a session's values are held to at play)."""
    return [
        ["a file", f"{yamlpos.MAX_FILE_BYTES:,} bytes of UTF-8; no string with a lone surrogate (`\\ud800`)"],
        ["nesting, aliases", f"{yamlpos.MAX_DEPTH} levels; {yamlpos.MAX_ALIASES} aliases, {yamlpos.MAX_VALUES:,} "
                             f"values once expanded"],
        ["one list or mapping", f"{yamlpos.MAX_ITEMS:,} items"],
        ["a number in the file", f"at most 10^{len(str(yamlpos.MAX_INT)) - 1} either way ({MAX_INT_DIGITS} digits "
                                 f"in an expression)"],
        ["a number an expression makes", f"at most 2^63 - 1 ({MAX_NUMBER:,}) either way, worked out at load from "
                                          f"the ranges of what it reads: seats, tricks and points from the table and "
                                          f"the deck, the pool, a session's numbers and scores as up to "
                                          f"10^{len(str(SESSION_NUMBER)) - 1}"],
        ["a list or string an expression builds", f"{MAX_LIST:,} items (worked out at load)"],
        ["an expression", f"{MAX_EXPR_CHARS:,} characters, nested {MAX_DEPTH} levels, {MAX_COMPREHENSIONS} "
                          f"comprehensions inside one another"],
        ["a seat an expression names", "a seat of the table (0 to players - 1), worked out at load"],
        ["the deck", f"{MAX_CARDS:,} cards"],
        ["options", f"{resolve.MAX_CHOICES} choices an option; {resolve.MAX_CHECKED} rulesets for `ombre check` "
                    f"(the defaults and each other choice of each option)"],
        ["a value carried between deals (at play)", f"a number within 10^{len(str(SESSION_NUMBER)) - 1}, a list or "
                                                    f"string of {CARRIED_ITEMS:,} items: a deal that would leave more "
                                                    f"is refused"],
    ]
