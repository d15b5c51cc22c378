"""The loader: `extends` (maps merge deeply, lists replace, null removes), options and variant strings."""
import pytest

from ombre_rules import SpecError, State, load
from ombre_rules.errors import Loc
from ombre_rules.spec.resolve import parse_variant_string, resolve

# -- extends ----------------------------------------------------------------------------------------------


@pytest.fixture
def house(write, mini):
    return write(f"extends: {mini}\nid: house\ncontracts:\n  big: {{value: 6}}\ndeal:\n  packets: [1, 1]\n"
                 "names: null\nscoring:\n  outcomes:\n    lose: []\n")


def test_maps_merge_deeply(house):
    data = resolve(house).data
    assert data["contracts"]["big"] == {"level": 2, "value": 6, "trump": "named",
                                        "exchange": {"declarer": {"max": 0}, "defenders": False}}
    assert data["contracts"]["game"]["value"] == 2
    assert data["scoring"] == {"let": {"V": "contract.value"}, "outcomes": {
        "win": [{"pay": {"from": "defenders", "to": "declarer", "amount": "V + opt.bonus"}}], "lose": []}}
    assert data["id"] == "house" and "extends" not in data


def test_lists_replace_and_null_removes(house):
    data = resolve(house).data
    assert data["deal"] == {"packets": [1, 1], "talon": "rest"}
    assert "names" not in data


def test_each_value_keeps_the_place_of_the_file_it_came_from(house, mini):
    doc = resolve(house).doc
    assert doc.loc(("contracts", "big", "value")) == Loc(house, 4, 16)
    assert doc.loc(("contracts", "big", "level")) == Loc(mini, 29, 16)
    assert doc.loc(("deal", "packets", 1)) == Loc(house, 6, 16)
    assert doc.loc(("deal", "talon")) == Loc(mini, 25, 29)


def test_extends_chain_is_relative_to_the_extending_file(write, mini):
    write(f"extends: {mini}\nid: first\nplayers: 4\n", "first.yaml")
    second = write("extends: first.yaml\nid: second\ndirection: clockwise\n", "second.yaml")
    data = resolve(second).data
    assert (data["id"], data["players"], data["direction"], data["title"]) == ("second", 4, "clockwise",
                                                                               "Mini (test variant)")


def test_extends_a_builtin_by_alias(write):
    data = resolve(write("extends: lhombre\nid: house\n")).data
    assert data["id"] == "house" and data["players"] == 3


@pytest.mark.parametrize("text, expected", [
    ("extends: ombr\n", "1:10: unknown variant 'ombr' (did you mean 'ombre'?)"),
    ("extends: nowhere.yaml\n", "1:10: no such variant file 'nowhere.yaml'"),
    ("extends: [ombre]\n", "1:10: 'extends' must name a variant or a file"),
])
def test_extends_an_unknown_variant(write, text, expected):
    path = write(text)
    with pytest.raises(SpecError) as ei:
        resolve(path)
    assert str(ei.value) == f"{path}:{expected}"


def test_circular_extends(write):
    a = write("extends: b.yaml\nid: a\n", "a.yaml")
    b = write("extends: a.yaml\nid: b\n", "b.yaml")
    with pytest.raises(SpecError) as ei:
        resolve(a)
    assert str(ei.value) == f"{b}:1:10: 'extends' goes round in a circle through '{a}'"


def test_extends_itself(write):
    path = write("id: me\nextends: me.yaml\n", "me.yaml")
    with pytest.raises(SpecError) as ei:
        resolve(path)
    assert str(ei.value) == f"{path}:2:10: 'extends' goes round in a circle through '{path}'"


# -- options ----------------------------------------------------------------------------------------------


def test_option_defaults(mini):
    spec = resolve(mini)
    assert spec.options == {"bonus": 0, "pay_mode": "flat", "loose": False}
    assert spec.defaults == spec.options
    assert spec.choices == {"bonus": [0, 2], "pay_mode": ["flat", "double"], "loose": [False, True]}
    assert spec.variant == mini  # a file is named by its path


def test_select_by_variant_string():
    spec = resolve("ombre(all_pass=spadille_force)")
    assert spec.options["all_pass"] == "spadille_force"
    assert spec.data["auction"]["all_pass"] == {
        "then": "force", "who": "holder(spadille) if holder(spadille) != none else forehand",
        "contract": "spadille_forced"}
    assert spec.variant == "ombre(all_pass=spadille_force)"


def test_select_by_dict_overrides_the_string():
    spec = resolve("ombre(all_pass=contrabola)", {"all_pass": "spadille_force"})
    assert spec.variant == "ombre(all_pass=spadille_force)"
    assert "contrabola" not in spec.data["contracts"]


