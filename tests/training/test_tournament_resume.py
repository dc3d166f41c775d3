"""Tournaments that are interrupted, resumed, run twice into one folder, or given bad arguments.

A `huerta tournament --out` subprocess stopped by SIGINT or SIGKILL keeps every finished game in
games.jsonl, and `--resume` plays only the missing ones, ending with the same games.jsonl,
summary.json and table.txt as an uninterrupted run (for every game). Two runs into one folder
cannot both write it; arguments are all checked before the first game; jobs are scheduled lazily
and workers capped at the number of games.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from huerta.agents import make_agent
from huerta.envs.core.errors import CorruptRecordError, InvalidConfigError
from huerta.envs.core.registry import game_names
from huerta.training.cli import main
from huerta.training.evaluation import jobs, tournament
from huerta.training.evaluation.jobs import count_jobs, iter_jobs, play_jobs
from huerta.training.evaluation.matches import play_game
from huerta.training.evaluation.tournament import TournamentInterrupted, run_tournament
from huerta.training.evaluation.tournament_folder import TournamentFolder
from huerta.training.runs import write_atomic

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ["random", "random"]
SEED = 7
# the steps of random play a tournament here holds (one to two seconds), so that a signal lands
# well before the end however long the game's games are
TOURNAMENT_STEPS = 25_000
SUMMARY_FILES = ("games.jsonl", "summary.json", "table.txt")


@functools.cache
def games_of(game: str) -> int:
    """How many games a tournament of `game` plays here: TOURNAMENT_STEPS over the mean length
    of ten seeded games of its agents, an even number (every deal from both seats) from 20 to
    2,000. Deterministic, as the games are (at the time of writing about 120 of Finca, 1,300 of
    Alpujarras, 150 of Mi Tierra). Played with play_game, not the tournament's own functions,
    which tests here replace."""
    lengths = [
        play_game(game, [make_agent(code, game=game, seed=SEED + 2 * k + seat)
                         for seat, code in enumerate(AGENTS)], SEED + k)[1].steps
        for k in range(10)
    ]
    deals = round(TOURNAMENT_STEPS * len(lengths) / sum(lengths) / 2)
    return 2 * min(1000, max(10, deals))


def tournament_args(game: str, out: Path, *extra: str) -> list[str]:
    return ["tournament", game, "--agents", ",".join(AGENTS), "--games", str(games_of(game)),
            "--seed", str(SEED), "--quiet", "--out", str(out), *extra]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """Uninterrupted runs, one per game (made once, on demand): game -> output folder."""
    made: dict[str, Path] = {}

    def get(game: str) -> Path:
        if game not in made:
            out = tmp_path_factory.mktemp(f"reference-{game}")
            run_tournament(game, AGENTS, games=games_of(game), seed=SEED, out=out)
            made[game] = out
        return made[game]

    return get


def assert_same_results(out: Path, ref: Path) -> None:
    for name in SUMMARY_FILES:
        assert (out / name).read_bytes() == (ref / name).read_bytes(), name


def complete_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def start_huerta(*args: str) -> subprocess.Popen:
    """`python -m huerta.training.cli ARGS`, with Ctrl-C's default action even if this test
    runs where SIGINT is ignored (a background job)."""
    return subprocess.Popen(
        [sys.executable, "-m", "huerta.training.cli", *args], cwd=ROOT, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def wait_for_games(proc: subprocess.Popen, path: Path, count: int) -> None:
    """Wait until games.jsonl holds `count` finished games (a guard stops a hung run)."""
    deadline = time.monotonic() + 120
    while complete_lines(path) < count:
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the tournament ended before {count} games: {out}\n{err}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("no games written within two minutes")
        time.sleep(0.01)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
@pytest.mark.parametrize("game", game_names())
def test_signal_then_resume_gives_the_uninterrupted_results(game, sig, tmp_path, reference,
                                                            capsys):
    out = tmp_path / "run"
    workers = "2" if sig == signal.SIGINT else "1"  # Ctrl-C also ends a worker pool cleanly
    proc = start_huerta(*tournament_args(game, out, "--workers", workers))
    wait_for_games(proc, out / "games.jsonl", 2)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=120)
    kept = complete_lines(out / "games.jsonl")
    total = games_of(game)
    assert 2 <= kept < total, "the run ended before the signal: nothing was interrupted"
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and "Traceback" not in stderr
        assert stderr.splitlines() == [
            f"huerta tournament: interrupted: {kept} of {total} games kept in "
            f"{out / 'games.jsonl'}; run the same command with --resume to play the other "
            f"{total - kept}; they are in the leaderboard {os.environ['HUERTA_LEADERBOARD']} too"
        ]
    else:
        assert proc.returncode == -signal.SIGKILL
    assert not (out / "summary.json").exists()

    assert main(tournament_args(game, out)) == 2  # without --resume: refused, not overwritten
    assert "continue the tournament in it with --resume" in capsys.readouterr().err
    assert main(tournament_args(game, out, "--resume")) == 0
    printed = capsys.readouterr().out
    assert f"resuming {out}: {kept} of {total} games already played" in printed
    assert_same_results(out, reference(game))


def test_sigterm_is_handled_like_ctrl_c(tmp_path):
    out = tmp_path / "run"
    proc = start_huerta(*tournament_args("alpujarras", out))
    wait_for_games(proc, out / "games.jsonl", 2)
    proc.terminate()
    _, stderr = proc.communicate(timeout=120)
    kept = complete_lines(out / "games.jsonl")
    assert proc.returncode == 130 and kept < games_of("alpujarras")
    assert stderr.startswith(f"huerta tournament: interrupted: {kept} of ")
    assert len(stderr.splitlines()) == 1


def test_a_line_cut_short_by_a_kill_is_played_again(tmp_path, reference):
    """A kill in the middle of a write leaves a partial last line: resume drops it."""
    ref = reference("alpujarras")
    out = tmp_path / "run"
    out.mkdir()
    shutil.copy(ref / "tournament.json", out)
    lines = (ref / "games.jsonl").read_bytes().splitlines(keepends=True)
    (out / "games.jsonl").write_bytes(b"".join(lines[:5]) + lines[5][: len(lines[5]) // 2])
    run_tournament("alpujarras", AGENTS, games=games_of("alpujarras"), seed=SEED, out=out,
                   resume=True)
    assert_same_results(out, ref)


def test_resuming_a_finished_tournament_plays_nothing(tmp_path, reference, monkeypatch):
    ref = reference("alpujarras")
    out = tmp_path / "run"
    shutil.copytree(ref, out)
    monkeypatch.setattr(jobs, "run_job", lambda args: pytest.fail("a game was played"))
    run_tournament("alpujarras", AGENTS, games=games_of("alpujarras"), seed=SEED, out=out,
                   resume=True)
    assert_same_results(out, ref)


def test_results_do_not_depend_on_the_order_games_finish(tmp_path, reference, monkeypatch):
    original = tournament.play_jobs

    def reversed_order(*args, **kwargs):
        yield from reversed(list(original(*args, **kwargs)))

    monkeypatch.setattr(tournament, "play_jobs", reversed_order)
    run_tournament("alpujarras", AGENTS, games=games_of("alpujarras"), seed=SEED,
                   out=tmp_path / "run")
    assert_same_results(tmp_path / "run", reference("alpujarras"))


def test_two_concurrent_runs_into_one_folder(tmp_path, reference):
    """Started together: one writes the folder, the other is refused (by the lock, or because
    the folder is no longer empty); games.jsonl is exactly the uninterrupted run's."""
    out = tmp_path / "run"
    procs = [start_huerta(*tournament_args("finca", out)) for _ in range(2)]
    results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 2], results
    refused = next(err for code, _, err in results if code == 2)
    assert re.search(r"another tournament is writing to this folder now|is not empty", refused)
    assert "Traceback" not in refused
    assert_same_results(out, reference("finca"))


