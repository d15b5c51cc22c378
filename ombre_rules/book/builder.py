"""The rulebook's builder: the state a book is written from (the ruleset, its words and cards, the sections
so far) and the sections of the deal itself — the table, the pack, the names, the ranks and the deal. Every
game-specific word comes from the file. `build.py` puts a whole book together from this and the texts of
`rules_text.py` and `scoring_text.py`."""
from __future__ import annotations

import re
from typing import Any

from ..envs import name_attr
from ..errors import did_you_mean
from ..ruleset.deal import hand_packets
from .cardwords import Cards, suit_name
from .model import Book, Section
from .words import Words, cap, join, plural

CITABLE = frozenset({"table", "pack", "names", "ranks", "deal", "auction", "defence", "play", "outcomes",
                     "scoring", "session", "options"})

DIRECTION = {"counterclockwise": "counter-clockwise (to the right)", "clockwise": "clockwise (to the left)"}
ALL_PASS = {"redeal": "the cards are thrown in and dealt again", "force": "a player must play",
            "auction": "a further round of bidding follows"}


def occurring(rules: Any) -> list[Any]:
    """The contracts a deal can end in: those bid in the main auction, those an all-pass rule forces or offers,
    an opening bid, and those that may be announced after the exchange (suit bids with their contract)."""
    found = set(rules.main_round)
    for b in rules.auction.branches:
        if b.then != "redeal":
            found |= {c for c in (b.contract, *b.contracts) if c is not None}
    if rules.opening is not None:
        found.add(rules.opening.contract)
    if rules.announce is not None:
        found |= set(rules.announce.contracts)
    bases = {c.base or c for c in found}
    return [c for c in rules.contracts if c in bases or (c.base or c) in bases]


def never(contracts: list[Any]) -> dict[str, bool | None]:
    """The end-of-play facts no contract that can occur allows (a concession, a claim): false in every deal."""
    out: dict[str, bool | None] = {}
    played = [c for c in contracts if c.played]
    if not any(c.play.concede is not None or c.play.surrender is not None for c in played):
        out["conceded"] = False
    if not any(c.play.claim is not None for c in played):
        out["committed"] = out["stopped"] = False
    if not any(c.call is not None and not c.call.demand for c in played):
        out["partner"] = None
    return out


