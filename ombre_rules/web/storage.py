"""The server's SQLite database: tables, the actions of every deal, finished deals' records, uploaded files.

A table is stored once when it is made; after that only actions are appended, so a restart rebuilds every table
by replaying its actions (the deals come from the table's seed)."""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, source TEXT NOT NULL, options TEXT NOT NULL,
    seats TEXT NOT NULL, tokens TEXT NOT NULL, spectator TEXT NOT NULL, seed INTEGER NOT NULL,
    deals INTEGER NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS actions (table_id TEXT NOT NULL, deal INTEGER NOT NULL, idx INTEGER NOT NULL,
    action TEXT NOT NULL, PRIMARY KEY (table_id, deal, idx));
CREATE TABLE IF NOT EXISTS deals (table_id TEXT NOT NULL, deal INTEGER NOT NULL, record TEXT NOT NULL,
    PRIMARY KEY (table_id, deal));
CREATE TABLE IF NOT EXISTS uploads (id TEXT PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL,
    created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS settings (table_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (table_id, key));
"""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as stored: what it plays, who sits where, the seats' tokens."""

    id: str
    source: str
    options: dict[str, str]
    seats: list[str]
    tokens: list[str | None]
    spectator: str
    seed: int
    deals: int


class Store:
    """One SQLite file under the data folder; safe to use from the event loop and from worker threads."""

    def __init__(self, folder: str) -> None:
        os.makedirs(folder, exist_ok=True)
        self.folder = folder
        self._lock = threading.Lock()
        self._db = sqlite3.connect(os.path.join(folder, "tables.sqlite3"), check_same_thread=False,
                                   isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def _run(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- tables --------------------------------------------------------------------------------------
    def add_table(self, row: TableRow) -> None:
        self._run("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (row.id, row.source, json.dumps(row.options), json.dumps(row.seats), json.dumps(row.tokens),
                   row.spectator, row.seed, row.deals, time.time()))

    def table(self, table_id: str) -> TableRow | None:
        """A stored table by its id (None: no such table)."""
        rows = self._run("SELECT id, source, options, seats, tokens, spectator, seed, deals FROM tables "
                         "WHERE id = ?", (table_id,))
        return TableRow(*rows[0][:2], *(json.loads(x) for x in rows[0][2:5]), *rows[0][5:]) if rows else None

    def set(self, table_id: str, key: str, value: Any) -> None:
        """Keep one of a table's settings (seat names, the move timer, the table of its rematch)."""
        self._run("INSERT OR REPLACE INTO settings VALUES (?, ?, ?)", (table_id, key, json.dumps(value)))

    def settings(self, table_id: str) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self._run("SELECT key, value FROM settings WHERE table_id = ?",
                                                       (table_id,))}

    def add_action(self, table_id: str, deal: int, idx: int, action: str) -> None:
        self._run("INSERT INTO actions VALUES (?, ?, ?, ?)", (table_id, deal, idx, action))

    def actions(self, table_id: str) -> list[list[str]]:
        """The actions of each deal of a table, deal by deal."""
        out: list[list[str]] = []
        for deal, _idx, action in self._run("SELECT deal, idx, action FROM actions WHERE table_id = ? "
                                            "ORDER BY deal, idx", (table_id,)):
            while len(out) <= deal:
                out.append([])
            out[deal].append(action)
        return out

    def finish_deal(self, table_id: str, deal: int, record: dict[str, Any]) -> None:
        self._run("INSERT OR REPLACE INTO deals VALUES (?, ?, ?)", (table_id, deal, json.dumps(record)))

    def record(self, table_id: str, deal: int) -> dict[str, Any] | None:
        rows = self._run("SELECT record FROM deals WHERE table_id = ? AND deal = ?", (table_id, deal))
        return json.loads(rows[0][0]) if rows else None

    # -- uploads -------------------------------------------------------------------------------------
    def add_upload(self, uid: str, name: str, path: str) -> None:
        self._run("INSERT OR REPLACE INTO uploads VALUES (?, ?, ?, ?)", (uid, name, path, time.time()))

    def uploads(self) -> list[tuple[str, str, str]]:
        return [tuple(r) for r in self._run("SELECT id, name, path FROM uploads ORDER BY created")]
