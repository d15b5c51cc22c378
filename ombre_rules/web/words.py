"""The game explained at the table, in the variant file's own words: a line for each bid, contract, phase and
outcome (the file's `doc:`, else the rulebook's sentence for it), the rulebook section of each phase, cards as
a person reads them (rank and suit symbol; rank and suit in full words for a screen reader), and why a deal
ended as it did.

Nothing here names a game: every word comes from the variant file (its `doc:`s, `terms:`, `deck.rank_names`,
the suits' names and symbols), from the rulebook built from it, or describes a mechanic of the engine."""
from __future__ import annotations

import re
import weakref
from typing import Any

from lark import Tree

from ..envs import DealEnv
from ..errors import OmbreError
from ..explain.account import terms
from ..explain.evaluate import Evaluator, parse
from ..explain.phrase import phrase
from ..ruleset import Ruleset

# what each phase asks for, whatever the game (the rulebook's section for it follows)
PHASES = {
    "auction": "The bidding: each seat in turn bids a contract or passes.",
    "raise": "The winner of the bidding may raise his bid to a higher contract.",
    "declare": "The winner of the bidding names his contract.",
    "trump": "The declarer names the trump suit.",
    "exchange": "The exchange: each in turn puts cards away and draws as many from the talon.",
    "lay-away": "Cards are laid away: they stay the seat's, face down.",
    "call": "The declarer calls a card; its holder becomes his partner.",
    "give": "A card changes hands.",
    "demand": "The declarer asks for a card.",
    "announce": "The declarer may announce a higher contract now.",
    "surrender": "The declarer may give the game up.",
    "takeover": "The game was given up: a player may take it over and play it himself, with a new exchange.",
    "defend": "Each defender says whether he plays against the declarer.",
    "double": "A seat may double (or redouble) the stakes.",
    "play": "The tricks: each in turn plays a card; the best card wins the trick.",
    "consent": "The others agree to the proposal, or refuse it.",
    "done": "The deal is over: its result says who won, why, and who pays whom.",
}
VERBS = {
    "pass": "Bid nothing now.", "hold": "Match the bid made and keep it (an earlier seat holds).",
    "draw": "Take from the talon as many cards as were put away.", "cede": "Let the next defender exchange first.",
    "stop": "Stop now and take the game as it stands.", "concede": "Give the game up.",
    "take_over": "Take the game given up over and play it yourself.",
    "accept": "Agree.", "refuse": "Do not agree.", "continue": "Play on.", "follow": "Play with the declarer.",
    "invite": "Ask another to play along.", "double": "Double the stakes.", "redouble": "Double them again.",
}
_CACHE: weakref.WeakKeyDictionary[Ruleset, Words] = weakref.WeakKeyDictionary()


class Words:
    """The words of one ruleset, worked out once."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        data = rules.spec.data
        deck = rules.deck
        self.terms = terms(rules)
        ranks = {str(k): str(v) for k, v in ((data.get("deck") or {}).get("rank_names") or {}).items()}
        self.faces: dict[str, str] = {}  # card name -> rank and suit symbol, as printed on it
        self.spoken: dict[str, str] = {}  # card name -> what a screen reader says
        for c in deck.cards:
            sym = str(c.suit.attrs.get("symbol") or "")
            self.faces[c.name] = f"{c.rank}{sym}" if sym else c.name
            self.spoken[c.name] = f"{ranks.get(str(c.rank), str(c.rank))} of {c.suit.name.replace('_', ' ')}"
        names = sorted(self.faces, key=len, reverse=True)
        self._cards = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, names)) + r")(?![\w])") if names else None
        self.sections, self.contracts, self.outcomes, self.lines = _from_book(rules)

    def symbols(self, text: str) -> str:
        """A text with every card name written as rank and suit symbol."""
        return self._cards.sub(lambda m: self.faces[m.group(1)], text) if self._cards else text

    def section(self, phase: str, contract: str | None) -> str | None:
        """The rulebook's section (its anchor) for a phase of a deal with this contract."""
        keys = [f"contract.{contract}"] if contract else []
        order = {"auction": ["auction"], "raise": ["auction"], "declare": ["auction"],
                 "lay-away": [*keys, "deal"], "defend": ["defence", "play"], "double": ["defence", "play"],
                 "play": ["play"], "consent": ["play"], "surrender": [*keys, "play"], "takeover": [*keys, "play"],
                 "done": ["outcomes", "scoring"]}.get(phase, [*keys, "auction"])
        return next((anchor(k) for k in order if k in self.sections), None)

    def phase(self, phase: str, contract: str | None, declarer: bool = False) -> str:
        """A phase in a line: what it asks for and the file's rule for it (the bidding: the file's alone; the
        exchange: the rule for the declarer when he is to move, else the defenders')."""
        if phase == "auction" and self.lines.get("auction"):
            return self.lines["auction"]
        side = "declarer" if declarer else "defenders"
        own = self.lines.get(f"exchange.{contract}.{side}") if phase == "exchange" else self.lines.get(phase)
        return " ".join(x for x in (PHASES.get(phase, ""), own) if x)

    def control(self, verb: str, arg: str) -> str:
        """A line on what a control does: a bid's contract, a verb's meaning."""
        if verb == "bid":
            return self.contracts.get(arg, "")
        if verb == "trump" and arg:
            return f"Make {arg.replace('_', ' ')} the trump suit."
        return VERBS.get(verb, "")


