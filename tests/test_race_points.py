"""Rocambor's race to 12 points (`scoring_model = race_points`): a whole session played by bots ends after the
first deal that leaves a seat with 12 points or more; nobody pays, and nobody's points ever go down."""
from ombre_rules import load
from ombre_rules.players import make_player
from ombre_rules.session import Session


def test_a_race_session_ends_once_a_seat_has_twelve_points():
    for variant in ("rocambor(scoring_model=race_points)", "rocambor(scoring_model=race_points,table=three)"):
        rules = load(variant)
        n = rules.players
        for seed in range(3):
            s = Session(rules, seed=seed)
            s.play_out([make_player("random", 11 * seed + i, rules) for i in range(n)])
            points = [d.result.session_after["points"] for d in s.deals]
            assert max(points[-1]) >= 12
            assert all(max(p, default=0) < 12 for p in points[:-1])
            before = [0] * n
            for p in points:
                p = p + [0] * (n - len(p))  # a list is as long as the seats once a deal has been scored
                assert all(a >= b for a, b in zip(p, before, strict=True))
                before = p
            assert s.ledger == [0] * n
            assert all(d.result.pool_after == 0 for d in s.deals)
