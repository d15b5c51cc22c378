"""The compiled play kernel (optional): the card play of any variant in C, on the tables the ruleset compiles.

It knows mechanics, never games: hands as 64-bit masks, a trump context's effective suits, powers and rank keys by
led suit, and a follow list's rows (per led card, the (bind, must) masks of its obligations), all passed in from
Python and checked there before use (`_ckernel.Tables`). On them it plays random tricks (the loop of
`State._random_tricks`, the same cards from the same random numbers: `random_tricks`) and searches double-dummy
(`_ckernel.Search`, driven by `solve.fast`), and it settles a deal (`_ckernel.Program`, the settlement machine: a
settlement block translated by `ruleset/machine.py`, declining to Python where it cannot be exact), and it shuffles
a deal (`shuffled`: SHAKE-128 keys of the seed, as `engine/deal.py` sorts them), and it plays whole random deals
of a ruleset lowered into tables (`deals`, `_ckernel.Deals`: `engine/whole.py`). What it does not run stays in
Python: claims and concessions, `play.end_when` (asked of Python after each trick), the excuse card, trumps fixed
by the first lead, follow rules that read the card winning the trick (`winning_card`), decks of more than 64 cards.

`pip install .` builds it where a C compiler is found (the build hook `hatch_build.py`); without it, or with the
environment variable OMBRE_KERNEL=0, everything runs in pure Python with the same results. `ON` says whether it is
used now; `use(False)` turns it off for a while (the tests run both paths in one process)."""
from __future__ import annotations

import importlib
import os
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# The compiled module, typed Any: its objects are used only here and in `solve.fast`, which check what they
# pass in (a C extension carries no types mypy can read).
_ckernel: Any
try:
    if os.environ.get("OMBRE_KERNEL", "").strip() == "0":
        raise ImportError("turned off by OMBRE_KERNEL=0")
    _ckernel = importlib.import_module("._ckernel", __name__)
except ImportError:  # not built here (no C compiler at install), or turned off
    _ckernel = None

BUILT = _ckernel is not None  # the compiled module is loaded
ON = BUILT  # the engine and the solver use it now
MAX_CARDS = 64
MAX_SHUFFLE = 1024  # the most cards its shuffle takes

if _ckernel is not None:
    random_tricks = _ckernel.random_tricks
    Search = _ckernel.Search
    Stopped = _ckernel.Stopped
    program = _ckernel.Program  # a settlement block for the settlement machine (ruleset/machine.py makes it)
    shuffled = _ckernel.shuffled  # a deal's shuffle, as engine/deal.py's (None for a seed beyond 64 bits)
    shake128 = _ckernel.shake128
    random_discards = _ckernel.random_discards  # an exchanger's random discards, as engine/exchange.py's loop
    deals = _ckernel.Deals  # whole random deals of a ruleset (engine/whole.py lowers the ruleset into it)


@contextmanager
def use(on: bool) -> Iterator[None]:
    """Run the block with the kernel on (if built) or off, then as before."""
    global ON
    before = ON
    ON = on and BUILT
    try:
        yield
    finally:
        ON = before


# per trump context (a ruleset's `Context`, held weakly) and follow list: its Tables, or None where the kernel
# cannot play it
_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def tables(ctx: Any, follow_id: int) -> Any:
    """The kernel's tables for a trump context and a follow list (None when the kernel is not built or cannot
    play the deck): built from `ctx.eff`, `ctx.key`, `ctx.power` and `ctx.follow(follow_id)` on first use."""
    if _ckernel is None:
        return None
    by_list = _TABLES.get(ctx)
    if by_list is None:
        by_list = _TABLES[ctx] = {}
    t = by_list.get(follow_id, by_list)
    if t is by_list:
        t = by_list[follow_id] = _build(ctx, follow_id)
    return t


def _build(ctx: Any, follow_id: int) -> Any:
    rows = ctx.follow(follow_id)
    if len(ctx.eff) > MAX_CARDS or len(rows) != len(ctx.eff):  # rows by winning card too: Python plays
        return None
    try:
        return _ckernel.Tables(ctx.eff, ctx.key, rows, ctx.power)
    except (ValueError, TypeError, OverflowError):  # tables it cannot take (too many obligations): Python plays
        return None
