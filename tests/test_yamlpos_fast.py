"""The variant reader uses libyaml's parser when PyYAML has it: the same values, places and raw sources as the
pure-Python parser on every YAML file of the project and on awkward texts, and PyYAML's own messages for a
document either parser refuses."""
import random
from pathlib import Path

import pytest
import yaml

from ombre_rules.errors import SpecError
from ombre_rules.spec import yamlpos

pytestmark = pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML without libyaml")
ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(p.relative_to(ROOT)) for d in ("variants", "tests", "examples") for p in (ROOT / d).rglob("*.yaml"))

AWKWARD = [
    "id: x\nname: \"Ombre à dos — ½ ✓\"\nv: 'it''s'\nw: \"tab\\there\"\n",
    "\ufeffa: 1\r\nb: [1, 2, {c: 'é'}]\r\nd: >\r\n  folded\r\n  text é\r\n",
    "a: |\n  Großfrage\n  ends\nb: \"x\\u00e9y: z\"\nc: {d: [e, 'f g'], h: null}\n",
    "# ünïcode comment 🂡\nlist:\n  - 1\n  - - 2\n    - 'π'\nkey: value  # trailing\n",
    "a: &x {b: 1}\nc: *x\ne: ~\nf: 0x1f\ng: 1e3\nh: yes\n",
]


def test_mutated_variant_files_read_alike(monkeypatch):
    """Pieces of the variant files with awkward characters put in at random places: both parsers give the same
    document, or the same message."""
    rng = random.Random(5)
    texts = [(ROOT / p).read_text(encoding="utf-8") for p in FILES if p.startswith("variants/")]
    odd = ["\x85", "\u2028", "\r", "\r\n", "\U0001f0a1", "é", " ", ":", "#", "'", '"', "\\", "[", "{", "-", "\x07",
           "\u200b", "\t", "\ufeff"]
    fast_read = 0
    for _ in range(400):
        t = "\n".join(rng.choice(texts).split("\n")[:rng.randint(3, 40)])
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(t) + 1)
            t = t[:k] + rng.choice(odd) + t[k:]
        fast, pure = _both(t, monkeypatch)
        assert fast == pure, t
        fast_read += not yamlpos._AWKWARD.search(t)
    assert fast_read > 200  # most went through libyaml


def _both(text: str, monkeypatch):
    got = []
    for fast in (yaml.CSafeLoader, None):
        monkeypatch.setattr(yamlpos, "_FAST", fast)
        try:
            d = yamlpos.load_text(text, "f.yaml")
            got.append((d.data, d.where, d.keys))
        except SpecError as e:
            got.append(str(e))
    return got


@pytest.mark.parametrize("path", FILES)
def test_the_same_document_from_both_parsers(path, monkeypatch):
    fast, pure = _both((ROOT / path).read_text(encoding="utf-8"), monkeypatch)
    assert fast == pure


@pytest.mark.parametrize("text", AWKWARD)
def test_awkward_texts_read_alike(text, monkeypatch):
    fast, pure = _both(text, monkeypatch)
    assert fast == pure and not isinstance(fast, str)


@pytest.mark.parametrize(("text", "message"), [
    ("a: [1, 2\nb: 3\n", "f.yaml:2:2: malformed YAML: expected ',' or ']', but got ':' (the '[' at 1:4 is never "
                       "closed)"),
    ("a:\n\tb: 1\n", "f.yaml:2:1: malformed YAML: a tab character here (YAML indents with spaces only)"),
    ("a: 1\n b: 2\n", "f.yaml:2:3: malformed YAML: unexpected ':' (is the line indented too far, or does a value "
                      "containing ': ' need quotes?)"),
    ("a: \"\ud800\"\n", "f.yaml:1:1: malformed YAML: unacceptable character #xd800: special characters are not "
                       "allowed\n  in \"<unicode string>\", position 4"),
    ("a: !!python/object {}\n", "f.yaml:1:4: a tag (tag:yaml.org,2002:python/object): only plain YAML is read, "
                                "without tags"),
])
def test_refused_documents_keep_pythons_messages(text, message, monkeypatch):
    fast, pure = _both(text, monkeypatch)
    assert fast == pure == message
