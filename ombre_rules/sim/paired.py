"""Paired differences between variants: deal i has the same seed in every variant (common random numbers), so
each measure's difference from the first variant is taken deal by deal over every deal, with a paired 95%
interval and a p-value (Holm's correction over a report's family of tests is `compare.analyse`'s). The
first variant's deals are kept as a few numbers each (`Deals`); the others' stream past them
(`Differences`), each keeping the small codes its count-based statistics resample (success, win scores).

What is paired: every per-deal measure of `PAIRED` (over the deals where both variants have it), the
payments of each position both variants have (by name: forehand, ..., the dealer), each contract's share of
the deals with the table of which contract each deal became, the declarer's success rate and Balance (BCa
bootstrap of the joint codes). A measure that cannot be paired says why (`unpaired`)."""
from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping

from .inference import Z95, bca, normal_p
from .stats import Moments, Scores, balance_of, per_deal, position_names, rates_of

# the per-deal measures whose differences are reported, with their labels (a new per-deal measure: a key of
# `per_deal` and a label here); those of played deals only are paired over the deals played in both
PAIRED = {"declarer_payment": "declarer's payment per deal (0 when nobody declares)",
          "pass_out_rate": "passed out (share of deals)",
          "WinnerShare": "WinnerShare (share of deals some seat gains)",
          "AdvantageP1": "AdvantageP1 (forehand's win score)", "Duration": "Duration (actions)",
          "DecisionMoves": "DecisionMoves",
          "LeadChange": "LeadChange (deals played in both)", "Drama": "Drama (deals played in both)"}
PASSED, LOST, WON = 0, 1, 2  # a deal's success code: nobody declared, the declarer lost, the declarer gained


def success_code(x: dict) -> int:
    if x["contract"] is None:
        return PASSED
    return WON if x["payments"][x["declarer"]] > 0 else LOST


def paired_ci(m: Moments) -> dict:
    """Mean of paired differences with its 95% normal interval and two-sided p-value."""
    d = m.ci()
    return {"mean": d["mean"], "ci": d["ci"], "pairs": m.n, "p": normal_p(d["mean"], d["sd"], m.n)}


def _fingerprints(x: dict) -> tuple[int, int]:
    """Fingerprints of a deal's play and of its result (64-bit hashes: equal for equal lines, and two different
    lines agree by chance once in about 2**64)."""
    return hash(tuple(x["history"])), hash((x["outcome"], tuple(x["payments"])))


class Codes:
    """A variant's deals as small codes, in deal order: its contract (an index into `names`) and its success
    code, beside its win-score codes (`scores`, shared with the variant's `Metrics`)."""

    def __init__(self, scores: Scores) -> None:
        self.scores = scores
        self.names: list[str | None] = []
        self._index: dict[str | None, int] = {}
        self.contract = array("H")
        self.success = array("B")

    def code(self, x: dict) -> None:
        """Add the codes of a deal's result line."""
        c = x["contract"]
        i = self._index.get(c)
        if i is None:
            i = self._index[c] = len(self.names)
            self.names.append(c)
        self.contract.append(i)
        self.success.append(success_code(x))


class Deals(Codes):
    """The first variant's deals: its codes, one double per paired measure and position (NaN where it does not
    apply), and the fingerprints of the play and of the result."""

    def __init__(self, scores: Scores) -> None:
        super().__init__(scores)
        self.positions = position_names(scores.players)
        self.values = {k: array("d") for k in PAIRED}
        self.pos = [array("d") for _ in self.positions]
        self.play = array("q")
        self.result = array("q")

    def __len__(self) -> int:
        return len(self.play)

    def add(self, x: dict, d: dict) -> None:
        """Add deal number len(self) (`d`: its `per_deal` values)."""
        self.code(x)
        for k, a in self.values.items():
            v = d[k]
            a.append(math.nan if v is None else v)
        for j, col in enumerate(self.pos):
            col.append(d[f"payment_position_{j}"])
        p, r = _fingerprints(x)
        self.play.append(p)
        self.result.append(r)


