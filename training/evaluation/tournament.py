"""Round-robin tournaments: any agents, any player count, seats rotated, paired deals.

Every line-up (each combination of `players` agents from the list) plays the same deals (game
seeds), and every deal once per seat rotation, so no agent profits from a lucky deal or seat.
Agents are rebuilt for every game with seeds derived from the deal and the seat, and results are
summarised in game-index order, so they depend neither on the number of worker processes nor on
the order in which games finish. The summary gives win rates with 95% Wilson intervals (a shared
victory counts 1/k), mean scores and ranks, and openskill ratings.

Every argument is checked before the first game (`check_tournament`). Games are scheduled lazily
(a generator of jobs, at most two per worker in flight). With an output folder, each finished game
is appended to `games.jsonl` at once (one JSON line with its record, for `huerta replay`), so an
interrupted tournament (Ctrl-C, a kill) keeps every finished game and `resume=True` plays only
the missing ones, with the same final table as an uninterrupted run. A game reaches games.jsonl
before `on_game` (the leaderboard), and a resume hands `on_game` every game games.jsonl already
holds, so a game whose storing a kill cut off is stored then (the leaderboard stores each game
once, however often it is offered). The folder holds a lock while a tournament writes to it (a
second run into it is refused) and `tournament.json`, the settings a resume must repeat; a
non-empty folder is refused without `resume`. At the end games.jsonl is rewritten in game order
and the summary files are written, each atomically (a temporary file, then a rename).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from huerta.envs.core.registry import get_game

from .jobs import Job, JobRunner, check_tournament, count_jobs, iter_jobs, play_jobs, progress_bar
from .tournament_folder import TournamentFolder
from .tournament_result import TournamentResult, summarise
from .tournament_table import save_results

SETTINGS_FORMAT = 1  # of tournament.json


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM in the CLI) during a tournament; the message says what was kept."""

    def __init__(self, message: str, kept: int, total: int) -> None:
        super().__init__(message)
        self.kept = kept
        self.total = total


def run_tournament(
    game: str,
    codes: Sequence[str],
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    out: str | Path | None = None,
    resume: bool = False,
    log: Callable[[str], None] | None = None,
    runner: JobRunner | None = None,
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> TournamentResult:
    """Play the whole round-robin and summarise it (see the module docstring).

    With `out`, every finished game is appended to `out/games.jsonl` as it ends and the summary
    files are written at the end (`result.paths`); `resume=True` continues the tournament in
    `out`, playing only the games it lacks. Ctrl-C raises `TournamentInterrupted` saying how
    many games were kept. `log` receives a line when a resumed tournament starts. `runner`
    plays the jobs (default `play_jobs`: this process or `workers` local processes; the Ray
    backend passes its own, `ray_tournament.RayRunner`); jobs, seeds and the summary are the
    same whatever plays them. `on_game` receives each game as it finishes (the CLI stores it
    in the leaderboard) and, on resume, first every game games.jsonl already holds (so it
    must store a game offered twice once: the leaderboard does).
    """
    spec = get_game(game)
    codes = check_tournament(spec.name, codes, players, games, seed, workers)
    total = count_jobs(len(codes), players, games)
    if out is None:
        done: dict[int, dict[str, Any]] = {}
        jobs = iter_jobs(len(codes), players, games, seed)
        try:
            _play_into(done, spec.name, codes, jobs, min(workers, total), progress, total, None,
                       runner, on_game)
        except KeyboardInterrupt:
            raise TournamentInterrupted(
                f"interrupted after {len(done)} of {total} games; nothing kept (no output "
                f"folder)", len(done), total,
            ) from None
        return summarise(spec.name, players, codes, [done[i] for i in sorted(done)])
    settings = {
        "format": SETTINGS_FORMAT, "game": spec.name, "players": players, "agents": codes,
        "games": games, "seed": seed, "total": total,
    }
    with TournamentFolder(Path(out), settings, resume) as folder:
        done = folder.load()
        if done and log is not None:
            log(f"resuming {folder.path}: {len(done)} of {total} games already played")
        pending = (j for j in iter_jobs(len(codes), players, games, seed) if j.index not in done)
        try:
            if on_game is not None:  # so a kill between the append and the store loses none
                for index in sorted(done):
                    on_game(done[index])
            _play_into(done, spec.name, codes, pending, max(1, min(workers, total - len(done))),
                       progress, total, folder, runner, on_game)
        except KeyboardInterrupt:
            folder.close_games()
            kept = folder.count_games()  # what the file holds, however the interrupt fell
            raise TournamentInterrupted(
                f"interrupted: {kept} of {total} games kept in {folder.games_path}; run the "
                f"same command with --resume to play the other {total - kept}", kept, total,
            ) from None
        folder.close_games()
        result = summarise(spec.name, players, codes, [done[i] for i in sorted(done)])
        result.paths = save_results(result, Path(out))
    return result


def _play_into(
    done: dict[int, dict[str, Any]],
    game: str,
    codes: list[str],
    jobs: Iterator[Job],
    workers: int,
    progress: bool,
    total: int,
    folder: TournamentFolder | None,
    runner: JobRunner | None = None,
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> None:
    """Play `jobs` with `runner` (default `play_jobs`), storing each result in `done` (and
    appending it to the folder, and handing it to `on_game`) as it finishes."""
    bar = progress_bar(total, game, progress, initial=len(done))
    try:
        with contextlib.closing((runner or play_jobs)(game, codes, jobs, workers)) as results:
            for result in results:
                if folder is not None:
                    folder.append(result)
                if on_game is not None:
                    on_game(result)
                done[result["index"]] = result
                if bar is not None:
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()  # ends the bar's line, so a message after Ctrl-C starts a line of its own
