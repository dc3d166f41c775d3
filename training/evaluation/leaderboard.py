"""The leaderboard database: every benchmarked and tournament game, in a local SQLite file.

The file (default `runs/leaderboard.sqlite`, or `$HUERTA_LEADERBOARD`, or `--db PATH`) holds:

- `meta`: what the file is (`application` = huerta leaderboard) and its schema version;
- `agents`: one row per (code, version), see `agent_specs.agent_identity`;
- `games`: one row per game, keyed by game, player count, deal seed, options, the agents by
  seat (`lineup`, their ids joined by commas) and the seat rotation (the benchmarked agent's seat
  in a benchmark, the rotation of the deal in a tournament), with its source (benchmark or
  tournament) and time; the key is UNIQUE, so a game stored twice is stored once;
- `results`: per game and seat, the agent, score, rank (0 best) and whether it won.

Each game is written in its own transaction, so a run killed at any moment (SIGKILL included)
leaves every finished game and nothing half-written: SQLite's journal rolls an unfinished
transaction back the next time the file is opened. A new file (missing, empty, or a SQLite
database without any table) gets the schema in one `BEGIN IMMEDIATE` transaction, so processes
opening one new file at once all succeed: one creates it, the others wait on its lock and then
check it like any file. Opening a file that is not a huerta leaderboard (not SQLite, no meta
table, another schema version, a table or column of the schema missing or different) raises
`LeaderboardError` naming the file and the reason, and never writes to it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import HuertaError

RUNS_DIR = Path("runs")  # the runs folder every command writes under by default
DEFAULT_DB = RUNS_DIR / "leaderboard.sqlite"
DB_ENV = "HUERTA_LEADERBOARD"
APPLICATION = "huerta leaderboard"
SCHEMA_VERSION = 1
SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT = 60.0  # seconds a connection waits for another process's write (or creation)
TABLES = ("meta", "agents", "games", "results")

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE agents (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL,
    version TEXT NOT NULL,
    kind TEXT NOT NULL,
    UNIQUE (code, version)
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    lineup TEXT NOT NULL,
    rotation INTEGER NOT NULL,
    source TEXT NOT NULL,
    terminated INTEGER NOT NULL,
    steps INTEGER NOT NULL,
    created TEXT NOT NULL,
    UNIQUE (game, players, seed, options, lineup, rotation)
);
CREATE TABLE results (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    agent_id INTEGER NOT NULL REFERENCES agents (id),
    score INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    won INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_agent ON results (agent_id);
"""


class LeaderboardError(HuertaError, ValueError):
    """A leaderboard file that cannot be used; the message names the file and the reason."""


