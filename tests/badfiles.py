"""A collection of hostile variant files, each with the first line of the message it must get (after
`PATH:`), shared by the loader tests and the command-line tests."""


def _bomb() -> str:
    lines = ["x:", "  a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(8):
        p, q = chr(97 + i), chr(98 + i)
        lines.append(f"  {q}: &{q} [" + ", ".join([f"*{p}"] * 10) + "]")
    return "\n".join(lines) + "\n"


BAD_FILES = {
    "alias-bomb": (_bomb(), "3:31: more than 100000 values once the aliases are expanded"),
    "recursive-alias": ("x: &a [*a]\n", "2:4: an alias that stands for a value containing it"),
    "deep-nesting": ("x: " + "[" * 2000 + "]" * 2000 + "\n", "2:43: nested more than 40 levels deep"),
    "merge-key": ("base: &b {value: 1}\ncontracts:\n  solo:\n    <<: *b\n",
                  "5:5: a merge key '<<' (write the keys out): only plain YAML values are read"),
    "python-tag": ("title: !!python/name:os.system\n",
                   "2:8: a tag (tag:yaml.org,2002:python/name:os.system): only plain YAML is read, without tags"),
    "local-tag": ("title: !local x\n", "2:8: a tag (!local): only plain YAML is read, without tags"),
    "binary": ("title: !!binary aGVsbG8=\n", "2:8: a tag (tag:yaml.org,2002:binary): only plain YAML is read, "
               "without tags"),
    "timestamp": ("title: 2024-01-01\n",
                  "2:8: a date or time (quote it to make it a string): only plain YAML values are read"),
    "huge-int": ("deal:\n  packets: [" + "9" * 5000 + "]\n", "3:13: a number larger than 1000000000000000"),
    "big-packet": ("deal:\n  packets: [99999999999999]\n",
                   "3:13: deal.packets.0: 99999999999999 is greater than the maximum of 200"),
    "let-newline": ('let:\n  "a\\nimport os": "1"\n',
                    "3:3: 'a\\nimport os' is not a valid name in let (letters, digits and '_', starting with a "
                    "letter, at most 63 characters)"),
    "let-space": ('scoring:\n  let:\n    "a b": "1"\n',
                  "4:5: 'a b' is not a valid name in scoring.let (letters, digits and '_', starting with a letter, "
                  "at most 63 characters)"),
    "names-internal": ("names:\n  f_card: \"1\"\n", "3:3: 'f_card' is a built-in name and cannot be defined in names"),
    "long-chain": ("let:\n  x: \"" + "1 + " * 300 + "1\"\n", "3:971: expression nested more than 60 levels deep"),
    "deep-unary": ("let:\n  x: \"" + "-" * 300 + "1\"\n", "3:67: expression nested more than 60 levels deep"),
    "deep-calls": ("let:\n  x: \"" + "abs(" * 200 + "1" + ")" * 200 + "\"\n",
                   "3:127: expression nested more than 60 levels deep"),
    "long-digits": ("let:\n  x: \"" + "9" * 3000 + "\"\n", "3:7: number too large (at most 18 digits)"),
    "long-expression": ("let:\n  x: \"" + "1+" * 2500 + "1\"\n", "3:6: expression of 5001 characters (at most 4000)"),
    "exchange-list": ("exchange:\n  declarer: {max: \"[1, 2]\"}\n",
                      "3:20: an exchange limit must be a number, not a list of numbers"),
    "exchange-none": ("exchange:\n  declarer: {max: \"none\"}\n",
                      "3:20: an exchange limit must be a number, not none"),
    "exchange-string": ("exchange:\n  declarer: {max: \"'3'\"}\n",
                        "3:20: an exchange limit must be a number, not a string"),
    "show-ints": ("contracts:\n  solo:\n    show: \"[1, 2]\"\n", "4:12: show must be a list of cards, not a list of "
                  "numbers"),
    "suit-vs-string": ("scoring:\n  let:\n    x: \"trump == 'spades'\"\n",
                       "4:15: '==' compares a suit with a string: always false"),
    "card-vs-int": ("scoring:\n  let:\n    x: \"called in [1, 2]\"\n",
                    "4:16: 'in' looks for a card in a list of numbers: never there"),
    "ranking-card": ("ranking:\n  plain:\n    black: [\"card('K', 1)\"]\n", "4:24: card() needs a suit, not a number"),
    "list-repeat": ("scoring:\n  let:\n    x: \"players * 1000000000\"\n", "4:17: '*' needs numbers, not a list of "
                    "numbers"),
}


def bad_records(good: dict) -> dict[str, tuple[str | bytes, str]]:
    """Hostile record files made from a good record: name -> (file content, message after 'ombre: error: ')."""
    import copy
    import json

    def edited(change) -> str:
        rec = copy.deepcopy(good)
        change(rec)
        return json.dumps(rec)

    first_card = (good["deal"].get("hands") or [["AS"]])[0][0]
    return {
        "result-null": (edited(lambda r: r.update(result=None)),
                        "{f}: record 1: the record has no result; the replay ends in outcome '{outcome}'"),
        "talon-int": (edited(lambda r: r["deal"]["talon"].__setitem__(0, 5)),
                      "{f}: record 1: record field 'deal.talon.0' must be str, not 5"),
        "deep": ("[" * 100_000 + "]" * 100_000, "{f}: not a record: nested too deeply"),
        "not-utf8": (b'{"format": "\xff"}', "cannot read '{f}': not UTF-8 text"),
        "huge-number": ('{"format": "ombre-record/1", "seed": ' + "9" * 5000 + "}",
                        "{f}: not valid JSON: Exceeds the limit (4300 digits) for integer string conversion: "
                        "value has 5000 digits"),
        "empty-list": ("[]", "{f}: no records in the file"),
        "dealer-99": (edited(lambda r: r.update(dealer=99)),
                      "{f}: record 1: record field 'dealer': 99 is greater than the maximum of 7"),
        "dealer-5": (edited(lambda r: r.update(dealer=5)),
                     "{f}: record 1: record field 'dealer': 5 is not a seat of 'ombre' (0 to 2)"),
        "variant-backtracking": (edited(lambda r: r.update(variant="a" + " " * 1900 + "(")),
                                 "{f}: record 1: cannot load variant 'a" + " " * 56 + "...': bad variant string 'a"
                                 + " " * 56 + "...' (expected NAME or NAME(key=value,...))"),
        "action-list": (edited(lambda r: r["actions"].__setitem__(3, ["x"])),
                        "{f}: record 1: record field 'actions' must be a list of action strings"),
        "no-deal": (edited(lambda r: r.pop("deal")), "{f}: record 1: record field 'deal' is missing"),
        "not-json": ("{", "{f}:1:2: not valid JSON: Expecting property name enclosed in double quotes"),
        "not-a-record": ('{"format": "other"}', "{f}: record 1 is not an ombre-record/1 record"),
        "bad-card": (edited(lambda r: r["deal"]["talon"].__setitem__(0, "ZZ")),
                     "{f}: record 1: bad card in the deal: unknown card 'ZZ' in the talon"),
        "card-twice": (edited(lambda r: r["deal"].setdefault("hands", [["AS"], ["KS"]])[1].__setitem__(0, first_card)),
                       "{f}: record 1: bad card in the deal: " + first_card + " is dealt twice "
                       "(hand 1 and hand 2)"),
        "pool-text": (edited(lambda r: r.update(pool="15")),
                      "{f}: record 1: record field 'pool' must be a whole number up to 9007199254740991 in size, or "
                      "its digits as a string beyond that, not '15'"),
    }
