"""Load YAML into plain values while remembering where every value came from."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from ..errors import Loc, SpecError, quoted
from ..infile import read_bytes

Path = tuple  # a path of keys and list indexes from the document root

# Limits of a variant file (each refused with a message at its place; the README lists them)
MAX_FILE_BYTES = 1_000_000  # size of one file
MAX_DEPTH = 40  # nesting of mappings and lists
MAX_ALIASES = 100  # uses of `*alias`
MAX_VALUES = 100_000  # values in the document once every alias is expanded
MAX_ITEMS = 5_000  # items of one list or keys of one mapping
MAX_INT = 10**15  # size of an integer (in either direction)
_PLAIN_TAGS = {"tag:yaml.org,2002:" + t for t in ("str", "int", "bool", "null", "float", "map", "seq")}
_TAG_WORDS = {"tag:yaml.org,2002:timestamp": "a date or time (quote it to make it a string)",
              "tag:yaml.org,2002:merge": "a merge key '<<' (write the keys out)",
              "tag:yaml.org,2002:binary": "binary data", "tag:yaml.org,2002:set": "a set",
              "tag:yaml.org,2002:omap": "an ordered map", "tag:yaml.org,2002:pairs": "pairs"}


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


def _at(file: str, mark) -> Loc:
    return Loc(file, mark.line + 1, mark.column + 1) if mark is not None else Loc(file, 1, 1)


# libyaml's parser where PyYAML has it (the same events and nodes, with the same marks, about ten times
# faster); a document it refuses is read again by the pure-Python parser, whose messages _yaml_message knows
_FAST = getattr(yaml, "CSafeLoader", None)
# where the two differ: libyaml counts places differently after a byte-order mark, and accepts some tabs
# that PyYAML refuses; a text with either is read by PyYAML alone
_AWKWARD = re.compile("[\ufeff\t]")
_UNREAD = object()  # no node yet (None is an empty document's)


def _scan(text: str, file: str, loader: type) -> None:
    """Check the document's events before anything is built: nesting depth, aliases and explicit tags
    (only plain YAML is read)."""
    depth = aliases = 0
    for ev in yaml.parse(text, Loader=loader):
        if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise SpecError(f"nested more than {MAX_DEPTH} levels deep", _at(file, ev.start_mark))
        elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        elif isinstance(ev, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise SpecError(f"more than {MAX_ALIASES} aliases", _at(file, ev.start_mark))
        tag = getattr(ev, "tag", None)
        if tag is not None:
            raise SpecError(f"a tag ({tag}): only plain YAML is read, without tags", _at(file, ev.start_mark))


def load_text(text: str, file: str) -> PositionedDoc:
    """Parse YAML text; a SpecError with the position on malformed input, a duplicate key, or anything past
    the limits above."""
    if len(text) > MAX_FILE_BYTES:
        raise SpecError(f"the file is larger than {MAX_FILE_BYTES} bytes", Loc(file, 1, 1))
    node: Any = _UNREAD
    if _FAST is not None and not _AWKWARD.search(text):
        try:
            _scan(text, file, _FAST)
            node = yaml.compose(text, Loader=_FAST)
        except (yaml.YAMLError, UnicodeError):  # (libyaml reads UTF-8: a lone surrogate cannot reach it)
            pass  # read again below, for PyYAML's own message
    try:
        if node is _UNREAD:
            _scan(text, file, yaml.SafeLoader)
            node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        loc = Loc(file, mark.line + 1, mark.column + 1) if mark else Loc(file, 1, 1)
        raise SpecError(f"malformed YAML: {_yaml_message(e)}", loc) from None
    except yaml.YAMLError as e:
        raise SpecError(f"malformed YAML: {e}", Loc(file, 1, 1)) from None
    if node is None:
        return PositionedDoc(None, {}, file, {})
    b = _Builder(file, text)
    data = b.build(node, (), 1)
    return PositionedDoc(data, b.where, file, b.keys)


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
    raw = read_bytes(str(path), MAX_FILE_BYTES, SpecError, name)  # a regular file: never a FIFO or a device
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SpecError(f"cannot read '{name}': not UTF-8 text") from None
    return load_text(text, name)


def encodable(text: str) -> bool:
    """Whether a string can be written as UTF-8 (a lone surrogate, from an escape such as \\ud800, cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _surrogate(text: str) -> str:
    return next(f"\\u{ord(ch):04x}" for ch in text if 0xD800 <= ord(ch) <= 0xDFFF)


class _Builder:
    """Plain values from a composed YAML node graph, with the Source of every path; aliases are expanded
    within the limits above, and only plain scalars (strings, numbers, booleans, null) are read."""

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.text = text
        self.where: dict[Path, Source] = {}
        self.keys: dict[Path, Loc] = {}
        self.count = 0
        self.open: set[int] = set()  # the collections on the way from the root (an alias inside itself)
        self.constructor = yaml.SafeLoader("")

    def build(self, node, path: Path, depth: int) -> Any:
        loc = _at(self.file, node.start_mark)
        self.count += 1
        if self.count > MAX_VALUES:
            raise SpecError(f"more than {MAX_VALUES} values once the aliases are expanded", loc)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path, loc)
        if id(node) in self.open:
            raise SpecError("an alias that stands for a value containing it", loc)
        if depth > MAX_DEPTH:
            raise SpecError(f"nested more than {MAX_DEPTH} levels deep (aliases expanded)", loc)
        if len(node.value) > MAX_ITEMS:
            raise SpecError(f"more than {MAX_ITEMS} items in one list or mapping", loc)
        self.where[path] = Source(loc)
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(v, path + (i,), depth + 1) for i, v in enumerate(node.value)]
            return self.mapping(node, path, depth)
        finally:
            self.open.discard(id(node))

    def mapping(self, node, path: Path, depth: int) -> dict:
        out: dict = {}
        for knode, vnode in node.value:
            kloc = _at(self.file, knode.start_mark)
            if not isinstance(knode, yaml.ScalarNode):
                raise SpecError("a mapping key must be a plain value", kloc)
            key = self.value(knode, kloc)
            if not isinstance(key, str) or isinstance(key, bool):
                key = str(knode.value)
            if key in out:
                raise SpecError(f"duplicate key {quoted(key)}", kloc)
            self.keys[path + (key,)] = kloc
            out[key] = self.build(vnode, path + (key,), depth + 1)
        return out

    def value(self, node, loc: Loc) -> Any:
        """A plain scalar's value; a tag other than the plain ones, or a number past MAX_INT, is refused."""
        tag = node.tag
        if tag in _TAG_WORDS:
            raise SpecError(f"{_TAG_WORDS[tag]}: only plain YAML values are read", loc)
        if tag not in _PLAIN_TAGS:
            raise SpecError(f"a value tagged {quoted(tag)}: only plain YAML values are read", loc)
        if tag.endswith(":int") and len(node.value) > 20:
            raise SpecError(f"a number larger than {MAX_INT}", loc)
        try:
            value = self.constructor.construct_object(node)
        except (yaml.YAMLError, ValueError) as e:
            raise SpecError(f"a value that cannot be read: {e}", loc) from None
        if type(value) is int and abs(value) > MAX_INT:
            raise SpecError(f"a number larger than {MAX_INT}", loc)
        if type(value) is str and not encodable(value):
            raise SpecError(f"a string with a lone surrogate ({_surrogate(value)}), which no file or page can "
                            f"hold: write the character itself", loc)
        return value

    def scalar(self, node, path: Path, loc: Loc) -> Any:
        value = self.value(node, loc)
        raw = self.text[node.start_mark.index:node.end_mark.index] if isinstance(value, str) else ""
        self.where[path] = Source(loc, raw, node.style in ("'", '"'))
        return value
