"""Records are untrusted input: each bad record gets one line naming the file and the field."""
import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest
from badfiles import bad_records

from ombre_rules import State, load
from ombre_rules.cli import main
from ombre_rules.players import make_player
from ombre_rules.records import SAFE, ReplayError, amount, check_shape, read, replay, to_record, write
from ombre_rules.session import Session


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


@pytest.mark.parametrize("forge, message", [
    (lambda a: a[-1].update(amount=a[-1]["amount"] + 1), "account differs at transfer {n}: amount: record {x}, "
                                                          "replay {y}"),
    (lambda a: a[-1].update(to=(a[-1]["to"] or 0) + 1 if a[-1]["to"] != 2 else 0), "account differs at transfer {n}: "
                                                                                   "to: record {x}, replay {y}"),
    (lambda a: a[0].update(label="gift"), "account differs at transfer 1: label: record 'gift', replay {y}"),
    (lambda a: a.append(dict(a[-1])), "account differs: the record lists {m} transfers, the replay makes {k}"),
    (lambda a: a.pop(), "account differs: the record lists {m} transfers, the replay makes {k}"),
])
def test_a_forged_account_is_refused(good, tmp_path, forge, message):
    import copy

    rec = copy.deepcopy(good)
    forge(rec["account"])
    n = len(good["account"])
    diff = next((i for i, (a, b) in enumerate(zip(rec["account"], good["account"], strict=False)) if a != b), None)
    key = next((k for k in good["account"][diff] if rec["account"][diff][k] != good["account"][diff][k]), None) \
        if diff is not None else None
    want = message.format(n=(diff or 0) + 1, m=len(rec["account"]), k=n,
                          x=repr(rec["account"][diff][key]) if key else "", y=repr(good["account"][diff][key])
                          if key else "")
    with pytest.raises(ReplayError) as e:
        replay(rec)
    assert e.value.message == want
    p = tmp_path / "forged.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert main(["replay", str(p)]) == 1
    assert err.getvalue() == f"ombre: error: {p}: record 1: {want}\n"


def test_a_long_pot_session_is_recorded_and_replayed_exactly(tmp_path):
    """German Solo for the pot doubles the pot at each lost Solo: past 2**53 within a hundred deals. Each record
    holds every amount exactly (digits as a string beyond 2**53 - 1) and replays."""
    rules = load("german-solo(scoring=pot)")
    sess = Session(rules, seed=1)
    sess.play([make_player("random", 10 + i, rules) for i in range(rules.players)], 100)
    assert max(s.pool for s in sess.deals) > 10**25
    recs = [to_record(s) for s in sess.deals]
    path = tmp_path / "session.json"
    write(str(path), recs)
    read_back = read(str(path))
    big = 0
    for rec, s in zip(read_back, sess.deals, strict=True):
        assert amount(rec["pool"]) == s.pool_before
        assert [amount(p) for p in rec["result"]["payments"]] == list(s.result.payments)
        assert amount(rec["result"]["pool_after"]) == s.pool
        assert [amount(e["amount"]) for e in rec["account"]] == [e.amount for e in s.account()]
        big += isinstance(rec["pool"], str)
        assert isinstance(rec["pool"], str) == (s.pool_before > SAFE)
        assert replay(rec, rules).result == rec["result"]
    assert big > 10


def test_a_message_quoting_a_record_stays_on_one_line(good):
    import copy

    rec = copy.deepcopy(good)
    rec["actions"][0] = "pa\nss"
    with pytest.raises(ReplayError) as e:
        replay(rec)
    assert e.value.message == "diverges at action 1 'pa\\nss': unknown action 'pa\\nss' (did you mean 'play'?)"
