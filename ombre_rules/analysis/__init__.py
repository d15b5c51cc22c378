"""Per-deal rows of a run (`simulate --rows`, `compare --rows`) as a pandas DataFrame, and the paired
statistics of `compare`'s report as functions of it (the 'analysis' extra: pandas, and pyarrow for Parquet).

    import ombre_rules.analysis as oa
    df = oa.load("rows.parquet")               # one row per deal and variant
    oa.differences(df)                         # every paired test of the report, Holm-corrected
    oa.contract_shares(df, BASE, OTHER)       # BASE, OTHER: two values of the rows' `variant` column
    oa.transitions(df, BASE, OTHER)

The figures are the report's: the same estimators (`ombre_rules.sim.paired`, `.inference`), fed the same
deals in the same order. A variant is named as in the rows' `variant` column; `base` defaults to the first
variant of the rows."""
from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ..errors import OmbreError
from ..sim.inference import bca, holm
from ..sim.paired import LOST, PAIRED, PASSED, WON, balance_difference, paired_ci, success_difference
from ..sim.paired import contract_shares as _shares
from ..sim.rows import format_of
from ..sim.stats import Moments, balance_of, position_names, rates_of, share

__all__ = ["load", "variants", "pair", "paired_difference", "contract_shares", "transitions", "success_rate",
           "success_difference_of", "balance", "balance_difference_of", "differences"]

# the rows' column of each paired measure of the report
COLUMN = {"declarer_payment": "declarer_payment", "pass_out_rate": "passed_out", "WinnerShare": "WinnerShare",
          "AdvantageP1": "AdvantageP1", "Duration": "Duration", "DecisionMoves": "DecisionMoves",
          "LeadChange": "LeadChange", "Drama": "Drama"}


def _pd():
    try:
        import pandas as pd
    except ImportError:
        raise OmbreError("ombre_rules.analysis needs the 'analysis' extra: pip install 'ombre_rules[analysis]'") \
            from None
    return pd


def load(path: str):
    """The rows file at `path` (.csv, .jsonl or .parquet) as a DataFrame, in the order written (variant by
    variant, deal by deal)."""
    pd = _pd()
    fmt = format_of(path)
    if fmt == "csv":
        return pd.read_csv(path, keep_default_na=False, na_values=[""])
    if fmt == "jsonl":
        return pd.read_json(path, lines=True)
    return pd.read_parquet(path)


def variants(df) -> list[str]:
    """The variants of the rows, in the order they were played (the first is the report's base)."""
    return list(dict.fromkeys(df["variant"]))


def _one(df, variant: str):
    part = df[df["variant"] == variant].sort_values("deal")
    if part.empty:
        raise OmbreError(f"no rows of '{variant}' (variants: {', '.join(variants(df))})")
    return part


def pair(df, base: str, other: str):
    """The deals both variants played, one row each: every column of `base` and of `other`, suffixed _base and
    _other, in deal order."""
    return _one(df, base).merge(_one(df, other), on="deal", suffixes=("_base", "_other"))


def _moments(values) -> Moments:
    m = Moments()
    for v in values:
        m.add(v)
    return m


def paired_difference(df, column: str, base: str, other: str) -> dict:
    """The mean of `other` less `base`, deal by deal, of a rows column over the deals where both have it, with
    its 95% normal interval and p-value (as the report's paired measures)."""
    p = pair(df, base, other)
    a, b = p[f"{column}_base"], p[f"{column}_other"]
    keep = a.notna() & b.notna()
    return paired_ci(_moments((b[keep] - a[keep]).astype(float)))


def transitions(df, base: str, other: str):
    """Deals by their contract in `base` (rows) and in `other` (columns), as a DataFrame of counts ("passed out"
    for a deal nobody declared)."""
    pd = _pd()
    p = pair(df, base, other)
    return pd.crosstab(p["contract_base"].fillna("passed out"), p["contract_other"].fillna("passed out"))


def _transitions(df, base: str, other: str) -> tuple[dict, int]:
    p = pair(df, base, other)
    joint = Counter(zip(_contracts(p["contract_base"]), _contracts(p["contract_other"]), strict=True))
    out: dict = {}
    for (a, b), k in sorted(joint.items(), key=lambda kv: -kv[1]):
        out.setdefault(a, {})[b] = k
    return out, len(p)


def _contracts(col) -> list:
    return [None if isinstance(c, float) and math.isnan(c) or c is None else c for c in col]


def contract_shares(df, base: str, other: str):
    """Each contract's share of the deals in both variants and its paired difference with its interval and
    p-value (passed out: the contract "passed out"), as a DataFrame indexed by contract."""
    pd = _pd()
    trans, n = _transitions(df, base, other)
    rows = {("passed out" if c is None else c): d for c, d in _shares(trans, n).items()}
    return pd.DataFrame.from_dict(rows, orient="index")


