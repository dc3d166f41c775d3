"""The leaderboard database and `huerta leaderboard`.

Reruns add nothing twice; a benchmark interrupted (Ctrl-C) or killed (SIGKILL) part way leaves a
consistent file holding its finished games, and running it again completes exactly the full set;
files that are not huerta leaderboards are refused naming the reason and left byte for byte as
they were; the leaderboard shows every agent stored so far, the matrix, the legends and a plot.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from huerta.training.cli import main
from huerta.training.evaluation import benchmark as benchmark_module
from huerta.training.evaluation.benchmark import BenchmarkInterrupted, benchmark
from huerta.training.evaluation.leaderboard import (
    DB_ENV,
    SCHEMA_VERSION,
    Leaderboard,
    LeaderboardError,
    default_db_path,
)
from huerta.training.evaluation.standings import MATRIX_LEGEND, SOLO_LEGEND

GAMES = 4  # per rung: 2 deals x 2 seats, against random and the heuristic: 8 games
# (the fixed protocol, `full`: every rung gets its games, whatever the placement would skip)

pytestmark = pytest.mark.usefixtures("quick_ladder")  # random and heuristic only


def run(argv, capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


def counts(path) -> tuple[int, int, int]:
    with Leaderboard(path, create=False) as board:
        return board.count("games"), board.count("results"), board.count("agents")


def integrity(path) -> str:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def test_a_rerun_adds_no_games(tmp_path):
    db = tmp_path / "board.sqlite"
    first = benchmark("finca", "random", games=GAMES, db=db, full=True)
    assert (first.played, first.reused) == (2 * GAMES, 0)
    assert counts(db) == (2 * GAMES, 4 * GAMES, 2)  # random and the heuristic
    again = benchmark("finca", "random", games=GAMES, db=db, full=True)
    assert (again.played, again.reused) == (0, 2 * GAMES)
    assert counts(db) == (2 * GAMES, 4 * GAMES, 2)
    assert again.to_json() | {"played": 0, "reused": 0} == first.to_json() | {"played": 0,
                                                                              "reused": 0}
    more = benchmark("finca", "random", games=2 * GAMES, db=db, full=True)  # two more deals
    assert (more.played, more.reused) == (2 * GAMES, 2 * GAMES)
    assert counts(db)[0] == 4 * GAMES


def test_an_interrupted_benchmark_keeps_its_games_and_finishes_when_rerun(tmp_path,
                                                                         monkeypatch):
    db = tmp_path / "board.sqlite"
    real = benchmark_module.JobPool.play

    def three_then_ctrl_c(self, jobs):
        for n, result in enumerate(real(self, jobs)):
            if n == 3:
                raise KeyboardInterrupt
            yield result

    monkeypatch.setattr(benchmark_module.JobPool, "play", three_then_ctrl_c)
    with pytest.raises(BenchmarkInterrupted, match=r"3 of 8 games kept in .*the other 5"):
        benchmark("finca", "random", games=GAMES, db=db, full=True)
    assert integrity(db) == "ok" and counts(db)[0] == 3
    monkeypatch.setattr(benchmark_module.JobPool, "play", real)
    resumed = benchmark("finca", "random", games=GAMES, db=db, full=True)
    assert (resumed.played, resumed.reused) == (5, 3) and counts(db)[0] == 2 * GAMES
    whole = benchmark("finca", "random", games=GAMES, db=tmp_path / "other.sqlite", full=True)
    assert resumed.to_json() | {"played": 0, "reused": 0, "db": None} == whole.to_json() | {
        "played": 0, "reused": 0, "db": None}


SLOW_AGENT = """
    import os
    import time

    import numpy as np

    class Slow:
        def __init__(self, seed=None):
            self.rng = np.random.default_rng(seed)

        def reset(self, seed=None):
            self.rng = np.random.default_rng(seed)

        def act(self, observation, view=None):
            if os.environ.get("HUERTA_TEST_SLOW"):
                time.sleep(0.01)
            legal = np.flatnonzero(observation["action_mask"])
            return int(legal[self.rng.integers(len(legal))])