def _settings(game: str = "alpujarras") -> dict:
    return {"format": 1, "game": game, "players": 2, "agents": AGENTS, "games": 4, "seed": 0,
            "total": 4}


def test_a_held_lock_refuses_a_second_run(tmp_path, monkeypatch):
    monkeypatch.setattr(jobs, "run_job", lambda args: pytest.fail("a game was played"))
    out = tmp_path / "run"
    with TournamentFolder(out, _settings(), resume=False), pytest.raises(
        InvalidConfigError, match="another tournament is writing to this folder now"
    ):
        run_tournament("alpujarras", AGENTS, games=4, seed=0, out=out, resume=True)
    # released when the first run ends
    monkeypatch.undo()
    run_tournament("alpujarras", AGENTS, games=4, seed=0, out=out, resume=True)
    assert complete_lines(out / "games.jsonl") == 4


@pytest.mark.parametrize(
    "change, message",
    [
        ({"games": 6}, "games 6 differs from the 4"),
        ({"seed": 1}, "seed 1 differs from the 0"),
        ({"codes": ["random", "heuristic"]}, "agents .* differs from the"),
    ],
    ids=["games", "seed", "agents"],
)
def test_resume_with_other_settings_is_refused(tmp_path, change, message):
    out = tmp_path / "run"
    kwargs = {"codes": AGENTS, "games": 4, "seed": 0}
    run_tournament("alpujarras", out=out, **kwargs)
    before = (out / "games.jsonl").read_bytes()
    with pytest.raises(InvalidConfigError, match=message):
        run_tournament("alpujarras", out=out, resume=True, **{**kwargs, **change})
    assert (out / "games.jsonl").read_bytes() == before


