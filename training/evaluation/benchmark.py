"""Benchmark one agent against the fixed ladder: an anchored rating with its 95% interval.

For every rung of the ladder (`training/evaluation/ladder.py`) the agent plays `games` games: `games
/ players` deals (the published seeds from `BENCHMARK_SEED`, the same deals for every rung: paired
deals), each once from every seat, the agent in one seat and the rung in all the others. Its rating
is fitted on the anchored Elo scale (`training/evaluation/anchored.py`: random at 0, the rungs at
their reference ratings), with a 95% interval; a head-to-head row per rung gives its wins, draws and
losses, score share and mean score margin. In the solo game the agent plays the
published deals against Zara and gets a win rate with its Wilson interval instead, beside the
rungs' reference win rates on the same deals.

Games are played by the tournament machinery (`tournament.play_jobs`: this process or worker
processes, seeds derived from the deal and seat). With a leaderboard database (`db`), every
finished game is stored at once and games already stored are not played again, so a benchmark
killed or interrupted part way continues where it stopped when run again, and a rerun adds
nothing twice.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_label, resolve_game

from ..agent_specs import (
    AgentIdentity,
    agent_identity,
    check_benchmark_agent,
    make_benchmark_agent,
)
from ..limits import MAX_GAMES, MAX_SEED, MAX_WORKERS
from .anchored import AnchoredFit, pair_outcome, pair_table
from .benchmark_table import BenchmarkResult, RungResult
from .jobs import Job, check_int, play_jobs, progress_bar
from .ladder import BENCHMARK_SEED, Rung, ladder
from .leaderboard import Leaderboard, StoredGame
from .ratings import wilson_interval

DEFAULT_GAMES = 200  # per rung; in the solo game, the published deals (ladder.SOLO_DEALS)


class BenchmarkInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM in the CLI) during a benchmark; the message says what was kept."""


def benchmark_jobs(rungs: int, players: int, games: int, seed: int) -> Iterator[Job]:
    """Every rung x deal x seat of the agent, in index order: the agent is code 0, rung r code
    r + 1; `games` per rung rounded up to whole deals. The solo game: one job per deal."""
    if players == 1:
        for deal in range(games):
            yield Job(deal, 0, deal, seed + deal, (0,))
        return
    deals = math.ceil(games / players)
    index = 0
    for r in range(rungs):
        for deal in range(deals):
            for seat in range(players):
                seats = tuple(0 if s == seat else r + 1 for s in range(players))
                yield Job(index, r, deal, seed + deal, seats)
                index += 1


