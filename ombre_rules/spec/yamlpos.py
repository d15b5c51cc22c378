"""Load YAML into plain values while remembering where every value came from."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from ..errors import Loc, SpecError

Path = tuple  # a path of keys and list indexes from the document root


@dataclass(frozen=True, slots=True)
class Source:
    """Where a value stands: its place, and for a string scalar its raw source text."""

    loc: Loc
    raw: str = ""
    quoted: bool = False

    def at(self, text: str, line: int, col: int) -> Loc:
        """The file position of (line, col), 1-based, inside the string value `text` of this scalar."""
        lines = text.split("\n")
        pos = 0
        for i in range(min(line, len(lines))):
            seg = lines[i]
            j = self.raw.find(seg, pos) if self.raw else -1
            if j < 0:
                break
            if i == line - 1:
                index = j + col - 1
                prefix = self.raw[:index]
                nl = prefix.count("\n")
                if nl == 0:
                    return Loc(self.loc.file, self.loc.line, self.loc.col + index)
                return Loc(self.loc.file, self.loc.line + nl, index - prefix.rfind("\n"))
            pos = j + len(seg)
        return self.loc


class PositionedDoc:
    """A YAML document as plain values plus a map from each value's path to its Source."""

    def __init__(self, data: Any, where: dict[Path, Source], file: str,
                 keys: dict[Path, Loc] | None = None) -> None:
        self.data = data
        self.where = where
        self.file = file
        self.keys = keys if keys is not None else {}

    def source(self, path: Path) -> Source:
        """The Source of a path, or of its nearest ancestor that has one."""
        p = tuple(path)
        while p not in self.where and p:
            p = p[:-1]
        return self.where.get(p) or Source(Loc(self.file, 1, 1))

    def loc(self, path: Path) -> Loc:
        return self.source(path).loc

    def key_loc(self, path: Path) -> Loc:
        """The place of the key that introduces a path (falls back to the value's place)."""
        return self.keys.get(tuple(path)) or self.loc(path)


def load_text(text: str, file: str) -> PositionedDoc:
    """Parse YAML text; a SpecError with the position on malformed input or a duplicate key."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        msg = e.problem or e.context or "malformed YAML"
        loc = Loc(file, mark.line + 1, mark.column + 1) if mark else Loc(file, 1, 1)
        raise SpecError(f"malformed YAML: {msg}", loc) from None
    except yaml.YAMLError as e:
        raise SpecError(f"malformed YAML: {e}", Loc(file, 1, 1)) from None
    where: dict[Path, Source] = {}
    keys: dict[Path, Loc] = {}
    if node is None:
        return PositionedDoc(None, where, file, keys)
    constructor = yaml.SafeLoader("")
    data = _build(node, (), where, keys, file, text, constructor)
    return PositionedDoc(data, where, file, keys)


def load_file(path: str, display: str | None = None) -> PositionedDoc:
    """Read and parse a YAML file; a missing or unreadable file is a SpecError, not a traceback."""
    name = display or str(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SpecError(f"cannot read '{name}': {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise SpecError(f"cannot read '{name}': not UTF-8 text") from None
    return load_text(text, name)


def _build(node, path: Path, where: dict, keys: dict, file: str, text: str, constructor) -> Any:
    mark = node.start_mark
    loc = Loc(file, mark.line + 1, mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        where[path] = Source(loc)
        out: dict = {}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode):
                km = knode.start_mark
                raise SpecError("a mapping key must be a plain value", Loc(file, km.line + 1, km.column + 1))
            key = constructor.construct_object(knode)
            if isinstance(key, (int, float, bool)) and not isinstance(key, bool):
                key = str(knode.value)
            elif key is None or isinstance(key, bool):
                key = str(knode.value)
            if key in out:
                km = knode.start_mark
                raise SpecError(f"duplicate key '{key}'", Loc(file, km.line + 1, km.column + 1))
            keys[path + (key,)] = Loc(file, knode.start_mark.line + 1, knode.start_mark.column + 1)
            out[key] = _build(vnode, path + (key,), where, keys, file, text, constructor)
        return out
    if isinstance(node, yaml.SequenceNode):
        where[path] = Source(loc)
        return [_build(v, path + (i,), where, keys, file, text, constructor) for i, v in enumerate(node.value)]
    value = constructor.construct_object(node)
    raw = text[node.start_mark.index:node.end_mark.index] if isinstance(value, str) else ""
    where[path] = Source(loc, raw, node.style in ("'", '"'))
    return value
