"""`let` names in every expression that knows their inputs, inlined there; elsewhere a load-time error that
says where the let is defined, what it reads and where it may be used."""
from pathlib import Path

import pytest

from ombre_rules import SpecError, State, load
from ombre_rules.players import make_player


def _house(tmp_path, body: str) -> str:
    p = tmp_path / "house.yaml"
    p.write_text("id: my_ombre\nextends: ombre\n" + body, encoding="utf-8")
    return str(p)


def _where(name: str, *blocks: str) -> str:
    """line:col of the value of `name:` inside the nested `blocks` of variants/ombre.yaml, found in the file."""
    lines = (Path(__file__).resolve().parents[1] / "variants" / "ombre.yaml").read_text(encoding="utf-8").splitlines()
    i = 0
    for block in (*blocks, name):
        i = next(j for j in range(i, len(lines)) if lines[j].lstrip().startswith(f"{block}:"))
    text = lines[i]
    col = text.index(":", len(text) - len(text.lstrip())) + 1
    return f"{i + 1}:{col + len(text[col:]) - len(text[col:].lstrip()) + 1}"


def _messages(path: str) -> list[str]:
    with pytest.raises(SpecError) as e:
        load(path)
    return [str(x).split("\n")[0] for x in e.value.errors]


def test_a_let_is_usable_in_a_play_condition(tmp_path):
    rules = load(_house(tmp_path, 'play:\n  end_when: "mine == 5"\n'))
    end = rules.contract_by_name["entrada"].play.end_when
    assert {"declarer", "tricks()"} <= end.uses
    players = [make_player("greedy", k, rules) for k in range(3)]
    s = State(rules, seed=4)
    while not s.is_terminal:
        s.apply(players[s.current_player].act(s.view(s.current_player), s.legal_actions()))
    if s.contract is not None:  # the deal stops as soon as the declarer has five tricks
        assert s.tricks[s.declarer] <= 5
        assert s.tricks[s.declarer] == 5 or sum(s.tricks) == 9


def test_a_let_where_its_inputs_are_unknown_names_its_place_and_its_inputs(tmp_path):
    path = _house(tmp_path, 'play:\n  follow:\n    - must: "suit(card) == led_suit or mine > 2"\n')
    assert _messages(path) == [
        f"{path}:5:40: 'mine' is defined under let: (variants/ombre.yaml:{_where('mine', 'let')}) and reads "
        f"declarer, tricks(), which "
        f"a play obligation does not know; it may be used where its inputs are known (outcomes, scoring, bid, call "
        f"and play conditions)"]


def test_a_scoring_let_where_its_inputs_are_unknown(tmp_path):
    path = _house(tmp_path, 'names:\n  x: "V"\n')
    assert _messages(path) == [
        f"{path}:4:7: 'V' is defined under scoring.let: (variants/ombre.yaml:{_where('V', 'scoring', 'let')}) "
        f"and reads contract, which names "
        f"does not know; it may be used where its inputs are known (outcomes, scoring, bid, call and play "
        f"conditions)"]


def test_lets_in_a_circle_are_refused(tmp_path):
    path = _house(tmp_path, 'let:\n  a: "b + 1"\n  b: "a + 1"\nplay:\n  end_when: "a > 100"\n')
    assert f"{path}:5:6: lets refer to each other in a circle: b -> a -> b" in _messages(path)


def test_a_scoring_let_in_a_play_condition(tmp_path):
    rules = load(_house(tmp_path, 'play:\n  end_when: "V > 100"\n'))
    assert rules.contract_by_name["solo"].play.end_when.uses == {"contract"}
