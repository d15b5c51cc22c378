"""The expression language: grammar, values, name and arity checks, syntax errors, and places in YAML files."""
from types import SimpleNamespace

import pytest
from lark import Lark

from ombre_rules import SpecError, load
from ombre_rules.cards import Suit
from ombre_rules.errors import ExprError, Loc
from ombre_rules.lang import Compiler, Namespace, Site
from ombre_rules.lang import types as T
from ombre_rules.resources import grammar_path
from ombre_rules.spec.yamlpos import load_text

SPADES = Suit("spades", 0, "S", {"colour": "black"})
CARDS = {"AS": "card AS", "7D": "card 7D", "10H": "card 10H"}


def _card_literal(text):
    if text not in CARDS:
        raise ExprError(f"unknown card '{text}'")
    return CARDS[text]


NS = Namespace(constants={"none": None, "true": True, "false": False, "spades": SPADES, "black": "black",
                          "AS": CARDS["AS"]},
               names={"spadille"}, options={"bonus": 2, "mode": "flat", "strict": False},
               attrs={"colour", "name", "index"}, context_funcs={"tricks": (1, 1), "card": (2, 2)},
               card_literal=_card_literal,
               var_types={"xs": "list:int", "a": "int", "b": "int", "seats": "list:int", "trump": "suit"},
               func_types={"tricks": (("seat",), "int")},
               var_vals={"xs": T.seq(T.num(0, 9), 9, 3), "a": T.num(0, 9), "b": T.num(0, 9),
                         "seats": T.seq(T.num(0, 2), 3, 3)},
               seats=3)
SITE = Site("a test", frozenset({"xs", "a", "b", "seats"}), frozenset({"tricks"}))
NAMES_SITE = Site("names", frozenset({"trump"}), frozenset({"card"}))
ENV = SimpleNamespace(xs=[3, 1, 4], a=7, b=0, seats=[0, 1, 2], u_spadille="spadille!", trump=SPADES,
                      f_tricks=lambda seat: [5, 2, 2][seat], f_card=lambda rank, suit: f"{rank} of {suit}")


def run(text, site=SITE):
    return Compiler(NS).compile(text, None, site)(ENV)


def error(text, site=SITE):
    with pytest.raises(ExprError) as ei:
        Compiler(NS).compile(text, None, site)
    return str(ei.value)


def test_grammar_is_strict_lalr():
    with open(grammar_path(), encoding="utf-8") as f:
        parser = Lark(f.read(), parser="lalr", strict=True)
    assert parser.parse("max(x for x in xs if x > 1)").data == "call"


@pytest.mark.parametrize("text, value", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("10 - 2 - 3", 5), ("-a + 1", -6), ("7 // 2", 3), ("7 % 3", 1),
    ("a // b", 0), ("a % b", 0), ("a // 0", 0), ("-7 // 2", -4),
    ("1 < 2 < 3", True), ("3 > 2 > 2", False), ("1 == 1 != 2", True), ("a >= 7", True), ("a <= 6", False),
    ("3 in xs", True), ("5 not in xs", True),
    ("not b", True), ("a and b", 0), ("b or a", 7), ("not a or b", 0), ("b or not b and a", 7),
    ("1 if b else 2", 2), ("1 if a else 2 if b else 3", 1), ("1 if b else 2 if b else 3", 3),
    ("[1, 2, 3,]", [1, 2, 3]), ("[]", []), ("[x * 2 for x in xs]", [6, 2, 8]),
    ("[x for x in xs if x > 1 if x < 4]", [3]), ("[p for p in seats if tricks(p) == 2]", [1, 2]),
    ("max(x for x in xs)", 4), ("max(tricks(p) for p in seats if p != 0)", 2), ("min(x for x in xs if x > 9)", 0),
    ("max(1, 9, 2)", 9), ("max(xs)", 4), ("min(xs)", 1), ("sum(xs)", 8), ("len(xs)", 3), ("abs(-3)", 3),
    ("first(xs)", 3), ("count([1, 0, 2])", 2), ("any(x > 3 for x in xs)", True), ("all([])", True),
    ("prefix_len([1, 2, 3], [2, 1])", 2), ("xs[0]", 3), ("xs[9]", None),
    ("spades.colour", "black"), ("spades.name", "spades"), ("spades.colour == black", True), ("spades.index", 0),
    ("AS", "card AS"), ("7D", "card 7D"), ("10H", "card 10H"), ("'hi'", "hi"), ('"hi" == \'hi\'', True),
    ("none", None), ("true and false", False),
    ("opt.bonus + 1", 3), ("opt.mode == 'flat'", True), ("opt.strict", False), ("spadille", "spadille!"),
])
def test_value(text, value):
    assert run(text) == value


