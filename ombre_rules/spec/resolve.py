"""Find a variant, resolve `extends` and options, and check the result against the schema.

A variant string names a built-in variant (by id or alias) or a file, with options:
`NAME`, `NAME(option=choice)`, `house.yaml(option=choice,other=choice)`.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import yaml

from ..errors import Loc, OmbreError, SpecError, did_you_mean, quoted
from ..resources import variants_dir
from . import schema
from .ranges import Range, accepted_text, in_range, read_range, representatives
from .yamlpos import PositionedDoc, encodable, load_file

MAX_VARIANT_CHARS = 2000  # a variant string (a name and its options)
MAX_EXTENDS = 20  # files in one `extends` chain
# `ombre check` compiles a file once with its default options and once for each other choice of each option:
MAX_CHOICES = 32  # choices of one option
MAX_CHECKED = 64  # rulesets check compiles: the defaults and every other choice


@dataclass(frozen=True)
class ResolvedSpec:
    """A variant after `extends` and options: plain data, positions, chosen options, its canonical name."""

    doc: PositionedDoc
    options: dict[str, Any]
    defaults: dict[str, Any]
    choices: dict[str, list[Any]]  # per option its choices; with a range, those listed, its ends and the default
    variant: str
    digest: str
    ranges: dict[str, Range] = field(default_factory=dict)  # options that also take any whole number in a range

    def listed(self, key: str) -> list[Any]:
        """The choices of option `key` outside its range (all of them, without a range)."""
        rng = self.ranges.get(key)
        return [c for c in self.choices[key] if rng is None or c not in rng]

    def accepted(self, key: str) -> str:
        """What option `key` accepts, in words (`0, 25, or a whole number from 50 to 100`)."""
        return accepted_text(self.listed(key), self.ranges.get(key), fmt_value)

    @property
    def data(self) -> dict:
        return self.doc.data


def fmt_value(v: Any) -> str:
    """An option value as it is written in a variant string."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def parse_variant_string(text: str) -> tuple[str, dict[str, str]]:
    """Split `name(k=v, …)` into the name and its option settings (values as written); one pass over the text,
    so that no input takes long."""
    text = text if isinstance(text, str) else ""
    if len(text) > MAX_VARIANT_CHARS:
        raise SpecError(f"variant string of {len(text)} characters (at most {MAX_VARIANT_CHARS})")
    if not encodable(text):
        raise SpecError(f"bad variant string {quoted(text)} (a lone surrogate: not text)")
    body = text.strip()
    name, args = body, None
    if "(" in body:
        i = body.index("(")
        name, args = body[:i].strip(), body[i + 1:]
        if not args.endswith(")") or "(" in args[:-1] or ")" in args[:-1]:
            name = ""
        args = args[:-1]
    if not name or ")" in name:
        raise SpecError(f"bad variant string {quoted(text)} (expected NAME or NAME(key=value,...))")
    opts: dict[str, str] = {}
    if args and args.strip():
        for part in args.split(","):
            if "=" not in part:
                raise SpecError(f"bad option {quoted(part.strip())} in {quoted(text)} (expected key=value)")
            k, v = part.split("=", 1)
            opts[k.strip()] = v.strip()
    return name, opts


# the built-in files are the package's own: read for their ids with libyaml's safe loader where there is one
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@lru_cache(maxsize=1)
def builtin_index() -> dict[str, str]:
    """Built-in variant ids and aliases, each mapped to its file."""
    index: dict[str, str] = {}
    folder = variants_dir()
    if not folder.is_dir():
        return index
    for path in sorted(folder.glob("*.yaml")):
        try:
            with open(path, encoding="utf-8") as f:
                data = yaml.load(f, Loader=_FAST_LOADER) or {}  # noqa: S506 - a safe loader
        except (OSError, yaml.YAMLError):
            continue
        if not isinstance(data, dict):
            continue
        for name in [data.get("id", path.stem)] + list(data.get("aliases") or []):
            index.setdefault(str(name), str(path))
    return index


def _display(path: str) -> str:
    """How a file is named in messages: built-ins as variants/NAME.yaml, others as given."""
    p = os.path.abspath(path)
    if os.path.dirname(p) == os.path.abspath(variants_dir()):
        return "variants/" + os.path.basename(p)
    return path


