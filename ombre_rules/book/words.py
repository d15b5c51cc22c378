"""The words a rulebook uses for the roles of a deal, the outcomes and the seats, from the variant file's `terms:`
(a word for the declarer, a name for each outcome, …) or, where it gives none, plain generic words; and the
expressions of the file in words, with the chosen options put in."""
from __future__ import annotations

from typing import Any

from ..explain.account import terms
from ..explain.phrase import SINGLE_SEATS, Phraser

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
DOUBLING = ("not doubled", "doubled", "redoubled")


def cap(text: str) -> str:
    """The text with its first letter in capitals."""
    return text[:1].upper() + text[1:]


def header(text: str) -> str:
    """A column header from a role's words: `the Ombre` → `Ombre`, `each defender` → `Each defender`."""
    return cap(text[4:] if text.startswith("the ") else text)


def join(items: list[str], last: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = [i for i in items if i]
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


class Words:
    """One variant's words."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.terms = terms(rules)
        # in expressions: a contract by its title, a named card by its name, and the file's own terms
        said = {c.name: c.title for c in rules.contracts}
        said.update({n: f"the {n}" if str(e).lstrip().startswith("[") else cap(n)
                     for n, e in (rules.spec.data.get("names") or {}).items()})
        said.update(self.terms)
        self.said = said
        self.say = Phraser(said, rules.spec.options)
        t = self.terms
        self.declarer = t.get("declarer", "the declarer")
        self.defenders = t.get("defenders", "the defenders")
        self.defender = t.get("defender", "defender")
        self.partner = t.get("partner", "the partner")
        self.pool = t.get("pool", "the pool")
        self.sitter = "sitting out"
        self.each_further = "each further one"

    def know(self, known: dict[str, Any]) -> None:
        """Names whose value is fixed in every deal (a mechanic no contract has), and then every `let` whose
        expression the options and those names fix: the rulebook leaves out what they switch off."""
        from ..explain.fold import KNOWN, const, fold, is_const, value
        from ..lang.compiler import parse

        data = self.rules.spec.data
        lets = {**(data.get("let") or {}), **((data.get("scoring") or {}).get("let") or {})}
        known = dict(known)
        changed = True
        while changed:
            changed = False
            opts = {**self.rules.spec.options, KNOWN: known}
            for name, expr in lets.items():
                if name in known:
                    continue
                t = const(expr) if expr is None or isinstance(expr, (bool, int)) else fold(parse(str(expr)), opts)
                if is_const(t):
                    known[name] = value(t)
                    changed = True
        self.say.options = {**self.rules.spec.options, KNOWN: known}

    def phraser(self, **words: str) -> Phraser:
        """The variant's phraser with some names said otherwise (`choice` as `the suit`, `bidder` as `he`)."""
        return Phraser({**self.said, **words}, self.say.options)

    # -- names ------------------------------------------------------------------------------------
    def outcome(self, name: str) -> str:
        """An outcome's words: its term, else its name with spaces."""
        return self.terms.get(name, name.replace("_", " "))

    def contract(self, c: Any) -> str:
        return str(c.title)

    def contract_named(self, name: str) -> str:
        c = self.rules.contract_by_name.get(str(name))
        return c.title if c is not None else str(name).replace("_", " ")

    def seats(self, expr: Any) -> str:
        """The payer or payee of a step: `the Ombre`, or `each of the defenders`."""
        return self.say(expr) if str(expr) in SINGLE_SEATS else f"each of {self.say(expr)}"

    # -- the seats of one deal ----------------------------------------------------------------------
    def position(self, seat: int, dealer: int, playing: list[int]) -> str:
        """A seat by its place from the dealer: forehand, second hand, …, the dealer, or sitting out."""
        if seat not in playing:
            return "the dealer, sitting out" if seat == dealer else "sitting out"
        if seat == dealer:
            return "the dealer"
        i = playing.index(seat)
        return "forehand" if i == 0 else f"{ORDINALS[i]} hand"

    # -- notes of a schedule's cases ------------------------------------------------------------------
    def stopped(self, k: int) -> str:
        return f"stopped after winning the first {k}"

    def committed(self) -> str:
        return "played on for every trick"

    def conceded(self) -> str:
        return "gave up"

    def passed(self, i: int) -> str:
        """The i-th defender to decide passed (-1: every one did)."""
        return "every defender passed" if i < 0 else f"a defender passed (the {ORDINALS[i]} to decide)"

    def invited(self) -> str:
        return "the last defender invited the others"

    def taken(self) -> str:
        return (f"{self.declarer} gave up and a defender took his game over: the tricks of the one who took it, "
                f"of the one who gave it up, then of the other")

    def first(self) -> str:
        return f"{self.declarer} won the first tricks"

    def last(self) -> str:
        return f"{self.declarer} won the last tricks"

    def doubling(self, d: int) -> str:
        return DOUBLING[d]
