"""Worlds consistent with what a seat has seen: the hidden cards dealt anew so that replaying the deal's
public actions gives exactly the seat's view (its hand, every card played, the voids that play showed,
its own discards and draws, exposed and shown cards, a partner it knows)."""
from __future__ import annotations

import random

from ..cards import bits
from ..engine import State
from ..errors import OmbreError


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
        self.played = [0] * n
        for seat, text in self.acts:
            if text.startswith("play "):
                self.played[seat] |= 1 << deck.parse(text[5:])
        known = [0] * n  # cards known to be in a seat's hand now
        known[me] = mask(v["hand"])
        exposed = v.get("exposed")
        if exposed:
            known[exposed["seat"]] |= mask(exposed["hand"])
        all_played = 0
        for p in self.played:
            all_played |= p
        for sh in v.get("shown") or ():
            known[sh["seat"]] |= mask(sh["cards"]) & ~all_played
        if v.get("partner") is not None and v.get("called"):
            known[v["partner"]] |= mask([v["called"]]) & ~all_played
        # draws in order: (seat, cards drawn); a seat's draw takes as many cards as it discarded just before
        self.draws: list[tuple[int, int]] = []
        pending = 0
        for seat, text in self.acts:
            if text.split()[0] == "discard":
                pending += 1
            elif text == "draw":
                self.draws.append((seat, pending))
                pending = 0
        talon_known = mask(v["leftover_shown"])
        self.turned = deck.parse(v["turned"]) if v.get("turned") else -1
        self.turned_to = -1
        if self.turned >= 0:
            first = next((s for s, k in self.draws if k > 0), -1)
            if first < 0:
                talon_known |= 1 << self.turned
            elif first != me:
                self.turned_to = first
                known[first] |= (1 << self.turned) & ~all_played
        self.known = known
        self.talon_known = talon_known
        self.my_discards = mask(v["my_discards"])
        self.my_draws = mask(v["my_draws"])
        self.voids = self._voids()
        seen = all_played | self.my_discards | talon_known
        for k in known:
            seen |= k
        if self.turned >= 0:
            seen |= 1 << self.turned
        self.unknown = deck.full_mask & ~seen
        self.need = [0 if s == me else v["hand_sizes"][s] - known[s].bit_count() for s in range(n)]
        self.disc_need = [0 if s == me else v["discard_counts"][s] for s in range(n)]
        self.talon_need = v["talon_size"] - talon_known.bit_count()
        self.consistent = (min(self.need + self.disc_need + [self.talon_need]) >= 0 and
                           sum(self.need) + sum(self.disc_need) + self.talon_need == self.unknown.bit_count())

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
        rows = r.context(c.ranking, trump).follow(c.follow_id)
        i = 0
        tricks = [t["cards"] for t in v["trick_history"]] + [v["current_trick"]]
        for cards in tricks:
            seq = plays[i:i + len(cards)]
            i += len(cards)
            if not seq:
                break
            led = seq[0][1]
            for seat, card in seq[1:]:
                for bind, must, _table in rows[led]:
                    if must >> card & 1:
                        break
                    voids[seat] |= bind
        return voids


def sample(k: Knowledge, rng: random.Random, tries: int = 20) -> State | None:
    """A world consistent with the knowledge, at the decision point; None when none was found."""
    if not k.consistent:
        return None
    for _ in range(tries):
        w = _try(k, rng)
        if w is not None:
            return w
    return None


def _try(k: Knowledge, rng: random.Random) -> State | None:
    r = k.rules
    n = r.players
    me = k.me
    pool = bits(k.unknown)
    rng.shuffle(pool)
    cur = list(k.known)
    order = sorted((s for s in range(n) if k.need[s]), key=lambda s: -k.voids[s].bit_count())
    for s in order:
        got = [c for c in pool if not k.voids[s] >> c & 1][:k.need[s]]
        if len(got) < k.need[s]:
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
    rng.shuffle(talon_rest)
    # what each seat drew, in the order of the draws
    drawn = [0] * n
    talon: list[int] = []
    for s, cnt in k.draws:
        if s == me:
            got = bits(k.my_draws & ~_mask(talon))
            got = got[:cnt]
        else:
            held = bits((cur[s] | k.played[s]) & ~drawn[s] & ~(1 << k.turned if k.turned >= 0 else 0))
            rng.shuffle(held)
            got = held[:cnt]
            if s == k.turned_to and not talon:
                got = [k.turned] + got[:cnt - 1]
        if len(got) != cnt:
            return None
        if k.turned >= 0 and not talon and s == me and k.turned in got:
            got.remove(k.turned)
            got.insert(0, k.turned)
        for c in got:
            drawn[s] |= 1 << c
        talon += got
    if k.turned >= 0 and not talon:
        talon_rest.remove(k.turned)
        talon_rest.insert(0, k.turned)
    talon += talon_rest
    hands = [(cur[s] | k.played[s] | disc[s]) & ~drawn[s] for s in range(n)]
    try:
        w = State(r, dealer=k.v["dealer"], pool=k.v["pool_before"], hands=hands, talon=talon)
        left = [bits(disc[s]) for s in range(n)]
        for s, text in k.acts:
            a = _parse(r, text)
            if a is not None:
                w.apply(a)
                continue
            choice = [a for a in w.legal_actions() if r.action_str(a).split()[0] == text]
            mine = [a for a in choice if a - r.A_DISCARD in left[s]]
            a = (mine or choice or [None])[0]
            if a is None:
                return None
            if a - r.A_DISCARD in left[s]:
                left[s].remove(a - r.A_DISCARD)
            w.apply(a)
    except OmbreError:
        return None
    if w.current_player != me or w.hands[me] != k.known[me]:
        return None
    return w


def _parse(r, text: str) -> int | None:
    """An action in notation; None for an action whose card is hidden from the viewer (the verb alone)."""
    if " " in text:
        return r.parse_action(text)
    try:
        return r.parse_action(text)
    except OmbreError:
        return None


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m
