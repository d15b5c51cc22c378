"""Expressions in words: walk the parsed tree and give every operator, function and built-in name a phrase.

`phrase("tricks(declarer) > max(tricks(p) for p in defenders)")` →
"the tricks of the declarer are more than the largest of the tricks of p, for each p of the defenders".
"""
from __future__ import annotations

from typing import Any

from lark import Tree

from .evaluate import parse
from .fold import fold

# built-in names of the language (context variables), in words
VARS: dict[str, str] = {
    "card": "the card", "led_card": "the card led", "led_suit": "the suit led", "trump": "the trump suit",
    "winning_card": "the card winning the trick so far",
    "dealer": "the dealer", "forehand": "forehand", "players": "the players", "sitters": "the seats sitting out",
    "declarer": "the declarer", "defenders": "the defenders", "contract": "the contract",
    "committed": "the declarer is committed to take every trick", "stopped": "the declarer stopped on his claim",
    "conceded": "the deal was conceded", "pool": "the pool", "trump_order": "the trump order",
    "tricks_played": "the tricks played", "partner": "the declarer's partner", "side": "the declarer's side",
    "called": "the called card", "pool_before": "the pool before the ante", "tricks_left": "the tricks left",
    "taken_from": "the seat whose game was taken over after it gave up",
    "talon_size": "the number of cards left in the talon",
    "high_bid": "the highest bid so far",
    "trick_winners": "the winners of the tricks so far", "table_seats": "the seats at the table",
    "choice": "the choice", "bidder": "the bidder", "seats": "the number of seats",
    "deals_played": "the number of deals played", "turn_up": "the card turned for the deal",
    "payer": "the payer", "payee": "the payee", "went_alone": "the declarer went alone",
    "exchanger": "the exchanging player",
    "none": "none", "true": "true", "false": "false",
}

