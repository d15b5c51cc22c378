"""Payment schedules, computed: for each contract, the compiled settlement run on made-up ends of a deal
(`probe.py`) — every split of the tricks, the claims, a concession, the defenders' decisions — with each
payment worked out at three sizes of the pool, so that it can be given as `a + b·P` (P: the pool when the deal
is settled). What a payment further depends on (the top trumps held, doubling, the order of the tricks, the
trump suit) is varied one quantity at a time around a representative case of each outcome."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from ..envs import DealEnv, defenders
from ..explain.evaluate import Evaluator
from .probe import AS_REACHED, Probe, Settled, Situation
from .reads import names_in, reads

POOLS = (600, 1200, 1800)  # the pools a payment is fitted on: multiples of 2 to 6, larger than any payout
_ZERO = Fraction(0)
RUNS = 12  # most top trumps tried
TRUMP_READS = frozenset({"trump", "trump_order", "is_trump", "suit", "outranks"})


@dataclass(frozen=True)
class Amount:
    """A payment (or the pool) as a + b·P, P the pool when the deal is settled."""

    a: int
    b: Fraction = Fraction(0)

    @staticmethod
    def fit(values: tuple[int, ...]) -> Amount | None:
        """The amount through the values at the pools POOLS, P, 2P and 3P (None when they are not on one
        line)."""
        v0, v1, v2 = values
        if v2 - v1 != v1 - v0:
            return None
        return Amount(2 * v0 - v1, Fraction(v1 - v0, POOLS[0]) if v1 != v0 else _ZERO)

    def text(self, signed: bool = True) -> str:
        """`+5`, `−5`, `+5 + P`, `−P`, `+P/2`, `0` (a payment); unsigned for the pool."""
        parts = []
        if self.a or not self.b:
            parts.append(_signed(self.a) if signed else str(self.a))
        if self.b:
            frac = "" if abs(self.b) == 1 else f"{abs(self.b.numerator)}" if self.b.denominator == 1 else \
                f"{abs(self.b.numerator)}/{self.b.denominator} " if abs(self.b.numerator) != 1 else ""
            p = f"{frac}P" if self.b.denominator == 1 else f"{frac}P/{self.b.denominator}"
            sign = "−" if self.b < 0 else "+"
            parts.append(f"{sign} {p}" if parts else (f"{sign}{p}" if signed or sign == "−" else p))
        return " ".join(parts)


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else f"−{-v}" if v < 0 else "0"


@dataclass(frozen=True)
class Case:
    """One situation settled: its words, the tricks by role, the outcome, each role's payment and the pool."""

    key: str
    tricks: tuple[int, ...]
    notes: str
    outcome: str
    amounts: tuple[Amount, ...]
    pool: Amount
    sit: Situation = field(compare=False, default=Situation())
    values: tuple[Any, ...] = ()  # the schedule's quantities (labels) in this case
    carry: str = ""  # what the settlement leaves the next deal (the session's carried values it changes), in words


@dataclass
class Schedule:
    """One contract's payments (for one group of trump suits): the roles (columns) and the cases."""

    contract: Any
    trumps: list[Any]
    roles: list[str]
    cases: list[Case] = field(default_factory=list)
    dims: dict[str, tuple[list[str], list[tuple[str, list[str]]]]] = field(default_factory=dict)
    factor: Fraction | None = None  # the amounts of the base schedule times this (a trump group that only scales)
    labels: list[str] = field(default_factory=list)  # the words of the quantities shown beside the tricks


class Roles:
    """The seats of a probe as roles: the declarer, his partner, the defenders (ordered by their tricks in each
    case, most first, then in seat order from the declarer), the seats sitting out."""

    def __init__(self, probe: Probe, words: Any) -> None:
        self.probe = probe
        self.mates = probe.mates
        self.defenders = probe.defenders
        self.sitters = probe.sitters
        letters = "ABCDEFG"
        names = [words.declarer] + [words.partner] * len(self.mates)
        if len(self.defenders) == 1:
            names.append(words.defender)
        else:
            names += [f"{words.defender} {letters[i]}" for i in range(len(self.defenders))]
        names += [words.sitter] * len(self.sitters)
        self.names = names

    def order(self, tricks: list[int], out: int = 0, st: Any = None) -> list[int]:
        """The seats in the columns' order for one case (a defender who passed after those who played); from the
        settled deal `st` when its declarer is another (a defender who took the game over)."""
        declarer = st.declarer if st is not None else self.probe.declarer
        side = [declarer] + self.mates
        defs = defenders(st) if st is not None else self.defenders
        if st is not None and st.taken_from >= 0:  # the defender who took over, the one who gave up, the other
            defs = [st.taken_from] + [s for s in defs if s != st.taken_from]
        else:
            defs = sorted(defs, key=lambda s: (out >> s & 1, -tricks[s]))
        return side + defs + self.sitters


