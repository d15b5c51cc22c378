"""House-rule files written for a test, and the load errors they give as `line:col: message` lines."""
import shutil
from pathlib import Path

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


def refused_at(tmp_path, base: str, body: str) -> tuple[list[str], str]:
    """A house rule extending a copy of the file `base` by `body` (YAML lines): the errors loading it gives (as
    `load_errors`), and the name of the file the first error points into."""
    shutil.copy(base, tmp_path / "base.yaml")
    path = tmp_path / "h.yaml"
    path.write_text(f"extends: base.yaml\nid: h\n{body}\n", encoding="utf-8")
    errors = load_errors(str(path))
    with pytest.raises(SpecError) as ei:
        load(str(path))
    return errors, Path(ei.value.errors[0].loc.file).name


# house rules `ombre check` accepts, each with the built-in variant it extends: every one must render a rulebook and
# a diff from its base (tests/test_rulebook.py)
VALID: list[tuple[str, str]] = [
    ("ombre", "extends: ombre\nid: house-sources\nsources:\n  - {tag: HOUSE, cite: our own table}\n"),
    ("quadrille", "extends: quadrille\nid: house-nosources\nsources: null\ncite: null\n"),
    ("taroc-lhombre", "extends: taroc-lhombre\nid: house-cite\nsources: [{tag: ME, cite: me}]\n"
                      "cite: {play: [ME, SEED-RU]}\n"),
    ("german-solo", "extends: german-solo\nid: house-nodoc\ndoc: null\nterms: null\n"),
    ("preference", "extends: preference\nid: house-pref\noptions: {kontra: {default: true}}\n"
                   "contracts: {sans: {title: Sans atout, doc: null}}\n"),
    ("ombre", "extends: ombre\nid: house-four\noptions: {four_players: {default: dealer_sits_out}}\n"
              "scoring: {ante: {from: dealer, amount: 15}}\n"),
    ("tresillo", "extends: tresillo\nid: house-tres\ntitle: Our Tresillo\nplay: {claim: null, concede: null}\n"),
]