def benchmark(
    game: str,
    agent: Any,
    players: int | None = None,
    games: int = DEFAULT_GAMES,
    seed: int = BENCHMARK_SEED,
    workers: int = 1,
    db: str | Path | None = None,
    progress: bool = False,
    rungs: Sequence[Rung] | None = None,
    log: Callable[[str], None] | None = None,
) -> BenchmarkResult:
    """Benchmark `agent` on `game` against the ladder (or `rungs`), `games` games per rung
    (see the module docstring); `db` (a leaderboard file) stores every game and reuses those
    stored. `agent` is any form `agent_specs` takes: a spec string (resolved again in each
    worker) or a Python agent object or callable (used as it is with one worker, pickled to
    every game with more). Ctrl-C raises `BenchmarkInterrupted` saying what was kept."""
    if isinstance(agent, os.PathLike):
        agent = os.fspath(agent)
    spec, fixed = resolve_game(game, players)
    players = fixed or players or 2
    check_int("games", games, 1, MAX_GAMES)
    check_int("workers", workers, 1, MAX_WORKERS)
    check_int("seed", seed, 0, MAX_SEED)
    identity = check_benchmark_agent(agent, spec.name, players, workers)
    ladder_rungs = list(rungs) if rungs is not None else ladder(spec.name, players)
    if players > 1 and not ladder_rungs:
        raise InvalidConfigError(f"no ladder for {spec.name} with {players} players")
    rung_ids = [agent_identity(r.code, spec.name) for r in ladder_rungs]
    notes = [
        f"note: the ladder's {r.code} was measured at version {r.version}; this huerta's is "
        f"{ident.version} (scripts/reference_ladder.py measures it again)"
        for r, ident in zip(ladder_rungs, rung_ids, strict=True)
        if r.version and r.version != ident.version
    ]
    codes = [agent, *(r.code for r in ladder_rungs)] if players > 1 else [agent]
    identities = [identity, *rung_ids] if players > 1 else [identity]
    jobs = list(benchmark_jobs(len(ladder_rungs), players, games, seed))
    deals = 1 + max(j.deal for j in jobs)
    done: dict[int, dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        board = stack.enter_context(Leaderboard(db)) if db is not None else None
        ids: list[int] = []
        if board is not None:
            ids = [board.agent_id(i.code, i.version, i.kind) for i in identities]
            done.update(_stored_results(board, spec.name, players, jobs, ids))
        reused = len(done)
        if reused and log is not None:
            log(f"{reused} of {len(jobs)} games already in {db}: playing the other "
                f"{len(jobs) - reused}")

        def store(result: dict[str, Any]) -> None:
            if board is not None:
                job = jobs[result["index"]]
                board.add_game(spec.name, players, job.seed, _rotation(job),
                               [ids[a] for a in job.seats], result, "benchmark")

        pending = [j for j in jobs if j.index not in done]
        try:
            _play(spec.name, codes, pending, workers, done, store,
                  progress_bar(len(jobs), f"{game_label(spec.name, players)} "
                                f"{identity.code}", progress, reused, kind="benchmark"))
        except KeyboardInterrupt:
            kept = (f"{len(done)} of {len(jobs)} games kept in {db}; run the same command again "
                    f"to play the other {len(jobs) - len(done)}") if board is not None else (
                    f"{len(done)} of {len(jobs)} games played; nothing kept (no database)")
            raise BenchmarkInterrupted(f"interrupted: {kept}") from None
    results = [done[j.index] for j in jobs]
    summary = summarise_benchmark(spec.name, players, identity, ladder_rungs, rung_ids, jobs,
                                  results, seed, deals)
    summary.played, summary.reused = len(jobs) - reused, reused
    summary.db = str(db) if db is not None else None
    summary.notes = notes
    return summary


def _play(game: str, codes: list[Any], pending: list[Job], workers: int,
          done: dict[int, dict[str, Any]], store: Callable[[dict[str, Any]], None],
          bar: Any) -> None:
    """Play the pending jobs, storing each result as it finishes."""
    if not pending:
        if bar is not None:
            bar.close()
        return
    runner = functools.partial(play_jobs, maker=make_benchmark_agent)
    try:
        with contextlib.closing(runner(game, codes, iter(pending),
                                       max(1, min(workers, len(pending))))) as results:
            for result in results:
                result.pop("record", None)  # the database keeps results, not records
                store(result)
                done[result["index"]] = result
                if bar is not None:
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()


def _stored_results(board: Leaderboard, game: str, players: int, jobs: list[Job],
                    ids: list[int]) -> dict[int, dict[str, Any]]:
    """The results of the jobs the database already holds, by job index."""
    seeds = (min(j.seed for j in jobs), max(j.seed for j in jobs))
    stored = {(g.seed, g.rotation, g.agents): g for g in board.games(game, players, seeds)}
    done = {}
    for job in jobs:
        found = stored.get((job.seed, _rotation(job), tuple(ids[a] for a in job.seats)))
        if found is not None:
            done[job.index] = _from_stored(job, found)
    return done


def _rotation(job: Job) -> int:
    """The seat of the benchmarked agent (code 0) in a job."""
    return job.seats.index(0)


def _from_stored(job: Job, game: StoredGame) -> dict[str, Any]:
    return {"index": job.index, "seats": list(job.seats), "seed": job.seed,
            "scores": list(game.scores), "ranks": list(game.ranks),
            "winners": [s for s, won in enumerate(game.won) if won],
            "terminated": game.terminated}


def summarise_benchmark(
    game: str, players: int, identity: AgentIdentity, rungs: list[Rung],
    rung_ids: list[AgentIdentity], jobs: list[Job], results: list[dict[str, Any]], seed: int,
    deals: int,
) -> BenchmarkResult:
    """The rating (or solo win rate) and the per-rung rows from the games' results."""
    truncated = sum(1 for r in results if not r["terminated"])
    if players == 1:
        wins = sum(1 for r in results if r["winners"])
        low, high = wilson_interval(wins, len(results))
        rows = [RungResult(r.code, i.version, 0.0, games=r.games, win_rate=r.win_rate)
                for r, i in zip(rungs, rung_ids, strict=True)]
        return BenchmarkResult(game, players, identity, seed, deals, len(results),
                               wins / len(results), low, high, rungs=rows, truncated=truncated)
    rows = [RungResult(r.code, i.version, r.rating) for r, i in zip(rungs, rung_ids, strict=True)]
    shares: list[float] = [0.0] * len(rungs)
    for job, result in zip(jobs, results, strict=True):
        row = rows[job.lineup]
        me = _rotation(job)
        outcomes = [pair_outcome(result["ranks"][me], result["ranks"][s])
                    for s in range(players) if s != me]
        others = [result["scores"][s] for s in range(players) if s != me]
        row.games += 1
        row.wins += outcomes.count(1.0)
        row.draws += outcomes.count(0.5)
        row.losses += outcomes.count(0.0)
        shares[job.lineup] += sum(outcomes) / len(outcomes)
        row.mean_margin += result["scores"][me] - sum(others) / len(others)
    for row, share in zip(rows, shares, strict=True):
        if row.games:
            row.score_share = share / row.games
            row.share_low, row.share_high = wilson_interval(share, row.games)
            row.mean_margin /= row.games
    table = pair_table(((job.seed, job.seats, result["ranks"])
                        for job, result in zip(jobs, results, strict=True)), 1 + len(rungs))
    fitted = AnchoredFit(table, {1 + k: r.rating for k, r in enumerate(rungs)}).fit()[0]
    return BenchmarkResult(game, players, identity, seed, deals, len(results), fitted.rating,
                           fitted.low, fitted.high, fitted.design_effect, rows,
                           truncated=truncated)
