"""Rulebooks and diffs made once per ruleset and kept, in memory and on disk.

A rulebook plays worked examples and builds the book of every option choice: seconds of computing for the
larger variants. Each page is made in a worker process (never on the event loop, nor holding the server's
interpreter), and kept under a key that names everything it is made from: the code of the package, the
resolved variant (its title and sources included) and the options. At start the server makes the built-in
variants' rulebooks it does not have yet, so that the first person to open one waits for none."""
from __future__ import annotations

import asyncio
import hashlib
import html
import json
import logging
import multiprocessing
import os
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import lru_cache

from ..errors import OmbreError
from ..ruleset import Ruleset

Source = tuple[str, tuple[tuple[str, str], ...]]  # what `load` takes: a variant and its option choices
MEMORY_PAGES = 48
DISK_PAGES = 2000
log = logging.getLogger(__name__)
_KEYS: weakref.WeakKeyDictionary[Ruleset, str] = weakref.WeakKeyDictionary()


@lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of the package's code: a page made by other code is made again."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".py", ".lark", ".json")):
                h.update(name.encode())
                with open(os.path.join(folder, name), "rb") as f:
                    h.update(f.read())
    return h.hexdigest()[:16]


def rules_key(rules: Ruleset) -> str:
    """Everything a page of these rules is made from, as a digest."""
    key = _KEYS.get(rules)
    if key is None:
        body = json.dumps([rules.variant, rules.spec.data], sort_keys=True, default=str)
        key = _KEYS[rules] = hashlib.sha256(body.encode()).hexdigest()[:24]
    return key


def page_key(kind: str, *rules: Ruleset) -> str:
    return hashlib.sha256("/".join([code_version(), kind, *map(rules_key, rules)]).encode()).hexdigest()[:32]


@lru_cache(maxsize=16)
def _load(source: str, options: tuple[tuple[str, str], ...]) -> Ruleset:
    return Ruleset.load(source, dict(options))


def render(kind: str, sources: list[Source]) -> tuple[bool, str]:
    """Make a page (in a worker): (True, the page) or (False, the message of what failed)."""
    from .. import book

    try:
        rules = [_load(s, o) for s, o in sources]
        return True, (book.rulebook_html(rules[0]) if kind == "book" else book.diff_html(rules[0], rules[1]))
    except OmbreError as e:
        return False, str(e)
    except Exception as e:  # noqa: BLE001 - a page that cannot be made is shown as a message, not a 500
        return False, f"{type(e).__name__}: {str(e)[:300]}"


def failure_page(title: str, message: str) -> str:
    """A page that says why a rulebook or diff cannot be shown."""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"</head><body><h1>{html.escape(title)}</h1><p>It cannot be made from this file:</p>"
            f"<pre>{html.escape(message)}</pre></body></html>\n")


class Books:
    """The pages, by key: a few in memory, many on disk under `folder`."""

    def __init__(self, folder: str, processes: bool = True) -> None:
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.processes = processes
        self._memory: OrderedDict[str, str] = OrderedDict()
        self._making: dict[str, asyncio.Future[tuple[bool, str]]] = {}
        self._pool: Executor | None = None

    def _path(self, key: str) -> str:
        return os.path.join(self.folder, key + ".html")

    def get(self, key: str) -> str | None:
        page = self._memory.get(key)
        if page is not None:
            self._memory.move_to_end(key)
            return page
        try:
            with open(self._path(key), encoding="utf-8") as f:
                page = f.read()
        except OSError:
            return None
        self._remember(key, page)
        return page

    def _remember(self, key: str, page: str) -> None:
        self._memory[key] = page
        while len(self._memory) > MEMORY_PAGES:
            self._memory.popitem(last=False)

    def put(self, key: str, page: str) -> None:
        """Keep a page in memory and on disk (written whole, then renamed into place)."""
        self._remember(key, page)
        path = self._path(key)
        try:
            with open(path + ".part", "w", encoding="utf-8") as f:
                f.write(page)
            os.replace(path + ".part", path)
            self._prune()
        except OSError as e:
            log.warning("rulebook cache: cannot write %s: %s", path, e)

    def _prune(self) -> None:
        names = [n for n in os.listdir(self.folder) if n.endswith(".html")]
        if len(names) <= DISK_PAGES:
            return
        paths = sorted((os.path.join(self.folder, n) for n in names), key=os.path.getmtime)
        for p in paths[:len(paths) - DISK_PAGES]:
            os.remove(p)

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = (ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
                          if self.processes else ThreadPoolExecutor(1, thread_name_prefix="books"))
        return self._pool

    async def page(self, kind: str, rules: list[Ruleset], sources: list[Source]) -> tuple[bool, str]:
        """A rulebook (`kind` "book", one ruleset) or diff ("diff", two): (True, page) from the cache or made
        now by the worker, or (False, why it cannot be made). Two requests for one page make it once."""
        key = page_key(kind, *rules)
        page = self.get(key)
        if page is not None:
            return True, page
        fut = self._making.get(key)
        if fut is None:
            fut = asyncio.get_running_loop().run_in_executor(self._executor(), render, kind, sources)
            self._making[key] = fut
        try:
            ok, text = await asyncio.shield(fut)
        finally:
            self._making.pop(key, None)
        if ok:
            self.put(key, text)
        return ok, text

    async def warm(self, books: Iterable[tuple[Ruleset, Source]]) -> int:
        """Make the rulebooks not yet kept, one after the other in the worker; how many were made."""
        made = 0
        for rules, source in books:
            if self.get(page_key("book", rules)) is None:
                ok, _ = await self.page("book", [rules], [source])
                made += ok
        return made

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