def locate(name: str, relative_to: str | None = None) -> str:
    """The file of a built-in variant name or alias, or a path to a file."""
    if name.endswith((".yaml", ".yml")) or os.sep in name or "/" in name:
        path = name
        if relative_to and not os.path.isabs(path):
            cand = os.path.join(os.path.dirname(relative_to), path)
            if os.path.exists(cand):
                path = cand
        if not os.path.exists(path):
            raise SpecError(f"no such variant file '{name}'")
        return path
    index = builtin_index()
    if name not in index:
        raise SpecError(f"unknown variant '{name}'{did_you_mean(name, index)}")
    return index[name]


# -- merging with positions -----------------------------------------------------------------------
class _Merged:
    def __init__(self, doc: PositionedDoc) -> None:
        self.data = doc.data
        self.where = dict(doc.where)
        self.keys = dict(doc.keys)
        self.file = doc.file

    def _drop(self, path: tuple) -> None:
        n = len(path)
        for table in (self.where, self.keys):
            for p in [p for p in table if p[:n] == path]:
                del table[p]

    def _take(self, src: PositionedDoc, src_path: tuple, path: tuple) -> None:
        n = len(src_path)
        for p, s in src.where.items():
            if p[:n] == src_path:
                self.where[path + p[n:]] = s
        for p, at in src.keys.items():
            if p[:n] == src_path:
                self.keys[path + p[n:]] = at

    def merge(self, src: PositionedDoc, src_path: tuple = (), path: tuple = ()) -> None:
        """Merge src (or its sub-tree at src_path) over this document at path."""
        over = _get(src.data, src_path)
        self.data = self._merge_value(_get(self.data, ()), over, src, src_path, path)

    def _merge_value(self, base: Any, over: Any, src: PositionedDoc, sp: tuple, path: tuple) -> Any:
        if isinstance(base, dict) and isinstance(over, dict):
            out = dict(base)
            for k, v in over.items():
                if v is None and k in out:
                    del out[k]
                    self._drop(path + (k,))
                    if sp + (k,) in src.keys:  # a removed key keeps the place of its `null`, for errors
                        self.keys[path + (k,)] = src.keys[sp + (k,)]
                elif k in out:
                    out[k] = self._merge_value(out[k], v, src, sp + (k,), path + (k,))
                else:
                    out[k] = v
                    self._take(src, sp + (k,), path + (k,))
            return out
        self._drop(path)
        self._take(src, sp, path)
        return over

    def doc(self) -> PositionedDoc:
        return PositionedDoc(self.data, self.where, self.file, self.keys)


def _get(data: Any, path: tuple) -> Any:
    for p in path:
        data = data[p]
    return data


_PARSED: dict[tuple, PositionedDoc] = {}  # parsed files, by path, modification time and size


def _parsed(path: str) -> PositionedDoc:
    """A file parsed once while it stays as it is (`ombre check` loads a file once per option choice)."""
    try:
        st = os.stat(path)
        key = (os.path.realpath(path), st.st_mtime_ns, st.st_size, _display(path))
    except OSError:
        return load_file(path, _display(path))
    doc = _PARSED.get(key)
    if doc is None:
        if len(_PARSED) >= 64:
            _PARSED.clear()
        doc = _PARSED[key] = load_file(path, _display(path))
    return doc


def _load_chain(path: str, seen: tuple[str, ...] = ()) -> PositionedDoc:
    """A file with its `extends` chain merged in (base first, then each child over it)."""
    real = os.path.realpath(path)
    doc = _parsed(path)
    if len(seen) >= MAX_EXTENDS:
        raise SpecError(f"more than {MAX_EXTENDS} files in the 'extends' chain", doc.loc(("extends",)))
    if not isinstance(doc.data, dict):
        raise SpecError("a variant file must be a mapping of sections", Loc(doc.file, 1, 1))
    parent = doc.data.get("extends")
    if parent is None:
        return doc
    if not isinstance(parent, str):
        raise SpecError("'extends' must name a variant or a file", doc.loc(("extends",)))
    try:
        base_path = locate(parent, path)
    except SpecError as e:
        raise SpecError(e.message, doc.loc(("extends",))) from None
    if os.path.realpath(base_path) in seen + (real,):
        raise SpecError(f"'extends' goes round in a circle through '{_display(base_path)}'", doc.loc(("extends",)))
    merged = _Merged(_load_chain(base_path, seen + (real,)))
    merged.merge(doc)
    merged.data.pop("extends", None)
    merged.file = doc.file
    return merged.doc()


