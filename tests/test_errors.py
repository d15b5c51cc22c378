"""Error tests: malformed YAML, schema violations and illegal actions, each with its exact message and place."""
import pytest

from ombre_rules import IllegalActionError, InvalidActionError, SpecError, State, load
from ombre_rules.spec.yamlpos import load_text

# -- malformed YAML -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("id: x\nplayers: 3\n  deck: 4\n",
     "f.yaml:3:7: malformed YAML: unexpected ':' (is the line indented too far, or does a value containing ': ' "
     "need quotes?)"),
    ("deck:\n  suits: 1\n ranks: 2\n",
     "f.yaml:3:2: malformed YAML: bad indentation: this line does not line up with the lines above it"),
    ("id: x\n\tplayers: 3\n", "f.yaml:2:1: malformed YAML: a tab character here (YAML indents with spaces only)"),
    ("ranks: [A, 2, 3\nplayers: 3\n",
     "f.yaml:2:8: malformed YAML: expected ',' or ']', but got ':' (the '[' at 1:8 is never closed)"),
    ("deck: {suits: {}\n",
     "f.yaml:2:1: malformed YAML: expected ',' or '}', but got the end of the file (the '{' at 1:7 is never closed)"),
    ('title: "Ombre\n',
     "f.yaml:2:1: malformed YAML: found unexpected end of the file (the quote at 1:8 is never closed)"),
    ("id: x\nplayers: 3\nid: y\n", "f.yaml:3:1: duplicate key 'id'"),
    ("deck:\n  suits: {}\n  ranks: []\n  suits: {}\n", "f.yaml:4:3: duplicate key 'suits'"),
    ("? [a, b]\n: 1\n", "f.yaml:1:3: a mapping key must be a plain value"),
], ids=["indent-too-far", "indent-misaligned", "tab", "unclosed-bracket", "unclosed-brace", "unclosed-quote",
        "duplicate-key", "duplicate-nested-key", "complex-key"])
def test_malformed_yaml(text, expected):
    with pytest.raises(SpecError) as ei:
        load_text(text, "f.yaml")
    assert str(ei.value) == expected


def test_malformed_house_file_names_its_path(write):
    path = write("extends: ombre\nplay:\n  first_leader: forehand\n  first_leader: dealer\n")
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value) == f"{path}:4:3: duplicate key 'first_leader'"
    assert (ei.value.loc.line, ei.value.loc.col) == (4, 3)


def test_trumps_by_the_first_lead_need_a_ranking_without_trumps(write):
    path = write("extends: ombre\ncontracts:\n  solo: {trump: first_lead}\n")
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value).endswith(": the ranking with no trumps leaves AS, AC without a rank (contract 'solo' has "
                                  "no trumps until its first lead)")
    assert ei.value.loc.file.endswith("ombre.yaml")


def test_unreadable_file(tmp_path):
    with pytest.raises(SpecError) as ei:
        load(str(tmp_path / "nowhere.yaml"))
    assert str(ei.value) == f"no such variant file '{tmp_path / 'nowhere.yaml'}'"


# -- schema violations ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("extends: ombre\nplayerz: 4\n", "2:1: unknown key 'playerz' in the file (did you mean 'players'?)"),
    ("extends: ombre\nplay:\n  first_leadr: forehand\n",
     "3:3: unknown key 'first_leadr' in play (did you mean 'first_leader'?)"),
    ("extends: ombre\nsession: {deals: 4, rounds: 2}\n",
     "2:21: unknown key 'rounds' in session (expected one of: deals, pool, end_when, close, first_dealer, seats, "
     "carry)"),
    ("extends: ombre\nplayers: three\n", "2:10: players must be integer, not \"three\""),
    ("extends: ombre\ndeal:\n  packets: [3, x, 3]\n", "3:16: deal.packets.1 must be integer or object, not \"x\""),
    ("extends: ombre\nplayers: 1\n", "2:10: players: 1 is less than the minimum of 2"),
    ("extends: ombre\nauction:\n  form: sealed\n",
     "3:9: 'sealed' is not allowed for auction.form (expected one of: rotation, duel, none)"),
    ("extends: ombre\nauction:\n  form: rotaton\n",
     "3:9: 'rotaton' is not allowed for auction.form (did you mean 'rotation'?)"),
    ("extends: ombre\nexchange: {leftover: nobody}\n",
     "2:22: 'nobody' is not allowed for exchange.leftover (expected one of: hidden, last_exchanger, all)"),
    ("extends: ombre\nscoring: null\n", "2:1: missing key 'scoring' in the file"),
    ("extends: ombre\nauction:\n  form: null\n", "3:3: missing key 'form' in auction"),
], ids=["unknown-key", "unknown-nested-key", "unknown-key-no-match", "wrong-type", "wrong-item-type", "minimum",
        "enum", "enum-did-you-mean", "enum-nested", "required-section-removed", "required-key-removed"])
