"""The rulebook's sections on the bidding, each contract, the steps before play and the play itself, in words
(a `doc:` of the file where it gives one, else the file's expressions put in words with the options worked in;
a rule the chosen options switch off is left out)."""
from __future__ import annotations

from typing import Any

from ..explain.why import follow_items
from .builder import ALL_PASS, Builder
from .words import cap, join, plural

TRUMP_MODES = {"named": "{d} names the trump suit", "none": "there are no trumps",
               "called": "the holder of the card {d} calls names the trump suit",
               "first_lead": "the suit of the first card led is trumps",
               "turn_up": "the suit of the card turned for the deal is trumps"}
LEFTOVER = {"hidden": "nobody sees the talon cards nobody drew",
            "last_exchanger": "the last to exchange may look at the talon cards nobody drew",
            "all": "the talon cards nobody drew are shown to all"}


def auction(b: Builder) -> None:
    a, s, w, say = b.data["auction"], b.book.section("auction", "The bidding"), b.w, b.say
    r = b.rules
    first = say(a.get("first", "forehand"))
    if a.get("form") == "none":
        s.rule("form", "There is no bidding: once the cards are dealt, the player named below must play.")
        all_pass(b, s, a)
        ladder(b, s)
        return
    if a.get("form") == "duel":
        s.rule("form", f"{cap(first)} speaks first. The bidding goes in duels: the first two players bid against "
                       f"each other until one passes, then the survivor bids against the next.", a.get("first"))
    else:
        s.rule("form", f"{cap(first)} speaks first, then each player in turn bids or passes, round and round until "
                       f"all but one have passed. A player who passes is out of the bidding.", a.get("first"))
    if a.get("hold", "earlier_seat") == "earlier_seat":
        s.rule("hold", "A bid must be higher than the last, except that a player earlier in the order of play may "
                       "hold: he bids the same and keeps it.")
    else:
        s.rule("hold", "Every bid must be higher than the last: nobody may hold.")
    if a.get("jumps") is False:
        s.rule("jumps", "A bid must be the next one above the highest so far (no jumps).")
    if a.get("auto_pass"):
        s.rule("auto_pass", "A player who may only pass passes without being asked.")
    if a.get("suit_order"):
        s.rule("suit_order", f"Bids of one level in different suits rank, lowest first: "
                             f"{join([str(x) for x in a['suit_order']])}.")
    if a.get("opening"):
        o = a["opening"]
        s.rule("opening", f"Before anyone speaks, {say(o.get('seat', 'forehand'))} counts as having bid "
                          f"{w.contract_named(o['contract'])}; the others may overcall it.", o.get("seat"))
    if a.get("forced"):
        f = a["forced"]
        s.rule("forced", f"A player whose bid of {w.contract_named(f['bid'])} is overcalled by "
                         f"{join([w.contract_named(x) for x in f['by']], 'or')} may only pass, or play that higher "
                         f"contract himself.")
    if a.get("final"):
        s.rule("final", f"A bid of {join([w.contract_named(x) for x in a['final']], 'or')} ends the bidding at once.")
    if a.get("accept"):
        accept_rules(b, s, a["accept"])
    he = w.phraser(bidder="he")
    for c in r.contracts:
        if c.compulsory is not None and c in b.occurs and b.holds(c.compulsory.text) is not False:
            s.rule(f"compulsory.{c.name}", f"{c.title} is compulsory: a player may not pass, nor bid or hold below it, "
                                           f"as long as he may still bid it, when {he(c.compulsory.text)}.",
                   c.compulsory.text)
    if a.get("raise"):
        when = a.get("raise_when")
        s.rule("raise", "The winner of the bidding may then name a higher contract instead"
               + (f", when {say(when)}" if when else "") + ".", when)
        if a.get("raise_after_turn"):
            s.rule("raise_after_turn", "When his bid turns its trump, the card is turned first, for everyone to "
                                       "see, and he decides after it.")
    if a.get("contract_choice", "bid") != "bid":
        s.rule("contract_choice", "The winner names his contract after the bidding: "
               + ("one of exactly the level he won." if a["contract_choice"] == "level"
                  else "any contract of the level he won or higher."))
    all_pass(b, s, a)
    ladder(b, s)


