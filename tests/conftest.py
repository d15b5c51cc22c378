"""Shared fixtures: the test variant `tests/data/mini.yaml` and a writer of small house-rule files."""
from pathlib import Path

import pytest

MINI = str(Path(__file__).parent / "data" / "mini.yaml")


@pytest.fixture
def mini() -> str:
    """The path of the tiny test variant (3 players, 8 cards, two contracts, three options)."""
    return MINI


@pytest.fixture
def write(tmp_path):
    """write(text, name='house.yaml') -> the path of a new file in tmp_path holding `text`."""

    def _write(text: str, name: str = "house.yaml") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return _write
