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
        """The file position of (line, col), 1-based, inside the string value `text` of this scalar.

        The characters of the value are matched in order against the raw source, so folded lines, block
        scalars, quotes and escapes keep the position exact; a place between characters (a space, or the end)
        counts on from the last character matched."""
        lines = text.split("\n")
        if not self.raw or not 0 < line <= len(lines):
            return self.loc
        target = sum(len(seg) + 1 for seg in lines[:line - 1]) + col - 1
        start = 1 if self.quoted else 0
        pos, last, last_i = start, start - 1, -1
        for i, ch in enumerate(text[:target + 1]):
            if ch.isspace():
                continue
            k = self._find(ch, pos)
            if k < 0:
                return self.loc
            pos, last, last_i = k + 1, k, i
        index = last + (target - last_i) if last_i >= 0 else start + target
        prefix = self.raw[:index]
        nl = prefix.count("\n")
        if nl == 0:
            return Loc(self.loc.file, self.loc.line, self.loc.col + index)
        return Loc(self.loc.file, self.loc.line + nl, index - prefix.rfind("\n"))

    def _find(self, ch: str, pos: int) -> int:
        """The raw index of the next `ch` from `pos`; in a double-quoted scalar an escape counts as one unit."""
        raw = self.raw
        escapes = raw.startswith('"')
        while pos < len(raw):
            c = raw[pos]
            if escapes and c == "\\":
                if ch in '"\\/' and raw[pos + 1:pos + 2] == ch:  # an escape that stands for itself
                    return pos + 1
                pos += 2
                continue
            if c == ch:
                return pos
            pos += 1
        return -1


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
        loc = Loc(file, mark.line + 1, mark.column + 1) if mark else Loc(file, 1, 1)
        raise SpecError(f"malformed YAML: {_yaml_message(e)}", loc) from None
    except yaml.YAMLError as e:
        raise SpecError(f"malformed YAML: {e}", Loc(file, 1, 1)) from None
    where: dict[Path, Source] = {}
    keys: dict[Path, Loc] = {}
    if node is None:
        return PositionedDoc(None, where, file, keys)
    constructor = yaml.SafeLoader("")
    data = _build(node, (), where, keys, file, text, constructor)
    return PositionedDoc(data, where, file, keys)


_OPENERS = {"while parsing a flow sequence": "'['", "while parsing a flow mapping": "'{'",
            "while scanning a quoted scalar": "quote"}


def _yaml_message(e: yaml.MarkedYAMLError) -> str:
    """PyYAML's complaint in the words of someone editing the file, with where an unclosed bracket opened."""
    problem = e.problem or e.context or "malformed YAML"
    if problem.startswith("expected <block end>"):
        return "bad indentation: this line does not line up with the lines above it"
    if problem == "mapping values are not allowed here":
        return "unexpected ':' (is the line indented too far, or does a value containing ': ' need quotes?)"
    if problem.startswith("found character '\\t'"):
        return "a tab character here (YAML indents with spaces only)"
    msg = problem.replace("'<stream end>'", "the end of the file").replace("end of stream", "end of the file")
    opener = _OPENERS.get(e.context or "")
    if opener and e.context_mark:
        msg += f" (the {opener} at {e.context_mark.line + 1}:{e.context_mark.column + 1} is never closed)"
    return msg


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