def test_names_site_may_call_card_but_not_tricks():
    assert run("card(2, trump)", NAMES_SITE) == "2 of spades"
    assert error("tricks(0)", NAMES_SITE) == "'tricks' cannot be used in names\n    tricks(0)\n    ^"


def test_compiled_expression_records_what_it_uses():
    e = Compiler(NS).compile("max(tricks(p) for p in seats) + a", None, SITE)
    assert e.uses == {"seats", "tricks()", "a"} and not e.constant
    c = Compiler(NS).compile("opt.bonus * 2 + len([AS])", None, SITE)
    assert c.constant and c.value == 5


@pytest.mark.parametrize("text, message, col", [
    ("xss", "unknown name 'xss' (did you mean 'xs'?)", 1),
    ("a + zzz", "unknown name 'zzz'", 5),
    ("[x for x in xs] + [x]", "unknown name 'x' (did you mean 'xs'?)", 20),
    ("spades.colr", "unknown attribute 'colr' (did you mean 'colour'?)", 8),
    ("trmp.colr", "unknown name 'trmp'", 1),
    ("opt.bonsu", "unknown option 'bonsu' (did you mean 'bonus'?)", 5),
    ("9X == a", "unknown card '9X'", 1),
    ("max", "'max' is a function: call it as max(...)", 1),
    ("1 + tricks", "'tricks' is a function: call it as tricks(...)", 5),
    ("foo(1)", "unknown function 'foo'", 1),
    ("tricx(a)", "unknown function 'tricx' (did you mean 'tricks'?)", 1),
    ("card(1, spades)", "'card' cannot be used in a test", 1),
    ("len(1, 2)", "len() takes 1 argument, got 2", 1),
    ("max()", "max() takes at least 1 argument, got 0", 1),
    ("prefix_len(xs)", "prefix_len() takes 2 arguments, got 1", 1),
    ("a + tricks()", "tricks() takes 1 argument, got 0", 5),
    ("xs.index(1)", "only named functions can be called", 1),
])
def test_check_error(text, message, col):
    assert error(text) == f"{message}\n    {text}\n    {' ' * (col - 1)}^"


def test_names_refused_where_the_site_forbids_them():
    site = Site("auction.first", frozenset(), frozenset(), names=False)
    assert error("spadille", site) == "'spadille' cannot be used in auction.first\n    spadille\n    ^"


@pytest.mark.parametrize("text, message, col", [
    ("1 +", "expression ends too early", 4),
    ("(1 + 2", "expression ends too early; expected ')'", 7),
    ("1 if a", "expression ends too early; expected 'else', 'or'", 7),
    ("1 + * 2", "unexpected '*' in expression", 5),
    ("x for", "unexpected 'for' in expression; expected the end", 3),
    ("a $ b", "unexpected character '$' in expression", 3),
    ("a = 1", "unexpected character '=' in expression", 3),
])
def test_syntax_error_with_caret(text, message, col):
    assert error(text) == f"{message}\n    {text}\n    {' ' * (col - 1)}^"


def test_error_on_second_line_of_expression():
    assert error("a +\n  zzz") == "unknown name 'zzz'\n      zzz\n      ^"


# -- expressions inside YAML files: errors point into the file ----------------------------------------


def _place(yaml_text, text, line, col):
    """Where (line, col) of the string value at key `x` lies in the YAML text."""
    doc = load_text(yaml_text, "f.yaml")
    assert doc.data["x"] == text
    return doc.source(("x",)).at(text, line, col)


