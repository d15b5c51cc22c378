"""Tresillo's session end (tresillo.md sect. 15): 24 deals and the plate shared out (end_with_puestas = split),
or dealing on until no puesta lies in the plate (play_on); either way the close empties the plate and the
players' ledger sums to zero."""
import pytest

from ombre_rules import load
from ombre_rules.players import make_player
from ombre_rules.session import Session


def _session(variant: str, seed: int) -> Session:
    rules = load(variant)
    s = Session(rules, seed=seed)
    s.play_out([make_player("random", 11 + i, rules) for i in range(rules.players)])
    return s


# sessions whose 24th deal leaves a puesta in the plate, and how many deals each plays under play_on
SEEDS = {3: 33, 7: 26, 11: 25}


@pytest.mark.parametrize("seed", SEEDS)
def test_split_ends_after_24_deals_and_shares_the_plate(seed):
    s = _session("tresillo", seed)
    assert len(s.deals) == 24
    assert s.deals[-1].result.session_after["puestas"]  # the puestas are shared out with the loose tantos
    left = s.deals[-1].result.pool_after
    share, rest = divmod(left, 4)
    last = s.deals[-1].dealer
    assert list(s.closed.payments) == [share + (rest if p == last else 0) for p in range(4)]
    assert s.pool == 0 and sum(s.ledger) == 0


@pytest.mark.parametrize("seed", SEEDS)
def test_play_on_deals_until_the_queue_is_empty(seed):
    s = _session("tresillo(end_with_puestas=play_on)", seed)
    queues = [d.result.session_after["puestas"] for d in s.deals]
    assert len(s.deals) == SEEDS[seed] and queues[-1] == []
    assert all(q for q in queues[23:-1])  # no earlier deal from the 24th on left the plate without a puesta
    assert s.pool == 0 and sum(s.ledger) == 0
