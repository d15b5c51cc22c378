"""Shared fixtures: the test variant `tests/data/mini.yaml` and a writer of small house-rule files."""
import os
from pathlib import Path

import pytest
from hypothesis import settings

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


# hypothesis: a small fixed budget by default; `--hypothesis-profile=fuzz` for a long run (README, "Limits"), of
# OMBRE_FUZZ_EXAMPLES examples a test (default 3000)
settings.register_profile("ombre", max_examples=25, derandomize=True, deadline=10_000, print_blob=True)
settings.register_profile("fuzz", max_examples=int(os.environ.get("OMBRE_FUZZ_EXAMPLES", "3000")),
                          derandomize=False, deadline=10_000, print_blob=True)
settings.load_profile("ombre")
