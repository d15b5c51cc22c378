"""Where the grammar, the schema and the built-in variants live, installed or in a source tree."""
from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    """The packaged copy of a data folder (wheel), else the one at the top of the source tree."""
    packaged = _PKG / "_data" / name
    if packaged.is_dir():
        return packaged
    return _PKG.parent / name


def grammar_path(name: str = "expr.lark") -> Path:
    """The Lark grammar of the expression language."""
    return _data_dir("grammar") / name


def variants_dir() -> Path:
    """The folder of built-in variant files."""
    return _data_dir("variants")


def schema_path() -> Path:
    """The JSON Schema for variant files."""
    return _PKG / "spec" / "variant.schema.json"


def record_schema_path() -> Path:
    """The JSON Schema for game records."""
    return _PKG / "spec" / "record.schema.json"
