"""Expressions in words: walk the parsed tree and give every operator, function and built-in name a phrase.

`phrase("tricks(declarer) > max(tricks(p) for p in defenders)")` →
"the tricks of the declarer are more than the largest of the tricks of p, for each p of the defenders".
"""
from __future__ import annotations

from typing import Any

from lark import Tree

from .evaluate import parse

# built-in names of the language (context variables), in words
VARS: dict[str, str] = {
    "card": "the card", "led_card": "the card led", "led_suit": "the suit led", "trump": "the trump suit",
    "dealer": "the dealer", "forehand": "forehand", "players": "the players", "sitters": "the seats sitting out",
    "declarer": "the declarer", "defenders": "the defenders", "contract": "the contract",
    "committed": "the declarer is committed to take every trick", "stopped": "the declarer stopped on his claim",
    "conceded": "the deal was conceded", "pool": "the pool", "trump_order": "the trump order",
    "tricks_played": "the tricks played", "partner": "the declarer's partner", "side": "the declarer's side",
    "called": "the called card", "pool_before": "the pool before the ante", "tricks_left": "the tricks left",
    "taken_from": "the seat whose concession was refused and whose game was taken over",
    "high_bid": "the highest bid so far",
    "trick_winners": "the winners of the tricks so far", "table_seats": "the seats at the table",
    "choice": "the choice", "bidder": "the bidder", "seats": "the number of seats",
    "none": "none", "true": "true", "false": "false",
}

# functions: a phrase with {0}, {1}, … for the arguments
FUNCS: dict[str, str] = {
    "max": "the largest of {0}", "min": "the smallest of {0}", "sum": "the sum of {0}",
    "count": "the number of items of {0} that hold", "len": "the size of {0}", "any": "any of {0} holds",
    "all": "all of {0} hold", "prefix_len": "the length of the run from the first of {0} held in {1}",
    "first": "the first of {0}", "group_points": "{0} counted in groups of {1}, less {2} a group",
    "abs": "the absolute value of {0}", "rest": "the items of {0} after the first",
    "card": "the {0} of {1}", "suit": "the suit of {0}",
    "outranks": "{0} beats {1}", "is_trump": "{0} is a trump", "tricks": "the number of tricks of {0}",
    "hand": "the hand of {0}", "final_hand": "the hand of {0} when play began",
    "dealt_hand": "the hand dealt to {0}", "holder": "the holder of {0}", "won": "the cards {0} won",
    "points": "the total of the card points {0} won", "play_holder": "who held {0} when play began",
    "pile": "the pile of {0}", "discards": "the cards {0} laid away", "score": "the session score of {0}",
    "early_tricks": "the number of the first {1} tricks that {0} won",
}

# operators: comparisons, arithmetic, logic
COMPARE: dict[str, str] = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
                           ">": "is more than", ">=": "is at least", "in": "is among", "not in": "is not among"}
ARITH: dict[str, str] = {"+": "plus", "-": "minus", "*": "times", "//": "divided by (rounded down)",
                         "%": "modulo"}
LOGIC: dict[str, str] = {"and": "{0} and {1}", "or": "{0}, or {1}", "not": "not ({0})",
                         "if": "{0} if {1}, else {2}", "neg": "minus {0}"}
# a function over a generator, in words: {elt}, {var}, {iter}
OVER: dict[str, str] = {"count": "the number of {var} of {iter} for which {elt}",
                        "max": "the largest {bare} for any {var} of {iter}",
                        "min": "the smallest {bare} for any {var} of {iter}",
                        "sum": "the sum of {elt} over every {var} of {iter}",
                        "any": "{elt} for some {var} of {iter}", "all": "{elt} for every {var} of {iter}"}
_LEVEL = {"+": 1, "-": 1, "*": 2, "//": 2, "%": 2}
_LOOSE = ("cond", "compare", "or_", "and_", "not_")  # operands that need brackets inside arithmetic
# the names that stand for one seat (a payment from or to one of them reads "pays", not "each of … pays")
SINGLE_SEATS = frozenset({"declarer", "dealer", "forehand", "partner", "bidder"})
ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