class Differences(Codes):
    """Another variant's paired differences from the first (`base`), added deal by deal in deal order."""

    def __init__(self, base: Deals, scores: Scores) -> None:
        super().__init__(scores)
        self.base = base
        self.moments = {k: Moments() for k in PAIRED}
        names = position_names(scores.players)
        # the positions both variants have, by name: (its index here, its index in the base)
        self.common = [(names.index(nm), base.positions.index(nm), nm) for nm in names if nm in base.positions]
        self.pos = {nm: Moments() for _i, _j, nm in self.common}
        self.pairs = self.play_differs = self.result_differs = 0

    def add(self, x: dict, d: dict) -> None:
        """Add a deal of this variant (`d`: its `per_deal` values); one the first variant did not play is left out."""
        i = x["deal"]
        if i >= len(self.base):
            return
        self.code(x)
        self.pairs += 1
        base = self.base
        for k, m in self.moments.items():
            a, b = base.values[k][i], d[k]
            if b is not None and a == a:  # NaN: the measure does not apply to the first variant's deal
                m.add(b - a)
        for here, there, nm in self.common:
            self.pos[nm].add(d[f"payment_position_{here}"] - base.pos[there][i])
        p, r = _fingerprints(x)
        self.play_differs += p != base.play[i]
        self.result_differs += r != base.result[i]

    def transitions(self) -> dict[str | None, dict[str | None, int]]:
        """Deals by the first variant's contract and this one's (None: passed out)."""
        bn, on = self.base.names, self.names
        joint = Counter(zip(self.base.contract, self.contract, strict=False))  # the deals paired
        out: dict[str | None, dict[str | None, int]] = {}
        for (a, b), k in sorted(joint.items(), key=lambda kv: -kv[1]):
            out.setdefault(bn[a], {})[on[b]] = k
        return out

    def result(self) -> dict:
        """Each paired measure's difference, the positions', the contracts' shares and the table of which
        contract each deal became, the declarer's success rate, Balance, the deals whose play and result
        differ, and what could not be paired."""
        n = self.pairs
        out: dict = {"measures": {k: paired_ci(m) for k, m in self.moments.items()},
                     "positions": {nm: paired_ci(m) for nm, m in self.pos.items()}, "unpaired": {}}
        missing = [nm for nm in self.base.positions + position_names(self.scores.players)
                   if nm not in self.pos]
        if missing:
            out["unpaired"]["positions"] = (f"{', '.join(dict.fromkeys(missing))}: a position only one of the "
                                            "variants has")
        trans = self.transitions()
        out["transitions"] = trans
        out["contract_shares"] = contract_shares(trans, n)
        out["declarer_success"] = bca(success_difference, Counter(zip(self.base.success, self.success, strict=False)))
        sa, sb = self.base.scores, self.scores
        if sa.players == sb.players and n:
            size = 3 ** sa.players
            joint = Counter(a * size + b for a, b in zip(sa.codes, sb.codes, strict=False))
            out["Balance"] = bca(lambda c: balance_difference(c, size, sa.players), joint)
        elif n:
            out["unpaired"]["Balance"] = (f"not paired: {sa.players} and {sb.players} positions (Balance compares "
                                          "the positions' win rates within a variant)")
        out["deals_differing"] = {"pairs": n, "play": self.play_differs, "result": self.result_differs}
        return out


def contract_shares(trans: dict, n: int) -> dict[str, dict]:
    """Each contract's share of the deals in both variants and its paired difference (a deal counts +1 when it
    became this contract, -1 when it stopped being it), from the table of which contract each deal became;
    passed-out deals are the contract None."""
    names = list(dict.fromkeys([a for a in trans] + [b for row in trans.values() for b in row]))
    out = {}
    for c in names:
        was = sum(trans.get(c, {}).values())
        now = sum(row.get(c, 0) for row in trans.values())
        stayed = trans.get(c, {}).get(c, 0)
        plus, minus = now - stayed, was - stayed
        mean = (plus - minus) / n if n else 0.0
        var = ((plus + minus) / n - mean * mean) * n / (n - 1) if n > 1 else 0.0
        sd = math.sqrt(max(var, 0.0))
        half = Z95 * sd / math.sqrt(n) if n else 0.0
        out[c] = {"base": was / n if n else 0.0, "other": now / n if n else 0.0, "mean": mean,
                  "ci": [mean - half, mean + half], "pairs": n, "p": normal_p(mean, sd, n)}
    return out


def _rate(won: int, played: int) -> float:
    return won / played if played else 0.0


def success_difference(c: Mapping) -> float:
    """The declarer's success rate (share of played contracts he gains) of the second variant less the
    first's, from the deals counted by joint success code."""
    pa = wa = pb = wb = 0
    for (a, b), k in c.items():
        pa += k * (a != PASSED)
        wa += k * (a == WON)
        pb += k * (b != PASSED)
        wb += k * (b == WON)
    return _rate(wb, pb) - _rate(wa, pa)


def balance_difference(c: Mapping, size: int, players: int) -> float:
    """Balance of the second variant less the first's, from the deals counted by joint win-score code."""
    a: Counter = Counter()
    b: Counter = Counter()
    for code, k in c.items():
        a[code // size] += k
        b[code % size] += k
    n = sum(c.values())
    return balance_of(rates_of(b, n, players)) - balance_of(rates_of(a, n, players))


def differences(base: Iterable[dict], other: Iterable[dict], players_base: int, players_other: int) -> dict:
    """Each paired measure of `other` minus `base` over the deals both played (result lines in deal order from
    deal 0)."""
    deals = Deals(Scores(players_base))
    for x in base:
        deals.add(x, per_deal(x, players_base))
        deals.scores.add(x)
    diff = Differences(deals, Scores(players_other))
    for y in other:
        diff.add(y, per_deal(y, players_other))
        diff.scores.add(y)
    return diff.result()
