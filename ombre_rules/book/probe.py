"""Made-up ends of a deal, settled by the variant's compiled settlement: a deal steered to a contract and stopped
where play begins (`steer.reach`) is given the tricks, claims, top trumps, pool and defenders' decisions of a
situation, and the contract's settlement function runs on it as it runs at the end of a real deal. The
payment schedules (`schedule.py`) are tables of such situations."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..engine import State
from ..engine.phases import DONE
from ..envs import defenders, side_of
from .steer import reach

AS_REACHED = "as reached"  # a situation's trump: the suit the steered deal has


@dataclass(frozen=True)
class Situation:
    """The end of a deal, as far as a settlement reads it. `winners`: the seat that won each trick, in order;
    `run`: how many of the top trumps (from the first) the declarer's side held, or None as dealt; `out`: the
    defenders who passed (a mask); `doubles`: 0, 1 (doubled) or 2 (redoubled); `alone`: the declarer without
    the partner his call gave him."""

    winners: tuple[int, ...] = ()
    stopped: bool = False
    committed: bool = False
    conceded: bool = False
    pool: int = 0
    trump: Any = AS_REACHED
    run: int | None = None
    out: int = 0
    inviter: int = -1
    doubles: int = 0
    alone: bool = False
    taken: bool = False  # the declarer gave up and the first defender took his game over

    def but(self, **kw: Any) -> Situation:
        return replace(self, **kw)


@dataclass(frozen=True)
class Settled:
    """What a settlement gave: the outcome, each seat's payment, and the pool after it."""

    outcome: str
    payments: tuple[int, ...]
    pool: int
    carry: tuple = ()  # the values the session carries to the next deal, as the settlement leaves them


class Probe:
    """One contract's deal stopped where play begins, to settle made-up situations on."""

    def __init__(self, rules: Any, contract: Any, base: State) -> None:
        self.rules = rules
        self.contract = contract
        self.base = base
        self.declarer = base.declarer
        self.partner = base.partner if base.partner >= 0 else None
        # the declarer's partners: his called partner, or the rest of his team with `teams`
        self.mates = [s for s in side_of(base) if s != self.declarer]
        self.defenders = defenders(base)
        self.sitters = [s for s in range(base.n) if s != self.declarer and s not in self.mates
                        and s not in self.defenders]
        self.played = base.phase != DONE
        self.tricks = base.play_hands[self.declarer].bit_count() if self.played and base.play_hands else 0
        self.trump = base.trump

    @classmethod
    def of(cls, rules: Any, contract: Any) -> Probe | None:
        st = reach(rules, contract)
        return cls(rules, contract, st) if st is not None else None

    def trumps(self) -> list[Any]:
        """The trump suits the contract may be played in (those its `trump_allowed` allows in this deal);
        [AS_REACHED] when it has one or none."""
        c, rules = self.contract, self.rules
        if not self.played or c.trump_mode in ("fixed", "none"):
            return [AS_REACHED]
        suits = list(rules.deck.suits)
        if c.trump_allowed is not None:
            env = self.base.env()
            ok = []
            for s in suits:
                env.choice = s
                try:
                    if c.trump_allowed.fn(env):
                        ok.append(s)
                except Exception:  # noqa: BLE001 - a condition that needs what this deal lacks
                    ok.append(s)
            suits = ok or suits
        return suits if len(suits) > 1 else [suits[0]] if suits else [AS_REACHED]

    def side(self, alone: bool = False) -> list[int]:
        return [self.declarer] + ([] if alone else self.mates)

    def prepare(self, sit: Situation) -> State:
        """The deal as the situation ends it, but for the pool (`run` puts one in and settles)."""
        st = self.base.clone()
        rules = self.rules
        if sit.trump != AS_REACHED and sit.trump is not self.trump and self.played:
            st.trump = sit.trump
            st.ctx = rules.context(self.contract.ranking, sit.trump)
        if sit.alone:
            st.partner = -1
        if sit.taken:
            st.taken_from, st.declarer = st.declarer, self.defenders[0]
        hands = list(st.play_hands) if self.played else list(st.hands)
        dealt = list(st.deal_hands)
        if sit.run is not None and st.ctx is not None:
            _give_run(st, hands, dealt, self.side(sit.alone), sit.run)
        st.deal_hands = tuple(dealt)
        if self.played:
            st.play_hands = tuple(hands)
            _tricks(st, hands, sit)
        st.stopped, st.committed, st.conceded = sit.stopped, sit.committed, sit.conceded
        st.def_out = sit.out
        st.def_in = sum(1 << s for s in self.defenders if not sit.out >> s & 1)
        st.inviter = sit.inviter
        st.invited = (sum(1 << s for s in self.defenders if s != sit.inviter) if sit.inviter >= 0 else 0)
        st.doubles = sit.doubles
        st.doubler = self.defenders[0] if sit.doubles and self.defenders else -1
        return st

    def run(self, prepared: State, pool: int) -> Settled | None:
        """Settle a prepared deal with a pool, by the contract's compiled settlement (None when it fails on a
        situation no real deal reaches)."""
        st = prepared.clone()
        st.pool = pool
        st.pool_before = 0  # the pool held nothing before this deal's stakes
        st.payments = [0] * st.n
        try:
            outcome = st._run_block(self.contract.finish)
        except Exception:  # noqa: BLE001 - a made-up situation no deal reaches
            return None
        return Settled(str(outcome), tuple(st.payments), st.pool, st.carry_after)

    def settle(self, sit: Situation) -> Settled | None:
        """Settle one situation."""
        return self.run(self.prepare(sit), sit.pool)