def all_pass(b: Builder, s: Any, a: dict) -> None:
    """What happens when every player passes, branch by branch."""
    w, say = b.w, b.say
    ap = a.get("all_pass") or {"then": "redeal"}
    branches = ap if isinstance(ap, list) else [ap]
    shown = 0
    for i, br in enumerate(branches):
        cond = br.get("when")
        if cond is not None and b.holds(cond) is False:
            continue
        head = ("When every player but the one who must play has passed, " if br.get("others_passed")
                else ("After the deal, " if a.get("form") == "none" else "When all pass, ") if shown == 0
                else "Otherwise, ")
        text = head + (f"if {say(cond)}, " if cond is not None and b.holds(cond) is None else "")
        if br.get("doc"):
            text += str(br["doc"])
        elif br["then"] == "force":
            who = say(br.get("who", "forehand"))
            if br.get("contracts"):
                names = join([w.contract_named(x) for x in br["contracts"]], "or")
                text += f"{who} must play: he chooses {names}" + (", or may pass" if br.get("may_pass") else "")
            else:
                what = w.contract_named(br.get("contract"))
                text += f"{who} " + (f"is offered {what} and may pass" if br.get("may_pass") else f"must play {what}")
        elif br["then"] == "auction" and br.get("contracts"):
            text += ("the talon is turned face up and " if br.get("show_talon") else "") + \
                f"a further round of bidding follows, for {join([w.contract_named(x) for x in br['contracts']], 'or')}"
        else:
            text += ALL_PASS[br["then"]]
        key = "all_pass" if len(branches) == 1 else f"all_pass.{i}"
        s.rule(key, cap(text.rstrip(".")) + ".", cond or br.get("who"))
        shown += 1
    if len(branches) > 1 and branches[-1]["then"] != "redeal":
        s.rule("all_pass.else", "Otherwise the cards are thrown in and dealt again.")


def ladder(b: Builder, s: Any) -> None:
    """The contracts that can occur, lowest first: how each arises and its trumps."""
    rows = []
    order = sorted(b.occurs, key=lambda c: (not c.biddable, c.level, c.sub, c.index))
    ranks: dict[int, int] = {}
    for c in order:
        if c.biddable:
            ranks.setdefault(b.rules.bid_level(c, 0), len(ranks) + 1)
    for c in order:
        how = f"bid {ranks[b.rules.bid_level(c, 0)]}" if c.biddable else arises(b, c)
        rows.append([c.title, how, trump_words(b, c)])
    s.table("ladder", "The contracts, lowest bid first", ["contract", "how it arises", "trumps"], rows)
    for name, fam in (b.data.get("families") or {}).items():
        ranges = [f"{var} " + (f"from {v['from']} to {v['to']}" if isinstance(v, dict) else join([_word(x) for x in v]))
                  for var, v in fam["vars"].items()]
        pattern = f"'{fam['title']}'" if "title" in fam else f"`{fam['name']}`"  # a name pattern is shown as code
        s.rule(f"family.{name}", (cap(str(fam["doc"]).rstrip(".")) + ". " if fam.get("doc") else "")
               + f"These contracts are one family, {pattern} for each {join(ranges)}.")


def _word(value: Any) -> str:
    """A family variable's value in a sentence: an identifier with an underscore is shown as code."""
    text = str(value)
    return f"`{text}`" if "_" in text else text


def arises(b: Builder, c: Any) -> str:
    """How a contract not bid in the main auction arises."""
    r = b.rules
    for br in r.auction.branches:
        if c is br.contract or c in br.contracts:
            if r.auction.form == "none":
                return "forced after the deal"
            return "when all pass" if br.then == "force" else "in a round after all pass"
    if r.opening is not None and c is r.opening.contract:
        return "the opening bid"
    if r.announce is not None and c in r.announce.contracts:
        return "announced after the exchange"
    return "not bid"


def trump_words(b: Builder, c: Any) -> str:
    if c.trump_mode == "fixed":
        fs = c.fixed_suit
        return f"{fs.name} ({fs.attrs['symbol']})" if fs is not None and fs.attrs.get("symbol") else \
            (fs.name if fs is not None else "none")
    if c.bid_suit is not None:
        return f"{c.bid_suit.name}, as bid"
    if c.trump_mode == "turned":
        return "the suit of the card turned from the talon"
    text = TRUMP_MODES.get(c.trump_mode, c.trump_mode).format(d=b.w.declarer)
    return text + (" after the exchange" if c.trump_after_exchange else "")


