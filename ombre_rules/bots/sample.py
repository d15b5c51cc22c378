"""Worlds consistent with what a seat has seen: the hidden cards dealt anew so that replaying the deal's
public actions gives exactly the seat's view (its hand, every card played, the voids that play showed,
its own discards and draws, exposed and shown cards, a partner it knows, cards demanded and given for them)."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..cards import mask as mask_of_ids
from ..engine import State
from ..engine.view import partner_known
from ..errors import OmbreError
from ..ruleset.fields import row_after

HIDDEN, PENDING = -1, -2  # a card given for a demanded one: not seen by this seat; not given yet
FAST_DISCARDS = True  # a hidden discard replayed as the world's lowest discard when legal (tests turn it off)


class Knowledge:
    """The facts of one view, as masks, computed once per decision and shared by every sample."""

    def __init__(self, rules, v: dict) -> None:
        self.rules = rules
        deck = rules.deck
        mask = deck.mask_of
        n = rules.players
        self.v = v
        self.me = me = v["seat"]
        self.acts = [(a["seat"], a["action"]) for a in v["actions"]]
        # the actions to replay in every sample, read once: (seat, notation, id or None for a hidden card)
        try:
            self.steps: list[tuple[Any, Any, int | None]] | None = [(seat, text, _parse(rules, text))
                                                                     for seat, text in self.acts]
        except OmbreError:  # no world replays an action that is none
            self.steps = None
        # what the seat is offered now and whether it knows its partner: both may follow from hidden cards (a
        # claim open only to a side with enough tricks, a declarer told his partner when the claim falls due)
        self.legal = [rules.parse_action(t) for t in v["legal"]] if v.get("legal") is not None else None
        self.partner = v.get("partner")
        self.played = [0] * n
        for seat, text in self.acts:
            if text.startswith("play "):
                self.played[seat] |= 1 << deck.parse(text[5:])
        known = [0] * n  # cards known to be in a seat's hand now
        known[me] = mask(v["hand"])
        for exposed in v.get("exposed_hands") or ([v["exposed"]] if v.get("exposed") else []):
            known[exposed["seat"]] |= mask(exposed["hand"])
        if v.get("stand_in_hand"):  # the hand the seat sitting out sees (sit_out.stand_in)
            known[v["stand_in"]["seat"]] |= mask(v["stand_in_hand"])
        all_played = 0
        for p in self.played:
            all_played |= p
        for sh in v.get("shown") or ():
            known[sh["seat"]] |= mask(sh["cards"]) & ~all_played
        if v.get("partner") is not None and v.get("called"):
            known[v["partner"]] |= mask([v["called"]]) & ~all_played
        # draws in order: (seat, cards drawn); a seat's draw takes as many cards as it discarded just before
        self.draws: list[tuple[int, int]] = []
        self.turn_from = 0  # the draws from which on the card turned now lies on the talon (after a take-over)
        pending = 0
        for a in v["actions"]:
            text = a["action"]
            if text.split()[0] == "discard":
                pending += 1
            elif text == "draw":
                self.draws.append((a["seat"], pending))
                pending = 0
            elif a["phase"] == "takeover" and text != "pass":
                self.turn_from = len(self.draws)
        talon_known = mask(v["leftover_shown"])
        self.turned = deck.parse(v["turned"]) if v.get("turned") else -1
        # the deal's turned card (deal.turn_up): passed to every world; a dealer's last card is his until
        # played; one turned on the talon's top is placed as a turned card is, there or with its first drawer
        self.turn_up = deck.parse(v["turn_up"]) if v.get("turn_up") else -1
        if self.turn_up >= 0:
            if rules.turn_up_from == "talon_top" and self.turned < 0:
                self.turned = self.turn_up
            elif rules.turn_up_from == "dealer_last" and v.get("turn_up_holder") is not None:
                known[v["turn_up_holder"]] |= (1 << self.turn_up) & ~all_played
        self.turned_to = -1
        if self.turned >= 0:
            first = next((s for s, k in self.draws[self.turn_from:] if k > 0), -1)
            if first < 0:
                talon_known |= 1 << self.turned
            elif first != me:
                self.turned_to = first
                known[first] |= (1 << self.turned) & ~all_played
        # cards that changed hands by a demand: (the demanded card, the card given for it or -1 if hidden from
        # this seat); the demanded card is the declarer's now, a given card I saw is some defender's
        self.decl = decl = v["declarer"]
        self.transfers: list[tuple[int, int]] = []
        asked = -1
        for seat, text in self.acts:
            verb, _, card = text.partition(" ")
            if verb in ("call", "demand") and card:
                asked = deck.parse(card)
            elif verb == "give" and seat == decl and asked >= 0:
                self.transfers.append((asked, deck.parse(card) if card else HIDDEN))
                asked = -1
        if asked >= 0 and v.get("legal") and all(a.startswith("give") for a in v["legal"]):
            self.transfers.append((asked, PENDING))  # the declarer is to give a card for it now
        self.given = 0  # given cards whose holder this seat does not know
        gone = 0  # demanded cards the declarer gave back for a later one
        for _x, g in self.transfers:
            gone |= 1 << g if g >= 0 else 0
        for x, g in self.transfers:
            known[decl] |= (1 << x) & ~all_played & ~gone
            if g >= 0 and not all_played >> g & 1 and not known[me] >> g & 1:
                self.given |= 1 << g
        self.known = known
        self.talon_known = talon_known
        self.my_discards = mask(v["my_discards"])
        self.my_draws = mask(v["my_draws"])
        self.voids = self._voids()
        seen = all_played | self.my_discards | talon_known | self.given
        for k in known:
            seen |= k
        if self.turned >= 0:
            seen |= 1 << self.turned
        self.unknown = deck.full_mask & ~seen
        self.need = [0 if s == me else v["hand_sizes"][s] - known[s].bit_count() for s in range(n)]
        self.disc_need = [0 if s == me else v["discard_counts"][s] for s in range(n)]
        self.talon_need = v["talon_size"] - talon_known.bit_count()
        self.consistent = self.steps is not None and (min(self.need + self.disc_need + [self.talon_need]) >= 0 and
                           sum(self.need) + sum(self.disc_need) + self.talon_need
                           == self.unknown.bit_count() + self.given.bit_count())

    def _voids(self) -> list[int]:
        """Per seat, the cards it cannot hold now: play showed an obligation did not bind it."""
        r = self.rules
        v = self.v
        voids = [0] * r.players
        plays = [(s, r.deck.parse(t[5:])) for s, t in self.acts if t.startswith("play ")]
        if not plays:
            return voids
        c = r.contract_by_name[v["contract"]]
        trump = r.deck.suit_by_name[v["trump"]] if v["trump"] else None
        ctx = r.context(c.ranking, trump)
        rows = ctx.follow(c.follow_id)
        nc = r.deck.size
        wins = len(rows) > nc  # the rules read the card winning the trick: their row follows it
        i = 0
        tricks = [t["cards"] for t in v["trick_history"]] + [v["current_trick"]]
        for cards in tricks:
            seq = plays[i:i + len(cards)]
            i += len(cards)
            if not seq:
                break
            led = seq[0][1]
            key = ctx.key[ctx.eff[led]]
            best = key[led]
            for seat, card in seq[1:]:
                for bind, must in rows[led]:
                    if must >> card & 1:
                        break
                    voids[seat] |= bind
                if wins and key[card] > best:
                    best = key[card]
                    led = row_after(led, card, nc, c.play.follow_highest, ctx.eff, True)
        return voids


Check = Callable[[State, int, int], bool]  # (world before the action, seat, action) -> keep the world


def sample(k: Knowledge, rng: random.Random, tries: int = 20, check: Check | None = None) -> State | None:
    """A world consistent with the knowledge, at the decision point; None when none was found. `check`, when
    given, is asked before each action of another seat that the seat saw taken (its card not hidden), as the
    world replays it: False drops the world (`infer.Inferred` weighs worlds by what the others chose)."""
    if not k.consistent:
        return None
    for _ in range(tries):
        w = _try(k, rng, check)
        if w is not None:
            return w
    return None


def _try(k: Knowledge, rng: random.Random, check: Check | None = None) -> State | None:
    r = k.rules
    bits = r.deck.bits  # the deck's table look-up, as cards.bits gives
    n = r.players
    me = k.me
    pool = bits(k.unknown)
    shuffle = _shuffler(rng)
    shuffle(pool)
    cur = list(k.known)
    need = list(k.need)
    holders = []  # per demand, the seat that handed the card over in this world
    for _x, g in k.transfers:
        h = _holder(k, g, cur, need, rng)
        if h < 0:
            return None
        if g >= 0 and k.given >> g & 1:
            cur[h] |= 1 << g
            need[h] -= 1
        holders.append(h)
    order = sorted((s for s in range(n) if need[s]), key=lambda s: -k.voids[s].bit_count())
    spare = sum(k.disc_need) + k.talon_need  # hidden cards that go to no hand: anything may lie there
    for i, s in enumerate(order):
        void = k.voids[s]
        ok = [c for c in pool if not void >> c & 1] if void else pool
        # cards no later seat may hold and the piles cannot all take: this seat must take them
        later = -1
        for t in order[i + 1:]:
            later &= k.voids[t]
        if later:
            forced = [c for c in ok if later >> c & 1][:max(0, len([c for c in pool if later >> c & 1]) - spare)]
            taken = set(forced)
            got = (forced + [c for c in ok if c not in taken])[:need[s]]
        else:  # none forced
            forced = []
            got = ok[:need[s]]
        if len(got) < need[s] or len(forced) > need[s]:
            return None
        for c in got:
            cur[s] |= 1 << c
        taken = set(got)
        pool = [c for c in pool if c not in taken]
    disc = [k.my_discards if s == me else 0 for s in range(n)]
    for s in range(n):
        for c in pool[:k.disc_need[s]]:
            disc[s] |= 1 << c
        pool = pool[k.disc_need[s]:]
    talon_rest = pool + bits(k.talon_known)
    shuffle(talon_rest)
    # what each seat drew, in the order of the draws
    drawn = [0] * n
    talon: list[int] = []
    placed = False  # the turned card is in the talon made so far: the first card of the first draw it was due in
    for i, (s, cnt) in enumerate(k.draws):
        due = k.turned >= 0 and not placed and i >= k.turn_from and cnt > 0
        if s == me:
            got = bits(k.my_draws & ~mask_of_ids(talon))
            got = got[:cnt]
        else:
            held = bits((cur[s] | k.played[s]) & ~drawn[s] & ~(1 << k.turned if k.turned >= 0 else 0))
            shuffle(held)
            got = held[:cnt]
            if due and s == k.turned_to:
                got = [k.turned] + got[:cnt - 1]
        if len(got) != cnt:
            return None
        if due and s == me and k.turned in got:
            got.remove(k.turned)
            got.insert(0, k.turned)
        placed = placed or due
        for c in got:
            drawn[s] |= 1 << c
        talon += got
    if k.turned >= 0 and not placed:
        talon_rest.remove(k.turned)
        talon_rest.insert(0, k.turned)
    talon += talon_rest
    owned = [cur[s] | k.played[s] | disc[s] for s in range(n)]
    gives = []
    for (x, g), h in zip(k.transfers, holders, strict=True):
        if g == HIDDEN:  # a card given out of my sight: any the holder has or has played, but the demanded ones
            mine = bits(owned[h] & ~mask_of_ids(x for x, _g in k.transfers))
            if not mine:
                return None
            g = rng.choice(mine)
        gives.append(g)
    for (x, _g), g, h in reversed(list(zip(k.transfers, gives, holders, strict=True))):  # undone, last first
        owned[k.decl] &= ~(1 << x)
        owned[h] |= 1 << x
        if g != PENDING:
            owned[k.decl] |= 1 << g
            owned[h] &= ~(1 << g)
    hands = [owned[s] & ~drawn[s] for s in range(n)]
    assert k.steps is not None  # worlds are sampled for a consistent view, whose actions all parse
    try:
        w = State(r, dealer=k.v["dealer"], pool=k.v["pool_before"], hands=hands, talon=talon,
                  session=k.v.get("session"), turn_up=k.turn_up if k.turn_up >= 0 else None)
        left = [bits(disc[s]) for s in range(n)]
        verbs = r.action_verbs
        for s, text, a in k.steps:
            if a is not None:
                if check is not None and s != me and not check(w, s, a):
                    return None
                w.apply(a)
                continue
            if text == "discard" and left[s] and FAST_DISCARDS:
                # the lowest of this world's discards, when legal: the one the search below would find first
                # (discards are listed by card, lowest first)
                a = r.A_DISCARD + left[s][0]
                if a in w.legal_actions():
                    del left[s][0]
                    w.apply(a)
                    continue
            choice = [a for a in w.legal_actions() if verbs[a] == text]
            if text == "give":  # a hidden give: the card this world gave
                g = gives.pop(0) if gives else PENDING
                choice = [a for a in choice if g >= 0 and a == r.A_GIVE + g]
            mine = [a for a in choice if a - r.A_DISCARD in left[s]]
            a = (mine or choice or [None])[0]
            if a is None:
                return None
            if a - r.A_DISCARD in left[s]:
                left[s].remove(a - r.A_DISCARD)
            w.apply(a)
    except OmbreError:
        return None
    if w.current_player != me or w.hands[me] != k.known[me] \
            or [h.bit_count() for h in w.hands] != k.v["hand_sizes"] \
            or (w.partner if partner_known(w, me) else None) != k.partner \
            or (k.legal is not None and w.legal_actions() != k.legal):
        return None
    return w


def _shuffler(rng: random.Random) -> Callable[[list], None]:
    """`rng.shuffle` of a `random.Random` as a function that draws the very numbers it draws (each index
    below a size by `getrandbits` of the size's bit length, again while too large), without its method calls
    per card (tests/test_bots.py compares the two); a generator of another kind shuffles with its own."""
    if type(rng) is not random.Random:
        return rng.shuffle
    getrandbits = rng.getrandbits

    def shuffle(x: list) -> None:
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]

    return shuffle


def _holder(k: Knowledge, g: int, cur: list[int], need: list[int], rng: random.Random) -> int:
    """The seat that handed a demanded card over and got `g` for it (HIDDEN: a card I did not see; PENDING:
    none yet): the one known to hold or to have played `g`, else one drawn among the other seats that may;
    -1 when none may."""
    seats = [s for s in range(len(cur)) if s != k.decl]
    if g >= 0 and not k.given >> g & 1:
        return next((s for s in seats if (cur[s] | k.played[s]) >> g & 1), -1)
    if g >= 0:
        may = [s for s in seats if need[s] > 0 and not k.voids[s] >> g & 1]
    else:
        may = [s for s in seats if s != k.me]
        if g == PENDING and may:  # the holder is a card short until the declarer gives one back
            held = {s: k.v["hand_sizes"][s] + k.played[s].bit_count() for s in may}
            least = min(held.values())
            may = [s for s in may if held[s] == least]
    return rng.choice(may) if may else -1


def _parse(r, text: str) -> int | None:
    """An action in notation; None for an action whose card is hidden from the viewer (the verb alone)."""
    if " " in text:
        return r.parse_action(text)
    try:
        return r.parse_action(text)
    except OmbreError:
        return None
