"""The sizes of the long random-play runs (`tests/test_conformance.py`, `tests/test_partner.py`): their full sizes
are those the issues ask for (10,000 deals of each default game); the suite plays a share of each so that CI
stays short. OMBRE_CONFORMANCE=1 runs them whole (README, "Tests"), OMBRE_CONFORMANCE=0.1 a tenth."""
import os

SHARE = float(os.environ.get("OMBRE_CONFORMANCE", "0.2"))


def share(full: int) -> int:
    """The deals a run of `full` deals plays in this suite (at least 100)."""
    return max(100, round(full * SHARE))