def test_schema_violation(write, text, expected):
    path = write(text)
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value) == f"{path}:{expected}"


def test_schema_violations_are_all_reported_each_at_its_place(write):
    path = write("extends: ombre\nplayerz: 4\ndirection: sideways\n")
    with pytest.raises(SpecError) as ei:
        load(path)
    assert [str(e) for e in ei.value.errors] == [
        f"{path}:2:1: unknown key 'playerz' in the file (did you mean 'players'?)",
        f"{path}:3:12: 'sideways' is not allowed for direction (expected one of: clockwise, counterclockwise)",
    ]


def test_missing_required_sections(write):
    path = write("id: tiny\nplayers: 3\n")
    with pytest.raises(SpecError) as ei:
        load(path)
    sections = ["deck", "ranking", "deal", "auction", "contracts", "play", "outcomes", "scoring"]
    assert str(ei.value) == "\n".join(f"{path}:1:1: missing key '{s}' in the file" for s in sections)


def test_not_a_mapping(write):
    path = write("- id: x\n")
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value) == f"{path}:1:1: a variant file must be a mapping of sections"


# -- illegal and invalid actions ------------------------------------------------------------------------


@pytest.fixture
def ombre():
    return load("ombre")


def _snapshot(state):
    return (list(state.history), state.legal_actions(), state.current_player, state.phase_name)


def test_illegal_bid_names_phase_seat_and_legal_actions(ombre):
    state = State(ombre, seed=3)
    assert [ombre.action_str(a) for a in state.legal_actions()] == ["pass", "bid entrada", "bid vuelta", "bid solo"]
    state.apply_str("bid vuelta")
    before = _snapshot(state)
    with pytest.raises(IllegalActionError) as ei:
        state.apply_str("bid entrada")
    assert str(ei.value) == "'bid entrada' is not legal for seat 2 in auction; legal: pass, bid solo"
    assert _snapshot(state) == before


def test_illegal_card_in_play_leaves_state_unchanged(ombre):
    state = State(ombre, seed=3)
    for text in ["bid entrada", "pass", "pass", "trump spades", "draw", "draw", "draw", "play 3H"]:
        state.apply_str(text)
    assert [ombre.action_str(a) for a in state.legal_actions()] == ["play 2H", "play 6H", "play 7H"]
    before, hand = _snapshot(state), state.view(2)["hand"]
    with pytest.raises(IllegalActionError) as ei:
        state.apply_str("play QS")
    assert str(ei.value) == ("'play QS' is not legal for seat 2 in play (must follow suit: 3H led (hearts) and you "
                             "hold 2H 6H 7H); legal: play 2H, play 6H, play 7H")
    assert _snapshot(state) == before
    assert state.view(2)["hand"] == hand
    state.apply_str("play 6H")
    assert state.history[-1] == ombre.parse_action("play 6H")


def test_discarding_a_card_not_held(ombre):
    state = State(ombre, seed=3)
    for text in ["bid entrada", "pass", "pass", "trump spades"]:
        state.apply_str(text)
    before = _snapshot(state)
    with pytest.raises(IllegalActionError) as ei:
        state.apply_str("discard QS")
    assert str(ei.value) == ("'discard QS' is not legal for seat 1 in exchange; legal: discard 5S, discard AC, "
                             "discard 3C, discard KC, discard 3H, discard 4H, discard QH, discard 4D, discard 6D, draw")
    assert _snapshot(state) == before