@pytest.mark.parametrize("variant, canonical", [
    ("ombre", "ombre"),
    ("ombre(all_pass=redeal)", "ombre"),
    ("lhombre( tie_above_ombre = codille_shared , all_pass=spadille_force )",
     "ombre(all_pass=spadille_force,tie_above_ombre=codille_shared)"),
    ("ombre(allow_concede=True,estuches_min_run=3)", "ombre(allow_concede=true,estuches_min_run=3)"),
])
def test_canonical_variant_string(variant, canonical):
    assert resolve(variant).variant == canonical


def test_same_rules_same_digest():
    assert resolve("ombre").digest == resolve("ombre(all_pass=redeal)").digest
    assert resolve("ombre").digest != resolve("ombre(all_pass=contrabola)").digest


@pytest.mark.parametrize("selection, expected", [
    ({"loose": "true"}, {"loose": True}), ({"loose": "FALSE"}, {"loose": False}), ({"loose": True}, {"loose": True}),
    ({"bonus": "2"}, {"bonus": 2}), ({"bonus": 2}, {"bonus": 2}),
])
def test_option_values_are_typed(mini, selection, expected):
    options = resolve(mini, selection).options
    assert {k: options[k] for k in expected} == expected
    assert all(type(options[k]) is type(v) for k, v in expected.items())


def test_option_choices_apply_their_sections(mini):
    assert resolve(f"{mini}(loose=true)").data["play"]["follow"] == []
    assert resolve(f"{mini}(pay_mode=double)").data["scoring"]["let"] == {"V": "2 * contract.value"}
    assert resolve(f"{mini}(pay_mode=double)").data["scoring"]["outcomes"] == resolve(mini).data["scoring"]["outcomes"]


@pytest.mark.parametrize("options, payments", [("", [-2, 4, -2]), ("(bonus=2)", [-4, 8, -4]),
                                               ("(pay_mode=double,bonus=2)", [-6, 12, -6])])
def test_options_reach_the_compiled_rules(mini, options, payments):
    rules = load(mini + options)
    deck = rules.deck
    state = State(rules, hands=[deck.mask_of(["QS", "QH"]), deck.mask_of(["AS", "AH"]), deck.mask_of(["KS", "KH"])],
                  talon=[deck.parse("7S"), deck.parse("7H")])
    for text in ["bid game", "pass", "pass", "trump spades", "play AS", "play KS", "play QS", "play AH", "play KH",
                 "play QH"]:
        state.apply_str(text)
    assert (state.result.outcome, list(state.result.payments)) == ("win", payments)


@pytest.mark.parametrize("variant, selection, message", [
    ("ombre(all_pas=redeal)", None, "unknown option 'all_pas' for variant 'ombre' (did you mean 'all_pass'?)"),
    ("ombre", {"zzz": "1"}, "unknown option 'zzz' for variant 'ombre' (options: all_pass, allow_concede, "
     "tie_above_ombre, estuches_min_run, first_defender_max, defender_first, ante_mode, leftover_stock, "
     "scoring_model, fish, four_players)"),
    ("ombre(all_pass=redeel)", None,
     "'redeel' is not a choice of option 'all_pass' (choices: redeal, spadille_force, contrabola)"),
    ("ombre(estuches_min_run=2)", None, "'2' is not a choice of option 'estuches_min_run' (choices: 1, 3)"),
    ("ombre", {"allow_concede": "yes"}, "'yes' is not a choice of option 'allow_concede' (choices: false, true)"),
    ("ombre(all_pass)", None, "bad option 'all_pass' in 'ombre(all_pass)' (expected key=value)"),
    ("ombre(", None, "bad variant string 'ombre(' (expected NAME or NAME(key=value,...))"),
    ("nosuch", None, "unknown variant 'nosuch'"),
])
def test_bad_option_selection(variant, selection, message):
    with pytest.raises(SpecError) as ei:
        resolve(variant, selection)
    assert str(ei.value) == message


def test_variant_without_options(write, mini):
    path = write(f"extends: {mini}\nid: plain\noptions: null\n")
    with pytest.raises(SpecError) as ei:
        resolve(f"{path}(bonus=2)")
    assert str(ei.value) == "unknown option 'bonus' for variant 'plain' (this variant has no options)"


def test_house_rule_changes_an_option_default(write, mini):
    path = write(f"extends: {mini}\nid: generous\noptions:\n  bonus: {{default: 2}}\n")
    spec = resolve(path)
    # a file is named by its path (so its records replay), a built-in variant by its id
    assert (spec.options["bonus"], spec.data["id"], spec.variant) == (2, "generous", path)
    assert resolve(path, {"bonus": 0}).variant == f"{path}(bonus=0)"


def test_default_must_be_a_choice(write, mini):
    path = write(f"extends: {mini}\noptions:\n  bonus: {{default: 5}}\n")
    with pytest.raises(SpecError) as ei:
        resolve(path)
    assert str(ei.value) == f"{path}:3:20: default '5' of option 'bonus' is not one of its choices (0, 2)"


def test_parse_variant_string():
    assert parse_variant_string("ombre") == ("ombre", {})
    assert parse_variant_string(" x.yaml ( a = 1, b=two ) ") == ("x.yaml", {"a": "1", "b": "two"})
