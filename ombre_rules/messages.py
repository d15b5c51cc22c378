"""What `check` and `test` report, as messages (file, line, column, code, message) shown as text, as JSON
lines or as a JUnit XML file; and the files a list of paths names (a folder stands for its YAML files)."""
from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from .errors import ExprError, IllegalActionError, InvalidActionError, OmbreError, SpecError

FORMATS = ("text", "json")


@dataclass(frozen=True, slots=True)
class Message:
    """One thing to report about a file: an error, a failed or passed scenario, a file found good."""

    file: str
    line: int | None
    column: int | None
    code: str
    message: str
    context: str = ""

    def text(self) -> str:
        """The message as the text output shows it: `file:line:col: message` and any caret lines."""
        where = f"{self.file}:{self.line}:{self.column}" if self.line is not None else self.file
        head = f"{where}: {self.message}"
        return f"{head}\n{self.context}" if self.context else head

    def to_json(self) -> str:
        return json.dumps({"file": self.file, "line": self.line, "column": self.column, "code": self.code,
                           "message": self.message}, ensure_ascii=False)


def error_code(e: OmbreError) -> str:
    """The kind of an error, as JSON output names it."""
    for cls, code in ((ExprError, "expression"), (SpecError, "spec"), (IllegalActionError, "illegal-action"),
                      (InvalidActionError, "invalid-action")):
        if isinstance(e, cls):
            return code
    return "input"


def from_error(e: OmbreError, file: str) -> Message:
    """A message for an error; an error without a place is placed in `file`."""
    if e.loc is not None:
        return Message(e.loc.file, e.loc.line, e.loc.col, error_code(e), e.message, e.context)
    return Message(file, None, None, error_code(e), e.message, e.context)


def expand(paths: list[str], suffixes: tuple[str, ...] = (".yaml", ".yml")) -> list[str]:
    """The files named: a folder stands for the files with one of `suffixes` under it (sorted, recursively);
    any other path is kept as it is."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p):
                dirs.sort()
                found += [os.path.join(root, f) for f in files if f.endswith(suffixes)]
            if not found:
                raise OmbreError(f"no {' or '.join(suffixes)} files in folder '{p}'")
            out += sorted(found)
        else:
            out.append(p)
    return out


def junit(results: list[tuple[str, list[str], list[tuple[str, Message]]]], name: str = "ombre test") -> str:
    """A JUnit XML report: one test suite per file, one test case per scenario (results: file, names of the
    scenarios passed, (scenario, message) of each failure)."""
    root = ET.Element("testsuites", name=name)
    for file, passed, failed in results:
        by_case: dict[str, list[Message]] = {}
        for case, m in failed:
            by_case.setdefault(case, []).append(m)
        suite = ET.SubElement(root, "testsuite", name=file, tests=str(len(passed) + len(by_case)),
                              failures=str(len(by_case)))
        for case in passed:
            ET.SubElement(suite, "testcase", name=case, classname=file)
        for case, ms in by_case.items():
            tc = ET.SubElement(suite, "testcase", name=case, classname=file)
            f = ET.SubElement(tc, "failure", message=ms[0].message)
            f.text = "\n".join(m.text() for m in ms)
    total = sum(int(s.get("tests", "0")) for s in root)
    root.set("tests", str(total))
    root.set("failures", str(sum(int(s.get("failures", "0")) for s in root)))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
