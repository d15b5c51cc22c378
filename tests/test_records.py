"""Records are untrusted input: each bad record gets one line naming the file and the field."""
import json

import pytest
from badfiles import bad_records

from ombre_rules import State, load
from ombre_rules.records import ReplayError, check_shape, read, replay, to_record


@pytest.fixture(scope="module")
def good():
    s = State(load("ombre"), seed=3)
    s.random_playout(__import__("random").Random(3).random)
    return to_record(s)


def test_a_good_record_fits_the_schema_and_replays(good, tmp_path):
    check_shape(good)
    p = tmp_path / "good.json"
    p.write_text(json.dumps(good), encoding="utf-8")
    assert replay(read(str(p))[0]).result == good["result"]


@pytest.mark.parametrize("name", sorted(bad_records({"deal": {"talon": [0]}, "actions": [0] * 4})))
def test_a_bad_record_gets_one_line_naming_file_and_field(good, tmp_path, name):
    content, message = bad_records(good)[name]
    p = tmp_path / "rec.json"
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    with pytest.raises(ReplayError) as ei:
        for i, rec in enumerate(read(str(p))):
            try:
                replay(rec)
            except ReplayError as e:
                raise ReplayError(f"{p}: record {i + 1}: {e.message}") from None
    assert str(ei.value) == message.format(f=p, outcome=good["result"]["outcome"])
    assert "\n" not in str(ei.value)
