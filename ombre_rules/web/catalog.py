"""The variants a server offers: the built-in ones, the files of `--variants DIR`, and uploaded house rules.

Each has a key used in URLs: a built-in id, `dir:FILE` or `upload:ID`. Uploaded files are untrusted: each must
extend a built-in variant (a house rule is a change to a game the server knows, and its diff against that game
shows what it changes), and is kept (under the data folder) only when everything the server will do with it
works: `ombre check`, its rulebook, its diff and deals played, all in a process of its own with limits
(`vet.py`). A kept file that stops loading later (after an update of the server) is listed with its errors and
takes no page down."""
from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import OmbreError, SpecErrors
from ..ruleset import Ruleset, load
from ..spec.resolve import builtin_index, fmt_value, resolve
from ..spec.yamlpos import load_file
from .errors import WebError
from .storage import Store
from .vet import vet

MAX_UPLOAD = 64 * 1024
MAX_NAME = 60  # characters of an uploaded file's name that are kept
_SAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Entry:
    """One variant on offer: its key, what `load` takes, the name shown for its file, where it comes from."""

    key: str
    source: str
    name: str
    origin: str  # built-in | folder | upload


class Catalog:
    """Look-ups of variants by key, their summaries, option forms and compiled rules."""

    def __init__(self, store: Store, folder: str | None = None, stored_uploads: int = 500) -> None:
        self.store = store
        self.folder = folder
        self.upload_dir = os.path.join(store.folder, "uploads")
        self.stored_uploads = stored_uploads

    def entries(self) -> list[Entry]:
        out = [Entry(vid, vid, os.path.basename(path), "built-in") for vid, path in _builtins()]
        if self.folder and os.path.isdir(self.folder):
            for fn in sorted(os.listdir(self.folder)):
                if fn.endswith((".yaml", ".yml")):
                    out.append(Entry("dir:" + fn, os.path.join(self.folder, fn), fn, "folder"))
        for uid, name, path in self.store.uploads():
            out.append(Entry("upload:" + uid, path, name, "upload"))
        return out

    def get(self, key: str) -> Entry:
        for e in self.entries():
            if e.key == key:
                return e
        raise WebError(404, f"no variant '{key}'")

    def clean(self, entry: Entry, text: str) -> str:
        """A message with the server's path of a file replaced by the name it is shown under."""
        return text.replace(entry.source, entry.name) if entry.origin != "built-in" else text

    def summary(self, entry: Entry) -> dict[str, Any]:
        """Title, seats and options of a variant; a file that does not load gets its errors instead (whatever
        goes wrong with one file, the others are listed)."""
        path = builtin_index().get(entry.source, entry.source)
        try:
            return _summary(self, entry, _mtime(path))
        except Exception as e:  # noqa: BLE001 - one broken file must not take the lobby down
            log.warning("variant %s cannot be listed: %r", entry.key, e)
            return {"key": entry.key, "file": entry.name, "origin": entry.origin, "title": entry.name,
                    "errors": [self.clean(entry, f"{entry.name}: this file cannot be read by this server "
                                                 f"({type(e).__name__})")]}

    def _summary(self, entry: Entry) -> dict[str, Any]:
        out: dict[str, Any] = {"key": entry.key, "file": entry.name, "origin": entry.origin}
        try:
            spec = resolve(entry.source)
        except OmbreError as e:
            return {**out, "title": entry.name, "errors": self._messages(entry, e)}
        d = spec.data
        options = []
        for k, o in (d.get("options") or {}).items():
            rng = spec.ranges.get(k)
            options.append({"key": k, "doc": o.get("doc", ""), "default": fmt_value(spec.defaults[k]),
                            "choices": [fmt_value(c) for c in spec.listed(k)],
                            **({"range": {"min": rng.lo, "max": rng.hi}} if rng else {})})
        return {**out, "id": d["id"], "title": d.get("title", d["id"]), "players": d["players"],
                "options": options, "aliases": list(d.get("aliases") or []), "base": self._base(entry),
                "doc": str(d.get("doc") or "")}

    def _base(self, entry: Entry) -> str | None:
        """The key of the built-in variant a file extends (None if it extends none)."""
        path = builtin_index().get(entry.source, entry.source)
        try:
            base = load_file(path, entry.name).data.get("extends")
        except (OmbreError, AttributeError):
            return None
        index = builtin_index()
        return resolve(index[base]).data["id"] if isinstance(base, str) and base in index else None

    def _messages(self, entry: Entry, e: OmbreError) -> list[str]:
        errs = e.errors if isinstance(e, SpecErrors) else [e]
        return [self.clean(entry, str(x)) for x in errs]

    def rules(self, entry: Entry, options: dict[str, str]) -> Ruleset:
        """The compiled rules of a variant with option choices; a 400 naming the problem otherwise."""
        try:
            return _load(entry.source, tuple(sorted(options.items())), _mtime(entry.source))
        except OmbreError as e:
            raise WebError(400, "; ".join(self._messages(entry, e))) from None

    def display(self, entry: Entry, rules: Ruleset) -> str:
        """The canonical variant string as a person should read it (a file by its name)."""
        return self.clean(entry, rules.variant)

    # -- uploads -------------------------------------------------------------------------------------
    def upload(self, name: str, data: bytes) -> tuple[Entry, str | None]:
        """Check an uploaded house-rule file in full and keep it; a 400 with every `file:line:col` problem
        otherwise (nothing is left behind). Returns the entry and its rulebook, made by the check."""
        if len(data) > MAX_UPLOAD:
            raise WebError(413, f"file too large: {len(data)} bytes (at most {MAX_UPLOAD})")
        name = _SAFE_NAME.sub("_", os.path.basename(name or "upload.yaml")).strip("._")[:MAX_NAME] or "upload"
        if not name.endswith((".yaml", ".yml")):
            name += ".yaml"
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise WebError(400, f"{name}: not UTF-8 text (byte {e.start + 1})") from None
        if len(self.store.uploads()) >= self.stored_uploads:
            raise WebError(503, f"this server keeps at most {self.stored_uploads} uploaded files")
        uid = hashlib.sha256(data).hexdigest()[:16]
        folder = os.path.join(self.upload_dir, uid)
        path = os.path.join(folder, name)
        entry = Entry("upload:" + uid, path, name, "upload")
        try:
            os.makedirs(folder, exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            base, problems = self._extends(entry)
            verdict = vet(path, base) if not problems else None
            if verdict is not None:
                problems = [self.clean(entry, p) for p in verdict.problems]
        except OSError as e:
            shutil.rmtree(folder, ignore_errors=True)
            raise WebError(400, f"{name}: cannot be stored ({e.strerror or e})") from None
        if problems:
            shutil.rmtree(folder, ignore_errors=True)
            raise WebError(400, "\n".join(problems))
        self.store.add_upload(uid, name, path)
        return entry, verdict.rulebook if verdict is not None else None

    def _extends(self, entry: Entry) -> tuple[str | None, list[str]]:
        """The built-in variant an upload extends, or why it may not be kept: it extends none, or another."""
        try:
            doc = load_file(entry.source, entry.name)
        except OmbreError as e:
            return None, self._messages(entry, e)
        base = doc.data.get("extends") if isinstance(doc.data, dict) else None
        ids = ", ".join(sorted(vid for vid, _path in _builtins()))
        if base is None:
            return None, [f"{entry.name}:1:1: an uploaded file must extend a built-in variant (`extends: ID`, "
                          f"ID one of {ids}) and give what it changes"]
        if not isinstance(base, str) or base not in builtin_index():
            return None, [f"{doc.loc(('extends',))}: an uploaded file may only extend a built-in variant ({ids})"]
        return base, []


@lru_cache(maxsize=1)
def _builtins() -> tuple[tuple[str, str], ...]:
    """The built-in variants, once each: (id, file)."""
    paths = sorted(set(builtin_index().values()))
    return tuple((resolve(p).data["id"], p) for p in paths)


@lru_cache(maxsize=256)
def _summary(catalog: Catalog, entry: Entry, _mtime: float) -> dict[str, Any]:
    return catalog._summary(entry)


def _mtime(path: str) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


@lru_cache(maxsize=64)
def _load(source: str, options: tuple[tuple[str, str], ...], _mtime: float) -> Ruleset:
    return load(source, dict(options))