def contract(b: Builder, c: Any) -> None:
    data = b.data["contracts"][c.key] or {}
    w, say = b.w, b.say
    s = b.book.section(f"contract.{c.name}", c.title)
    if data.get("doc"):
        s.rule("doc", cap(str(data["doc"]).rstrip(".")) + ".")
    if c.biddable:
        if c.jump:
            s.rule("bid", "It may be bid with a jump over any lower bid.")
    else:
        s.rule("bid", f"It is not bid: it arises {arises(b, c).replace('when all pass', 'when all players pass')}.")
    he = w.phraser(bidder="the bidder")
    if c.bid_when is not None and b.holds(c.bid_when.text) is not True:
        s.rule("bid_when", f"It may be bid only when {he(c.bid_when.text)}.", c.bid_when.text)
    bids = [d for d in b.rules.contracts if d.base is c]
    if bids:
        sb = data.get("suit_bids") or {}
        s.rule("suit_bids", str(sb["doc"]) if sb.get("doc") else
               "It may also be bid with a suit named, which makes that suit trumps and ranks just above the plain "
               f"bid: {join([d.title for d in bids])}" + ("; it is never bid without a suit." if not c.biddable
                                                             else "."))
        if bids[0].bid_when is not None and "bid_when" in sb and b.holds(bids[0].bid_when.text) is not True:
            s.rule("suit_bids.bid_when", f"A bid with a suit may be made only when {say(bids[0].bid_when.text)}.",
                   bids[0].bid_when.text)
    if c.show is not None:
        s.rule("show", f"The bidder must show {say(c.show.text)}.", c.show.text)
    if not c.holdable:
        s.rule("holdable", "An earlier player may not hold it.")
    if not c.played:
        s.rule("played", "It is not played: it is settled as soon as the bidding ends.")
        return
    suits = allowed_suits(b, c)
    if suits is not None:
        s.rule("trump", f"Trumps: {b.w.declarer} names {join(suits, 'or')}"
               + (" after the exchange." if c.trump_after_exchange else "."), c.trump_allowed.text)
    else:
        s.rule("trump", f"Trumps: {trump_words(b, c)}.")
    if c.trump_mode == "turned":
        s.rule("turned", f"The top card of the talon is turned face up for everyone to see; its suit is trumps. "
                         f"It stays on top of the talon, so it is the first card {w.declarer} draws if he changes "
                         f"any.")
    if c.trump_allowed is not None and suits is None and b.holds(c.trump_allowed.text) is not True:
        s.rule("trump_allowed", f"A suit may be made trumps only when "
                                f"{w.phraser(choice='the suit')(c.trump_allowed.text)}.", c.trump_allowed.text)
    if c.expose is not None:
        hands = "hands" if c.expose[0].type.startswith("list") else "hand"
        when = "from the opening lead" if c.expose[1] == "opening_lead" else "each from its own first card played"
        s.rule("expose", f"The {hands} of {say(c.expose[0].text)} lie{'s' if hands == 'hand' else ''} face up on "
                         f"the table, {when}: every player sees those cards.", c.expose[0].text)
    if c.lay_away is not None:
        doc = data["lay_away"].get("doc")
        who = c.lay_away.who
        by = (f"every player, {w.declarer} first, lays" if who is None
              else f"{say(who.text)}, and no other player, lay(s)")
        s.rule("contract_lay_away", doc or f"Before play {by} {say(c.lay_away.count.text)} card(s) away, face "
                                           f"down, unseen by the others; they take no part in the play. He may "
                                           f"lay away {b.cards.mask(c.lay_away.allowed)}.", c.lay_away.count.text)
        if who is not None:
            s.rule("short_hands", "A player with fewer cards than the others stops playing when his hand is empty: "
                                  "the tricks after his last card are played by the others alone, and if he won a "
                                  "trick with his last card, the next player round who still holds cards leads "
                                  "to the next. Those tricks count for whoever wins them.", who.text)
    exchange(b, s, c)
    lay = b.rules.lay_away
    if lay is not None and not lay.at_deal:
        doc = (b.data.get("lay_away") or {}).get("doc")
        took = "takes the talon into his hand and " if lay.take_talon else ""
        s.rule("lay_away", doc or f"{cap(w.declarer)} {took}lays {plural(lay.count, 'card')} away, face down; they "
                                  f"count as his. He may lay away {b.cards.mask(lay.allowed)}.")
    if c.demands:
        dm = b.rules.demands
        doc = (b.data.get("demand") or {}).get("doc")
        s.rule("demand", doc or f"{cap(w.declarer)} demands {plural(c.demands, 'card')} he does not hold, one at a "
                                f"time: {b.cards.mask(dm.cards)}. Its holder hands it over and receives in return a "
                                f"card of {w.declarer}'s choice: {b.cards.mask(dm.give)}.")
    call(b, s, c)
    for key, value in (data.get("play") or {}).items():
        own_play(b, s, c, key, value)


