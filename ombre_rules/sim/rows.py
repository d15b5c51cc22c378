"""One flat row per deal and variant, for analysis outside the report (`simulate --rows`, `compare --rows`;
`ombre_rules.analysis` reads them back): CSV, JSON lines or Parquet (the 'analysis' extra's pyarrow), by
the file's extension. The columns are fixed for a run (`columns`), so rows stream to the file as the deals
are played; a run's variants with fewer seats leave the higher seats' columns empty.

Positions are counted from the dealer in the order of play: pay_pos_0 is forehand, the last position a
variant has (pay_pos_{players-1}) its dealer."""
from __future__ import annotations

import csv
import json
from contextlib import ExitStack
from typing import Any

from ..errors import OmbreError
from ..outfile import open_output, target
from .paired import PASSED, WON, success_code
from .stats import per_deal

FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
METRICS = ["WinnerShare", "AdvantageP1", "Duration", "LeadChange", "Drama", "DecisionMoves"]
_HEAD = ["variant", "deal", "seed", "dealer", "players", "contract", "trump", "declarer", "declarer_position",
         "outcome", "passed_out", "declarer_success", "declarer_payment", "pool_net"]
_STRINGS = {"variant", "contract", "trump", "outcome", "lineup"}
_INTS = {"deal", "seed", "dealer", "players", "declarer", "declarer_position", "passed_out", "declarer_success",
         "declarer_payment", "pool_net", "Duration"}
PARQUET_GROUP = 50_000  # rows of one Parquet row group (what is held before it is written)


def columns(players: int, double_dummy: bool = False) -> list[str]:
    """The columns of a run whose variants seat at most `players`."""
    seats = range(players)
    return (_HEAD + METRICS + [f"tricks_{k}" for k in seats] + [f"pay_seat_{k}" for k in seats]
            + [f"pay_pos_{k}" for k in seats] + ([f"dd_lost_{k}" for k in seats] if double_dummy else []))


def row(variant: str, x: dict, players: int, d: dict | None = None) -> dict[str, Any]:
    """A deal's row (`x`: its result line; `d`: its `per_deal` values, when the caller has them)."""
    if d is None:
        d = per_deal(x, players)
    code = success_code(x)
    decl = x["declarer"]
    pay = d["declarer_payment"]
    assert pay is not None  # 0 when nobody declares
    out: dict[str, Any] = {
        "variant": variant, "deal": x["deal"], "seed": x["seed"], "dealer": x["dealer"], "players": players,
        "contract": x["contract"], "trump": x["trump"], "declarer": decl,
        "declarer_position": (decl - x["dealer"] - 1) % players if decl is not None else None,
        "outcome": x["outcome"], "passed_out": int(code == PASSED),
        "declarer_success": None if code == PASSED else int(code == WON),
        "declarer_payment": int(pay), "pool_net": x["pool_after"] - x["pool_before"]}
    for k in METRICS:
        out[k] = d[k]
    out["Duration"] = x["actions"]
    seats = range(players)
    out.update({f"tricks_{k}": x["tricks"][k] for k in seats})
    out.update({f"pay_seat_{k}": x["payments"][k] for k in seats})
    out.update({f"pay_pos_{k}": d[f"payment_position_{k}"] for k in seats})
    dd = x.get("double_dummy")
    if dd is not None:
        for seat, v in enumerate(dd["lost"]):
            out[f"dd_lost_{seat}"] = v
    return out


def format_of(path: str) -> str:
    """The format a rows file is written in, by its extension."""
    for ext, fmt in FORMATS.items():
        if path.lower().endswith(ext):
            return fmt
    raise OmbreError(f"--rows '{path}': name a .csv, .jsonl or .parquet file (the extension gives the format)")


class Rows:
    """A rows file being written, as a context: `add` a row at a time; the file is finished when the block
    ends (also when it ends early: the rows added are kept)."""

    def __init__(self, path: str, cols: list[str]) -> None:
        self.path, self.cols, self.fmt = path, cols, format_of(path)
        self.count = 0
        self._buffer: list[dict] = []
        self._writer: Any = None
        self._stack = ExitStack()

    def __enter__(self) -> Rows:
        if self.fmt == "parquet":
            import pyarrow as pa  # there: `Target` checked it
            import pyarrow.parquet as pq

            self._pa, self._pq = pa, pq
            self._schema = pa.schema([(c, pa.string() if c in _STRINGS else pa.int64()
                                       if c in _INTS or c.startswith(("tricks_", "pay_", "dd_lost_")) else pa.float64())
                                      for c in self.cols])
            self._file = self._stack.enter_context(open_output(self.path, binary=True))
        else:
            self._file = self._stack.enter_context(open_output(self.path))
            if self.fmt == "csv":
                self._writer = csv.DictWriter(self._file, self.cols, restval="", lineterminator="\n")
                self._writer.writeheader()
        return self

    def add(self, r: dict) -> None:
        self.count += 1
        if self.fmt == "csv":
            self._writer.writerow({k: "" if v is None else v for k, v in r.items()})
        elif self.fmt == "jsonl":
            self._file.write(json.dumps(r, separators=(",", ":")) + "\n")
        else:
            self._buffer.append(r)
            if len(self._buffer) >= PARQUET_GROUP:
                self._flush()

    def _flush(self) -> None:
        if self._writer is None:
            self._writer = self._pq.ParquetWriter(self._file, self._schema)
        table = self._pa.Table.from_pylist(self._buffer, schema=self._schema)
        self._writer.write_table(table)
        self._buffer = []

    def __exit__(self, *exc: object) -> None:
        with self._stack:
            if self.fmt == "parquet":
                if self._buffer or self._writer is None:
                    self._flush()
                self._writer.close()


class Target:
    """A rows file named on the command line, checked before the run: its format (and, for Parquet, that
    pyarrow is there) and that it can be written."""

    def __init__(self, path: str) -> None:
        self.path = path
        if format_of(path) == "parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise OmbreError("--rows FILE.parquet needs the 'analysis' extra: pip install "
                                 "'ombre_rules[analysis]' (or write .csv or .jsonl)") from None
        target(path)

    def open(self, players: int, double_dummy: bool = False, first: tuple[str, ...] = ()) -> Rows:
        """The file for the rows of variants of at most `players` seats; `first`, string columns before them
        (a match's `lineup`)."""
        return Rows(self.path, [*first, *columns(players, double_dummy)])

    def table(self, rules) -> Lines:
        """The file for the rows of one variant's result lines (what `simulate` writes)."""
        return Lines(self.open(rules.players), rules.variant, rules.players)


class Lines:
    """A rows file taking one variant's result lines (a context, as `Rows` is)."""

    def __init__(self, rows: Rows, variant: str, players: int) -> None:
        self.rows, self.variant, self.players = rows, variant, players

    def __enter__(self) -> Lines:
        self.rows.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.rows.__exit__(*exc)

    def add(self, x: dict) -> None:
        self.rows.add(row(self.variant, x, self.players))
