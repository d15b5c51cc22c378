"""Every scenario file under tests/scenarios runs and passes (the rule tests, as data)."""
from __future__ import annotations

from pathlib import Path

import pytest

from ombre_rules.scenario import run_file

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(p for p in ROOT.rglob("*.yaml"))
_CACHE: dict = {}


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario_file(path):
    report = run_file(str(path), _CACHE)
    assert not report.failures, "\n".join(str(f) for f in report.failures)
    assert report.passed
