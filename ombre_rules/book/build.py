"""Build a variant's rulebook (the model in `model.py`) from its resolved and compiled Ruleset. Every
game-specific word comes from the file: its `doc:` lines, `terms:`, names, or its expressions rendered."""
from __future__ import annotations

import re
from typing import Any

from ..envs import name_attr
from ..errors import SpecError, did_you_mean
from ..explain.account import step_label, terms
from ..explain.phrase import SINGLE_SEATS, Phraser
from ..explain.why import follow_items, obligation_text
from ..spec.resolve import fmt_value
from .model import Book, Section

TRUMP_MODES = {"named": "the declarer names trumps", "turned": "trumps are the suit of the card turned from the talon",
               "none": "no trumps", "called": "the declarer calls a card first; its holder names trumps",
               "first_lead": "trumps are the suit of the first card led"}
LEFTOVER = {"hidden": "nobody sees the talon cards nobody drew",
            "last_exchanger": "the last to exchange sees the talon cards nobody drew",
            "all": "the talon cards nobody drew are shown to all"}
ALL_PASS = {"redeal": "the cards are dealt again", "force": "a seat is made to play",
            "auction": "a further round of bids follows"}


def show(v: Any) -> str:
    """A value of the deal in words: a card or suit by name, a list of them, none as a dash."""
    if v is None:
        return "—"
    if isinstance(v, (list, tuple)):
        return " ".join(show(x) for x in v) or "—"
    return str(getattr(v, "name", v))