"""


def test_a_benchmark_killed_mid_way_leaves_a_consistent_file(tmp_path, monkeypatch, capsys):
    """SIGKILL while games are being written: the file checks out, holds the finished games,
    and the same command completes exactly the full set."""
    (tmp_path / "slow_agent.py").write_text(textwrap.dedent(SLOW_AGENT), encoding="utf-8")
    db = tmp_path / "board.sqlite"
    argv = ["benchmark", "finca", "slow_agent:Slow", "--games", "6", "--full", "--db", str(db),
            "--quiet"]
    env = {**os.environ, "HUERTA_TEST_SLOW": "1"}
    child = subprocess.Popen([sys.executable, "-m", "huerta.training.cli", *argv], cwd=tmp_path,
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        stored = 0
        while stored < 2 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
            if db.exists():
                conn = sqlite3.connect(str(db), timeout=10)
                try:
                    stored = conn.execute("SELECT count(*) FROM games").fetchone()[0]
                except sqlite3.OperationalError:  # the schema is not there yet
                    stored = 0
                finally:
                    conn.close()
        assert child.poll() is None, child.stderr.read().decode()
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stderr.close()
    assert integrity(db) == "ok"
    kept = counts(db)[0]
    assert 2 <= kept < 12
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert f"({12 - kept} played now, {kept} found there)" in out
    assert counts(db)[0] == 12 and integrity(db) == "ok"


@pytest.fixture
def foreign_files(tmp_path):
    """Files that are not huerta leaderboards, with their bytes."""
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(os.urandom(4096))
    other = tmp_path / "other_app.sqlite"
    with sqlite3.connect(str(other)) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO notes (text) VALUES ('keep me')")
    conn.close()
    newer = tmp_path / "newer.sqlite"
    with sqlite3.connect(str(newer)) as conn:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        conn.executemany("INSERT INTO meta VALUES (?, ?)",
                         [("application", "huerta leaderboard"), ("schema", "99")])
    conn.close()
    return {
        "garbage": (garbage, "is not a SQLite database"),
        "other": (other, "is not a huerta leaderboard (no meta table)"),
        "newer": (newer, f"has leaderboard schema version 99; this huerta reads version "
                         f"{SCHEMA_VERSION}"),
    }


@pytest.mark.parametrize("kind", ["garbage", "other", "newer"])
def test_a_file_that_is_not_a_leaderboard_is_refused_and_left_alone(kind, foreign_files,
                                                                    monkeypatch, capsys):
    path, message = foreign_files[kind]
    before = path.read_bytes()
    with pytest.raises(LeaderboardError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Leaderboard(path).open()
    monkeypatch.setattr(benchmark_module.JobPool, "play",
                        lambda *a, **k: pytest.fail("a game was played"))
    for argv in (["benchmark", "finca", "random", "--games", "2", "--quiet", "--db", str(path)],
                 ["tournament", "finca", "--games", "2", "--quiet", "--db", str(path)],
                 ["leaderboard", "finca", "--db", str(path)]):
        code, _, err = run(argv, capsys)
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and message in lines[0] and str(path) in lines[0]
    assert path.read_bytes() == before


def test_the_leaderboard_shows_every_agent_so_far(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    (tmp_path / "board_policy.py").write_text(textwrap.dedent("""
        import numpy as np

        def a_policy_with_a_rather_long_name_for_the_column_widths(observation):
            return int(np.flatnonzero(observation["action_mask"])[-1])
    """), encoding="utf-8")
    user = "board_policy:a_policy_with_a_rather_long_name_for_the_column_widths"
    db = tmp_path / "lb" / "board.sqlite"
    code, out, _ = run(["leaderboard", "finca", "--db", str(db)], capsys)
    assert code == 0 and "no leaderboard at" in out and not db.exists()
    for argv in (["benchmark", "finca", "random", "--games", "2", "--full"],
                 ["benchmark", "finca", user, "--games", "2", "--full"],
                 ["tournament", "finca", "--agents", "random,mcts:2", "--games", "2"]):
        code, _, err = run([*argv, "--quiet", "--db", str(db)], capsys)
        assert code == 0, err
    code, out, _ = run(["leaderboard", "finca", "--players", "3", "--db", str(db)], capsys)
    assert code == 0 and "no finca games with 3 player(s)" in out
    code, out, err = run(["leaderboard", "finca", "--db", str(db)], capsys)
    assert code == 0, err
    lines = out.splitlines()
    top = lines.index(next(line for line in lines if line.split()[:2] == ["#", "agent"]))
    legend = lines.index(next(line for line in lines if line.startswith("rating: Elo points")))
    rows = {line.split()[1]: line for line in lines[top + 2:legend]}
    assert set(rows) == {"random", "heuristic", user, "mcts:2"}
    assert "(ladder)" in rows["random"] and "(ladder)" in rows["heuristic"]
    assert rows["random"].split()[3] == "0.0"
    assert all(len(row) == len(lines[top]) for row in rows.values())  # the long name fits
    matrix = lines.index(next(line for line in lines if line.split() == ["#", "1", "2", "3",
                                                                         "4"]))
    assert [line.split()[0] for line in lines[matrix + 1:matrix + 5]] == ["1", "2", "3", "4"]
    assert lines[matrix + 5].startswith(MATRIX_LEGEND)
    plot = db.parent / "leaderboard_finca_2p.png"
    assert f"plot: {plot}" in out and plot.stat().st_size > 1000
    code, out, _ = run(["leaderboard", "finca", "--db", str(db), "--plot",
                        str(tmp_path / "mine.png")], capsys)
    assert code == 0 and (tmp_path / "mine.png").is_file()


def test_the_solo_leaderboard_lists_win_rates(tmp_path, capsys):
    db = tmp_path / "board.sqlite"
    benchmark("alpujarras-solo", "random", games=2, db=db)
    code, out, _ = run(["leaderboard", "alpujarras-solo", "--db", str(db)], capsys)
    assert code == 0 and SOLO_LEGEND in out and " random " in out


def test_tournaments_store_their_games_by_default_and_not_with_no_db(tmp_path, monkeypatch,
                                                                    capsys):
    db = tmp_path / "env.sqlite"
    monkeypatch.setenv(DB_ENV, str(db))
    assert default_db_path() == db
    code, out, _ = run(["tournament", "finca", "--agents", "random,random", "--games", "2",
                        "--quiet", "--no-db"], capsys)
    assert code == 0 and not db.exists()
    code, out, _ = run(["tournament", "finca", "--agents", "random,heuristic", "--games", "2",
                        "--quiet"], capsys)
    assert code == 0 and f"games stored in the leaderboard {db}" in out
    with Leaderboard(db, create=False) as board:
        stored = list(board.games("finca", 2))
        assert len(stored) == 2 and {len(set(g.agents)) for g in stored} == {2}
        assert board.db.execute("SELECT DISTINCT source FROM games").fetchall() == [
            ("tournament",)]
    monkeypatch.delenv(DB_ENV)
    monkeypatch.chdir(tmp_path)
    assert default_db_path() == tmp_path.joinpath("runs", "leaderboard.sqlite").relative_to(
        tmp_path)
