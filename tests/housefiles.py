"""House-rule files written for a test, and the load errors they give as `line:col: message` lines."""
import pytest

from ombre_rules import SpecError, load


def house(tmp_path, text: str) -> str:
    """Write `text` as house.yaml in tmp_path; its path."""
    p = tmp_path / "house.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def load_errors(path: str) -> list[str]:
    """The errors loading `path` gives, each as `line:col: first line of its message`."""
    with pytest.raises(SpecError) as ei:
        load(path)
    return [f"{e.loc.line}:{e.loc.col}: {e.message.splitlines()[0]}" for e in ei.value.errors]
