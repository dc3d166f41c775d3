"""A tournament killed between appending a game to games.jsonl and storing it in the leaderboard:
`--resume` stores that game, and every game of games.jsonl is in the database exactly once
(resuming again, or a finished tournament, stores nothing twice).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from huerta.training.cli import main
from huerta.training.evaluation.leaderboard import Leaderboard

GAMES = 4  # random against random at Finca: 2 deals x 2 seats
KILL_AT = 3  # the third game is appended to games.jsonl, then the process is killed

KILLED_BEFORE_STORING = """
    import os
    import signal
    import sys

    from huerta.training.evaluation import leaderboard
    from huerta.training.cli import main

    real = leaderboard.Leaderboard.add_game
    calls = []

    def add_game(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == int(os.environ["KILL_AT"]):
            os.kill(os.getpid(), signal.SIGKILL)  # the game is in games.jsonl, not stored
        return real(self, *args, **kwargs)

    leaderboard.Leaderboard.add_game = add_game
    sys.exit(main(sys.argv[1:]))
"""


def tournament_args(out: Path, db: Path, *extra: str) -> list[str]:
    return ["tournament", "finca", "--agents", "random,random", "--games", str(GAMES),
            "--seed", "3", "--quiet", "--out", str(out), "--db", str(db), *extra]


def jsonl_games(out: Path) -> dict[tuple[int, int], list[int]]:
    """The games of games.jsonl as the leaderboard keys them: (deal seed, rotation) -> scores."""
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    return {(g["seed"], g["index"] % 2): g["scores"] for g in games}


def stored_games(db: Path) -> list[tuple[tuple[int, int], list[int]]]:
    with Leaderboard(db, create=False) as board:
        assert board.count("results") == 2 * board.count("games")
        return [((g.seed, g.rotation), list(g.scores)) for g in board.games("finca", 2)]


def test_a_game_killed_before_it_was_stored_is_stored_on_resume(tmp_path, capsys):
    out, db = tmp_path / "run", tmp_path / "board.sqlite"
    script = tmp_path / "killed.py"
    script.write_text(textwrap.dedent(KILLED_BEFORE_STORING), encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script), *tournament_args(out, db)],
                          cwd=tmp_path, env={**os.environ, "KILL_AT": str(KILL_AT)},
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    kept = jsonl_games(out)
    assert len(kept) == KILL_AT and len(stored_games(db)) == KILL_AT - 1  # one game lost

    assert main(tournament_args(out, db, "--resume")) == 0
    assert f"resuming {out}: {KILL_AT} of {GAMES} games already played" in capsys.readouterr().out
    every = jsonl_games(out)
    assert len(every) == GAMES
    stored = stored_games(db)
    assert len(stored) == GAMES and dict(stored) == every  # each game once, with its scores

    assert main(tournament_args(out, db, "--resume")) == 0  # a finished tournament: nothing new
    assert sorted(stored_games(db)) == sorted(stored)


def test_a_game_missing_from_the_database_is_stored_on_resume(tmp_path):
    """However the database lost a game of the folder (here: deleted), resuming stores it."""
    out, db = tmp_path / "run", tmp_path / "board.sqlite"
    assert main(tournament_args(out, db)) == 0
    with Leaderboard(db) as board:
        board.db.execute("DELETE FROM games WHERE id = (SELECT max(id) FROM games)")
        assert board.count("games") == GAMES - 1
    assert main(tournament_args(out, db, "--resume")) == 0
    stored = stored_games(db)
    assert len(stored) == GAMES and dict(stored) == jsonl_games(out)
