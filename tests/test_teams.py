"""Fixed partnerships (`teams`): the load errors, the sides expressions see, and the bots playing for their team.
The legal sets, trick winners and payments are in tests/scenarios/mechanics/teams.yaml."""
from pathlib import Path

import pytest

from ombre_rules.bots.greedy import GreedyPlayer
from ombre_rules.engine import State
from ombre_rules.envs import defenders, side_of
from ombre_rules.errors import OmbreError
from ombre_rules.players import act
from ombre_rules.ruleset import load

DATA = Path(__file__).parent / "data"
TEAMS = str(DATA / "teams.yaml")

# seat 0 leads the queen of hearts; seat 2 holds the king and the six
HANDS = {0: "QH JH AH 2H AC 2C 3C 4C 5C 6C", 1: "7H 3H 4H 5H 7C JC QC KC AD 2D",
         2: "KH 6H AS 2S 3S 4S 5S 6S 7S JS", 3: "QS KS 3D 4D 5D 6D 7D JD QD KD"}


def _state(variant: str, actions: list[str]) -> State:
    r = load(variant)
    s = State(r, dealer=3, hands=[r.deck.mask_of(HANDS[k].split()) for k in range(4)], talon=[])
    for a in actions:
        s.apply(r.parse_action(a))
    return s


@pytest.mark.parametrize("body, message", [
    ("teams: [[0, 1], [2]]", "teams must put each seat from 0 to 3 in exactly one of at least two teams; they give "
                             "[[0, 1], [2]]"),
    ("teams: [[0, 1], [2, 3, 3]]", "teams must put each seat from 0 to 3 in exactly one of at least two teams"),
    ("players: 5\nsit_out: {who: dealer}\nteams: [[0, 2], [1, 3, 4]]",
     "teams cannot be declared when seats sit a deal out (sit_out)"),
    ('call: {mode: partner, allowed: "choice.rank == K"}',
     "contract 'game' calls a partner, but the partnerships are fixed (teams)"),
])
def test_load_errors(tmp_path, body, message):
    f = tmp_path / "house.yaml"
    f.write_text(f"extends: {TEAMS}\n{body}\n")
    with pytest.raises(OmbreError) as e:
        load(str(f))
    assert message in str(e.value)


def test_the_side_is_the_declarers_team():
    s = _state(TEAMS, ["pass", "pass", "bid game", "pass", "trump spades"])
    assert (s.declarer, side_of(s), defenders(s)) == (2, [2, 0], [3, 1])
    assert s.rules.teams == ((0, 2), (1, 3)) and s.rules.team_of == (0, 1, 0, 1)
    alone = _state(f"{TEAMS}(partnerships=none)", ["pass", "pass", "bid game", "pass", "trump spades"])
    assert (side_of(alone), defenders(alone), alone.rules.teams) == ([2], [3, 0, 1], None)


@pytest.mark.parametrize("partnerships, card", [("fixed", "play 6H"), ("none", "play KH")])
def test_greedy_does_not_overtake_its_partner(partnerships, card):
    """Seat 0 leads the queen of hearts for seat 2's team: seat 2 (greedy) ducks with the six; without
    partnerships seat 0 is an opponent and seat 2 takes the trick with the king."""
    s = _state(f"{TEAMS}(partnerships={partnerships})",
               ["pass", "pass", "bid game", "pass", "trump spades", "play QH", "play 7H"])
    assert s.current_player == 2
    assert s.rules.action_str(act(GreedyPlayer(), s, 2)) == card


WHOLE_SUITS = ["AS 2S 3S 4S 5S 6S 7S JS QS KS", "AC 2C 3C 4C 5C 6C 7C JC QC KC", "AH 2H 3H 4H 5H 6H 7H JH QH KH",
               "AD 2D 3D 4D 5D 6D 7D JD QD KD"]


def test_alone_needs_teams(tmp_path):
    f = tmp_path / "house.yaml"
    f.write_text(f"extends: {TEAMS}\nteams: null\nalone: {{}}\n")
    with pytest.raises(OmbreError) as e:
        load(str(f))
    assert "alone sends the declarer's partners out, but the variant has no teams" in str(e.value)


@pytest.mark.parametrize("hands, choice", [(WHOLE_SUITS, "alone"), ([HANDS[k] for k in range(4)], "pass")])
def test_greedy_goes_alone_only_with_a_hand_that_takes_nearly_every_trick(hands, choice):
    """Seat 2 declares hearts: with all ten hearts greedy goes alone; with the king and six it plays with its
    partner."""
    r = load(f"{TEAMS}(alone=true)")
    s = State(r, dealer=3, hands=[r.deck.mask_of(h.split()) for h in hands], talon=[])
    for a in ["pass", "pass", "bid game", "pass", "trump hearts"]:
        s.apply(r.parse_action(a))
    assert (s.phase_name, s.current_player) == ("alone", 2)
    assert r.action_str(act(GreedyPlayer(), s, 2)) == choice
