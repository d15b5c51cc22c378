"""What the engine cannot play is refused at load, at its place (issue 32): numbers and lists an expression could
make too large, a deck past the engine's size, more option choices than `check` may compile, strings UTF-8
cannot hold, names that are not action tokens or that hide a rank, a lay-away or an exchange without a talon;
and a seat that changes within a deal is worked out afresh (the first leader when a defender lays his hand
down)."""
import random
from pathlib import Path

import pytest
from housefiles import house, load_errors

from ombre_rules import SpecError, State, load
from ombre_rules.checking import check_variant
from ombre_rules.errors import OmbreError

DATA = Path(__file__).parent / "data"
LONE_HAND = str(DATA / "lone_hand.yaml")


def load_error(path: str) -> str:
    """The one error (found before the file is compiled) loading `path` gives, as `line:col: message`."""
    with pytest.raises(SpecError) as ei:
        load(path)
    return f"{ei.value.loc.line}:{ei.value.loc.col}: {ei.value.message}"


@pytest.mark.parametrize("body, expected", [
    ('let:\n  a: "9 * 9 * 9 * 9 * 9 * 9 * 9 * 9"\n  b: "a * a * a * a * a * a * a * a"\n',
     "4:7: 'a * a * a' may reach about 10^22, past 2^63 - 1, the largest number an expression may make (the pool, "
     "a session's numbers and scores count as up to 10^15)"),
    ('scoring:\n  ante: {from: players, amount: "pool * pool"}\n',
     "3:34: 'pool * pool' may reach 10^30, past 2^63 - 1, the largest number an expression may make (the pool, a "
     "session's numbers and scores count as up to 10^15)"),
    ('scoring:\n  let:\n    x: "-(999999999999999999 * 10)"\n',
     "4:11: '999999999999999999 * 10' may reach about 10^18, past 2^63 - 1, the largest number an expression may "
     "make (the pool, a session's numbers and scores count as up to 10^15)"),
    ('scoring:\n  let:\n    x: "sum([tricks(p) * 1000000000000000 for p in players]) * 10000"\n',
     "4:9: 'sum([tricks(p) * 1000000000000000 for p in players]) * 10000' may reach about 10^21, past 2^63 - 1, "
     "the largest number an expression may make (the pool, a session's numbers and scores count as up to "
     "10^15)"),
], ids=["let-chain", "ante", "literal-product", "sum"])
def test_a_number_an_expression_could_make_too_large_is_refused(tmp_path, body, expected):
    assert load_errors(house(tmp_path, "extends: ombre\n" + body))[0] == expected


def test_a_list_an_expression_could_make_too_long_is_refused(tmp_path):
    # each let the last twice over: 80 cards, 160, ... 81,920; the twelfth would hold 163,840
    lets = "".join(f"    a{i}: \"a{i - 1} + a{i - 1}\"\n" for i in range(1, 13))
    body = "scoring:\n  let:\n    a0: \"hand(declarer) + won(declarer)\"\n" + lets
    assert load_errors(house(tmp_path, "extends: ombre\n" + body)) == [
        "15:11: 'a10 + a10' may have 163840 items, more than 100000"]


def _big(tmp_path, suits: int, ranks: int, follow: str = "") -> str:
    """The mini test variant with a deck of `suits` suits of `ranks` ranks each (its lines 14 on), and more play
    obligations."""
    names = ", ".join(f"R{i}" for i in range(ranks))
    suit_lines = "".join(f"    s{i}: {{letter: {chr(65 + i)}{chr(65 + i).lower()}}}\n" for i in range(suits))
    order = "{" + ", ".join(f"s{i}: [{names}]" for i in range(suits)) + "}"
    mini = (DATA / "mini.yaml").read_text(encoding="utf-8")
    head, rest = mini.split("deck:\n", 1)
    tail = rest.split("deal:", 1)[1].replace('led_suit"\n', 'led_suit"\n' + follow)
    return house(tmp_path, f"{head}deck:\n  suits:\n{suit_lines}  ranks: [{names}]\nnames:\n  top: \"card(R0, "
                           f"trump)\"\nranking:\n  trumps: {order}\n  plain: {order}\ndeal:{tail}")


def test_a_deck_past_the_engine_size_is_refused(tmp_path):
    assert load_error(_big(tmp_path, 16, 69)) == "15:1: a deck of 1104 cards: the engine plays at most 1024"


def test_option_choices_past_what_check_may_compile_are_refused(tmp_path):
    many = "options:\n" + "".join(f"  o{i}: {{default: 0, choices: [{', '.join(map(str, range(5000)))}]}}\n"
                                  for i in range(19))
    assert load_error(house(tmp_path, "extends: ombre\n" + many)) == (
        "3:29: option 'o0' has 5000 choices, more than 32: check compiles the file once for each")
    wide = "options:\n" + "".join(f"  o{i}: {{default: 0, choices: [0, 1, 2, 3]}}\n" for i in range(30))
    assert load_error(house(tmp_path, "extends: ombre\n" + wide)) == (
        "19:3: 41 options with 104 choices besides their defaults: check compiles the file for the defaults and once "
        "for each other choice, at most 64 times (split the file, or make some options files that extend it)")