def _typed(key: str) -> Any:
    """An option choice written as a mapping key, read back as the scalar it spells."""
    try:
        v = yaml.safe_load(key)
    except yaml.YAMLError:
        return key
    return v if isinstance(v, (str, int, bool)) else key


def _match(value: Any, choices: list[Any], rng: Range | None = None) -> Any:
    text = fmt_value(value).lower()
    for c in choices:
        if fmt_value(c).lower() == text:
            return c
    return in_range(value, rng)


def resolve(variant: str, selections: dict[str, str] | None = None,
            unknown: list[OmbreError] | None = None) -> ResolvedSpec:
    """Load a variant by name, alias or path, with option selections (values as strings or typed); with
    `unknown`, keys the schema does not know are collected there and left out (see `schema.check`)."""
    name, inline = parse_variant_string(variant)
    chosen = dict(inline)
    chosen.update(selections or {})
    path = locate(name)
    doc = _load_chain(path)
    if unknown is not None:  # check takes unknown keys out: of a copy, never of a parsed file kept for reuse
        doc = PositionedDoc(copy.deepcopy(doc.data), doc.where, doc.file, doc.keys)
    schema.check(doc, unknown)  # structure of everything, options included, before any option is applied
    opts_spec: dict[str, dict] = doc.data.get("options") or {}
    options: dict[str, Any] = {}
    defaults: dict[str, Any] = {}
    all_choices: dict[str, list[Any]] = {}
    ranges: dict[str, Range] = {}
    for key, spec in opts_spec.items():
        raw = spec.get("choices") or []
        choices = [_typed(str(k)) for k in raw] if isinstance(raw, dict) else list(raw)
        rng = read_range(doc, key, spec)
        default = _match(spec["default"], choices, rng)
        if default is None:
            raise SpecError(f"default '{fmt_value(spec['default'])}' of option '{key}' is not one of its choices "
                            f"({accepted_text(choices, rng, fmt_value)})", doc.loc(("options", key, "default")))
        if rng is not None:
            ranges[key] = rng
            choices = representatives(choices, rng, default)
        all_choices[key] = choices
        defaults[key] = options[key] = default
        if len(choices) > MAX_CHOICES:
            raise SpecError(f"option '{key}' has {len(choices)} choices, more than {MAX_CHOICES}: check compiles the "
                            f"file once for each", doc.loc(("options", key, "choices")))
    checked = 1
    for key, choices in all_choices.items():
        checked += len(choices) - 1
        if checked > MAX_CHECKED:  # refused at the option that passes the limit
            total = 1 + sum(len(c) - 1 for c in all_choices.values())
            raise SpecError(f"{len(all_choices)} options with {total - 1} choices besides their defaults: check "
                            f"compiles the file for the defaults and once for each other choice, at most "
                            f"{MAX_CHECKED} times (split the file, or make some options files that extend it)",
                            doc.key_loc(("options", key)))
    for key, value in chosen.items():
        if key not in opts_spec:
            hint = did_you_mean(key, opts_spec) or (f" (options: {', '.join(opts_spec)})" if opts_spec else
                                                    " (this variant has no options)")
            raise SpecError(f"unknown option '{key}' for variant '{doc.data.get('id', name)}'{hint}")
        v = _match(value, all_choices[key], ranges.get(key))
        if v is None:
            rng = ranges.get(key)
            listed = [c for c in all_choices[key] if rng is None or c not in rng]
            raise SpecError(f"'{fmt_value(value)}' is not a choice of option '{key}' "
                            f"(choices: {accepted_text(listed, rng, fmt_value)})")
        options[key] = v
    merged = _Merged(doc)
    for key, spec in opts_spec.items():
        raw = spec.get("choices")
        if not isinstance(raw, dict):
            continue
        for k in raw:
            if _match(_typed(str(k)), [options[key]]) is not None and raw[k]:
                merged.merge(doc, ("options", key, "choices", k), ())
    final = merged.doc()
    schema.check(final, unknown)
    # a built-in variant is named by its id; a file by its path, so that records of house rules replay
    vid = final.data["id"] if name in builtin_index() else name
    changed = [f"{k}={fmt_value(v)}" for k, v in options.items() if v != defaults[k]]
    canonical = f"{vid}({','.join(changed)})" if changed else vid
    body = {k: v for k, v in final.data.items() if k not in ("title", "sources", "aliases")}
    body["_options"] = {k: fmt_value(v) for k, v in options.items()}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return ResolvedSpec(final, options, defaults, all_choices, canonical, digest, ranges)