class Builder:
    """Writes the sections of one ruleset's book."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.data = rules.spec.data
        self.w = Words(rules)
        self.say = self.w.say
        self.cards = Cards(rules.deck)
        self.occurs = occurring(rules)
        self.exprs: list[tuple[str, Any]] = []  # (what, expression) of the file shown in the appendix only
        self.pool_used = True  # whether a payment moves the pool (the payment tables say when none does)
        self.w.know(never(self.occurs))
        self.book = Book(rules.title, rules.variant,
                         sources={s["tag"]: s["cite"] for s in self.data.get("sources") or []})

    def sentence(self, node: Any, expr: Any) -> str:
        """A rule's words: the `doc:` its YAML node gives, else its expression put in words."""
        doc = node.get("doc") if isinstance(node, dict) else None
        return str(doc) if doc else self.say(expr)

    def holds(self, expr: Any) -> bool | None:
        """True or False when the chosen options fix a condition, else None."""
        fixed, value = self.say.fixed(expr)
        return bool(value) if fixed else None

    # -- sections ---------------------------------------------------------------------------------
    def idea(self) -> None:
        s = self.book.section("idea", "The idea of the game")
        doc = self.data.get("doc")
        if doc:
            s.rule("doc", " ".join(str(doc).split()), para=True)
            return
        r, w = self.rules, self.w
        s.rule("doc", f"A game for {r.players} players ({r.active} of them play each deal). The highest bidder, "
                      f"{w.declarer}, plays the contract he bid against {w.defenders}; the outcome of the deal and "
                      f"its payments follow from the tricks (see Outcomes and Payments).", para=True)

    def table(self) -> None:
        r, w, s = self.rules, self.w, self.book.section("table", "Players and roles")
        sits = r.players - r.active
        s.rule("players", f"{cap(plural(r.players, 'player'))} sit at the table"
               + (f"; {r.active} of them play each deal." if sits else ", and all of them play each deal."))
        so = self.data.get("sit_out")
        if so:
            s.rule("sit_out", "Each deal " + (self.sentence(so, so["who"]) if so.get("doc") else
                                                self._sitters_words()) + " sits out: he gets no cards.",
                   so["who"])
            if r.stand_in is not None:
                s.rule("stand_in", self._stand_in_words(so["stand_in"]), so["stand_in"]["seat"])
        d = self.data.get("direction", "counterclockwise")
        s.rule("direction", f"The deal, the bidding and the play go {DIRECTION.get(d, d)}. Forehand is the player "
                            f"next after the dealer in that direction.")
        if r.teams is not None:
            ordinal = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
            alternate = all(x % len(r.teams) == team[0] % len(r.teams) for team in r.teams for x in team)
            s.rule("teams", "They play in fixed partnerships, the same in every deal: " + " against ".join(
                "the " + join([ordinal[x] if x < len(ordinal) else f"{x + 1}th" for x in team]) + " players"
                for team in r.teams) + " in the order of the seats"
                + ("; partners sit alternately round the table." if alternate else "."))
            who = "The player who must play" if r.auction.form == "none" else "The highest bidder"
            s.rule("roles", f"{who} becomes {w.declarer}; his partners play his contract with him, "
                            f"against the other partnership{'s' if len(r.teams) > 2 else ''}, {w.defenders}.")
        else:
            s.rule("roles", f"The highest bidder becomes {w.declarer} and plays his contract against the others, "
                            f"{w.defenders}, who play together for that deal.")
        if any(c.call is not None and not c.call.demand for c in self.occurs):
            s.rule("partner", f"In a game with a called card, its holder becomes {w.partner} of {w.declarer} for "
                              f"the deal.")

    def _stand_in_words(self, node: dict) -> str:
        """`sit_out.stand_in` in a sentence: whose hand the player sitting out may take over, and how."""
        si = self.rules.stand_in
        assert si is not None  # said only where the rule exists
        if node.get("doc"):
            return cap(str(node["doc"])).rstrip(".") + "."
        n = self.rules.players
        named = "the dealer" if si.named[0] == 0 else f"the player {plural(si.named[0] % n, 'seat')} after the dealer"
        sees = f", who sees the cards of {named} during the bidding," if si.sees else ""
        return (f"Once {named} has passed in the bidding, the player sitting out{sees} may bid higher on that hand; "
                f"if he does, he takes that player's place for the rest of the deal (he bids, plays, pays and is "
                f"paid with that hand) and that player sits out in his stead.")

    def _sitters_words(self) -> str:
        r = self.rules
        dealer = 0
        sits = r.sitters[dealer]
        if sits == (dealer,):
            return "the dealer"
        ring = [s for s in range(r.players)]
        return join([f"the player {plural((s - dealer) % r.players, 'seat')} after the dealer"
                     if s != dealer else "the dealer" for s in sits if s in ring])

    def pack(self) -> None:
        deck, s = self.rules.deck, self.book.section("pack", "The pack")
        s.rule("size", f"{deck.size} cards: " + "; ".join(
            f"{suit_name(su)} {' '.join(c.rank for c in deck.cards if c.suit is su)}" for su in deck.suits) + ".")
        if any(su.attrs.get("symbol") for su in deck.suits):
            ex = next(c for c in deck.cards if c.suit.attrs.get("symbol"))
            letters = join([f"{su.letter} for {su.name}" for su in deck.suits if su.letter])
            s.rule("notation", f"A card is written as its rank and its suit's sign, as {self.cards.name(ex.id)}. At "
                               f"the terminal a card is typed as its rank and its suit's letter ({letters}).")
        keys = sorted({k for su in deck.suits for k in su.attrs if k not in ("ranks", "points", "symbol")})
        if keys:
            s.table("suits", "The suits", ["suit"] + keys,
                    [[suit_name(su)] + [str(su.attrs.get(k, "—")) for k in keys] for su in deck.suits])
        points: dict[int, list[str]] = {}
        for c in deck.cards:
            points.setdefault(c.points, []).append(self.cards.name(c.id))
        if set(points) != {0}:
            s.table("points", "Card points", ["points", "cards"],
                    [[str(p), " ".join(points[p])] for p in sorted(points, reverse=True)])

    def contexts(self) -> list[tuple[str, Any]]:
        """The (ranking, trump suit or None) contexts some contract that can occur is played in, in order."""
        out: list[tuple[str, Any]] = []
        for c in self.occurs:
            for t in self.rules.trump_choices(c):
                if (c.ranking, t) not in out:
                    out.append((c.ranking, t))
        return sorted(out, key=lambda k: (k[0], k[1].index if k[1] is not None else 99))

    def names(self) -> None:
        names = self.data.get("names") or {}
        ctxs = [k for k in self.contexts() if k[1] is not None]
        if not names or not ctxs:
            return
        s = self.book.section("names", "Named cards")
        rows = []
        for name, expr in names.items():
            per = [self._shown(self.rules.context(*k).names.get(name_attr(name))) for k in ctxs]
            word = cap(self.w.terms.get(name, name))
            if len(set(per)) == 1:
                rows.append([word, per[0] + " whatever the trumps"])
            else:
                rows.append([word, "; ".join(f"{p} ({k[1].attrs.get('symbol') or k[1].name} trumps)"
                                             for p, k in zip(per, ctxs, strict=True) if p != "—")])
            self.exprs.append((f"Named cards: {word}", expr))
        s.table("names", "The named cards, by the trump suit", ["name", "card"], rows)

    def _shown(self, v: Any) -> str:
        if v is None:
            return "—"
        if isinstance(v, (list, tuple)):
            return " ".join(self._shown(x) for x in v) or "—"
        return self.cards.name(v.id) if hasattr(v, "id") else str(v)

    def ranks(self) -> None:
        s = self.book.section("ranks", "Rank of the cards")
        s.rule("order", "Each row runs from the highest card to the lowest. A trump beats every card of another "
                        "suit; otherwise a trick is won by the highest card of the suit led.")
        deck = self.rules.deck
        by_ranking: dict[str, list[Any]] = {}
        for ranking, trump in self.contexts():
            by_ranking.setdefault(ranking, []).append(trump)
        for ranking, trumps in by_ranking.items():
            label = f" ({self.w.terms.get(ranking, ranking.replace('_', ' '))} ranking)" if ranking else ""
            plain: dict[int, list[str]] = {}
            same = True
            for t in trumps:
                ctx = self.rules.context(ranking, t)
                for su in deck.suits:
                    cards = sorted((c for c in range(deck.size) if ctx.eff[c] == su.index
                                    and not ctx.trump_mask >> c & 1), key=lambda c: -ctx.power[c])
                    if not cards:
                        continue
                    row = self.cards.row(cards)
                    if plain.setdefault(su.index, [row])[0] != row:
                        same = False
            if same:
                s.table(f"plain.{ranking}", "Suits that are not trumps" + label, ["suit", "high to low"],
                        [[suit_name(deck.suits[i]), rows[0]] for i, rows in sorted(plain.items())])
                t_rows = [[suit_name(t), self.cards.row(self.rules.context(ranking, t).trump_order)]
                          for t in trumps if t is not None]
                if t_rows:
                    s.table(f"trumps.{ranking}", "The trumps, by the trump suit" + label, ["trumps", "high to low"],
                            t_rows)
                continue
            for t in trumps:  # the plain order changes with the trumps: one table per trump suit
                ctx = self.rules.context(ranking, t)
                rows = [["trumps", self.cards.row(ctx.trump_order)]] if t is not None else []
                for su in deck.suits:
                    cards = sorted((c for c in range(deck.size) if ctx.eff[c] == su.index
                                    and not ctx.trump_mask >> c & 1), key=lambda c: -ctx.power[c])
                    if cards:
                        rows.append([suit_name(su), self.cards.row(cards)])
                what = f"trumps {suit_name(t)}" if t is not None else "no trumps"
                s.table(f"ctx.{what}{label}", cap(what) + label, ["suit", "high to low"], rows)

    def deal(self) -> None:
        d, s, r = self.data["deal"], self.book.section("deal", "The deal"), self.rules
        each = sum(hand_packets(d))
        dealt = r.active * each
        talon = r.deck.size - dealt if d.get("talon", "rest") == "rest" else int(d["talon"])
        packets = join([str(p) for p in hand_packets(d)])
        la = r.lay_away
        dealer_takes = la is not None and la.at_deal and la.take_talon and talon
        between = _talon_packets(d["packets"])
        left = talon - sum(p["talon"] for p in d["packets"] if isinstance(p, dict))
        rest = (f"; the last {talon} cards go to the dealer, who so holds {each + talon}." if dealer_takes
                else f"; {between}" + (f", and the last {left} join it." if left else ".") if between
                else f"; the other {talon} cards are the talon, face down." if talon else "; nothing is left over.")
        s.rule("packets", f"The dealer gives each player in the deal {each} cards, in packets of {packets}, "
                          f"starting with forehand{rest}")
        turned = {"talon_top": "The top card of the talon is turned face up for every player to see; it stays "
                               "on the talon unless an exchange takes it.",
                  "dealer_last": "The dealer's last card is turned face up for every player to see; it stays in "
                                 "his hand, known to all until he plays it.",
                  "second_pack": "A card is turned face up from a second pack of the same cards for every player "
                                 "to see; it is no card of the deal."}.get(d.get("turn_up") or "")
        if r.cut is not None:
            s.rule("cut", d["cut"].get("doc") or
                   f"After the shuffle {_cutter(r.cut.who, r.players)} cuts the pack: he lifts a packet from the "
                   f"top, leaving at least {plural(r.cut.least, 'card')} in each packet, and the dealer puts the "
                   f"lower packet on top before he deals.")
        if turned:
            s.rule("turn_up", turned)
        if la is not None and la.at_deal:
            doc = (self.data.get("lay_away") or {}).get("doc")
            s.rule("lay_away", doc or f"Before the bidding the dealer lays {plural(la.count, 'card')} away, face "
                                      f"down; they count as his at the end. He may lay away "
                                      f"{self.cards.mask(la.allowed)} (any card if he holds too few of them).")

    def session(self) -> Section:
        """The session's section (its closing payments are added by `scoring_text.close_words`)."""
        se, sc = self.data.get("session") or {}, self.data["scoring"]
        uses_pool = bool(sc.get("ante")) or "pool" in str(self.data.get("scoring")) or bool(se.get("pool"))
        s = self.book.section("session", f"{cap(self.w.pool)} and the session" if uses_pool else "The session")
        if uses_pool:
            s.rule("pool", f"{cap(self.w.pool)} starts the session with {se.get('pool', 0)} counters and is "
                           f"carried from deal to deal.")
        fd = se.get("first_dealer")
        if fd:
            by = {"suit": "by suit" + (" (by the suits' numbers)" if fd.get("suit_order") == "number" else
                                       " (in the order the pack lists them)"),
                  "rank": "by rank"}
            s.rule("first_dealer", fd.get("doc") or
                   f"Before the first deal everyone draws a card; the {fd['draw']} card deals "
                   f"first, compared {', then '.join(by[k] for k in fd.get('by') or ['rank'])}; those who tie draw "
                   f"again.")
        sd = se.get("seats")
        if sd and self.rules.seat_draw is not None:
            laid = self.rules.seat_draw.cards
            first = (f" Whoever draws {self.cards.name(self.rules.seat_draw.forehand)} is forehand in the first deal."
                     if self.rules.seat_draw.forehand >= 0 else "")
            s.rule("seats", sd.get("doc") or
                   "Before the first deal one card is laid face down at each seat ("
                   + ", ".join(f"seat {i}: {self.cards.name(c)}" for i, c in enumerate(laid))
                   + f"); each player draws one of the same cards and sits where his card lies.{first}")
        if se.get("end_when"):
            s.rule("end_when", f"The session ends after a deal when {self.sentence(se, se['end_when'])}"
                   + (f" (after {se['deals'] * 10} deals at most)." if se.get("deals") else "."), se["end_when"])
        elif se.get("deals"):
            s.rule("deals", f"A session is {plural(se['deals'], 'deal')}; the deal passes to the next player each "
                            f"time.")
        for name, d in (se.get("carry") or {}).items():
            what = d.get("doc") or name.replace("_", " ")
            fixed = " Once set, it stays for the rest of the session." if d.get("once") else ""
            s.rule(f"carry.{name}", f"Kept from deal to deal: {what}.{fixed}")
        return s

    def cite(self) -> None:
        """The sources of each section: the tags the file's `cite:` gives it, and any [TAG] in its words. A tag
        no source of this file defines (a house rule that replaced the sources) is left out; a section no book
        has is named under the sources (a book never fails on what `ombre check` accepts)."""
        tags = self.book.sources
        cited = self.data.get("cite") or {}
        keys = {s.key for s in self.book.sections} | CITABLE
        strays = [f"{k}{did_you_mean(k, keys)}" for k in cited if k not in keys and not k.startswith("contract.")]
        for s in self.book.sections:
            found = [t for t in cited.get(s.key) or [] if t in tags]
            for item in s.items:
                for tag in re.findall(r"\[([A-Za-z0-9_-]+)\]", getattr(item, "text", "")):
                    if tag in tags and tag not in found:
                        found.append(tag)
            s.sources = found
        if tags or strays:
            src = self.book.section("sources", "Sources", compare=False)
            if tags:
                src.table("sources", "The sources this variant follows", ["tag", "source"],
                          [[t, c] for t, c in tags.items()])
            if strays:
                src.rule("strays", f"The file cites sources for sections no rulebook has: {join(strays)}.")


def _talon_packets(packets: list) -> str:
    """The packets dealt to the talon between the seats' packets in words ('' when there is none)."""
    out, rounds = [], 0
    for p in packets:
        if not isinstance(p, dict):
            rounds += 1
            continue
        when = "before the first round" if not rounds else f"after the {_NTH.get(rounds, f'{rounds}th')} round"
        out.append(f"{when} {plural(p['talon'], 'card')} go face down to the talon")
    return join(out)


_NTH = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


# the sections `cite:` may name in any file, whether or not a book has them (besides each contract.NAME)


def _cutter(who: tuple[int, ...], n: int) -> str:
    """The seat that cuts, by its place from the dealer when that is the same for every dealer."""
    steps = {(w - d) % n for d, w in enumerate(who)}
    if len(steps) > 1:
        return "the player the rules name for each dealer"
    k = steps.pop()
    return ("the dealer" if k == 0 else "the player after the dealer" if k == 1
            else "the player before the dealer" if k == n - 1 else f"the player {k} places after the dealer")
