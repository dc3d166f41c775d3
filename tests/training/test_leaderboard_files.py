"""Leaderboard files opened by several processes at once, and files that only claim to be one.

Processes opening one new file at the same moment all succeed and leave one schema; a reader
that finds the file while another process is creating it waits for it; a file that says it is
a leaderboard but is not one (tables or columns missing, no unique key, another application's
tables, not SQLite at all) is refused with one line naming the file and the reason, by the
library and by every command, and is left byte for byte (and mtime) as it was.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from huerta.training.cli import main
from huerta.training.evaluation import benchmark as benchmark_module
from huerta.training.evaluation import leaderboard
from huerta.training.evaluation.leaderboard import (
    APPLICATION,
    SCHEMA,
    Leaderboard,
    LeaderboardError,
)

TABLES = ("agents", "games", "meta", "results")  # the tables of schema 1

PROCESSES = 4
ROUNDS = 4  # each round a new file, opened by every process at once

OPENER = """
    import sys
    import time
    from pathlib import Path

    from huerta.training.evaluation.leaderboard import Leaderboard

    folder, me, rounds = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    (folder / f"ready-{me}").touch()
    for r in range(rounds):
        while not (folder / f"go-{r}").exists():
            time.sleep(0.0005)
        try:
            with Leaderboard(folder / f"round-{r}" / "board.sqlite") as board:
                board.agent_id(f"agent-{me}", "1", "builtin")
            print(f"{r} ok", flush=True)
        except Exception as exc:
            print(f"{r} {type(exc).__name__}: {exc}", flush=True)
        (folder / f"done-{r}-{me}").touch()