def test_check_stops_at_its_budget_of_work(tmp_path):
    # 1,024 cards in 16 suits: each ruleset's follow tables take 16.8 million evaluations (within the limit of one
    # load), and the file's option choices would make check build them for four rulesets
    path = _big(tmp_path, 16, 64)
    assert [str(e) for e in check_variant(path)] == [
        f"{path}:6:1: checking every option choice would compile more than 4,000,000 characters of expressions or "
        f"take more than 40,000,000 follow-table evaluations (stopped after 3 of 4 rulesets): fewer option "
        f"choices, contracts or cards"]


def test_follow_tables_past_the_limit_are_refused(tmp_path):
    path = _big(tmp_path, 16, 64, '    - must: "card != led_card"\n')
    assert load_errors(path) == [
        "44:1: the follow tables would take 33,554,432 evaluations (16 trump contexts, 2 obligations, each for 1024² "
        "pairs of cards), more than 20,000,000: fewer cards, trump suits, rankings or obligations"]


@pytest.mark.parametrize("text, expected", [
    ('title: "a \\ud800 b"\n', "2:8: a string with a lone surrogate (\\ud800), which no file or page can hold: write "
                              "the character itself"),
    ('let:\n  x: "\\udfff == 1"\n', "3:6: a string with a lone surrogate (\\udfff), which no file or page can hold: "
                                   "write the character itself"),
    ('"\\ud83d": 1\n', "2:1: a string with a lone surrogate (\\ud83d), which no file or page can hold: write the "
                      "character itself"),
], ids=["title", "expression", "key"])
def test_a_string_utf8_cannot_hold_is_refused_at_its_place(tmp_path, text, expected):
    assert load_error(house(tmp_path, "extends: ombre\n" + text)) == expected


@pytest.mark.parametrize("body, expected", [
    ('contracts:\n  "my solo": {level: 9, value: 3}\n',
     "3:3: 'my solo' is not a valid name in contracts (letters, digits and '_', starting with a letter, at most 63 "
     "characters)"),
    ('deck:\n  suits:\n    "big suit": {letter: B}\n',
     "4:5: 'big suit' is not a valid name in deck.suits (letters, digits and '_', starting with a letter, at most 63 "
     "characters)"),
    ('deck:\n  ranks: [A, 2, 3, 4, 5, 6, 7, J, Q, "K K"]\n',
     "3:38: card name 'K KS' is not one word: actions name cards ('play 10H'), so a rank may hold no space"),
    ('let:\n  K: "1"\n', "3:3: 'K' is a rank and cannot be defined in let (it would hide it)"),
    ('scoring:\n  let:\n    black: "2"\n',
     "4:5: 'black' is a value of a suit's attribute and cannot be defined in let (it would hide it)"),
    ('names:\n  solo: "3"\n', "3:3: 'solo' is a contract and cannot be defined in names (it would hide it)"),
    ('names:\n  AS: "3"\n', "3:3: 'AS' is a card and cannot be defined in names (it would hide it)"),
    ('session:\n  carry:\n    spades: {start: 0}\n',
     "4:5: 'spades' is a suit and cannot be defined in session.carry (it would hide it)"),
    ('scoring:\n  let:\n    x: "[K for K in players]"\n',
     "4:16: 'K' is a name of the variant (a rank, suit, card or contract): give the comprehension's variable "
     "another name"),
], ids=["contract", "suit", "rank", "let-rank", "let-attribute", "names-contract", "names-card", "carried-suit",
        "comprehension"])
def test_a_name_that_is_no_action_token_or_hides_a_name_is_refused(tmp_path, body, expected):
    assert load_errors(house(tmp_path, "extends: ombre\n" + body))[0] == expected


def test_a_carried_value_whose_start_has_the_wrong_type(tmp_path):
    path = house(tmp_path, "extends: ombre\nsession:\n  carry:\n    x: {type: list, start: \"abc\"}\n")
    assert load_errors(path) == ["4:28: session value 'x' must be a list of numbers, not 'abc'"]


def test_an_outcome_whose_every_step_is_refused_gives_its_errors(tmp_path):
    # found by test_house_property: the settlement's code was built with an empty branch, a ValueError
    path = house(tmp_path, "extends: ombre\nscoring:\n  outcomes:\n    sacada:\n      - {set: {nope: 1}}\n")
    assert load_errors(path) == ["5:16: set: unknown session value 'nope' (declare it under session.carry)"]