def test_illegal_action_id_out_of_range(ombre):
    state = State(ombre, seed=3)
    with pytest.raises(IllegalActionError) as ei:
        state.apply(10_000)
    assert str(ei.value) == "'10000' is not legal for seat 1 in auction; legal: pass, bid entrada, bid vuelta, bid solo"
    assert state.history == []


@pytest.mark.parametrize("text, expected", [
    ("play KX", "unknown card 'KX'"),
    ("discard 9S", "unknown card '9S'"),
    ("bid vuelt", "unknown contract 'vuelt' (did you mean 'vuelta'?)"),
    ("trump spade", "unknown suit 'spade' (did you mean 'spades'?)"),
    ("jump", "unknown action 'jump' (did you mean 'trump'?)"),
    ("pass now", "'pass' takes no argument: 'pass now'"),
    ("play", "'play' takes one argument: 'play'"),
    ("  ", "empty action"),
])
def test_unparseable_action_is_quoted(ombre, text, expected):
    state = State(ombre, seed=3)
    before = _snapshot(state)
    with pytest.raises(InvalidActionError) as ei:
        state.apply_str(text)
    assert str(ei.value) == expected
    assert _snapshot(state) == before


def test_action_errors_are_value_errors():
    assert issubclass(IllegalActionError, ValueError) and issubclass(InvalidActionError, ValueError)
    assert not issubclass(IllegalActionError, InvalidActionError)


# -- the optional mechanics of a variant file -------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("extends: taroc-lhombre\nauction:\n  opening: {contract: trio}\n",
     "3:23: unknown contract 'trio'"),
    ("extends: taroc-lhombre\nplay:\n  excuse: {card: scuz}\n",
     "3:18: unknown name 'scuz' (did you mean 'scus'?)"),
    ("extends: taroc-lhombre\nplay:\n  excuse: {card: hearts}\n",
     "3:18: play.excuse.card must be a card, not a suit"),
    ("extends: taroc-lhombre\nlay_away:\n  allowed: \"card.color == red\"\n",
     "3:18: unknown attribute 'color' (did you mean 'colour'?)"),
    ("extends: taroc-lhombre\ndemand:\n  cards: \"is_trump(card)\"\n",
     "3:11: 'is_trump' cannot be used in demand.cards"),
    ("extends: taroc-lhombre\ncontracts:\n  uno: {demand: -1}\n",
     "3:17: contracts.uno.demand: -1 is less than the minimum of 0"),
    ("extends: taroc-lhombre\nlay_away:\n  who: declarer\n  count: 3\n  when: now\n",
     "5:3: unknown key 'when' in lay_away (expected one of: who, take_talon, count, allowed, doc)"),
    ("extends: preference\nannounce: {contracts: [betl, sanz]}\n",
     "2:30: unknown contract 'sanz' (did you mean 'sans'?)"),
    ("extends: preference\ndefence: {invite: maybe}\n", "2:19: defence.invite must be boolean, not \"maybe\""),
    ("extends: preference\ndoubling: {factors: [2]}\n", "2:21: doubling.factors: [2] is too short"),
    ("extends: preference\ndoubling: {who: \"defending + 1\"}\n",
     "2:28: '+' cannot add a list of numbers and a number"),
], ids=["opening-contract", "excuse-name", "excuse-not-card", "lay-away-attr", "demand-func", "demand-count",
        "lay-away-key", "announce-contract", "defence-invite", "doubling-factors", "doubling-who"])
def test_mechanic_errors_name_their_place(write, text, expected):
    path = write(text)
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value).split("\n")[0] == f"{path}:{expected}"


def test_illegal_demand_names_phase_and_legal_actions():
    s = State(load("taroc-lhombre"), seed=3)
    for a in ("discard " + s.rules.deck.name(c) for c in list(s.rules.deck.bits(s.hands[0]
                                                                                & s.rules.lay_away.allowed))[:3]):
        s.apply_str(a)
    with pytest.raises(IllegalActionError) as ei:
        s.apply_str("give KH")
    assert str(ei.value).startswith("'give KH' is not legal for seat 2 in auction; legal: pass, bid due")
    with pytest.raises(InvalidActionError) as ei:
        s.apply_str("demand")
    assert str(ei.value) == "'demand' takes one argument: 'demand'"