def _limit(e: Any, contract: Any) -> int | None:
    """An exchange limit that reads only the contract (and the options), worked out for one contract."""
    try:
        v = e.fn(_ChoiceEnv(contract, None))
    except Exception:  # noqa: BLE001 - a limit that reads the deal: said in words
        return None
    return v if type(v) is int else None


class _ChoiceEnv:
    """What a trump condition that reads only the contract and the suit considered sees."""

    def __init__(self, contract: Any, choice: Any) -> None:
        self.contract = contract
        self.choice = choice


def allowed_suits(b: Builder, c: Any) -> list[str] | None:
    """The suits a declarer may name, when the contract's trump condition reads nothing of the deal (only the
    suit, the contract and the options); None otherwise."""
    from ..explain.evaluate import Evaluator
    from .reads import names_in

    if c.trump_mode != "named" or c.trump_allowed is None:
        return None
    if names_in(c.trump_allowed.text, b.rules.spec.options) - {"choice", "contract", "opt"}:
        return None
    out = []
    for su in b.rules.deck.suits:
        try:
            ok = Evaluator(b.rules, _ChoiceEnv(c, su)).value(c.trump_allowed.text)
        except Exception:  # noqa: BLE001 - a condition the plain evaluator cannot work out: say it in words
            return None
        if ok:
            out.append(f"{su.name} ({su.attrs['symbol']})" if su.attrs.get("symbol") else su.name)
    return out if 0 < len(out) < len(b.rules.deck.suits) else ["any suit"] if out else None


def call(b: Builder, s: Any, c: Any) -> None:
    """The card the declarer calls: its holder becomes his partner, or hands it over (he then plays alone)."""
    if c.call is None:
        return
    w = b.w
    node = b.data.get("call") or {}
    own = (b.data["contracts"][c.key] or {}).get("call")
    doc = (own or {}).get("doc") if isinstance(own, dict) else None
    doc = doc or node.get("doc")
    allowed = c.call.allowed.text
    which = "" if b.holds(allowed) is True else f", any card for which {w.phraser(choice='the card')(allowed)}"
    first = str(doc).rstrip(".") + "." if doc else f"{cap(w.declarer)} calls a card{which}."
    if c.call.demand:
        how = (f"Its holder hands it over, openly, and gets a card of {w.declarer}'s choice in return; "
               f"{w.declarer} then plays alone.")
    elif c.trump_mode == "called":
        how = f"Its holder becomes {w.partner} and names the trump suit, so he is known to all from then on."
    else:
        how = (f"Its holder becomes {w.partner}, but nobody is told: the partner is known when the called card "
               f"is played.")
    s.rule("call", f"{first} {how}", allowed)


