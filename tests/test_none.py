"""Values that may be none, numbers past the limit and seats outside the table are refused at load, at their
place, with how to fix them (issue 32); guarded forms load and play, also when every seat passes."""
import random

import pytest
from housefiles import house, load_errors

from ombre_rules import State, load

MINI_ALL_PASS = ["pass", "pass", "pass"]  # mini: forehand, then the others; all passing ends the deal


@pytest.mark.parametrize("body, expected", [
    ('let:\n  x: "(declarer + 2) % 4"\n',
     "3:8: 'declarer' is none when every seat passes: guard it with 'declarer != none'"),
    ('scoring:\n  let:\n    x: "partner + 1"\n',
     "4:9: 'partner' is none without a called partner: guard it with 'partner != none'"),
    ('scoring:\n  let:\n    x: "first(defenders) + 1"\n',
     "4:9: 'first(defenders)' is none for an empty list: guard it with 'first(defenders) != none'"),
    ('scoring:\n  let:\n    x: "sitters[0] + 1"\n',
     "4:9: 'sitters[0]' is none when the list has no such item: guard it with 'sitters[0] != none'"),
    ('scoring:\n  let:\n    x: "1 if high_bid.level > 2 else 0"\n',
     "4:14: 'high_bid.level' may be none ('high_bid' is none before the first bid): guard it with "
     "'high_bid.level != none'"),
    ('scoring:\n  let:\n    x: "group_points([1, 2], 3, taken_from)"\n',
     "4:33: 'taken_from' is none unless another seat took a conceded game over: guard it with 'taken_from != none'"),
    ('auction:\n  all_pass: {then: force, who: "holder(basto)", contract: solo}\n',
     "3:33: 'holder(basto)' is none when nobody holds the card: guard it with 'holder(basto) != none'"),
    ('session:\n  carry:\n    name: {type: str}\nscoring:\n  let:\n    x: "session.name + \'!\'"\n',
     "7:9: 'session.name' is none until a set: gives it a value: guard it with 'session.name != none'"),
    ('scoring:\n  let:\n    x: "1 in none"\n', "4:11: 'in' needs a list on its right, not none"),
    ('scoring:\n  let:\n    x: "none + 1"\n', "4:14: '+' needs numbers, not none"),
    ('contracts:\n  solo: {attrs: {w: "x"}}\n  entrada: {attrs: {w: 2}}\nscoring:\n  let:\n    x: "contract.w > 1"\n',
     "7:9: 'contract.w' is none for contract 'vuelta': guard it with 'contract.w != none'"),
], ids=["declarer", "partner", "first", "index", "attribute-order", "argument", "holder", "session", "in-none",
        "none-literal", "attribute-lacking"])
def test_a_value_that_may_be_none_is_refused_where_none_cannot_stand(tmp_path, body, expected):
    assert load_errors(house(tmp_path, "extends: ombre\n" + body))[0] == expected


def test_a_contract_attribute_only_some_contracts_set(tmp_path, mini):
    path = house(tmp_path, f"extends: {mini}\ncontracts:\n  game: {{attrs: {{need: 3}}}}\nlet:\n"
                           f"  n: \"contract.need + 1\"\n")
    assert load_errors(path) == [
        "5:7: 'contract.need' is none for contract 'big': guard it with 'contract.need != none'",
        "5:7: 'contract.need' may be none ('contract' is none when every seat passes): guard it with "
        "'contract.need != none'"]
    # in the contract's own rules the attribute is its own: no guard is needed there
    path = house(tmp_path, f"extends: {mini}\ncontracts:\n  game: {{attrs: {{need: 3}}, outcomes: [{{name: win, "
                           f"when: \"tricks(declarer) >= contract.need - 1\"}}, {{name: lose}}]}}\n")
    assert load(path).contracts[0].name == "game"


@pytest.mark.parametrize("expr, expected", [
    ("(declarer + 2) % 4 if declarer != none else 0", 0),
    ("declarer != none and declarer + 1 > 2", False),
    ("declarer == none or declarer + 1 > 2", True),
    ("not (declarer == none) and declarer > 0", False),
    ("sum([p + 1 for p in [declarer, partner] if p != none])", 0),
    ("(partner or 0) + 1", 1),
    ("sitters[0] + 1 if len(sitters) > 0 else 0", 0),
    ("first(defenders) + 1 if defenders != [] else 0", 0),
    ("max(declarer, 2) + 1", 3),
    ("contract.value + 1 if contract != none else -1", -1),
], ids=["if-else", "and", "or", "not", "comprehension", "or-default", "length", "not-empty", "max", "attribute"])
def test_guarded_forms_load_and_play_when_every_seat_passes(tmp_path, mini, expr, expected):
    rules = load(house(tmp_path, f"extends: {mini}\nlet:\n  x: \"{expr}\"\nsummary:\n  x: x\n"))
    s = State(rules, seed=1)
    for a in MINI_ALL_PASS:
        s.apply_str(a)
    assert s.result.outcome == "all_pass"
    from ombre_rules.log import summary_lines

    assert summary_lines(s) == [f"x: {expected}"]


def test_a_guard_of_an_all_pass_rule_holds_where_its_seat_is_named(tmp_path):
    path = house(tmp_path, 'extends: ombre\nauction:\n  all_pass:\n    - {when: "holder(basto) != none", then: force, '
                           'who: "holder(basto)", contract: solo}\n    - {then: redeal}\n')
    rules = load(path)
    s = State(rules, seed=4)
    s.random_playout(random.Random(4).random)
    assert s.result is not None


@pytest.mark.parametrize("body, expected", [
    ('scoring:\n  let:\n    x: "tricks(declarer + 1)"\n',
     "4:16: tricks()'s argument must be a seat (0 to 2), and 'declarer + 1' may be 3"),
    ('scoring:\n  outcomes:\n    sacada: [{pay: {from: defenders, to: 3, amount: 1}}]\n',
     "4:42: a payment's seats must be a seat (0 to 2), not 3"),
    ("play:\n  first_leader: 5\n", "3:17: play.first_leader must be a seat (0 to 2), not 5"),
    ('play:\n  first_leader: "declarer + 1"\n',
     "3:18: play.first_leader must be a seat (0 to 2), and 'declarer + 1' may be 3"),
    ('scoring:\n  outcomes:\n    sacada: [{pay: {from: "[p - 1 for p in defenders]", to: declarer, amount: 1}}]\n',
     "4:28: each of a payment's seats must be a seat (0 to 2), and '[p - 1 for p in defenders]' may be -1"),
], ids=["argument", "payment", "first-leader", "first-leader-expression", "payment-list"])
def test_a_seat_outside_the_table_is_refused(tmp_path, body, expected):
    assert load_errors(house(tmp_path, "extends: ombre\n" + body))[0] == expected


def test_a_seat_kept_inside_the_table_loads(tmp_path):
    rules = load(house(tmp_path, 'extends: ombre\nplay:\n  first_leader: "(declarer + 1) % 3"\n'))
    s = State(rules, seed=2)
    s.random_playout(random.Random(2).random)
    assert s.result is not None