def _success_codes(part) -> list[int]:
    return [PASSED if v != v or v is None else (WON if v else LOST) for v in part["declarer_success"]]


def success_rate(df, variant: str) -> dict:
    """The declarer's success rate: the share of played contracts the declarer gains, with its Wilson
    interval."""
    codes = _success_codes(_one(df, variant))
    return share(codes.count(WON), len(codes) - codes.count(PASSED))


def success_difference_of(df, base: str, other: str) -> dict:
    """`other`'s declarer's success rate less `base`'s, paired over the deals (BCa bootstrap)."""
    p = pair(df, base, other)
    a = _success_codes(p.rename(columns={"declarer_success_base": "declarer_success"}))
    b = _success_codes(p.rename(columns={"declarer_success_other": "declarer_success"}))
    return bca(success_difference, Counter(zip(a, b, strict=True)))


def _score_codes(part) -> tuple[list[int], int]:
    """Each deal's win scores by position as one base-3 code (as `sim.stats.Scores` makes it)."""
    n = int(part["players"].iloc[0])
    cols = [part[f"pay_pos_{k}"].tolist() for k in range(n)]
    codes = []
    for i in range(len(part)):
        code = 0
        for k in range(n - 1, -1, -1):
            p = cols[k][i]
            code = code * 3 + (2 if p > 0 else 1 if p == 0 else 0)
        codes.append(code)
    return codes, n


def balance(df, variant: str) -> dict:
    """A variant's Balance with its BCa interval (as the report gives it)."""
    codes, n = _score_codes(_one(df, variant))
    return bca(lambda c: balance_of(rates_of(c, sum(c.values()), n)), Counter(codes))


def balance_difference_of(df, base: str, other: str) -> dict | None:
    """`other`'s Balance less `base`'s, paired over the deals (BCa bootstrap); None when their tables seat
    different numbers of players (Balance compares positions within a variant)."""
    a, na = _score_codes(_one(df, base))
    b, nb = _score_codes(_one(df, other))
    if na != nb:
        return None
    size = 3 ** na
    m = min(len(a), len(b))
    return bca(lambda c: balance_difference(c, size, na), Counter(x * size + y for x, y in zip(a[:m], b[:m],
                                                                                            strict=True)))


def differences(df, base: str | None = None):
    """Every paired test of the report against `base`: the per-deal measures, the positions both variants have,
    each contract's share, the declarer's success rate and Balance, with the p-values Holm-corrected over them
    (but for a difference no pair of deals shows), as a DataFrame (one row per test)."""
    pd = _pd()
    names = variants(df)
    base = base or names[0]
    rows: list[dict[str, Any]] = []
    for v in names:
        if v == base:
            continue
        for k, label in PAIRED.items():
            t = paired_difference(df, COLUMN[k], base, v)
            if t["pairs"]:
                rows.append({"variant": v, "test": label, **_flat(t)})
        na, nb = (int(_one(df, x)["players"].iloc[0]) for x in (base, v))
        here = position_names(nb)
        for nm in here:
            if nm in position_names(na):
                t = paired_difference(df.assign(**{f"pos:{nm}": _position(df, nm)}), f"pos:{nm}", base, v)
                rows.append({"variant": v, "test": f"payment of {nm} per deal", **_flat(t)})
        trans, n = _transitions(df, base, v)
        for c, t in _shares(trans, n).items():
            rows.append({"variant": v, "test": f"share of {'passed out' if c is None else c}", **_flat(t)})
        rows.append({"variant": v, "test": "declarer's success rate", **_flat(success_difference_of(df, base, v))})
        bal = balance_difference_of(df, base, v)
        if bal is not None:
            rows.append({"variant": v, "test": "Balance", **_flat(bal)})
    out = pd.DataFrame(rows)
    if not out.empty:
        # as the report: a difference no pair of deals shows (exactly 0) tests nothing and is left out of the family
        nothing = (out["difference"] == 0) & (out["ci_low"] == 0) & (out["ci_high"] == 0)
        out["p_holm"] = 1.0
        out.loc[~nothing, "p_holm"] = holm(out.loc[~nothing, "p"].tolist())
        out["significant"] = out["p_holm"] < 0.05
    return out


def _position(df, name: str):
    """Each row's payment of the position named `name` (its column depends on the row's number of players)."""
    return [row[f"pay_pos_{position_names(int(row['players'])).index(name)}"]
            if name in position_names(int(row["players"])) else None for _i, row in df.iterrows()]


def _flat(t: dict) -> dict:
    return {"difference": t.get("mean", t.get("value")), "ci_low": t["ci"][0], "ci_high": t["ci"][1], "p": t["p"],
            "pairs": t.get("pairs")}