def words(rules: Ruleset) -> Words:
    w = _CACHE.get(rules)
    if w is None:
        w = _CACHE[rules] = Words(rules)
    return w


def anchor(key: str) -> str:
    """A rulebook section's anchor (as the rulebook writes it)."""
    from ..book.markdown import anchor as book_anchor

    return book_anchor(key)


def _sentence(text: str) -> str:
    text = text.strip()
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".") if text else ""


def _from_book(rules: Ruleset) -> tuple[set[str], dict[str, str], dict[str, str], dict[str, str]]:
    """From the rulebook (without the parts that play deals): its section keys, a line per contract (bid) and
    per outcome, and the first rule of the auction, the play and each contract's exchange."""
    from ..book.build import build

    try:
        book = build(rules, options=False, examples=False, payments=False)
    except OmbreError:  # a file whose rulebook cannot be made is played without these lines
        return set(), {}, {}, {}
    data = rules.spec.data
    sections = {s.key: s for s in book.sections}
    contracts, outcomes, lines = {}, {}, {}
    for c in rules.contracts:
        base = c.base or c
        s = sections.get(f"contract.{base.name}")
        doc = ((data["contracts"].get(base.name) or {}).get("doc")) if isinstance(data["contracts"], dict) else None
        items = [i for i in (s.items if s else []) if getattr(i, "text", None)]
        said = [i.text for i in items if i.key.rsplit(".", 1)[-1] in ("trump", "declarer", "doc")]
        value = " ".join(x for x in (f"Level {c.level}." if c.biddable else "",
                                     f"Worth {c.value}." if c.value else "") if x)
        contracts[c.name] = " ".join(x for x in ([_sentence(doc)] if doc else list(map(_sentence, said[:2])))
                                     + [value] if x)
        for i in items:
            if ".exchange." in i.key:
                side = "declarer" if i.key.endswith(".exchange.declarer") else "defenders"
                lines[f"exchange.{c.name}.{side}"] = _sentence(i.text)
    follow = (data.get("play") or {}).get("follow") or []
    if follow and isinstance(follow[0], dict) and follow[0].get("doc"):
        lines["play"] = _sentence(str(follow[0]["doc"]))
    for key, first in (("auction", "auction.form"), ("table", "table.sit_out")):
        s = sections.get(key)
        hit = next((i.text for i in (s.items if s else []) if getattr(i, "key", "") == first), None)
        if hit:
            lines["sit_out" if key == "table" else key] = _sentence(hit)
    named = [o for o in data.get("outcomes") or [] if isinstance(o, dict) and o.get("name")]
    for o in named:  # an outcome's line, when one entry of the list gives it
        if sum(1 for x in named if x["name"] == o["name"]) == 1:
            outcomes[o["name"]] = _sentence(str(o.get("doc") or ""))
    return set(sections), contracts, outcomes, lines


def _names_in(t: Tree) -> list[str]:
    out = [str(t.children[0])] if t.data == "name" else []
    for c in t.children:
        if isinstance(c, Tree):
            out += [n for n in _names_in(c) if n not in out]
    return out


def outcome_reason(state: Any) -> str:
    """Why a finished deal has its outcome: the outcome's `doc:`, else the condition that decided it, in words,
    with the values it read (`the declarer's tricks (3) is the most tricks of a defender (3)`)."""
    res = state.result
    rules = state.rules
    if res is None or res.contract is None:
        return ""
    w = words(rules)
    contract = rules.contract_by_name.get(res.contract)
    node: Any = rules.spec.data
    for k in (contract.outcomes_path if contract is not None else ("outcomes",)):
        node = node.get(k) if isinstance(node, dict) else None
    try:
        ev = Evaluator(rules, DealEnv(state, state.ctx))
        for name, expr in (rules.spec.data.get("let") or {}).items():
            ev.local[name] = ev.value(expr)
        read: list[str] = []  # the names the conditions read, in order
        for o in node or []:
            when = o.get("when")
            if when is not None:
                read += [n for n in _names_in(parse(str(when))) if n not in read]
                if not ev.value(when):
                    continue
            if o.get("name") != res.outcome:
                return ""
            own = _names_in(parse(str(when))) if when is not None else []
            ints = [n for n in own if isinstance(ev.local.get(n), int)] or \
                [n for n in read if isinstance(ev.local.get(n), int)]  # else the values the others read
            shown = [f"{w.terms.get(n, n)}: {ev.local[n]}" for n in ints]
            values = f" ({', '.join(shown)})" if shown else ""
            if o.get("doc"):
                return _sentence(str(o["doc"]))[:-1] + values + "."
            if when is None:
                before = [b for b in node if b.get("when") is not None and b.get("name") != res.outcome]
                if len(before) == 1:  # the one outcome it is not: what that one needs
                    needs = phrase(before[0]["when"], w.terms, rules.spec.options)
                    return f"{before[0]['name'].replace('_', ' ').capitalize()} needs {needs}{values}."
                return f"None of the other outcomes' conditions held{values}."
            return _sentence(phrase(when, w.terms, rules.spec.options))[:-1] + values + "."
    except Exception:  # noqa: BLE001 - a reason that cannot be worked out is left out, never an error
        return ""
    return ""