def exchange(b: Builder, s: Any, c: Any) -> None:
    """The exchange with the talon: the declarer's, then the defenders' (also when the declarer changes none)."""
    ex, w = c.exchange, b.w
    big = b.rules.deck.size

    def limits(lim: Any, contract: Any = c) -> str:
        lo, hi = lim.min_const, lim.max_const
        if lo is None or hi is None:
            lo, hi = _limit(lim.min, contract), _limit(lim.max, contract)
        if lo is None or hi is None:
            if "exchanger" in lim.min.uses | lim.max.uses:  # a limit by the exchanger's place
                he = w.phraser(exchanger="he")
                if lim.min.text == lim.max.text:
                    return f"as many cards as ({he(lim.max.text)})"
                return f"at least ({he(lim.min.text)}) and at most ({he(lim.max.text)}) cards"
            return f"{b.say(lim.min.text)} to {b.say(lim.max.text)} cards"
        if hi == 0:
            return "no cards"
        if lo == hi:
            return f"exactly {plural(lo, 'card')}"
        if lo:
            return f"{lo} to {hi} cards" if hi < big else f"at least {plural(lo, 'card')}"
        return f"up to {plural(hi, 'card')}" if hi < big else "any number of cards"

    if ex.take_talon:
        took = "the whole talon" if ex.take_talon >= big else f"{plural(ex.take_talon, 'card')} of the talon"
        s.rule("exchange.declarer", f"{cap(w.declarer)} takes {took} into his hand and lays away "
                                    f"{limits(ex.declarer)}.")
    elif ex.declarer.max_const == 0:
        s.rule("exchange.declarer", f"{cap(w.declarer)} may not exchange: he plays the cards he was dealt.")
    else:
        own = [f"in {d.title} {limits(d.exchange.declarer, d)}" for d in b.rules.contracts if d.base is c
               and limits(d.exchange.declarer, d) != limits(ex.declarer)]
        s.rule("exchange.declarer", f"{cap(w.declarer)} discards {limits(ex.declarer)}"
                                    + (f" ({join(own)})" if own else "") + " face down and draws as many from the top "
                                    "of the talon.")
    if not ex.defenders:
        s.rule("exchange.defenders", f"{cap(w.defenders)} do not exchange.")
        return
    first = (f"The {w.defender} next after {w.declarer} may let the other go first." if ex.defender_first == "ceded"
             else f"The {w.defender} next after {w.declarer} goes first.")
    others = "the other players" if b.rules.teams is not None else w.defenders
    text = (f"Then {others} exchange in turn, each as many as the talon still holds: the first "
            f"{limits(ex.first)}, the others {limits(ex.other)}. {first} Afterwards {LEFTOVER[ex.leftover]}.")
    s.rule("exchange.defenders", text)


def own_play(b: Builder, s: Any, c: Any, key: str, value: Any) -> None:
    """A contract's own play rule (one key of its `play:`)."""
    say = b.say
    if value is None:
        words = {"claim": "There is no stopping early: every trick is played.",
                 "concede": f"{cap(b.w.declarer)} may not give up.",
                 "surrender": f"{cap(b.w.declarer)} may not give up before the first lead.",
                 "end_when": "Every trick is played."}
        if key in words:
            s.rule(f"play.{key}", words[key])
        return
    if key == "first_leader":
        s.rule("play.first_leader", f"{cap(say(value))} leads to the first trick.", value)
    elif key == "end_when":
        if b.holds(value) is not False:
            s.rule("play.end_when", f"Play stops as soon as {say(value)}.", value)
    elif key == "follow":
        for i, item in enumerate(value or []):
            s.rule(f"play.follow.{i}", obligation(b, item), item.get("must"))
    elif key == "claim":
        claim_rule(b, s, value, "play.claim")
    elif key == "concede":
        concede_rule(b, s, value, "play.concede")
    elif key == "surrender":
        surrender_rule(b, s, value or {}, "play.surrender")


def obligation(b: Builder, item: dict) -> str:
    """A play obligation in words (its `doc:`, else its condition), with its exemption."""
    text = str(item["doc"]).rstrip(".") if item.get("doc") else \
        f"a player must play a card for which {b.say(item['must'])}, if he holds one"
    ex = item.get("exempt")
    if ex and b.holds(ex) is not False:
        text += f"; but he need not play a card to it when {b.say(ex)}"
    return cap(text) + "."


def claim_rule(b: Builder, s: Any, cl: dict, key: str) -> None:
    who = f"{b.w.declarer}'s side" if cl.get("by") == "side" else b.w.declarer
    if cl.get("doc"):
        s.rule(key, str(cl["doc"]), cl.get("when"))
        return
    s.rule(key, f"After trick {cl['after_trick']}, when {b.say(cl['when'])}, {who} may stop there (the game is "
                f"won) or lead on, and must then take every trick.", cl.get("when"))


