"""Seats and dealing: who sits a deal out (`sit_out.who`), the fixed partnerships (`teams`), the ring and order
of play of the seats that take part, and the generated function that deals a shuffled deck in `deal.packets`
(a packet to each seat in turn, or one to the talon between them) with a `deal.talon`."""
from __future__ import annotations

from collections.abc import Callable

from ..errors import SpecError
from ..lang import Site
from ..lang import types as T
from .base import RulesetBase
from .fields import DealFunction


class SeatsEnv:
    """What a `sit_out.who` expression sees: the dealer and the number of seats at the table."""

    __slots__ = ("dealer", "seats")

    def __init__(self, dealer: int, seats: int) -> None:
        self.dealer = dealer
        self.seats = seats


def hand_packets(deal: dict) -> list[int]:
    """`deal.packets` without the packets dealt to the talon: the cards each seat gets, packet by packet."""
    return [k for k in deal["packets"] if not isinstance(k, dict)]


class DealPart(RulesetBase):
    """The ruleset's part that fixes the seats of each deal and how it is dealt."""

    def _deal_function(self) -> DealFunction:
        """A generated function dealing a shuffled deck in packets from the seat after the dealer, round the
        seats that take part in the deal: (deck order, dealer) -> (hand masks by seat, sorted hands by seat,
        talon), all fresh lists; a seat sitting out gets an empty hand."""
        n = self.active
        packets = self.spec.data["deal"]["packets"]
        per_seat: list[list[int]] = [[] for _ in range(n)]
        talon_at: list[int] = []  # the deck positions of the talon's cards, in the order they are dealt
        pos = 0
        for k in packets:
            if isinstance(k, dict):  # a packet to the talon, between the seats' packets
                talon_at += range(pos, pos + k["talon"])
                pos += k["talon"]
                continue
            for rel in range(n):
                per_seat[rel] += list(range(pos, pos + k))
                pos += k
        if pos > self.deck.size:
            raise SpecError(f"the deal gives out {pos} cards; the deck has {self.deck.size}",
                            self.loc(("deal", "packets")))
        talon = self.spec.data["deal"].get("talon", "rest")
        if talon != "rest" and len(talon_at) + self.deck.size - pos != int(talon):
            between = f" to the seats, {len(talon_at)} to the talon between them," if talon_at else ""
            raise SpecError(f"the deal gives out {pos - len(talon_at)} cards{between} and a talon of "
                            f"{talon}; the deck has {self.deck.size}", self.loc(("deal", "talon")))
        talon_at += range(pos, self.deck.size)  # what is left after the last packet ends the talon
        rest = (f"d[{pos}:]" if talon_at == list(range(pos, self.deck.size))
                else "[" + ", ".join(f"d[{i}]" for i in talon_at) + "]")
        env = {"_B": [1 << c for c in range(self.deck.size)], "_s": sorted}
        by_dealer: list[Callable[[list[int]], tuple[list[int], list[list[int]], list[int]]]] = []
        self.turn_up_at = []
        for dealer in range(self.players):
            # the packets go round the seats that play, from the one after the dealer
            order = self.orders[dealer][self.rings[dealer][dealer]]
            own = [per_seat[order.index(s)] if s in order else [] for s in range(self.players)]
            self.turn_up_at.append(self._turn_up_at(own[dealer], talon_at))
            masks = ", ".join("|".join(f"_B[d[{i}]]" for i in idx) or "0" for idx in own)
            lists = ", ".join("_s([" + ", ".join(f"d[{i}]" for i in idx) + "])" for idx in own)
            by_dealer.append(eval(f"lambda d: ([{masks}], [{lists}], {rest})", env))  # noqa: S307 - integers only

        def deal(deck: list[int], dealer: int) -> tuple[list[int], list[list[int]], list[int]]:
            return by_dealer[dealer](deck)
        return deal

    def _turn_up_at(self, dealer_own: list[int], talon_at: list[int]) -> int:
        """Where in the deck order the card `deal.turn_up` turns lies, for one dealer: the first of the talon
        (talon_top), the last card dealt to the dealer (dealer_last); -1 for none or a second pack's card."""
        kind = self.turn_up_from
        if kind == "talon_top":
            if not talon_at:
                raise SpecError("deal.turn_up is talon_top but the deal leaves no talon",
                                self.loc(("deal", "turn_up")))
            return talon_at[0]
        if kind == "dealer_last":
            if not dealer_own:
                raise SpecError("deal.turn_up is dealer_last but the dealer sits out and gets no cards",
                                self.loc(("deal", "turn_up")))
            return dealer_own[-1]
        return -1

    def _teams(self) -> None:
        """The fixed partnerships (`teams`): every seat in exactly one team, at least two teams, no seat
        sitting a deal out (a team would change from deal to deal)."""
        self.teams = self.team_of = None
        given = self.spec.data.get("teams")
        if given is None:
            return
        n = self.players
        seats = [s for team in given for s in team]
        if sorted(seats) != list(range(n)) or len(given) < 2:
            self._errors.append(SpecError(f"teams must put each seat from 0 to {n - 1} in exactly one of at least "
                                          f"two teams; they give {given!r}", self.loc(("teams",))))
            return
        if self.sitters[0]:
            self._errors.append(SpecError("teams cannot be declared when seats sit a deal out (sit_out)",
                                          self.loc(("teams",))))
            return
        self.teams = tuple(tuple(sorted(team)) for team in given)
        team_of = [0] * n
        for i, team in enumerate(self.teams):
            for s in team:
                team_of[s] = i
        self.team_of = tuple(team_of)

    def _check_teams(self) -> None:
        """Fixed partnerships leave no contract a partner by a called card (the side is the declarer's team)."""
        if self.teams is None:
            return
        for c in self.contracts:
            if c.call is not None and not c.call.demand:
                at = ("contracts", c.name, "call") if "call" in self.spec.data["contracts"][c.name] else ("call",)
                self._errors.append(SpecError(f"contract '{c.name}' calls a partner, but the partnerships are fixed "
                                              f"(teams)", self.loc(at)))
                return

    def _sit_out(self) -> None:
        """Per dealer: the seats that sit the deal out (`sit_out.who`), the ring of the seats that play, and
        each seat's order of play round that ring."""
        n = self.players
        self.sitters = [()] * n
        e = self._expr(("sit_out", "who"), Site("sit_out.who", frozenset({"dealer", "seats"}), frozenset(),
                                                names=False, result=T.SEATS))
        if e is not None and not self._errors:
            for d in range(n):
                try:
                    v = e.fn(SeatsEnv(d, n))
                except Exception as ex:
                    self._errors.append(SpecError(f"expression '{e.text}' failed for dealer {d}: {ex}", e.loc))
                    break
                seats = [] if v is None else (list(v) if isinstance(v, (list, tuple)) else [v])
                if any(type(x) is not int or not 0 <= x < n for x in seats) or len(set(seats)) != len(seats):
                    self._errors.append(SpecError(f"expression '{e.text}' gives {v!r} for dealer {d}, not "
                                                  f"distinct seats from 0 to {n - 1}", e.loc))
                    break
                self.sitters[d] = tuple(sorted(seats))
            counts = {len(x) for x in self.sitters}
            if not self._errors and (len(counts) > 1 or n - counts.pop() < 2):
                self._errors.append(SpecError(f"expression '{e.text}' must name the same number of seats for "
                                              f"every dealer and leave at least two to play", e.loc))
        if self._errors:
            self.sitters = [()] * n
        self.active = n - len(self.sitters[0])
        seat = T.num(0, n - 1)  # the compiler knows how many sit out and how many play (unless sit_out is wrong)
        self.namespace.var_vals.update(sitters=T.seq(seat, n - self.active, n - self.active) if not self._errors
                                       else T.QUIET, players=T.seq(seat, n, self.active))
        self.rings = []
        self.orders = []
        for d in range(n):
            ring, orders = ring_of(n, set(self.sitters[d]))
            self.rings.append(ring)
            self.orders.append(orders)

    def sitting(self, dealer: int, stand_for: int) -> tuple[int, ...]:
        """The seats sitting a deal out: those `sit_out.who` names, unless the seat sitting out has taken the hand
        of the seat `stand_for` (`sit_out.stand_in`; -1: he has not), which then sits out in his place."""
        if stand_for < 0 or self.stand_in is None:
            return self.sitters[dealer]
        return self.stand_in.sitters[dealer]


def ring_of(n: int, out: set[int]) -> tuple[list[int], list[tuple[int, ...]]]:
    """The ring of the seats that play when the seats `out` sit out (by seat: the next seat in play after it)
    and each seat's order of play round it (a seat sitting out starts at the next seat in play)."""
    ring = []
    for s in range(n):
        t = (s + 1) % n
        while t in out:
            t = (t + 1) % n
        ring.append(t)
    orders = []
    for s in range(n):
        seq = [s if s not in out else ring[s]]
        while len(seq) < n - len(out):
            seq.append(ring[seq[-1]])
        orders.append(tuple(seq))
    return ring, orders