def carried(rules: Any, st: Any, order: list[int], words: Any) -> str:
    """The session's values a settled deal changes for the next one, in words: a value kept by seat
    (`by_seat`) as the change of each role's, any other as its new value (`the NAME: VALUE`)."""
    carry = rules.carry
    if carry is None:
        return ""
    out = []
    for i, name in enumerate(carry.names):
        before, after = st.carry[i], st.carry_after[i]
        if before == after:
            continue
        what = words.terms.get(name) or name.replace("_", " ")
        if name in carry.by_seat and isinstance(after, list) and len(after) == rules.players:
            old = list(before) + [0] * (len(after) - len(before))
            out.append(f"{what} " + " · ".join(_signed(after[s] - old[s]) for s in order))
        else:
            shown = "the trump suit" if after is not None and after is st.trump else getattr(after, "name", after)
            out.append(f"{what}: {'none' if shown in (None, '', []) else shown}")
    return "; ".join(out)


def _holds(probe: Probe, expr: Any) -> bool:
    """Whether a play condition holds where the probe's deal begins play (true without one, or when it fails)."""
    if expr is None:
        return True
    try:
        return bool(probe.base.eval(expr))
    except Exception:  # noqa: BLE001 - a condition that needs more of the deal than its start
        return True


def _value(st: Any, expr: Any) -> Any:
    """A let's value at the end of a made-up deal (by the evaluator that explains accounts)."""
    try:
        return Evaluator(st.rules, DealEnv(st, st.ctx)).value(expr)
    except Exception:  # noqa: BLE001 - a value a made-up deal cannot give
        return None