def _give_run(st: State, hands: list[int], dealt: list[int], side: list[int], k: int) -> None:
    """Make the side hold exactly the first k cards of the trump order, the next ones going to the defenders in
    turn (so that who holds the highest trumps is the same whatever the suit), by swapping cards with other
    seats (or the talon), in the hands at play and as dealt alike; the called card stays where it is."""
    assert st.ctx is not None  # a deal whose trumps are fixed (the caller checks)
    order = st.ctx.trump_order
    others = [s for s in st.orders[side[0]] if s not in side] or [side[0]]
    fixed = 1 << st.called if st.called >= 0 else 0
    placed = fixed
    for i, c in enumerate(order[:k + len(others)]):
        bit = 1 << c
        target = side[0] if i < k else others[(i - k) % len(others)]
        placed |= bit
        held = next((s for s in range(st.n) if hands[s] & bit), None)
        if held == target or (i < k and held in side) or bit & fixed:
            continue
        spare = hands[target] & ~placed
        if not spare:
            continue
        low = spare & -spare
        _swap(hands, dealt, target, held, bit, low)


def _swap(hands: list[int], dealt: list[int], a: int, b: int | None, card_a_gets: int, card_b_gets: int) -> None:
    """Seat a gets one card (from seat b, or from outside every hand) and gives seat b (or nobody) another."""
    for masks in (hands, dealt):
        masks[a] = (masks[a] & ~card_b_gets) | card_a_gets
        if b is not None:
            masks[b] = (masks[b] & ~card_a_gets) | card_b_gets


def _tricks(st: State, hands: list[int], sit: Situation) -> None:
    """The tricks of a situation: each seat in play gives its cards in turn, fewest card points first, the
    winner as the situation says; the hands keep what is not played."""
    n = st.n
    deck = st.rules.deck
    left = list(hands)
    queues = {s: sorted(deck.bits(hands[s]), key=lambda c: (deck.cards[c].points, c)) for s in range(n)}
    playing = [s for s in st.orders[st.declarer] if not sit.out >> s & 1]
    leader = st.leader if st.leader in playing else playing[0]
    st.tricks = [0] * n
    st.won = [0] * n
    st.trick_log = []
    orders = {s: [t for t in st.orders[s] if t in playing] for s in playing}
    for w in sit.winners:
        cards = []
        mask = 0
        for s in orders[leader]:
            if queues[s]:
                c = queues[s].pop(0)
                left[s] ^= 1 << c
                mask |= 1 << c
                cards.append(c)
        st.tricks[w] += 1
        st.won[w] |= mask
        st.trick_log.append((leader, tuple(cards), w))
        leader = w
    st.hands = left
    st.hl = [deck.bits(h) for h in left]