@dataclass(frozen=True)
class StoredGame:
    """One game as the database holds it: per seat the agent id, score, rank and win."""

    seed: int
    rotation: int
    agents: tuple[int, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    won: tuple[bool, ...]
    terminated: bool


@dataclass(frozen=True)
class AgentRow:
    """One agent of the database."""

    id: int
    code: str
    version: str
    kind: str


def default_db_path() -> Path:
    """Where the leaderboard lives unless --db says: $HUERTA_LEADERBOARD, else
    runs/leaderboard.sqlite under the current folder."""
    return Path(os.environ.get(DB_ENV) or DEFAULT_DB)


def lineup_key(agent_ids: Sequence[int]) -> str:
    """The agents by seat as the games table keys them."""
    return ",".join(str(int(a)) for a in agent_ids)


def options_key(options: dict[str, Any] | None) -> str:
    """Game options as the games table keys them (canonical JSON)."""
    return json.dumps(options or {}, sort_keys=True, separators=(",", ":"))


class Leaderboard:
    """An open leaderboard file; use as a context manager (`with Leaderboard(path) as board`).

    `create=False` refuses a missing file instead of making one (for reading)."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        self.create = create
        self.conn: sqlite3.Connection | None = None

    def __enter__(self) -> Leaderboard:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> None:
        """Check the file (never writing to one that is not ours), then connect; a new file
        (missing, empty, or a SQLite database without any table) gets the schema."""
        if self.path.is_dir():
            raise LeaderboardError(f"{self.path} is a folder, not a leaderboard file")
        exists = self.path.exists()
        if not exists and not self.create:
            raise LeaderboardError(f"no leaderboard at {self.path}")
        if exists and not self.path.is_file():
            raise LeaderboardError(f"{self.path} is not a regular file, so not a huerta "
                                   f"leaderboard; give another --db")
        if exists and self.path.stat().st_size > 0:
            _check_header(self.path)
        elif self.create:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise LeaderboardError(f"{self.path}: cannot make its folder ({exc})") from None
        try:
            conn = _connect(self.path, self.create)
        except sqlite3.Error as exc:
            raise LeaderboardError(f"{self.path}: cannot open it ({exc})") from None
        try:
            if not _objects(conn):  # new, or being created by another process right now
                self._create(conn)
            _check_schema(conn, self.path)
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise LeaderboardError(f"{self.path}: not a usable SQLite database ({exc})") from None
        except BaseException:
            conn.close()
            raise
        self.conn = conn

    def _create(self, conn: sqlite3.Connection) -> None:
        """Give an empty database the schema, in one BEGIN IMMEDIATE transaction: a process
        that finds the file empty waits here (the busy timeout) while another one creates it,
        then finds the schema and creates nothing."""
        with _transaction(conn):
            if _objects(conn):
                return  # another process created it meanwhile; the caller checks it
            if not self.create:
                raise LeaderboardError(f"no leaderboard at {self.path} (the file is empty)")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                             [("application", APPLICATION), ("schema", str(SCHEMA_VERSION))])

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    @property
    def db(self) -> sqlite3.Connection:
        if self.conn is None:
            raise LeaderboardError(f"{self.path} is not open")
        return self.conn

    @contextlib.contextmanager
    def _failing(self) -> Iterator[None]:
        """A database error (a lock held past the busy timeout, a damaged page) as one
        LeaderboardError naming the file."""
        try:
            yield
        except sqlite3.Error as exc:
            raise LeaderboardError(f"{self.path}: the leaderboard database failed ({exc})"
                                   ) from None

    def agent_id(self, code: str, version: str, kind: str) -> int:
        """The id of agent (code, version), added if new."""
        with self._failing(), _transaction(self.db):
            self.db.execute("INSERT OR IGNORE INTO agents (code, version, kind) VALUES (?, ?, ?)",
                            (code, version, kind))
            row = self.db.execute("SELECT id FROM agents WHERE code = ? AND version = ?",
                                  (code, version)).fetchone()
        return int(row[0])

    def add_game(self, game: str, players: int, seed: int, rotation: int,
                 agent_ids: Sequence[int], result: dict[str, Any], source: str,
                 options: dict[str, Any] | None = None) -> bool:
        """Store one finished game (`result`: scores, ranks, winners, terminated, steps by seat)
        in one transaction; False when it was already there (nothing is written twice). A game
        already stored costs one read, no write (a resumed tournament offers every game)."""
        winners = set(result.get("winners", []))
        key = (game, players, seed, options_key(options), lineup_key(agent_ids), rotation)
        where = ("game = ? AND players = ? AND seed = ? AND options = ? AND lineup = ? AND "
                 "rotation = ?")
        with self._failing():
            if self.db.execute(f"SELECT 1 FROM games WHERE {where}", key).fetchone():
                return False
            with _transaction(self.db):
                return self._insert_game(key, result, source, agent_ids, winners)

    def _insert_game(self, key: tuple[Any, ...], result: dict[str, Any], source: str,
                     agent_ids: Sequence[int], winners: set[int]) -> bool:
        """The writes of `add_game`, inside its transaction (False: a twin came first)."""
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO games (game, players, seed, options, lineup, rotation, "
            "source, terminated, steps, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*key, source, int(bool(result["terminated"])), int(result.get("steps", 0)),
             datetime.now(timezone.utc).isoformat(timespec="seconds")),
        )
        if cursor.rowcount == 0:
            return False
        game_id = cursor.lastrowid
        self.db.executemany(
            "INSERT INTO results (game_id, seat, agent_id, score, rank, won) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, seat, int(a), int(result["scores"][seat]), int(result["ranks"][seat]),
              int(seat in winners)) for seat, a in enumerate(agent_ids)],
        )
        return True

    def games(self, game: str, players: int, seeds: tuple[int, int] | None = None,
              options: dict[str, Any] | None = None) -> Iterator[StoredGame]:
        """The stored games of `game` at `players` (with deal seeds in [low, high] when given),
        in storage order."""
        query = ("SELECT g.id, g.seed, g.rotation, g.terminated, r.seat, r.agent_id, r.score, "
                 "r.rank, r.won FROM games g JOIN results r ON r.game_id = g.id "
                 "WHERE g.game = ? AND g.players = ? AND g.options = ?")
        args: list[Any] = [game, players, options_key(options)]
        if seeds is not None:
            query += " AND g.seed BETWEEN ? AND ?"
            args += list(seeds)
        query += " ORDER BY g.id, r.seat"
        current: list[tuple] = []
        with self._failing():
            for row in self.db.execute(query, args):
                if current and current[0][0] != row[0]:
                    yield _stored(current)
                    current = []
                current.append(row)
        if current:
            yield _stored(current)

    def agents(self) -> dict[int, AgentRow]:
        """Every agent by id."""
        with self._failing():
            return {row[0]: AgentRow(*row)
                    for row in self.db.execute("SELECT id, code, version, kind FROM agents")}

    def count(self, table: str = "games") -> int:
        """Rows in a table (games, results or agents)."""
        if table not in ("games", "results", "agents"):
            raise ValueError(f"no table {table!r}")
        with self._failing():
            return int(self.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def _stored(rows: list[tuple]) -> StoredGame:
    _, seed, rotation, terminated = rows[0][:4]
    return StoredGame(seed, rotation, tuple(r[5] for r in rows), tuple(r[6] for r in rows),
                      tuple(r[7] for r in rows), tuple(bool(r[8]) for r in rows),
                      bool(terminated))


class _transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on any error): the connection runs in autocommit
    mode, so each block is exactly one transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self.conn.execute("ROLLBACK" if kind is not None else "COMMIT")


def _check_header(path: Path) -> None:
    """Refuse, before SQLite opens it, a file that does not start like a SQLite database."""
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise LeaderboardError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if head != SQLITE_HEADER:
        raise LeaderboardError(f"{path} is not a SQLite database, so not a huerta leaderboard; "
                               f"give another --db (the file was left as it is)")


def _connect(path: Path, create: bool) -> sqlite3.Connection:
    """A connection in autocommit mode that waits BUSY_TIMEOUT seconds for another process's
    lock; without `create`, a file gone since it was checked is not made again."""
    if create:
        return sqlite3.connect(str(path), timeout=BUSY_TIMEOUT, isolation_level=None)
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True,
                           timeout=BUSY_TIMEOUT, isolation_level=None)


def _objects(conn: sqlite3.Connection) -> int:
    """How many tables, indexes, views and triggers the database holds (0: a new one)."""
    return int(conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])


# a table as _check_schema compares it: its columns (name, type, not null, primary key) and
# the column sets of its unique keys
Shape = tuple[tuple[tuple[str, str, int, int], ...], tuple[tuple[str, ...], ...]]


def _shape(conn: sqlite3.Connection, table: str) -> Shape:
    """One of our tables (`table` is one of TABLES) as the file holds it."""
    columns = tuple((str(name), str(kind).upper(), int(notnull), int(pk))
                    for _, name, kind, notnull, _, pk in
                    conn.execute(f"PRAGMA table_info({table})"))
    uniques = sorted(
        tuple(str(row[2]) for row in conn.execute(
            "PRAGMA index_info('{}')".format(str(index[1]).replace("'", "''"))))
        for index in conn.execute(f"PRAGMA index_list({table})") if index[2]
    )
    return columns, tuple(uniques)


@functools.cache
def _expected_shapes() -> dict[str, Shape]:
    """What each table of SCHEMA looks like, from a database made in memory."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        return {table: _shape(conn, table) for table in TABLES}
    finally:
        conn.close()


def _check_schema(conn: sqlite3.Connection, path: Path) -> None:
    """A SQLite file must hold our meta table (a key-value table) naming our application and
    schema version, then every table of that schema with its columns and unique keys (other
    tables are left alone)."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "meta" not in tables:
        raise LeaderboardError(f"{path} is not a huerta leaderboard (no meta table); give "
                               f"another --db (the file was left as it is)")
    if not {"key", "value"} <= {row[1] for row in conn.execute("PRAGMA table_info(meta)")}:
        raise LeaderboardError(f"{path} is not a huerta leaderboard (its meta table is not a "
                               f"key-value table); give another --db (the file was left as it "
                               f"is)")
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    if meta.get("application") != APPLICATION:
        raise LeaderboardError(f"{path} is not a huerta leaderboard (its meta table names "
                               f"{meta.get('application')!r}); give another --db")
    if meta.get("schema") != str(SCHEMA_VERSION):
        raise LeaderboardError(f"{path} has leaderboard schema version {meta.get('schema')}; "
                               f"this huerta reads version {SCHEMA_VERSION}")
    missing = [table for table in TABLES if table not in tables]
    if missing:
        raise LeaderboardError(
            f"{path} is a broken huerta leaderboard: it says schema {SCHEMA_VERSION} but has no "
            f"{', '.join(missing)} table; give another --db (the file was left as it is)"
        )
    for table, (want_columns, want_uniques) in _expected_shapes().items():
        columns, uniques = _shape(conn, table)
        if columns != want_columns:
            raise LeaderboardError(
                f"{path} is a broken huerta leaderboard: its {table} table has columns "
                f"{', '.join(c[0] for c in columns) or 'none'}, schema {SCHEMA_VERSION} has "
                f"{', '.join(c[0] for c in want_columns)}"
                + (" (their types or constraints differ)" if [c[0] for c in columns] ==
                   [c[0] for c in want_columns] else "")
                + "; give another --db (the file was left as it is)"
            )
        if uniques != want_uniques:
            raise LeaderboardError(
                f"{path} is a broken huerta leaderboard: its {table} table does not have the "
                f"unique keys of schema {SCHEMA_VERSION}; give another --db (the file was left "
                f"as it is)"
            )


def tournament_recorder(
    board: Leaderboard, game: str, players: int, codes: Sequence[str]
) -> Callable[[dict[str, Any]], None]:
    """A `run_tournament(on_game=...)` callback storing each finished tournament game (its
    rotation: the game's index modulo the seat count, as the tournament schedules them)."""
    from ..agent_specs import agent_identity

    ids = []
    for code in codes:
        identity = agent_identity(code, game)
        ids.append(board.agent_id(identity.code, identity.version, identity.kind))

    def record(result: dict[str, Any]) -> None:
        board.add_game(game, players, result["seed"], result["index"] % players,
                       [ids[a] for a in result["seats"]], result, "tournament")

    return record