class Builder:
    """Writes the sections of one ruleset's book."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.data = rules.spec.data
        self.say = Phraser(terms(rules), rules.spec.options)
        self.book = Book(rules.title, rules.variant,
                         sources={s["tag"]: s["cite"] for s in self.data.get("sources") or []})

    def sentence(self, node: Any, expr: Any) -> str:
        """A rule's words: the `doc:` its YAML node gives, else its expression rendered."""
        doc = node.get("doc") if isinstance(node, dict) else None
        return str(doc) if doc else self.say(expr)

    # -- sections ---------------------------------------------------------------------------------
    def table(self) -> None:
        r, s = self.rules, self.book.section("table", "The table")
        s.rule("players", f"{r.players} seats at the table.")
        s.rule("active", f"{r.active} of them play each deal.")
        s.rule("direction", f"Play goes {self.data.get('direction', 'counterclockwise')}; seats are numbered in the "
                            f"order of play, and forehand is the seat after the dealer.")
        so = self.data.get("sit_out")
        if so:
            s.rule("sit_out", "Sitting out each deal: " + self.sentence(so, so["who"]) + ".", so["who"])

    def pack(self) -> None:
        deck, s = self.rules.deck, self.book.section("pack", "The pack")
        keys = sorted({k for su in deck.suits for k in su.attrs if k not in ("ranks", "points")})
        s.table("suits", "Suits", ["suit", "letter"] + keys,
                [[su.name, su.letter] + [show(su.attrs.get(k)) for k in keys] for su in deck.suits])
        s.rule("size", f"{deck.size} cards: " + ", ".join(
            f"{su.name} {' '.join(c.rank for c in deck.cards if c.suit is su)}" for su in deck.suits) + ".")
        points: dict[int, list[str]] = {}
        for c in deck.cards:
            points.setdefault(c.points, []).append(c.name)
        if set(points) != {0}:
            s.table("points", "Card points", ["points", "cards"],
                    [[str(p), " ".join(points[p])] for p in sorted(points, reverse=True)])

    def contexts(self) -> list[tuple[str, Any]]:
        """The (ranking, trump suit or None) contexts some contract is played in, in a fixed order."""
        out: list[tuple[str, Any]] = []
        for c in self.rules.contracts:
            for t in self.rules.trump_choices(c):
                if (c.ranking, t) not in out:
                    out.append((c.ranking, t))
        return sorted(out, key=lambda k: (k[0], k[1].index if k[1] is not None else 99))

    @staticmethod
    def context_label(ranking: str, trump: Any) -> str:
        what = f"trumps {trump.name}" if trump is not None else "no trumps"
        return f"{what} (ranking {ranking})" if ranking else what

    def names(self) -> None:
        names = self.data.get("names") or {}
        if not names:
            return
        s = self.book.section("names", "Named cards")
        ctxs = [k for k in self.contexts() if k[1] is not None] or self.contexts()
        rows = []
        for name, expr in names.items():
            rows.append([name, str(expr)] + [show(self.rules.context(*k).names.get(name_attr(name))) for k in ctxs])
            s.rule(f"name.{name}", f"{self.say.words.get(name, name)}: {self.say(expr)}", expr)
        s.table("names", "What each name is, by trump suit", ["name", "expression"]
                + [self.context_label(*k) for k in ctxs], rows)

    def ranks(self) -> None:
        s = self.book.section("ranks", "Rank of the cards")
        s.rule("order", "In each table the cards run from the highest to the lowest; a trump beats every "
                        "plain card, and a plain card wins only in the suit led.")
        deck = self.rules.deck
        for ranking, trump in self.contexts():
            ctx = self.rules.context(ranking, trump)
            rows = []
            if trump is not None:
                rows.append(["trumps", " ".join(deck.name(c) for c in ctx.trump_order)])
            for su in deck.suits:
                cards = [c for c in range(deck.size) if ctx.eff[c] == su.index and not ctx.trump_mask >> c & 1]
                cards.sort(key=lambda c: -ctx.power[c])
                if cards:
                    rows.append([su.name, " ".join(deck.name(c) for c in cards)])
            label = self.context_label(ranking, trump)
            s.table(f"ctx.{label}", label, ["suit", "high to low"], rows)

    def deal(self) -> None:
        d, s = self.data["deal"], self.book.section("deal", "The deal")
        r = self.rules
        dealt = r.active * sum(d["packets"])
        talon = r.deck.size - dealt if d.get("talon", "rest") == "rest" else int(d["talon"])
        s.rule("packets", f"The dealer gives each seat in play {sum(d['packets'])} cards in packets of "
                          f"{', '.join(map(str, d['packets']))}, from forehand on; {talon} cards form the talon.")

    def auction(self) -> None:
        a, s = self.data["auction"], self.book.section("auction", "The auction")
        form = "in duels: the first two in order bid against each other, the survivor then against the next" \
            if a.get("form") == "duel" else "in rotation: each seat bids or passes, and a pass is final"
        s.rule("form", f"Bidding goes {form}; {self.say(a.get('first', 'forehand'))} speaks first.",
               a.get("first", ""))
        if a.get("hold", "earlier_seat") == "earlier_seat":
            s.rule("hold", "An earlier seat may hold (match) a later seat's bid and keep it.")
        else:
            s.rule("hold", "Nobody may hold: each bid must be higher than the last.")
        for key, text in (("auto_pass", "A seat whose only choice is to pass passes by itself."),
                          ("raise", "The winner of the auction may then name a higher contract.")):
            if a.get(key):
                s.rule(key, text)
        if a.get("raise") and a.get("raise_when"):
            s.rule("raise_when", f"He may raise when {self.say(a['raise_when'])}.", a["raise_when"])
        if a.get("raise") and a.get("raise_after_turn"):
            s.rule("raise_after_turn", "When his bid turns its trump, the card is turned first, for every seat to "
                                       "see, and he decides after it.")
        if a.get("jumps") is False:
            s.rule("jumps", "Only the next level above the high bid may be bid.")
        if a.get("suit_order"):
            s.rule("suit_order", f"Bids of one level in a suit rank, lowest first: {', '.join(a['suit_order'])}.")
        if a.get("contract_choice", "bid") != "bid":
            s.rule("contract_choice", "The winner announces his contract after the auction: "
                   + ("one of exactly the level held." if a["contract_choice"] == "level"
                      else "any biddable contract of the winning level or higher."))
        if a.get("opening"):
            o = a["opening"]
            s.rule("opening", f"Before anyone speaks, {self.say(o.get('seat', 'forehand'))} is taken to bid "
                              f"{o['contract']}.", o.get("seat", ""))
        if a.get("forced"):
            f = a["forced"]
            s.rule("forced", f"A seat whose bid of {f['bid']} is overcalled by {', '.join(f['by'])} may only pass "
                             f"or take the high bid over.")
        if a.get("final"):
            s.rule("final", f"A bid of {', '.join(a['final'])} ends the auction at once.")
        ap = a.get("all_pass") or {"then": "redeal"}
        branches = ap if isinstance(ap, list) else [ap]
        for i, b in enumerate(branches):
            head = "When every seat but the forced one has passed, without a bid, " if b.get("others_passed") \
                else "When all pass, " if i == 0 else "Otherwise, "
            text = head + (f"if {self.say(b['when'])}, " if b.get("when") else "") + ALL_PASS[b["then"]]
            if b.get("who"):
                text += f": {self.say(b['who'])}"
            if b.get("contract"):
                text += f", {'offered' if b.get('may_pass') else 'playing'} {b['contract']}"
            if b.get("contracts"):
                text += f", of {', '.join(b['contracts'])}" + (" (he may pass)" if b.get("may_pass") else "")
            key = "all_pass" if len(branches) == 1 else f"all_pass.{i}"
            s.rule(key, self.sentence(b, "") if b.get("doc") else text + ".", b.get("when") or b.get("who", ""))
        if len(branches) > 1 and branches[-1]["then"] != "redeal":
            s.rule("all_pass.else", "Otherwise the cards are dealt again.")
        rows = [[c.name, c.title, str(c.level) if c.biddable else "—", str(c.value), self.trump_words(c)]
                for c in sorted(self.rules.contracts, key=lambda c: (not c.biddable, c.level, c.sub, c.index))]
        s.table("ladder", "The contracts, lowest bid first", ["contract", "title", "level", "value", "trumps"], rows)

    def trump_words(self, c: Any) -> str:
        if c.trump_mode == "fixed":
            return f"trumps are {show(c.fixed_suit)}"
        return TRUMP_MODES.get(c.trump_mode, c.trump_mode) + (" after the exchange" if c.trump_after_exchange else "")

    def contract(self, c: Any) -> None:
        data = self.data["contracts"][c.name] or {}
        s = self.book.section(f"contract.{c.name}", f"Contract: {c.title}")
        if data.get("doc"):
            s.rule("doc", str(data["doc"]))
        how = f"level {c.level} in the auction" if c.biddable else "not bid in the main auction"
        s.rule("value", f"{c.name}: {how}, value {c.value}.")
        bids = [d for d in self.rules.contracts if d.base is c]
        if bids:
            s.rule("suit_bids", self.sentence(data["suit_bids"], "") if data["suit_bids"].get("doc") else
                   "It may also be bid with the suit named, which makes that suit trumps and ranks above the plain "
                   f"bid: {', '.join(f'{d.name} ({d.title})' for d in bids)}"
                   + ("; it is not bid without a suit." if not c.biddable else "."))
            if "bid_when" in data["suit_bids"] and bids[0].bid_when is not None:
                s.rule("suit_bids.bid_when", f"A bid with a suit may be made when {self.say(bids[0].bid_when.text)}.",
                       bids[0].bid_when.text)
        s.rule("trump", self.trump_words(c).capitalize() + ".")
        if c.trump_allowed is not None:
            s.rule("trump_allowed", f"A trump suit may be chosen when {self.say(c.trump_allowed.text)}.",
                   c.trump_allowed.text)
        for key, label in (("bid_when", "It may be bid when"), ("show", "The bidder shows")):
            e = getattr(c, key)
            if e is not None:
                s.rule(key, f"{label} {self.say(e.text)}.", e.text)
        for key, value in (data.get("attrs") or {}).items():
            s.rule(f"attr.{key}", f"{self.say.words.get(key, key)} (contract.{key}): {fmt_value(value)}.")
        if not c.played:
            s.rule("played", "It is settled without play.")
        if not c.holdable:
            s.rule("holdable", "An earlier seat may not hold it.")
        if c.demands:
            s.rule("demand", f"The declarer demands {c.demands} card(s) he lacks, giving one of his own for each.")
        if c.expose is not None:
            s.rule("expose", f"{self.say(c.expose[0].text).capitalize()} lays the hand open "
                             f"({c.expose[1].replace('_', ' ')}).", c.expose[0].text)
        self.exchange(s, c)
        if c.call is not None:
            what = "hands it over for a card of the declarer's choice" if c.call.demand \
                else "becomes his hidden partner until the card is played"
            s.rule("call", f"The declarer calls a card its holder {what}; it may be called when "
                           f"{self.say(c.call.allowed.text)}.", c.call.allowed.text)
        for key, value in (data.get("play") or {}).items():
            s.rule(f"play.{key}", f"In play, {key.replace('_', ' ')}: {self.setting(value)}.",
                   value if isinstance(value, str) else "")
        if tuple(c.outcomes_path) != ("outcomes",):
            outs = self.data
            for k in c.outcomes_path:
                outs = outs[k]
            self.outcome_rules(s, outs)

    def outcome_rules(self, s: Section, outs: list) -> None:
        """The outcomes in order, each with its condition (the first that holds is the deal's)."""
        seen: dict[str, int] = {}
        for o in outs:
            seen[o["name"]] = seen.get(o["name"], 0) + 1
            key = f"outcome.{o['name']}" + (f"#{seen[o['name']]}" if seen[o["name"]] > 1 else "")
            cond = f" when {self.sentence(o, o['when'])}" if "when" in o else " otherwise" if seen != {o["name"]: 1} \
                or len(outs) > 1 else ", always"
            s.rule(key, f"{o['name'].capitalize()}{cond}.", o.get("when", ""))

    def outcomes(self) -> None:
        s = self.book.section("outcomes", "Outcomes")
        s.rule("order", "The outcome of a deal is the first of these whose condition holds, unless the contract "
                        "gives its own.")
        self.outcome_rules(s, self.data["outcomes"])

    def setting(self, value: Any) -> str:
        """A contract's own play setting in words: removed, a value, a list of obligations, or a map."""
        if value is None:
            return "does not apply"
        if isinstance(value, list):
            return "; ".join(obligation_text(self.rules, v) if isinstance(v, dict) else self.say(v) for v in value)
        if isinstance(value, dict):
            return ", ".join(f"{k} {self.setting(v)}" for k, v in value.items()) or "applies"
        return self.say(value)

    def exchange(self, s: Section, c: Any) -> None:
        ex = c.exchange
        big = str(self.rules.deck.size)

        def limits(lim: Any) -> str:
            lo, hi = self.say(lim.min.text), self.say(lim.max.text)
            if hi == "0":
                return "no cards"
            return f"{lo} to {hi if hi != big else 'any number of'} cards" if lo != "0" else \
                f"up to {hi} cards" if hi != big else "any number of cards"

        took = "the whole talon" if ex.take_talon >= self.rules.deck.size else f"{ex.take_talon} cards of the talon"
        s.rule("exchange.declarer", "The declarer " + (f"takes {took} and discards " if ex.take_talon
                                                       else "may change ") + limits(ex.declarer) + ".")
        if ex.defenders and ex.declarer.max.text != "0":
            first = "may cede his turn to the next" if ex.defender_first == "ceded" else "exchanges first"
            s.rule("exchange.first", f"Then the defenders in turn: the first may change {limits(ex.first)} "
                                     f"(the defender after the declarer {first}), the others {limits(ex.other)}; "
                                     f"{LEFTOVER[ex.leftover]}.")
        elif not ex.defenders:
            s.rule("exchange.first", "The defenders do not exchange.")

    def play(self) -> None:
        p, s = self.data.get("play") or {}, self.book.section("play", "Play")
        s.rule("first_leader", f"{self.say(p.get('first_leader', 'forehand')).capitalize()} leads to the first "
                               f"trick; the winner of a trick leads to the next.", p.get("first_leader", ""))
        first = self.rules.contracts[0]
        for i, item in enumerate(follow_items(self.rules, first)):
            text = obligation_text(self.rules, item)
            if item.get("exempt"):
                text += f" — except when {self.say(item['exempt'])}"
            s.rule(f"follow.{i}", f"Obligation {i + 1}: {text}. It binds when the hand holds a card it allows.",
                   item["must"] + (f"; exempt: {item['exempt']}" if item.get("exempt") else ""))
        if p.get("follow_answers") == "highest":
            s.rule("follow_answers", "The obligations answer the highest card of the suit led played so far: a "
                                     "higher card of that suit played after the lead counts as the card led.",
                   "follow_answers: highest")
        if p.get("claim"):
            cl = p["claim"]
            who = "the declarer's side" if cl.get("by") == "side" else "the declarer"
            s.rule("claim", f"After trick {cl['after_trick']}, if {self.sentence(cl, cl['when'])}, {who} may stop "
                            f"(claim the game) or lead on, committing to take every trick.", cl["when"])
        if p.get("concede"):
            co = p["concede"]
            text = f"Before trick {co['before_trick']} the declarer may concede"
            if co.get("when"):
                text += f" when {self.say(co['when'])}"
            if co.get("consent"):
                text += f"; the defenders must agree when {self.say(co['consent'])}"
            if co.get("takeover"):
                text += f"; a defender who refuses becomes the declarer when {self.say(co['takeover'])}"
            s.rule("concede", self.sentence(co, "") if co.get("doc") else text + ".", co.get("when", ""))
        if "surrender" in p and p["surrender"] is not None:
            when = (p["surrender"] or {}).get("when")
            s.rule("surrender", "Before the first lead the declarer may give up" +
                   (f" when {self.say(when)}" if when else "") + ".", when or "")
        if p.get("end_when"):
            s.rule("end_when", f"Play stops after a trick as soon as {self.say(p['end_when'])}.", p["end_when"])
        if p.get("excuse"):
            e = p["excuse"]
            s.rule("excuse", f"{str(e['card']).capitalize()} is an excuse: playable at any time, it never wins a "
                             f"trick and goes back to its owner, who gives the trick's winner a card of his pile.",
                   e["card"])

    def decisions(self) -> None:
        """The steps between the exchange and the first lead: announcement, defenders' decisions, doubling."""
        d = self.data
        keys = ("announce", "defence", "doubling")
        show = (d.get("exchange") or {}).get("show_talon")
        if not show and not any(d.get(k) for k in keys):
            return
        s = self.book.section("defence", "Before play")
        if show:
            s.rule("show_talon", "The talon is shown to every player when the contract is fixed, before it is taken.")
        an = d.get("announce")
        if an:
            names = ", ".join(str(c) for c in an["contracts"])
            when = f" when {self.say(an['when'])}" if an.get("when") else ""
            s.rule("announce", f"After his exchange the declarer may name instead one of {names} of a higher level "
                               f"than his own{when}, or keep his contract; trumps follow the contract named.",
                   an.get("when", ""))
        de = d.get("defence")
        if de:
            when = f" (when {self.say(de['when'])})" if de.get("when") else ""
            text = (f"Once the contract and trumps are fixed{when}, each defender in turn from the seat after the "
                    f"declarer plays (follow) or passes.")
            if de.get("invite"):
                text += (" The last to decide, when every earlier one passed, may invite them to play with him; "
                         + ("an invited defender must play." if de.get("invited_must_accept", True) else
                            "an invited defender accepts or refuses, and after a refusal the inviter decides again."))
            s.rule("defence", text + " A defender who passes lays his hand down and play goes on without him; when "
                                     "none plays, the deal is settled without play.", de.get("when", ""))
        db = d.get("doubling")
        if db:
            lo, hi = db.get("factors", [2, 4])
            who = self.say(db.get("who", "defending"))
            text = f"Before the first lead each of {who} in turn may double (payments times {lo}) until one does"
            if db.get("redouble", True):
                text += f"; the declarer may then redouble (times {hi})"
            s.rule("doubling", text + ".", db.get("when", ""))

    def scoring(self) -> None:
        sc, s = self.data["scoring"], self.book.section("scoring", "Scoring")
        for path, lets in (("let", self.data.get("let")), ("scoring.let", sc.get("let"))):
            for name, expr in (lets or {}).items():
                s.rule(f"{path}.{name}", f"{self.say.words.get(name, name)}: {self.say(expr)}.", expr)
        if sc.get("ante"):
            s.rule("ante", self.step("to_pool", sc["ante"], "ante"), sc["ante"].get("amount", ""))
        for oname, steps in (sc.get("outcomes") or {}).items():
            for j, st in enumerate(steps or []):
                kind = next(iter(st))
                body = st[kind] or {}
                s.rule(f"pay.{oname}.{j}", self.step(kind, body, oname), body.get("amount", ""))
        summary = self.data.get("summary") or {}
        for label, expr in summary.items():
            s.rule(f"summary.{label}", f"Shown at the end: {label}, {self.say(expr)}.", expr)

    def step(self, kind: str, body: dict, default: str) -> str:
        """A payment step in words, under the label the account gives it."""
        label = step_label(body, default)
        if body.get("doc"):
            return f"{label}: {body['doc']}."
        if kind == "set":
            return f"{label}: for the next deal, " + "; ".join(f"the session's {n} becomes {self.say(e)}"
                                                            for n, e in body.items()) + "."
        amount = self.say(body.get("amount", "pool" if kind == "from_pool" else 0))
        if kind == "pay":
            return f"{label}: {self.seats(body.get('from'))} pays {self.seats(body.get('to'))} {amount}."
        if kind == "to_pool":
            return f"{label}: {self.seats(body.get('from', 'players'))} puts {amount} into the pool."
        what = "the pool" if "amount" not in body else f"{amount} from the pool (at most all of it)"
        return f"{label}: {what} goes to {self.say(body.get('to'))}, shared equally (an odd counter stays)."

    def seats(self, expr: Any) -> str:
        """The payer or payee of a step: `the declarer`, or `each of the defenders`."""
        return self.say(expr) if str(expr) in SINGLE_SEATS else f"each of {self.say(expr)}"

    def session(self) -> None:
        se, s = self.data.get("session") or {}, self.book.section("session", "The pool and the session")
        s.rule("pool", f"The pool starts at {se.get('pool', 0)} and carries over from deal to deal.")
        if se.get("deals"):
            s.rule("deals", f"A session is {se['deals']} deals, the deal passing to the next seat each time.")
        for name, d in (se.get("carry") or {}).items():
            what = d.get("doc") or name
            fixed = " It is fixed once set." if d.get("once") else ""
            s.rule(f"carry.{name}", f"Carried from deal to deal: {name}, {what}; it starts as "
                                    f"{d.get('start')!r}.{fixed}", str(d.get("start")))

    def cite(self) -> None:
        """The sources of each section: the tags the file's `cite:` gives it, and any [TAG] in its words."""
        tags = self.book.sources
        cited = self.data.get("cite") or {}
        keys = {s.key for s in self.book.sections} | CITABLE  # a citable section may be left out of this book
        for key in cited:
            if key not in keys:
                raise SpecError(f"cite: unknown section '{key}'{did_you_mean(key, keys)}",
                                self.rules.spec.doc.key_loc(("cite", key)))
        for s in self.book.sections:
            # a tag the sources do not give (a house rule that replaced the sources it extends) is left out
            found = [t for t in cited.get(s.key) or [] if t in tags]
            for item in s.items:
                for tag in re.findall(r"\[([A-Za-z0-9_-]+)\]", getattr(item, "text", "")):
                    if tag in tags and tag not in found:
                        found.append(tag)
            s.sources = found
        if tags:
            src = self.book.section("sources", "Sources", compare=False)
            src.table("sources", "The sources this variant follows", ["tag", "source"],
                      [[t, c] for t, c in tags.items()])


# the sections `cite:` may name in any file, whether or not a book has them (besides each contract.NAME)
CITABLE = frozenset({"table", "pack", "names", "ranks", "deal", "auction", "defence", "play", "outcomes",
                     "scoring", "session", "options"})


def build(rules: Any, options: bool = True, examples: bool = True, effects: bool = True) -> Book:
    """The rulebook of a ruleset; `options=False` leaves out the options section, `effects=False` what each
    choice changes, `examples=False` the worked payments (these cost further loads or deals)."""
    b = Builder(rules)
    b.table()
    b.pack()
    b.names()
    b.ranks()
    b.deal()
    b.auction()
    for c in rules.contracts:
        if c.base is None:  # a suit bid is described with its contract
            b.contract(c)
    b.decisions()
    b.play()
    b.outcomes()
    b.scoring()
    b.session()
    if options:
        from .options import options_section

        options_section(b.book, rules, build, effects)
    if examples:
        from .examples import examples_section

        examples_section(b.book, rules)
    b.cite()
    return b.book