@pytest.mark.parametrize("yaml_text, text, pos, where", [
    ('x: "card(2, trmp)"\n', "card(2, trmp)", (1, 9), (1, 13)),
    ("x: 'card(2, trmp)'\n", "card(2, trmp)", (1, 9), (1, 13)),
    ("x: card(2, trmp)\n", "card(2, trmp)", (1, 9), (1, 12)),
    ("x: card(2,\n     trmp)\n", "card(2, trmp)", (1, 9), (2, 6)),
    ('x: "card(2,\n     trmp)"\n', "card(2, trmp)", (1, 9), (2, 6)),
    ("x: |\n  card(2,\n    trmp)\n", "card(2,\n  trmp)\n", (2, 3), (3, 5)),
    ("x: >-\n  card(2,\n  trmp)\n", "card(2, trmp)", (1, 9), (3, 3)),
    ('x: "it\\"s \\t trmp"\n', 'it"s \t trmp', (1, 8), (1, 14)),
    ("x: 'it''s trmp'\n", "it's trmp", (1, 6), (1, 11)),
    ('x: "mine >"\n', "mine >", (1, 7), (1, 11)),
], ids=["double-quoted", "single-quoted", "plain", "plain-folded", "quoted-folded", "literal-block", "folded-block",
        "escapes", "single-quote-escape", "end-of-text"])
def test_position_inside_yaml_string(yaml_text, text, pos, where):
    assert _place(yaml_text, text, *pos) == Loc("f.yaml", *where)


@pytest.mark.parametrize("section, message, line, col", [
    ('names: {x: "card(2, trmp)"}',
     "unknown name 'trmp' (did you mean 'trump'?)\n    card(2, trmp)\n            ^", 2, 21),
    ("names:\n  x: tricks(declarer)", "'tricks' cannot be used in names\n    tricks(declarer)\n    ^", 3, 6),
    ("names:\n  x: \"[AS, 9S]\"", "unknown card '9S'\n    [AS, 9S]\n         ^", 3, 12),
    ("exchange:\n  first_defender: {max: opt.first_defender_mx}",
     "unknown option 'first_defender_mx' (did you mean 'first_defender_max'?)\n    opt.first_defender_mx\n        ^",
     3, 29),
    ("scoring:\n  let:\n    V: contract.valu",
     "unknown attribute 'valu' (did you mean 'value'?)\n    contract.valu\n             ^", 4, 17),
    ("play:\n  follow:\n    - must: \"suit(card) ==\n        led_suitt\"",
     "unknown name 'led_suitt' (did you mean 'led_suit'?)\n    suit(card) == led_suitt\n                  ^", 5, 9),
    ("play:\n  claim: {after_trick: 5, when: \"tricks(declarer) >\"}",
     "expression ends too early\n    tricks(declarer) >\n                      ^", 3, 52),
], ids=["unknown-name", "function-not-allowed", "unknown-card", "unknown-option", "unknown-attribute",
        "folded-string", "syntax-error"])
def test_expression_error_in_variant_file(write, section, message, line, col):
    path = write(f"extends: ombre\n{section}\n")
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value) == f"{path}:{line}:{col}: {message}"


def test_several_expression_errors_are_each_reported_once(write):
    # `let` is compiled for every contract (six raw errors); each error is still shown once
    path = write("extends: ombre\nnames:\n  x: trmp\nlet:\n  mine: \"1 +\"\n")
    with pytest.raises(SpecError) as ei:
        load(path)
    assert [str(e).split("\n")[0] for e in ei.value.errors] == [
        f"{path}:3:6: unknown name 'trmp' (did you mean 'trump'?)",
        f"{path}:5:13: expression ends too early",
    ]


def test_names_may_not_refer_to_each_other_in_a_circle(write):
    path = write('extends: ombre\nnames:\n  x: "[y]"\n  y: "[x]"\n')
    with pytest.raises(SpecError) as ei:
        load(path)
    assert str(ei.value) == f"{path}:3:6: names refer to each other in a circle: x -> y -> x"


def test_card_literals_and_suits_in_a_variant(mini):
    rules = load(mini)
    site = Site("a test", frozenset(), frozenset())
    deck = rules.deck
    assert rules.compiler.compile("[AS, 7H]", None, site).value == [deck.cards[0], deck.cards[7]]
    assert rules.compiler.compile("hearts.colour", None, site).value == "red"
    with pytest.raises(ExprError) as ei:
        rules.compiler.compile("[AS, 2S]", None, site)
    assert str(ei.value) == "unknown card '2S'\n    [AS, 2S]\n         ^"