class Phraser:
    """Renders expressions of one variant: its words for names and lets (`terms:`), options by value."""

    def __init__(self, words: dict[str, str] | None = None, options: dict[str, Any] | None = None) -> None:
        self.words = words or {}
        self.options = options or {}

    def __call__(self, expr: Any) -> str:
        if isinstance(expr, bool):
            return "true" if expr else "false"
        if expr is None or isinstance(expr, int):
            return str(expr)
        return self.node(parse(str(expr)))

    def node(self, t: Tree) -> str:
        return getattr(self, "_" + t.data, self._unknown)(t)

    def _unknown(self, t: Tree) -> str:
        return f"unknown <{t.data}>"

    def _name(self, t: Tree) -> str:
        name = str(t.children[0])
        return self.words.get(name) or VARS.get(name) or name

    def _int(self, t: Tree) -> str:
        return str(t.children[0])

    def _string(self, t: Tree) -> str:
        return str(t.children[0])[1:-1]

    def _card(self, t: Tree) -> str:
        return str(t.children[0])

    def _list(self, t: Tree) -> str:
        items = [self.node(x) for x in t.children if x is not None]
        if not items:
            return "nothing"
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    def _for(self, elt: Tree, comp_for: Tree) -> str:
        """A comprehension: `each p of the defenders where …`, or `X, for each p of …`."""
        var, iterable, *conds = comp_for.children
        where = "".join(f" where {self.node(c.children[0])}" for c in conds)
        each = f"each {var} of {self.node(iterable)}{where}"
        if elt.data == "name" and str(elt.children[0]) == str(var):
            return each
        return f"{self.node(elt)}, for {each}"

    def _listcomp(self, t: Tree) -> str:
        return self._for(t.children[0], t.children[1])

    def _cond(self, t: Tree) -> str:
        a, c, b = (self.node(x) for x in t.children)
        return LOGIC["if"].format(a, c, b)

    def _or_(self, t: Tree) -> str:
        return LOGIC["or"].format(*(self.node(x) for x in t.children))

    def _and_(self, t: Tree) -> str:
        return LOGIC["and"].format(*(f"({self.node(x)})" if x.data == "or_" else self.node(x) for x in t.children))

    def _not_(self, t: Tree) -> str:
        return LOGIC["not"].format(self.node(t.children[0]))

    def _neg(self, t: Tree) -> str:
        return LOGIC["neg"].format(self.node(t.children[0]))

    def _compare(self, t: Tree) -> str:
        out = [self.node(t.children[0])]
        for i in range(1, len(t.children), 2):
            op = " ".join(str(x) for x in t.children[i].children)
            out += [COMPARE[op], self.node(t.children[i + 1])]
        return " ".join(out)

    def _binop(self, t: Tree) -> str:
        a, op, b = t.children
        level = _LEVEL[str(op)]
        left, right = self.node(a), self.node(b)
        if a.data in _LOOSE or a.data == "binop" and _LEVEL[str(a.children[1])] < level:
            left = f"({left})"
        if b.data in _LOOSE or b.data == "binop" and _LEVEL[str(b.children[1])] <= level:
            right = f"({right})"
        return f"{left} {ARITH[str(op)]} {right}"

    def _index(self, t: Tree) -> str:
        xs, i = t.children
        if i.data == "int" and int(str(i.children[0])) < len(ORDINAL):
            return f"the {ORDINAL[int(str(i.children[0]))]} of {self.node(xs)}"
        return f"item {self.node(i)} (from 0) of {self.node(xs)}"

    def _attr(self, t: Tree) -> str:
        obj, attr = t.children
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "opt":
            value = self.options.get(str(attr))
            return f"option {attr}" + (f" ({value})" if str(attr) in self.options else "")
        return f"the {attr} of {self.node(obj)}"

    def _call(self, t: Tree) -> str:
        callee, arguments = t.children
        fname = str(callee.children[0])
        template = FUNCS.get(fname)
        if template is None:
            return f"unknown function {fname}"
        if arguments is None:
            args: list[str] = []
        elif arguments.data == "genexp":
            elt, comp = arguments.children
            var, iterable, *conds = comp.children
            if fname in OVER and not conds:
                text = self.node(elt)
                bare = text[4:] if text.startswith("the ") else text
                return OVER[fname].format(elt=text, bare=bare, var=var, iter=self.node(iterable))
            args = [self._for(elt, comp)]
        else:
            args = [self._arg(x) for x in arguments.children if x is not None]
            if len(args) > 1 and "{1}" not in template:  # max(a, b, c): one phrase over all the values
                args = [", ".join(args[:-1]) + " and " + args[-1]]
        return template.format(*args)

    def _arg(self, t: Tree) -> str:
        text = self.node(t)
        return f"({text})" if t.data in ("cond", "or_", "and_", "binop") else text


def phrase(expr: Any, words: dict[str, str] | None = None, options: dict[str, Any] | None = None) -> str:
    """An expression in words (with the variant's words for its names, and option values when known)."""
    return Phraser(words, options)(expr)
