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