def concede_rule(b: Builder, s: Any, co: dict, key: str) -> None:
    exprs = "; ".join(f"{k}: {co[k]}" for k in ("when", "consent", "takeover") if co.get(k))
    if co.get("doc"):
        s.rule(key, str(co["doc"]), exprs)
        return
    say = b.say
    text = f"Before trick {co['before_trick']} {b.w.declarer} may give up"
    if co.get("when") and b.holds(co["when"]) is None:
        text += f" when {say(co['when'])}"
    if co.get("consent") and b.holds(co["consent"]) is not False:
        text += f"; {b.w.defenders} must agree when {say(co['consent'])}"
    if co.get("takeover") and b.holds(co["takeover"]) is not False:
        text += f"; a defender who does not agree takes his place when {say(co['takeover'])}"
    s.rule(key, text + ".", exprs)


SURRENDER_AT = {"before_play": "Before the first lead", "before_exchange": "Once the contract and its trumps are "
                "fixed, before the exchange,", "after_declarer_exchange": "After his own exchange, before the others',"}


def surrender_rule(b: Builder, s: Any, su: dict, key: str) -> None:
    """The declarer's surrender (`play.surrender`), and the take-over that may follow it."""
    say, w = b.say, b.w
    when = su.get("when")
    if su.get("doc"):
        s.rule(key, cap(str(su["doc"]).rstrip(".")) + ".", when)
    else:
        s.rule(key, f"{SURRENDER_AT[su.get('at', 'before_play')]} {w.declarer} may give up"
               + (f" when {say(when)}" if when and b.holds(when) is None else "") + ".", when)
    t = su.get("takeover")
    if t is None:
        return
    exprs = "; ".join(f"{k}: {t[k]}" for k in ("by", "when") if t.get(k))
    if t.get("doc"):
        s.rule(key + ".takeover", cap(str(t["doc"]).rstrip(".")) + ".", exprs)
        return
    who = say(t["by"]) if t.get("by") else w.defenders
    may = f" when {say(t['when'])}" if t.get("when") and b.holds(t["when"]) is not False else ""
    names = [w.contract_named(str(k)) for k in t.get("contracts") or ()]
    game = f"of the game he chooses ({', '.join(names[:-1])} or {names[-1]})" if len(names) > 1 else \
        f"of {names[0]}" if names else "of the same game"
    s.rule(key + ".takeover", f"If he does, {who} may take the game over in turn{may}: the first who does becomes "
                              f"{w.declarer} {game}, with its trumps and an exchange anew from the cards left in "
                              f"the talon; the one who gave up defends. If nobody does, the game is given up.",
           exprs)


def before_play(b: Builder) -> None:
    """The steps between the contract and the first lead: the talon shown, going alone, announcement, defence,
    doubling."""
    d, w, say = b.data, b.w, b.say
    show = (d.get("exchange") or {}).get("show_talon")
    if not show and not any(d.get(k) for k in ("announce", "defence", "doubling")) and d.get("alone") is None:
        return
    s = b.book.section("defence", "Before play")
    if show:
        s.rule("show_talon", "The talon is shown to every player once the contract is fixed, before it is taken.")
    al = d.get("alone")
    if al is not None:
        when = f" (when {say(al['when'])})" if al.get("when") and b.holds(al["when"]) is None else ""
        text = cap(str(al["doc"]).rstrip(".")) + ". " if al.get("doc") else ""
        s.rule("alone", text + f"Once the contract and trumps are fixed{when}, before the exchange, {w.declarer} "
                               f"says whether he goes alone. If he does, his partners lay their cards aside unseen "
                               f"and take no part in the exchange or the play; the others play on in turn, and the "
                               f"partnership still wins or loses together.", al.get("when"))
    an = d.get("announce")
    if an:
        names = join([w.contract_named(x) for x in an["contracts"]], "or")
        when = f" when {say(an['when'])}" if an.get("when") and b.holds(an["when"]) is None else ""
        s.rule("announce", f"After his exchange {w.declarer} may announce {names} instead of his own contract, if it "
                           f"is higher{when}; the trumps are those of the contract announced.", an.get("when"))
    de = d.get("defence")
    if de:
        when = f" (when {say(de['when'])})" if de.get("when") and b.holds(de["when"]) is None else ""
        text = (f"Once the contract and trumps are fixed{when}, each defender in turn, starting next after "
                f"{w.declarer}, says whether he plays or passes.")
        if de.get("invite"):
            text += (" The last to decide, when the others have passed, may invite them to play with him; "
                     + ("an invited defender must play." if de.get("invited_must_accept", True) else
                        "an invited defender accepts or refuses, and after a refusal the inviter decides again."))
        s.rule("defence", text + " A defender who passes lays his hand down and takes no part in the play; when "
                                 "none plays, the game counts as won without play.", de.get("when"))
    db = d.get("doubling")
    if db:
        lo, hi = db.get("factors", [2, 4])
        who = say(db.get("who", "defending"))
        text = f"Before the first lead each of {who} in turn may double: every payment of the deal is then {lo} times"
        if db.get("redouble", True):
            text += f"; {w.declarer} may then redouble, {hi} times"
        s.rule("doubling", text + ".", db.get("when"))