def test_a_session_value_past_its_limit_is_refused_cleanly(tmp_path, mini):
    path = house(tmp_path, f"extends: {mini}\nsession:\n  carry:\n    n: {{start: 1000000000000000}}\n"
                           f"scoring:\n  outcomes:\n    win: [{{set: {{n: \"session.n + 1\"}}}}]\n"
                           f"    lose: [{{set: {{n: \"session.n + 1\"}}}}]\n")
    s = State(load(path), seed=1)
    for a in ["bid game", "pass", "pass", "trump spades"]:
        s.apply_str(a)
    while sum(h.bit_count() for h in s.hands) > 1:  # every card but the last
        s.apply(s.legal_actions()[0])
    last = s.legal_actions()
    assert len(last) == 1 and s.rules.action_str(last[0]) == "play 7H"
    snap = s.clone()
    before = {name: getattr(snap, name) for name in State.__slots__ if name not in ("lm", "lc", "ex_acts")}
    for _ in range(2):  # the last card is refused, and refused again: the state is as it was before it
        with pytest.raises(OmbreError) as ei:
            s.apply(last[0])
        assert str(ei.value) == "session value 'n' would be about 10^15, past the 10^15 a session's number may reach"
        assert {name: getattr(s, name) for name in before} == before
        assert s.phase_name == "play" and s.result is None and s.legal_actions() == last


@pytest.mark.parametrize("body, expected", [
    ("lay_away: {who: declarer, count: 3}\n",
     "2:1: lay_away lays 3 cards away without taking the talon (take_talon: true), and the seat would then hold "
     "fewer cards than the others"),
    ("lay_away: {who: declarer, take_talon: true, count: 2}\n",
     "2:52: lay_away lays 2 cards away and takes a talon of 13: the seat would then hold more cards than the others "
     "(count must be the talon's size)"),
], ids=["no-take", "count"])
def test_a_lay_away_that_would_leave_hands_unequal_is_refused(tmp_path, body, expected):
    assert load_errors(house(tmp_path, "extends: ombre\n" + body)) == [expected]


def test_a_lay_away_without_a_talon_is_refused(tmp_path, mini):
    path = house(tmp_path, f"extends: {mini}\nplayers: 4\ndeal: {{packets: [1, 1], talon: 0}}\n"
                           f"lay_away: {{who: declarer, take_talon: true, count: 1}}\n")
    assert load_errors(path) == ["4:52: lay_away lays 1 card away and takes a talon of 0: the seat would then hold "
                                 "fewer cards than the others (count must be the talon's size)"]


def test_an_exchange_that_must_draw_from_no_talon_is_refused(tmp_path, mini):
    path = house(tmp_path, f"extends: {mini}\nplayers: 4\ndeal: {{packets: [1, 1], talon: 0}}\n"
                           f"exchange: {{declarer: {{min: 1, max: 2}}}}\ncontracts:\n  game: {{exchange: null}}\n")
    assert load_errors(path) == ["4:28: an exchange of at least 1 card needs a talon to draw from, and the deal "
                                 "leaves none"]


def _deal(rules, seat1_plays: bool) -> int:
    """Seat 2 declares, seat 0 plays on, seat 1 plays on or passes: the seat to lead."""
    s = State(rules, seed=3, dealer=0)
    for a in ["pass", "bid game", "pass", "trump spades", "follow", "follow" if seat1_plays else "pass"]:
        s.apply_str(a)
    assert s.phase_name == "play"
    return s.to_move


@pytest.mark.parametrize("option, both_play, one_passes", [
    ("forehand", 1, 2),  # forehand is the first seat after the dealer that plays
    ("after_dealer", 1, 2),  # the seat after the dealer, or the next seat that plays
    ("second", 2, 0),  # the second of the players from forehand: seat 0 once seat 1 passed
])
def test_the_first_leader_is_worked_out_when_the_ring_changes(option, both_play, one_passes):
    rules = load(f"{LONE_HAND}(first_leader={option})")
    # the same rules and dealer: a seat cached from a deal where both defenders played is not reused
    assert [_deal(rules, True), _deal(rules, False), _deal(rules, True)] == [both_play, one_passes, both_play]


def test_a_first_leader_who_sits_the_deal_out_gives_the_lead_to_the_next_seat_that_plays(tmp_path):
    # the dealer sits out and is named first leader: the seat after him leads, and no trick is led or won by him
    path = house(tmp_path, "extends: ombre\noptions: {four_players: {default: dealer_sits_out}}\n"
                           "play: {first_leader: dealer}\n")
    rules = load(path)
    leaders, finished = [], 0
    for dealer in range(4):
        for seed in range(10):
            s = State(rules, seed=seed, dealer=dealer)
            rnd = random.Random(seed)
            while s.result is None and s.phase_name != "play":
                s.apply(rnd.choice(s.legal_actions()))
            if s.phase_name == "play" and len(leaders) == dealer:
                leaders.append(s.leader)
            s.random_playout(rnd.random)
            finished += s.result is not None
            assert all(lead != dealer and won != dealer for lead, _cards, won in s.trick_log)
    assert leaders == [1, 2, 3, 0]
    assert finished == 40
