"""Outcome statistics of a run of deals, with 95% confidence intervals, accumulated as the deals stream in (a
run keeps no result line: counts, sums and sums of squares, and one small code a deal for the resampled
interval). Metric names follow Ludii's where they mean the same thing (Duration, Drawishness, Balance,
AdvantageP1, LeadChange, Drama, DecisionMoves: `GLOSSARY` says how each is measured here); WinnerShare is
this package's own."""
from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable

from ..engine.settle import PASSED_OUT
from .inference import Z95, bca


def wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n.

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + Z95 ** 2 / n
    mid = (p + Z95 ** 2 / (2 * n)) / d
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    # rounding may put a bound a hair past p when k is 0 or n; an interval always holds its estimate
    return (min(p, max(0.0, mid - half)), max(p, min(1.0, mid + half)))


def share(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"count": k, "rate": k / n if n else 0.0, "ci": [lo, hi]}


def _sqrt_ratio(num: int, den: int) -> float:
    """The square root of num/den (integers, num >= 0, den > 0) correctly rounded: rounded to odd on at least 55
    bits, then once to a float.

    >>> _sqrt_ratio(2, 1) == 2 ** 0.5, _sqrt_ratio(9, 4)
    (True, 1.5)
    """
    s = max(0, (110 - num.bit_length() + den.bit_length()) // 2 + 1)
    x, rem = divmod(num << 2 * s, den)
    r = math.isqrt(x)
    if rem or r * r != x:
        r |= 1
    return r / (1 << s)


class Moments:
    """Count, sum and sum of squares of a stream of numbers: their mean, sd and 95% interval without keeping
    them. The squares are taken about the first number (so that floats lose little to cancellation); sums of
    integers stay exact, so their sd is the correctly rounded one. The mean is the plain sum's, in arrival
    order (that of `sum(xs) / len(xs)`)."""

    __slots__ = ("n", "s", "k", "t", "q")

    def __init__(self) -> None:
        self.n = 0
        self.s: float = 0  # the sum
        self.k: float = 0  # the first number, the shift
        self.t: float = 0  # the sum of x - k
        self.q: float = 0  # the sum of (x - k) ** 2

    def add(self, x: float) -> None:
        if not self.n:
            self.k = x
        self.n += 1
        self.s += x
        y = x - self.k
        self.t += y
        self.q += y * y

    @staticmethod
    def merged(parts: Iterable[Moments]) -> Moments:
        """The moments of several streams taken together (shifted to the first one's first number)."""
        out = Moments()
        for m in parts:
            if not m.n:
                continue
            if not out.n:
                out.k = m.k
            d = m.k - out.k
            out.n += m.n
            out.s += m.s
            out.q += m.q + 2 * d * m.t + m.n * d * d
            out.t += m.t + m.n * d
        return out

    def mean_sd(self) -> tuple[float, float]:
        n, t, q = self.n, self.t, self.q
        if not n:
            return (0.0, 0.0)
        if n < 2:
            return (self.s / n, 0.0)
        if isinstance(t, int) and isinstance(q, int):
            return (self.s / n, _sqrt_ratio(n * q - t * t, n * (n - 1)))
        return (self.s / n, math.sqrt(max(0.0, (q - t * t / n) / (n - 1))))

    def ci(self) -> dict:
        """Mean, sd and the 95% normal interval of the mean."""
        m, sd = self.mean_sd()
        half = Z95 * sd / math.sqrt(self.n) if self.n else 0.0
        return {"mean": m, "sd": sd, "ci": [m - half, m + half]}


def position_names(players: int) -> list[str]:
    """Names of the positions relative to the dealer, in the order of play: forehand first, the dealer last.

    >>> position_names(3)
    ['forehand', '2nd after the dealer', 'dealer']
    """
    return ["forehand"] + [f"{k}{_th(k)} after the dealer" for k in range(2, players)] + ["dealer"]


def _th(k: int) -> str:
    return {2: "nd", 3: "rd"}.get(k, "th")


def _leads(winners: list[int], payments: list[int], players: int) -> tuple[float, float]:
    """LeadChange and Drama of a deal, in one pass over its trick winners (see `lead_change`, `drama`)."""
    tricks = [0] * players
    last = len(winners) - 1
    changes = lone_losers = 0
    prev: tuple[int, ...] = ()
    for t, w in enumerate(winners):
        tricks[w] += 1
        top = max(tricks)
        lead = tuple(s for s in range(players) if tricks[s] == top)
        if t and lead != prev:
            changes += 1
        if t < last and len(lead) == 1 and payments[lead[0]] < 0:
            lone_losers += 1
        prev = lead
    return (changes / last, lone_losers / last) if last > 0 else (0.0, 0.0)


def lead_change(x: dict, players: int) -> float:
    """Share of a deal's tricks after the first at which the seats leading in tricks changed (LeadChange)."""
    return _leads(x["winners"], x["payments"], players)[0]


def drama(x: dict, players: int) -> float:
    """Share of a deal's tricks before the last after which a seat that ends with a net loss led alone in
    tricks (Drama)."""
    return _leads(x["winners"], x["payments"], players)[1]


def win_score(p: int) -> float:
    """A seat's result in a deal: 1 for a net gain, 0.5 for none, 0 for a loss."""
    return 1.0 if p > 0 else 0.5 if p == 0 else 0.0


def per_deal(x: dict, players: int) -> dict[str, float | None]:
    """A deal's own value of each metric that is a mean over deals (used for paired differences and per-deal
    rows); None where the metric counts played deals only and this one was passed out (the declarer's payment
    is 0 when nobody declares)."""
    pays = x["payments"]
    first = x["dealer"] + 1
    played = x["contract"] is not None
    lc, dr = _leads(x["winners"], pays, players) if played else (None, None)
    out: dict[str, float | None] = {"pass_out_rate": float(not played),
           "declarer_payment": float(pays[x["declarer"]]) if played else 0.0,
           "WinnerShare": float(max(pays) > 0),
           "AdvantageP1": win_score(pays[first % players]),
           "Duration": float(x["actions"]),
           "LeadChange": lc,
           "Drama": dr,
           "DecisionMoves": x["choices"] / x["decisions"] if x["decisions"] else 0.0}
    for k in range(players):
        out[f"payment_position_{k}"] = pays[(first + k) % players]
    return out


class Scores:
    """Each deal's win score by position from the dealer (a loss, no payment, a gain: 0, 1, 2 halves) as one
    small base-3 code a deal, for Balance and its resampled interval."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.codes = array(next(t for t in "BHIQ" if 3 ** players <= 256 ** array(t).itemsize))
        self.halves = [0] * players  # half-points by position

    def add(self, x: dict) -> None:
        pays, n = x["payments"], self.players
        code = 0
        for k in range(n - 1, -1, -1):
            p = pays[(x["dealer"] + 1 + k) % n]
            h = 2 if p > 0 else 1 if p == 0 else 0
            self.halves[k] += h
            code = code * 3 + h
        self.codes.append(code)

    def win_rates(self) -> list[float]:
        """Each position's win rate (no payment counts half)."""
        n = len(self.codes)
        return [h / 2 / n if n else 0.0 for h in self.halves]

    def balance(self) -> float:
        return balance_of(self.win_rates()) if self.codes else 0.0

    def balance_bca(self) -> dict:
        """Balance with its BCa bootstrap interval (`inference.bca`: the deals' win-score codes resampled)."""
        p = self.players
        return bca(lambda c: balance_of(rates_of(c, sum(c.values()), p)), Counter(self.codes))


def rates_of(counts, n: int, players: int) -> list[float]:
    """Each position's win rate over n deals, from how many deals had each score code."""
    halves = [0] * players
    for code, k in counts.items():
        for p in range(players):
            halves[p] += k * (code % 3)
            code //= 3
    return [h / 2 / n for h in halves] if n else [0.0] * players


def balance_of(rates: list[float]) -> float:
    """1 minus the gap between the best and the worst position's win rate."""
    return 1.0 - (max(rates) - min(rates))


class Tally:
    """Counts of a run's deals as they come: contracts (passed out included), outcomes, declarer wins by
    contract, net payments by seat."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.deals = 0
        self.contracts: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()
        self.played: Counter[str] = Counter()
        self.won: Counter[str] = Counter()
        self.chosen: Counter[str] = Counter()  # played contracts the declarer bid or held of his own choice
        self.seat_total = [0] * players

    def add(self, x: dict) -> None:
        self.deals += 1
        c = x["contract"]
        self.contracts[c or PASSED_OUT] += 1
        self.outcomes[x["outcome"]] += 1
        if c is not None:
            self.played[c] += 1
            if x["payments"][x["declarer"]] > 0:
                self.won[c] += 1
            if x.get("declarer_chose"):
                self.chosen[c] += 1
        for k, p in enumerate(x["payments"]):
            self.seat_total[k] += p


class Metrics(Tally):
    """The statistics of one variant's deals, added one result line at a time; `result()` is what `metrics`
    returns."""

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.scores = Scores(players)
        self.declarer_payment = Moments()  # over the played contracts
        self.per_deal_payment = Moments()  # over every deal, 0 when nobody declares
        self.payments = Moments()  # every seat's payment in every deal
        self.abs_payments = 0
        self.seat_payment = [Moments() for _ in range(players)]
        self.seat_halves = [0] * players
        self.position_payment = [Moments() for _ in range(players)]
        self.pool = 0
        self.winner = 0
        self.tricks = 0
        self.duration = Moments()
        self.means = {k: Moments() for k in ("AdvantageP1", "LeadChange", "Drama", "DecisionMoves")}
        # --double-dummy (opt-in, a few deals a second): what each seat's cards lost, per measured deal
        self.dd_seen = 0
        self.dd_measures: set[str] = set()
        self.dd_lost = [array("d") for _ in range(players)]
        self.dd_cards = [array("d") for _ in range(players)]

    def add(self, x: dict, d: dict | None = None) -> None:
        """Add a result line (`d`: its `per_deal` values, when the caller has them)."""
        super().add(x)
        if d is None:
            d = per_deal(x, self.players)
        pays = x["payments"]
        if x["contract"] is not None:
            self.declarer_payment.add(pays[x["declarer"]])
        pay = d["declarer_payment"]
        assert pay is not None  # 0 when nobody declares
        self.per_deal_payment.add(pay)
        for k, p in enumerate(pays):
            self.payments.add(p)
            self.abs_payments += abs(p)
            self.seat_payment[k].add(p)
            self.seat_halves[k] += 2 if p > 0 else 1 if p == 0 else 0
            at_position = d[f"payment_position_{k}"]
            assert at_position is not None  # a payment
            self.position_payment[k].add(at_position)
        self.scores.add(x)
        self.pool += x["pool_after"] - x["pool_before"]
        self.winner += max(pays) > 0
        self.tricks += sum(x["tricks"])
        self.duration.add(x["actions"])
        for name, m in self.means.items():
            v = d[name]
            if v is not None:
                m.add(v)
        if "double_dummy" in x:
            self.dd_seen += 1
            dd = x["double_dummy"]
            if dd is not None:  # None: the search passed its limit
                self.dd_measures.add(dd["measure"])
                for k, v in enumerate(dd["lost"]):
                    self.dd_lost[k].append(v)
                    self.dd_cards[k].append(dd["cards"][k])

    def result(self) -> dict:
        n, players = self.deals, self.players
        played = sum(self.played.values())
        win_rate = self.scores.win_rates()
        means = {k: m.ci() for k, m in self.means.items()}
        return {
            "deals": n,
            "contract_mix": {c: share(k, n) for c, k in self.contracts.most_common()},
            "pass_out_rate": share(n - played, n),
            "declarer_success": share(sum(self.won.values()), played),
            "declarer_success_by_contract": {c: share(self.won[c], self.played[c]) for c in sorted(self.played)},
            "declarer_chose_by_contract": {c: self.chosen[c] for c in sorted(self.played)},
            "outcomes": {o: share(k, n) for o, k in self.outcomes.most_common()},
            "declarer_payment": self.declarer_payment.ci(),
            "declarer_payment_per_deal": self.per_deal_payment.ci(),
            "payment_spread": self.abs_payments / self.payments.n if self.payments.n else 0.0,
            "payment_sd": self.payments.mean_sd()[1],
            "position_payment": [m.ci() for m in self.position_payment],
            "position_win_rate": win_rate,
            "seat_payment": [m.ci() for m in self.seat_payment],
            "pool_net": self.pool / n if n else 0.0,
            "AdvantageP1": {"value": win_rate[0] if players else 0.0, **means["AdvantageP1"]},
            "Balance": self.scores.balance_bca() if n else {"value": 0.0, "ci": [0.0, 0.0], "p": 1.0, "bias": 0.0},
            "WinnerShare": share(self.winner, n),
            "Drawishness": (n - played) / n if n else 0.0,
            "Duration": self.duration.ci(),
            "DurationTricks": self.tricks / n if n else 0.0,
            "LeadChange": means["LeadChange"],
            "Drama": means["Drama"],
            "DecisionMoves": means["DecisionMoves"],
        }


def metrics(lines: Iterable[dict], players: int) -> dict:
    """The statistics of one variant's deals (result lines of a run, in any iterable)."""
    m = Metrics(players)
    for x in lines:
        m.add(x)
    return m.result()


def by_player(m: Metrics, names: list[str]) -> dict[str, dict]:
    """Per player name (a mixed table seats several kinds), its mean net payment over the deals and seats it
    played, and its win rate (no payment counts half)."""
    out = {}
    for nm in dict.fromkeys(names):
        seats = [k for k, x in enumerate(names) if x == nm]
        pays = Moments.merged(m.seat_payment[k] for k in seats)
        out[nm] = {"seats": seats, **pays.ci(),
                   "win_rate": sum(m.seat_halves[k] for k in seats) / 2 / pays.n if pays.n else 0.0}
        if m.dd_seen:
            out[nm]["double_dummy"] = dd_loss(m, seats)
    return out


def dd_loss(m: Metrics, seats: list[int]) -> dict:
    """What the cards of `seats` lost against double-dummy play: per deal (the seats' mean) and per card (the
    ratio of the sums; its interval by the delta method over the deals)."""
    lost = Moments()
    pairs = []
    for k in range(len(m.dd_lost[seats[0]]) if seats else 0):
        lo = sum(m.dd_lost[s][k] for s in seats)
        cards = sum(m.dd_cards[s][k] for s in seats)
        lost.add(lo / len(seats))
        pairs.append((lo, cards))
    return {"measured": lost.n, "skipped": m.dd_seen - lost.n, "measure": sorted(m.dd_measures),
            "lost_per_deal": lost.ci(), "lost_per_card": ratio_ci(pairs)}


def ratio_ci(pairs: list[tuple[float, float]]) -> dict:
    """The ratio of two sums over deals (sum y / sum x of (y, x) pairs) with its 95% interval by the delta
    method (the deals independent)."""
    n = len(pairs)
    sy = sum(y for y, _x in pairs)
    sx = sum(x for _y, x in pairs)
    r = sy / sx if sx else 0.0
    if n < 2 or not sx:
        return {"mean": r, "ci": [r, r]}
    mx = sx / n
    var = sum((y - r * x) ** 2 for y, x in pairs) / (n - 1) / (n * mx * mx)
    half = Z95 * math.sqrt(var)
    return {"mean": r, "ci": [r - half, r + half]}


GLOSSARY = {
    "Duration": "mean number of actions in a deal (bids, exchanges, cards), with its 95% interval (Ludii: "
                "Duration)",
    "DurationTricks": "mean number of tricks played in a deal",
    "WinnerShare": "share of deals in which some seat gains (a net payment above zero); not Ludii's Decisiveness, "
                   "which counts the turns after a winner's evaluation passes a threshold",
    "Drawishness": "share of deals passed out (nobody plays)",
    "Balance": "1 minus the gap between the best and the worst position's win rate (a win: a net gain; no "
               "payment counts half); its interval is the BCa bootstrap's (the deals resampled, the interval "
               "corrected for the bias of a gap between sampled rates, which makes Balance look lower than it is) "
               "(Ludii: Balance)",
    "AdvantageP1": "win rate of forehand, the first seat after the dealer (no payment counts half; Ludii: "
                   "AdvantageP1)",
    "LeadChange": "in a played deal, the share of tricks after the first at which the set of seats with the most "
                  "tricks so far changed; mean over played deals (Ludii: LeadChange)",
    "Drama": "in a played deal, the share of tricks before the last after which a seat that ends the deal with a "
             "net loss had the most tricks alone: how often the eventual loser led; mean over played deals "
             "(Ludii: Drama)",
    "DecisionMoves": "share of a deal's decisions at which the seat to move had more than one legal action; mean "
                     "over deals (Ludii: DecisionMoves)",
    "pass_out_rate": "share of deals in which every seat passed and no contract was played",
    "declarer_success": "the declarer's success rate: share of played contracts in which the declarer gained "
                        "(a net payment above zero); deals nobody declared are left out",
    "payment_spread": "mean absolute net payment of a seat in a deal",
}