"""


def wait_for(paths: list[Path], procs: list[subprocess.Popen]) -> None:
    """Wait until every path exists (a guard stops a hung or dead child)."""
    deadline = time.monotonic() + 120
    while not all(p.exists() for p in paths):
        failed = any(p.poll() not in (None, 0) for p in procs)
        ended = all(p.poll() is not None for p in procs) and not all(p.exists() for p in paths)
        if failed or ended or time.monotonic() > deadline:
            for p in procs:
                p.kill()
            outs = [p.communicate()[0] for p in procs]
            pytest.fail(f"a child stopped or hung: {outs}")
        time.sleep(0.005)


def test_processes_creating_one_new_file_at_once_all_succeed(tmp_path):
    """Every process opens the same new file at the same moment (they wait for a start file),
    four times over: each open succeeds and the file ends with one schema holding every
    process's agent."""
    script = tmp_path / "opener.py"
    script.write_text(textwrap.dedent(OPENER), encoding="utf-8")
    procs = [subprocess.Popen([sys.executable, str(script), str(tmp_path), str(i), str(ROUNDS)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for i in range(PROCESSES)]
    try:
        wait_for([tmp_path / f"ready-{i}" for i in range(PROCESSES)], procs)
        for r in range(ROUNDS):
            (tmp_path / f"go-{r}").touch()
            wait_for([tmp_path / f"done-{r}-{i}" for i in range(PROCESSES)], procs)
        outs = [p.communicate(timeout=60)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert all(p.returncode == 0 for p in procs), outs
    for out in outs:
        assert out.splitlines() == [f"{r} ok" for r in range(ROUNDS)], outs
    for r in range(ROUNDS):
        path = tmp_path / f"round-{r}" / "board.sqlite"
        conn = sqlite3.connect(str(path))
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            tables = [row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
            assert tables == sorted(TABLES)
            assert dict(conn.execute("SELECT key, value FROM meta")) == {
                "application": APPLICATION, "schema": str(leaderboard.SCHEMA_VERSION)}
            agents = {row[0] for row in conn.execute("SELECT code FROM agents")}
            assert agents == {f"agent-{i}" for i in range(PROCESSES)}
        finally:
            conn.close()


def test_a_reader_waits_for_the_process_creating_the_file(tmp_path, monkeypatch):
    """Another connection holds the schema in an uncommitted transaction (the file is still
    empty on disk): a reader (create=False) waits for its lock instead of calling the file
    missing, and reads the leaderboard once the schema is committed."""
    path = tmp_path / "board.sqlite"
    creator = sqlite3.connect(str(path), isolation_level=None)
    creator.execute("BEGIN IMMEDIATE")
    for statement in SCHEMA.split(";"):
        if statement.strip():
            creator.execute(statement)
    creator.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                        [("application", APPLICATION),
                         ("schema", str(leaderboard.SCHEMA_VERSION))])
    assert path.stat().st_size == 0

    waiting = threading.Event()

    class Watched(sqlite3.Connection):
        def execute(self, sql, *args):
            if sql.startswith("BEGIN"):
                waiting.set()  # the reader is about to wait on the creator's lock
            return super().execute(sql, *args)

    real_connect = sqlite3.connect
    monkeypatch.setattr(leaderboard.sqlite3, "connect",
                        lambda *a, **k: real_connect(*a, factory=Watched, **k))
    outcome: list[object] = []

    def read() -> None:
        try:
            with Leaderboard(path, create=False) as board:
                outcome.append(board.count("agents"))
        except Exception as exc:  # reported below
            outcome.append(exc)

    reader = threading.Thread(target=read)
    reader.start()
    while not waiting.wait(0.01) and reader.is_alive():
        pass
    creator.execute("COMMIT")
    creator.close()
    reader.join(120)
    assert outcome == [0]


def make_db(path: Path, statements: str, meta: bool = True) -> Path:
    conn = sqlite3.connect(str(path))
    try:
        conn.executescript(statements)
        if meta:
            conn.executemany("INSERT INTO meta VALUES (?, ?)",
                             [("application", APPLICATION),
                              ("schema", str(leaderboard.SCHEMA_VERSION))])
        conn.commit()
    finally:
        conn.close()
    return path


def schema_of(*tables: str) -> str:
    """The statements of SCHEMA that make these tables (and their indexes)."""
    kept = [s for s in SCHEMA.split(";")
            if any(f"TABLE {t} " in s or f"ON {t} " in s for t in tables)]
    return ";".join(kept) + ";"


def fake_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Files claiming to be (or mistaken for) leaderboards, and the reason each is refused."""
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"not a database at all\n" * 200)
    no_columns = SCHEMA.replace("    steps INTEGER NOT NULL,\n", "")
    no_unique = SCHEMA.replace(",\n    UNIQUE (game, players, seed, options, lineup, rotation)",
                               "")
    assert no_columns != SCHEMA and no_unique != SCHEMA
    return {
        "only meta": (make_db(tmp_path / "only_meta.sqlite", schema_of("meta")),
                      "has no agents, games, results table"),
        "meta and agents": (make_db(tmp_path / "meta_agents.sqlite",
                                    schema_of("meta", "agents")),
                            "has no games, results table"),
        "no results": (make_db(tmp_path / "no_results.sqlite",
                               schema_of("meta", "agents", "games")),
                       "has no results table"),
        "a column missing": (make_db(tmp_path / "no_rotation.sqlite", no_columns),
                             "its games table has columns id, game, players, seed, options, "
                             "lineup, rotation, source, terminated, created, schema 1 has"),
        "no unique key": (make_db(tmp_path / "no_unique.sqlite", no_unique),
                          "its games table does not have the unique keys"),
        "another meta": (make_db(tmp_path / "other_meta.sqlite",
                                 "CREATE TABLE meta (name TEXT, value TEXT);"
                                 "INSERT INTO meta VALUES ('application', 'huerta leaderboard');",
                                 meta=False),
                         "its meta table is not a key-value table"),
        "other tables": (make_db(tmp_path / "other.sqlite",
                                 "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);"
                                 "INSERT INTO notes (text) VALUES ('keep me');", meta=False),
                         "is not a huerta leaderboard (no meta table)"),
        "not SQLite": (garbage, "is not a SQLite database"),
    }


KINDS = ["only meta", "meta and agents", "no results", "a column missing", "no unique key",
         "another meta", "other tables", "not SQLite"]


@pytest.mark.usefixtures("quick_ladder")
@pytest.mark.parametrize("kind", KINDS)
def test_a_file_claiming_to_be_a_leaderboard_is_refused_in_one_line_and_left_alone(
        kind, tmp_path, monkeypatch, capsys):
    path, reason = fake_files(tmp_path)[kind]
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    folder = sorted(p.name for p in tmp_path.iterdir())
    for create in (True, False):
        with pytest.raises(LeaderboardError) as caught:
            Leaderboard(path, create=create).open()
        assert str(path) in str(caught.value) and reason in str(caught.value)
    monkeypatch.setattr(benchmark_module.JobPool, "play",
                        lambda *a, **k: pytest.fail("a game was played"))
    for argv in (["tournament", "finca", "--agents", "random,random", "--games", "2",
                  "--quiet", "--db", str(path)],
                 ["tournament", "finca", "--agents", "random,random", "--games", "2",
                  "--quiet", "--db", str(path), "--out", str(tmp_path / "run")],
                 ["benchmark", "finca", "random", "--games", "2", "--quiet", "--db", str(path)],
                 ["leaderboard", "finca", "--db", str(path)]):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        out = capsys.readouterr()
        lines = out.err.strip().splitlines()
        assert code == 2 and len(lines) == 1, out.err
        assert str(path) in lines[0] and reason in lines[0] and "Traceback" not in out.err
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    # no journal or other file beside it (the tournament's --out folder aside)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "run") == folder


def test_an_empty_sqlite_database_is_taken_as_new(tmp_path):
    """A SQLite file without any table (what a process creating the file leaves before its
    schema is committed, or a database just made) gets the schema."""
    path = tmp_path / "empty.sqlite"
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA user_version = 3")  # writes the header, no table
    conn.close()
    assert path.read_bytes().startswith(leaderboard.SQLITE_HEADER)
    with Leaderboard(path) as board:
        assert board.count("games") == 0
    with Leaderboard(path, create=False) as board:
        assert board.agent_id("random", "1", "builtin") == 1


def test_a_missing_file_is_not_made_by_a_reader(tmp_path):
    path = tmp_path / "none.sqlite"
    with pytest.raises(LeaderboardError, match="no leaderboard at"):
        Leaderboard(path, create=False).open()
    assert not path.exists()
    path.touch()
    with pytest.raises(LeaderboardError, match=r"no leaderboard at .*\(the file is empty\)"):
        Leaderboard(path, create=False).open()
    assert path.read_bytes() == b"" and os.listdir(tmp_path) == ["none.sqlite"]