# functions: a phrase with {0}, {1}, … for the arguments
FUNCS: dict[str, str] = {
    "max": "the largest of {0}", "min": "the smallest of {0}", "sum": "the sum of {0}",
    "count": "the number of items of {0} that hold", "len": "the number of {0}", "any": "any of {0} holds",
    "all": "all of {0} hold", "prefix_len": "how many of {0}, from the first on without a gap, are in {1}",
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
        return self.node(self.tree(expr))

    def tree(self, expr: Any) -> Tree:
        """The expression's tree with the options put in (a YAML value: a constant node)."""
        if expr is None or isinstance(expr, (bool, int)):
            return Tree("const", [expr])
        return fold(parse(str(expr)), self.options)

    def fixed(self, expr: Any) -> tuple[bool, Any]:
        """(True, value) when the options fix the expression's value, else (False, None)."""
        t = self.tree(expr)
        return (True, t.children[0]) if t.data == "const" else (False, None)

    def _const(self, t: Tree) -> str:
        v = t.children[0]
        if v is True or v is False:
            return "true" if v else "false"
        if v is None or v == "" or v == []:
            return "none" if v is None else "nothing"
        if isinstance(v, int) and v < 0:
            return f"minus {-v}"
        return str(v)

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
        a, c, b = t.children
        if _is_none_test(c, "!=") and c.children[0] == a:  # `x if x != none else y`: x, or else y
            return f"{self.node(a)} (or {self.node(b)} if there is none)"
        return LOGIC["if"].format(self.node(a), self.node(c), self.node(b))

    def _or_(self, t: Tree) -> str:
        return LOGIC["or"].format(*(self.node(x) for x in t.children))

    def _and_(self, t: Tree) -> str:
        return LOGIC["and"].format(*(f"({self.node(x)})" if x.data == "or_" else self.node(x) for x in t.children))

    def _not_(self, t: Tree) -> str:
        inner = t.children[0]
        if inner.data == "call" and str(inner.children[0].children[0]) == "outranks" and inner.children[1] is not None:
            x, y = (self.node(k) for k in inner.children[1].children[:2])
            return f"{x} does not beat {y}"
        return LOGIC["not"].format(self.node(inner))

    def _neg(self, t: Tree) -> str:
        return LOGIC["neg"].format(self.node(t.children[0]))

    def _compare(self, t: Tree) -> str:
        if len(t.children) == 3:
            special = self._compare_pair(*t.children)
            if special:
                return special
        out = [self.node(t.children[0])]
        for i in range(1, len(t.children), 2):
            op = " ".join(str(x) for x in t.children[i].children)
            out += [COMPARE[op], self.node(t.children[i + 1])]
        return " ".join(out)

    def _compare_pair(self, a: Tree, op_node: Tree, b: Tree) -> str:
        """Comparisons that read better said another way: `x in hand(p)` (p holds x), `x != none` (there is x),
        `holder(x) == none` (nobody holds x)."""
        op = " ".join(str(x) for x in op_node.children)
        if op in ("in", "not in") and b.data == "call" and str(b.children[0].children[0]) in HELD:
            args = b.children[1]
            if args is not None and args.data == "args" and len(args.children) == 1:
                who, card = self.node(args.children[0]), self.node(a)
                verb = HELD[str(b.children[0].children[0])]
                return f"{who} {verb[0] if op == 'in' else verb[1]} {card}"
        if op in ("==", "!=") and _is_none(b):
            if a.data == "call" and str(a.children[0].children[0]) == "holder":
                card = self.node(a.children[1].children[0])
                return f"{'nobody' if op == '==' else 'somebody'} holds {card}"
            what = self.node(a)
            what = what[4:] if what.startswith("the ") else what
            return f"there is {'no' if op == '==' else 'a'} {what}"
        if op in ("in", "not in") and b.data in ("name", "list"):
            return f"{self.node(a)} is {'' if op == 'in' else 'not '}one of {self.node(b)}"
        return ""

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
        k = i.children[0] if i.data in ("int", "const") and isinstance(i.children[0], (int, str)) else None
        if k is not None and 0 <= int(k) < len(ORDINAL):
            return f"the {ORDINAL[int(k)]} of {self.node(xs)}"
        if i.data == "const" and i.children[0] == -1 or i.data == "neg" and i.children[0].data == "int" \
                and str(i.children[0].children[0]) == "1" or i.data == "binop" and str(i.children[1]) == "-" \
                and i.children[2].data in ("int", "const") and str(i.children[2].children[0]) == "1" \
                and i.children[0].data == "call" and str(i.children[0].children[0].children[0]) == "len" \
                and i.children[0].children[1] is not None and i.children[0].children[1].children[0] == xs:
            return f"the last of {self.node(xs)}"
        return f"item {self.node(i)} (from 0) of {self.node(xs)}"

    def _attr(self, t: Tree) -> str:
        obj, attr = t.children
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "opt":
            return f"the chosen {str(attr).replace('_', ' ')}"
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "session":
            return self.words.get(str(attr)) or f"the {str(attr).replace('_', ' ')}"
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "contract" \
                and str(attr) in self.words:
            return self.words[str(attr)]
        return f"the {self.words.get(str(attr), str(attr).replace('_', ' '))} of {self.node(obj)}"

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
            held = self._held_over(fname, elt, var, iterable) if not conds else ""
            if held:
                return held
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

    def _held_over(self, fname: str, elt: Tree, var: Any, iterable: Tree) -> str:
        """`all(x in hand(p) for x in xs)`: p holds all of xs (and `any`: one of them)."""
        if fname not in ("all", "any") or elt.data != "compare" or len(elt.children) != 3:
            return ""
        a, op, b = elt.children
        if " ".join(str(x) for x in op.children) != "in" or a.data != "name" or str(a.children[0]) != str(var) \
                or b.data != "call" or str(b.children[0].children[0]) not in HELD or b.children[1] is None:
            return ""
        who = self.node(b.children[1].children[0])
        verb = HELD[str(b.children[0].children[0])][0]
        return f"{who} {verb} {'all of' if fname == 'all' else 'one of'} {self.node(iterable)}"

    def _arg(self, t: Tree) -> str:
        text = self.node(t)
        return f"({text})" if t.data in ("cond", "or_", "and_", "binop") else text


# `x in hand(p)` and the like: what p does with x (holds, does not hold)
HELD = {"hand": ("holds", "does not hold"), "final_hand": ("held when play began", "did not hold when play began"),
        "dealt_hand": ("was dealt", "was not dealt")}


def _is_none(t: Any) -> bool:
    return isinstance(t, Tree) and (t.data == "const" and t.children[0] is None
                                    or t.data == "name" and str(t.children[0]) == "none")


def _is_none_test(t: Any, op: str) -> bool:
    """Whether a node is `x OP none`."""
    return isinstance(t, Tree) and t.data == "compare" and len(t.children) == 3 \
        and " ".join(str(x) for x in t.children[1].children) == op and _is_none(t.children[2])


def phrase(expr: Any, words: dict[str, str] | None = None, options: dict[str, Any] | None = None) -> str:
    """An expression in words (with the variant's words for its names, and option values when known)."""
    return Phraser(words, options)(expr)