def accept_rules(b: Builder, s: Any, acc: dict) -> None:
    """`auction.accept` in words: who may accept, the late seat, a bid nobody accepts."""
    w, say = b.w, b.say
    bids = join([w.contract_named(x) for x in acc["bids"]], "or")
    s.rule("accept", f"Over a standing bid of {bids} a later player may, instead of bidding, accept it: he becomes "
                     f"the bidder's partner for the deal, wherever he sits, and neither speaks again unless a higher "
                     f"bid overcalls them, which ends the partnership. The bidder and his partner play together "
                     f"against the others.")
    if acc.get("late"):
        s.rule("accept.late", f"{cap(say(acc['late']))}, having passed before such a bid was made, is asked once "
                              f"more when everyone else has spoken, and may accept it.", acc["late"])
    if acc.get("unaccepted", "amend") == "amend":
        s.rule("accept.unaccepted", "A bidder whom nobody accepts may speak once more, to bid higher or to pass; "
                                    "such a bid is never played alone: if he passes, it is as if all had passed.")
    else:
        s.rule("accept.unaccepted", "A bid nobody accepts is not played: it is as if all had passed.")


def play(b: Builder) -> None:
    p, s, say = b.data.get("play") or {}, b.book.section("play", "Play"), b.say
    first = p.get("first_leader", "forehand")
    s.rule("first_leader", f"{cap(say(first))} leads to the first trick; the winner of each trick leads to the "
                           f"next.", first)
    s.rule("trick", "Each player in turn plays one card to the trick. The highest trump wins it, or, without a trump, "
                    "the highest card of the suit led.")
    base = next((c for c in b.occurs if c.played), b.rules.contracts[0])
    items = follow_items(b.rules, base)
    for i, item in enumerate(items):
        s.rule(f"follow.{i}", obligation(b, item), item["must"])
    if items:
        s.rule("follow.else", "A player who holds no card an obligation asks for may play any card.")
    if any("winning_card" in f"{item.get('must')} {item.get('exempt')}" for item in items):
        s.rule("follow.winning", "The card winning the trick is the card led until another beats it: a trump "
                                 "beats every card of another suit, and a card of the suit led a lower one.")
    if p.get("follow_answers") == "highest":
        s.rule("follow_answers", "The obligations answer the highest card of the suit led so far: a higher card of "
                                 "that suit played after the lead counts as the card led.")
    if p.get("claim"):
        claim_rule(b, s, p["claim"], "claim")
    if p.get("concede"):
        concede_rule(b, s, p["concede"], "concede")
    if p.get("surrender"):
        surrender_rule(b, s, p["surrender"] or {}, "surrender")
    if p.get("end_when") and b.holds(p["end_when"]) is not False:
        s.rule("end_when", f"Play stops after a trick as soon as {say(p['end_when'])}.", p["end_when"])
    ex = p.get("excuse")
    if ex and b.rules.excuse is not None:
        e = b.rules.excuse
        card = b.cards.name(e.card)
        text = (f"{card} is the excuse: it may be played at any time instead of following, never wins the trick, "
                f"and goes back to its owner, who gives the trick's winner in return one card from his tricks (as "
                f"soon as he has one) of these: {b.cards.mask(e.compensation)}.")
        if e.last_trick_lost:
            text += " Played to the last trick, it stays with the trick."
        if e.latest:
            text += f" It must be played by trick {e.latest}."
        s.rule("excuse", text, ex.get("card"))