def test_resume_refuses_a_folder_without_a_tournament(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(InvalidConfigError, match="holds no tournament to continue"):
        run_tournament("alpujarras", AGENTS, games=4, out=tmp_path, resume=True)
    with pytest.raises(InvalidConfigError, match="is not empty"):
        run_tournament("alpujarras", AGENTS, games=4, out=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lock", "notes.txt"]


def _spoil_record(line: dict) -> None:
    line["record"]["actions"][0] = 1 - line["record"]["actions"][0] if line["record"][
        "actions"][0] in (0, 1) else 0


@pytest.mark.parametrize(
    "spoil, message",
    [
        (lambda lines: lines.__setitem__(1, "{oops\n"), r"line 2 is not valid JSON"),
        (lambda lines: lines.__setitem__(1, lines[0]), r"game 0 appears twice"),
        (lambda lines: lines.__setitem__(1, _edit(lines[1], _spoil_record)),
         r"line 2: game record: the checksum does not match"),
        (lambda lines: lines.__setitem__(1, _edit(lines[1], lambda g: g.update(seats=[0, 1]))),
         r"game 1 is not the game this tournament schedules"),
        (lambda lines: lines.__setitem__(1, _edit(lines[1], lambda g: g.update(index=99))),
         r"line 2: game index 99 is out of range"),
        (lambda lines: lines.__setitem__(1, _edit(lines[1], lambda g: g.pop("scores"))),
         r"line 2: field 'scores' must be list"),
    ],
    ids=["not-json", "duplicate", "changed-record", "other-seats", "index", "missing-field"],
)
def test_resume_refuses_a_corrupt_games_file_naming_the_line(tmp_path, spoil, message):
    out = tmp_path / "run"
    run_tournament("alpujarras", AGENTS, games=4, seed=0, out=out)
    path = out / "games.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    spoil(lines)
    path.write_text("".join(lines))
    with pytest.raises(CorruptRecordError, match=message):
        run_tournament("alpujarras", AGENTS, games=4, seed=0, out=out, resume=True)


def _edit(line: str, change) -> str:
    game = json.loads(line)
    change(game)
    return json.dumps(game) + "\n"


BAD_ARGUMENTS = {
    "games-0": ({"games": 0}, "games must be an integer from 1"),
    "games-huge": ({"games": 10**9}, "games must be an integer from 1 to 10,000,000"),
    "games-float": ({"games": 2.5}, "games must be an integer"),
    "workers-0": ({"workers": 0}, "workers must be an integer from 1"),
    "seed-negative": ({"seed": -1}, "seed must be an integer from 0"),
    "seed-huge": ({"seed": 2**32}, "seed must be an integer from 0 to 4,294,967,295"),
    "agent-argument": ({"codes": ["heuristic:3", "random"]}, "heuristic:3 is not valid"),
    "mcts-budget": ({"codes": ["mcts:0", "random"]}, "bad mcts budget"),
    "too-few-agents": ({"codes": ["random"]}, "cannot fill 2 seats"),
    "no-agents": ({"codes": [" ", ""]}, "no agents given"),
    "players": ({"players": 5}, "num_players=5 is not supported"),
    "human-workers": ({"codes": ["human", "random"], "workers": 2}, "use --workers 1"),
    "human-no-terminal": ({"codes": ["human", "random"]}, "needs a terminal"),
}


@pytest.mark.parametrize("change, message", BAD_ARGUMENTS.values(), ids=BAD_ARGUMENTS.keys())
@pytest.mark.parametrize("game", game_names())
def test_every_argument_is_checked_before_the_first_game(game, change, message, tmp_path,
                                                         monkeypatch):
    monkeypatch.setattr(jobs, "run_job", lambda args: pytest.fail("a game was played"))
    kwargs = {"codes": AGENTS, "games": 4, "seed": 0, "workers": 1, "players": 2,
              "out": tmp_path / "out", **change}
    with pytest.raises(InvalidConfigError, match=message):
        run_tournament(game, **kwargs)
    assert not (tmp_path / "out").exists()


def test_an_output_folder_that_cannot_be_written_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(jobs, "run_job", lambda args: pytest.fail("a game was played"))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(InvalidConfigError, match="is a file, not a folder"):
        run_tournament("finca", AGENTS, games=2, out=blocker)
    with pytest.raises(InvalidConfigError, match="cannot write there"):
        run_tournament("finca", AGENTS, games=2, out=blocker / "below")


def test_workers_are_capped_at_the_games_left(tmp_path, monkeypatch):
    seen = []
    original = tournament.play_jobs

    def recording(game, codes, jobs, workers):
        seen.append(workers)
        return original(game, codes, jobs, 1)

    monkeypatch.setattr(tournament, "play_jobs", recording)
    run_tournament("alpujarras", AGENTS, games=2, workers=8)  # 2 games in all
    run_tournament("alpujarras", AGENTS, games=2, workers=8, out=tmp_path / "run")
    lines = (tmp_path / "run" / "games.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "run" / "games.jsonl").write_text(lines[0])  # one game left to play
    run_tournament("alpujarras", AGENTS, games=2, workers=8, out=tmp_path / "run", resume=True)
    assert seen == [2, 2, 1]


def test_jobs_are_scheduled_lazily():
    """No list of every game: the jobs come from a generator, the first of a hundred million
    at once, and the players pull one job at a time (at most two per worker in flight)."""
    jobs = iter_jobs(num_agents=3, players=2, games=10**8, seed=0)
    assert inspect.isgenerator(jobs)
    assert count_jobs(3, 2, 10**8) == 3 * 10**8
    first = next(jobs)
    assert (first.index, first.lineup, first.seats) == (0, 0, (0, 1))
    pulled = []

    def counted():
        for job in iter_jobs(2, 2, 6, 0):
            pulled.append(job.index)
            yield job

    results = play_jobs("alpujarras", AGENTS, counted(), workers=1)
    next(results)
    assert pulled == [0]
    results.close()


def test_a_worker_pool_pulls_at_most_two_jobs_per_worker(tmp_path):
    pulled = []

    def counted():
        for job in iter_jobs(2, 2, 20, 0):
            pulled.append(job.index)
            yield job

    results = play_jobs("alpujarras", AGENTS, counted(), workers=2)
    first = next(results)
    assert len(pulled) <= 4 + 1 and first["index"] in pulled
    rest = list(results)
    assert sorted([first["index"], *(r["index"] for r in rest)]) == list(range(20))


def test_ctrl_c_in_process_keeps_the_finished_games(tmp_path, monkeypatch, capsys, reference):
    """A KeyboardInterrupt during the third game: two kept, one line, exit status 130; the
    resumed run equals the uninterrupted one."""
    original = jobs.run_job
    calls = itertools.count()

    def interrupting(args):
        if next(calls) == 2:
            raise KeyboardInterrupt
        return original(args)

    monkeypatch.setattr(jobs, "run_job", interrupting)
    out = tmp_path / "run"
    total = games_of("alpujarras")
    expected = f"interrupted: 2 of {total} games kept"
    with pytest.raises(TournamentInterrupted, match=expected) as info:
        run_tournament("alpujarras", AGENTS, games=total, seed=SEED, out=out)
    assert (info.value.kept, info.value.total) == (2, total)
    assert complete_lines(out / "games.jsonl") == 2
    calls = itertools.count()
    monkeypatch.setattr(jobs, "run_job", interrupting)
    assert main(tournament_args("alpujarras", out, "--resume")) == 130
    err = capsys.readouterr().err.splitlines()
    assert err == [f"huerta tournament: interrupted: 4 of {total} games kept in "
                   f"{out / 'games.jsonl'}; run the same command with --resume to play the "
                   f"other {total - 4}; they are in the leaderboard "
                   f"{os.environ['HUERTA_LEADERBOARD']} too"]
    monkeypatch.setattr(jobs, "run_job", original)
    assert main(tournament_args("alpujarras", out, "--resume")) == 0
    assert_same_results(out, reference("alpujarras"))


def test_without_an_output_folder_ctrl_c_says_nothing_was_kept(monkeypatch):
    def interrupting(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(jobs, "run_job", interrupting)
    with pytest.raises(TournamentInterrupted, match="nothing kept"):
        run_tournament("alpujarras", AGENTS, games=2)


def test_summary_files_are_replaced_atomically(tmp_path, monkeypatch):
    path = tmp_path / "summary.json"
    write_atomic(path, "old\n")

    def failing_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(path, "new\n")
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]  # no temporary file left