def _even(total: int, n: int) -> tuple[int, ...]:
    """`total` shared by n as evenly as may be, the larger shares first."""
    return tuple(total // n + (1 if i < total % n else 0) for i in range(n)) if n else ()


def _rr(counts: dict[int, int], seats: list[int]) -> tuple[int, ...]:
    """Winners taking their tricks in turn (round robin), so that nobody wins a run of early tricks he need not."""
    left = dict(counts)
    out: list[int] = []
    while any(left.values()):
        for s in seats:
            if left.get(s):
                out.append(s)
                left[s] -= 1
    return tuple(out)


def splits(total: int, n_side: int, n_def: int) -> list[tuple[int, ...]]:
    """Every split of `total` tricks among the side's seats and the defenders, the defenders' tricks in
    non-increasing order (the others are the same split with the defenders' names swapped)."""
    out = []
    for side in product(range(total + 1), repeat=n_side):
        rest = total - sum(side)
        if rest < 0:
            continue
        for defs in _parts(rest, n_def, rest):
            out.append(side + defs)
    return out


MOST_SPLITS = 400  # splits of the tricks settled for one kind of case; beyond it the defenders' split evenly


def some_splits(total: int, n_side: int, n_def: int) -> list[tuple[int, ...]]:
    """The splits of `splits`, or when there are more than MOST_SPLITS (a big pack, many seats), each split of
    the side's tricks with the rest shared as evenly as may be among the defenders, and given to one of them."""
    from math import comb

    if comb(total + n_side + n_def - 1, n_side + n_def - 1) <= MOST_SPLITS:
        return splits(total, n_side, n_def)
    out = []
    for side in product(range(total + 1), repeat=n_side):
        rest = total - sum(side)
        if rest >= 0:
            out.append(side + _even(rest, n_def))
            if n_def > 1:
                out.append(side + (rest,) + (0,) * (n_def - 1))
    return list(dict.fromkeys(out))[:MOST_SPLITS]


def _parts(total: int, n: int, cap: int) -> list[tuple[int, ...]]:
    if n == 0:
        return [()] if total == 0 else []
    return [(first,) + rest for first in range(min(total, cap), -1, -1) for rest in _parts(total - first, n - 1, first)]


CARD_CONTENT = frozenset({"pile", "won", "points", "discards"})  # what card points are read through
HAND_READS = frozenset({"prefix_len", "final_hand", "dealt_hand", "play_holder", "holder", "hand"})
ORDER_READS = frozenset({"early_tricks", "trick_winners"})


class Builder:
    """Works out the schedules of one ruleset."""

    def __init__(self, rules: Any, words: Any) -> None:
        self.rules = rules
        self.words = words

    def situations(self, probe: Probe, read: set[str]) -> list[tuple[str, Situation]]:
        """The base cases of a contract: every split (taken in turn), the claims, a concession, the defenders'
        decisions, and (when the settlement reads them) the tricks won first or last; each with its notes."""
        c, rules, w = probe.contract, self.rules, self.words
        if not probe.played:
            return [("", Situation())]
        side = probe.side()
        seats = side + probe.defenders
        out: list[tuple[str, Situation]] = []
        for sp in some_splits(probe.tricks, len(side), len(probe.defenders)):
            out.append(("", Situation(_rr(dict(zip(seats, sp, strict=True)), seats))))
        if read & (CARD_CONTENT | ORDER_READS):  # the richest (last) or poorest (first) tricks, or a run of them
            for mine in range(probe.tricks + 1):
                counts = dict(zip(seats, (mine,) + (0,) * (len(side) - 1)
                                  + _even(probe.tricks - mine, len(probe.defenders)), strict=True))
                theirs = _rr({s: n for s, n in counts.items() if s != probe.declarer}, seats)
                out.append((w.first(), Situation((probe.declarer,) * mine + theirs)))
                out.append((w.last(), Situation(theirs + (probe.declarer,) * mine)))
        claim = c.play.claim
        if claim is not None:
            k = claim[0]
            out.append((w.stopped(k), Situation((probe.declarer,) * k, stopped=True)))
            for sp in some_splits(probe.tricks - k, len(side), len(probe.defenders)):
                rest = _rr(dict(zip(seats, sp, strict=True)), seats)
                out.append((w.committed(), Situation((probe.declarer,) * k + rest, committed=True)))
        concede = c.play.concede
        if concede is not None and not _holds(probe, concede[1]):
            concede = None
        sur = c.play.surrender
        if concede is not None or sur is not None and _holds(probe, sur.when):
            out.append((w.conceded(), Situation(conceded=True)))
        taken = concede is not None and concede[3] is not None and _holds(probe, concede[3])
        if sur is not None and sur.takeover is not None and _holds(probe, sur.when):
            taken = True  # a surrender taken over: the game played by another seat, the one who gave up defends
        if taken and probe.defenders:
            taker = probe.defenders[0]
            ring = [taker] + [x for x in seats if x != taker]
            for sp in some_splits(probe.tricks, len(seats), 0):
                out.append((w.taken(), Situation(_rr(dict(zip(ring, sp, strict=True)), ring), taken=True)))
        if rules.defence is not None and len(probe.defenders) > 1:
            defs = probe.defenders
            for i, d in enumerate(defs):
                others = [s for s in seats if s != d]
                for sp in some_splits(probe.tricks, len(side), len(defs) - 1):
                    out.append((w.passed(i), Situation(_rr(dict(zip(others, sp, strict=True)), others),
                                                       out=1 << d)))
            out.append((w.passed(-1), Situation(out=sum(1 << d for d in defs))))
            if rules.defence.invite:
                for sp in some_splits(probe.tricks, len(side), len(defs)):
                    out.append((w.invited(), Situation(_rr(dict(zip(seats, sp, strict=True)), seats),
                                                       inviter=defs[-1])))
        return out

    def settle(self, probe: Probe, sit: Situation) -> tuple[str, list[Amount], Amount, list[int], Any] | None:
        """A situation settled at the three pools: its outcome, each seat's payment and the pool as amounts,
        the tricks by seat, and the deal as it was settled."""
        got: list[Settled] = []
        prepared = probe.prepare(sit)
        for p in POOLS:
            s = probe.run(prepared, p)
            if s is None or (got and s.outcome != got[0].outcome):
                return None
            got.append(s)
        pays = []
        for seat in range(len(got[0].payments)):
            a = Amount.fit(tuple(s.payments[seat] for s in got))
            if a is None:
                return None
            pays.append(a)
        pool = Amount.fit(tuple(s.pool for s in got))
        if pool is None:
            return None
        prepared.carry_after = got[0].carry  # kept with the deal for the words of what it leaves the next one
        return got[0].outcome, pays, pool, list(prepared.tricks), prepared

    def schedule(self, probe: Probe, trump: Any, read: set[str], labels: dict[str, Any]) -> Schedule:
        roles = Roles(probe, self.words)
        sch = Schedule(probe.contract, [], roles.names)
        sch.labels = list(labels)
        seen: set[str] = set()
        for notes, sit in self.situations(probe, read):
            sit = sit.but(trump=trump, run=0)
            got = self.settle(probe, sit)
            if got is None:
                continue
            outcome, pays, pool, tricks, st = got
            order = roles.order(tricks, sit.out, st)
            shown = tuple(tricks[s] for s in order[:len(order) - len(roles.sitters)])
            values = tuple(_value(st, e) for e in labels.values())
            key = " · ".join(map(str, shown)) + "".join(f", {v}" for v in values) + (f" ({notes})" if notes else "")
            if key in seen:
                continue
            seen.add(key)
            sch.cases.append(Case(key, shown, notes, outcome, tuple(pays[s] for s in order), pool, sit, values,
                                  carried(self.rules, st, order, self.words)))
        return sch

    def contract(self, c: Any) -> list[Schedule] | None:
        """The schedules of one contract: one per group of trump suits that pay differently (the groups after
        the first keep the factor their amounts are the first's times, when they are), or None when no deal
        reaches the contract."""
        probe = Probe.of(self.rules, c)
        if probe is None:
            return None
        read = reads(self.rules, c)
        labels = self.quantities(c)
        groups: list[Schedule] = []
        trumps = probe.trumps()
        if not read & (TRUMP_READS | set(self.rules.spec.data.get("names") or {})):
            trumps = trumps[:1]  # the settlement reads nothing of the trump suit
        for t in trumps:
            same = next((g for g in groups if self._alike(probe, g, t)), None)
            if same is not None:
                same.trumps.append(t)
                continue
            sch = self.schedule(probe, t, read, labels)
            sch.trumps.append(t)
            groups.append(sch)
        if len(trumps) < len(probe.trumps()):
            groups[0].trumps = probe.trumps()
        groups.sort(key=lambda g: -len(g.trumps))  # the most common payments first, the others by factor
        for g in groups[1:]:
            g.factor = _factor(groups[0], g)
        self.dimensions(probe, groups[0], read)
        return groups

    def quantities(self, c: Any) -> dict[str, Any]:
        """The values the outcomes' conditions read that count the cards won (a let reading card points): their
        words and expressions, shown beside the tricks."""
        data = self.rules.spec.data
        lets = {**(data.get("let") or {}), **((data.get("scoring") or {}).get("let") or {})}
        out = {}
        outs = data
        for k in c.outcomes_path:
            outs = outs[k]
        for o in outs:
            for name in sorted(names_in(o.get("when"), self.rules.spec.options) & set(lets)):
                if names_in(lets[name], self.rules.spec.options) & CARD_CONTENT:
                    out[self.words.say.words.get(name, name)] = lets[name]
        return out

    def _alike(self, probe: Probe, sch: Schedule, trump: Any) -> bool:
        """Whether a trump suit pays as a schedule's: its representative cases (and a few more) settle alike."""
        cases = list(representatives(sch).values()) + sch.cases[::max(1, len(sch.cases) // 8)]
        for case in cases:
            got = self.settle(probe, case.sit.but(trump=trump))
            if got is None or got[0] != case.outcome or got[2] != case.pool \
                    or tuple(got[1][s] for s in Roles(probe, self.words).order(got[3], case.sit.out, got[4])) \
                    != case.amounts:
                return False
        return True

    def dimensions(self, probe: Probe, sch: Schedule, read: set[str]) -> None:
        """What the top trumps held and doubling change, for a representative case of each outcome."""
        reps = representatives(sch)
        trump = sch.trumps[0]
        base = {o: case.sit for o, case in reps.items()}
        if probe.played and sch.trumps[0] is not None and read & HAND_READS:
            ctx = self.rules.context(sch.contract.ranking, trump) if trump != AS_REACHED else probe.base.ctx
            most = min(RUNS, len(ctx.trump_order) - 1, probe.tricks) if ctx is not None else 0
            got = self._varied(probe, base, [(str(k), {"run": k}) for k in range(most + 1)])
            if got:
                sch.dims["run"] = _cut(*got, self.words.each_further)
        if self.rules.doubling is not None:
            w = self.words
            got = self._varied(probe, base, [(w.doubling(d), {"doubles": d}) for d in range(3)])
            if got:
                sch.dims["doubles"] = (got[0], [(o, [_text(a) for a in row]) for o, row in got[1]])

    def _varied(self, probe: Probe, base: dict[str, Situation], values: list[tuple[str, dict]]
                ) -> tuple[list[str], list[tuple[str, list[Amount | None]]]] | None:
        """A 2-D table: the representative case of each outcome (rows) with one quantity set to each value
        (columns), the declarer's payment in each cell; None when no cell differs from its row's first."""
        rows = []
        changed = False
        for o, sit in base.items():
            cells: list[Amount | None] = []
            for _label, kw in values:
                got = self.settle(probe, sit.but(**kw))
                cells.append(got[1][probe.declarer] if got is not None and got[0] == o else None)
            changed |= len(set(cells)) > 1
            rows.append((o, cells))
        return ([label for label, _kw in values], rows) if changed else None


def representatives(sch: Schedule) -> dict[str, Case]:
    """Per outcome, the case in the middle of its cases by the declarer's tricks (the first for a claim)."""
    by: dict[str, list[Case]] = {}
    for case in sch.cases:
        by.setdefault(case.outcome, []).append(case)
    out = {}
    for o, cases in by.items():
        plain = [c for c in cases if not c.notes] or cases
        plain = sorted(plain, key=lambda c: (c.tricks[0], max(c.tricks[1:], default=0)))
        out[o] = plain[len(plain) // 2]
    return out


def _same(a: Schedule, b: Schedule) -> bool:
    return [(c.key, c.outcome, c.amounts, c.pool) for c in a.cases] == [(c.key, c.outcome, c.amounts, c.pool)
                                                                       for c in b.cases]


def _factor(a: Schedule, b: Schedule) -> Fraction | None:
    """The number b's amounts are a's times, when every one is (the pool's part unchanged)."""
    if [(c.key, c.outcome) for c in a.cases] != [(c.key, c.outcome) for c in b.cases]:
        return None
    f: Fraction | None = None
    for ca, cb in zip(a.cases, b.cases, strict=True):
        for x, y in zip(ca.amounts, cb.amounts, strict=True):
            if x.b != y.b:
                return None
            if x.a == 0:
                if y.a != 0:
                    return None
                continue
            r = Fraction(y.a, x.a)
            if f is None:
                f = r
            elif r != f:
                return None
    return f


def _text(a: Amount | None) -> str:
    return a.text() if a is not None else "—"


def _cut(labels: list[str], rows: list[tuple[str, list[Amount | None]]], more: str
         ) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """A table by the number of top trumps, cut where every row goes on by a steady step: the columns up to
    there, and one for each further top trump (each row's step)."""
    n = len(labels)
    for m in range(n - 1):
        step: dict[str, int] = {}
        for o, cells in rows:
            tail = cells[m:]
            if None in tail or len({c.b for c in tail if c is not None}) > 1:
                break
            diffs = {y.a - x.a for x, y in zip(tail, tail[1:], strict=False) if x is not None and y is not None}
            if len(diffs) > 1:
                break
            step[o] = diffs.pop() if diffs else 0
        else:
            if m + 2 < n:
                return (labels[:m + 2] + [more],
                        [(o, [_text(a) for a in cells[:m + 2]] + [_signed(step[o]) if step[o] else "no more"])
                         for o, cells in rows])
            break
    return labels, [(o, [_text(a) for a in cells]) for o, cells in rows]
