"""Every built-in variant, with its default options, plays a seeded session of random deals exactly as the pinned
fingerprint says (tests/result_hashes.py): a change that alters what a variant does shows here, by name."""
from pathlib import Path

from result_hashes import lines

GOLDEN = Path(__file__).parent / "golden" / "result_hashes.txt"


def test_the_built_in_variants_play_as_pinned():
    assert list(lines(60, defaults_only=True)) == GOLDEN.read_text(encoding="utf-8").splitlines(), (
        "a built-in variant plays differently: if that is meant, regenerate with "
        "`python tests/result_hashes.py --defaults 60 > tests/golden/result_hashes.txt`")
