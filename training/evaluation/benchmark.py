"""Benchmark one agent against the fixed ladder: an anchored rating with its 95% interval.

The agent plays the ladder's rungs (`training/evaluation/ladder.py`) on the published deals
(seeds from `BENCHMARK_SEED`, the same deals for every rung: paired deals), each deal once from
every seat, the agent in one seat and the rung in all the others. By default the games come in
stages chosen by `placement.py`, each against the rung nearest the rating so far, until the 95%
interval is narrower than the precision asked for (or the agent is off the ladder, or each
rung's `games` are used up); with `full`, every rung plays `games` games (the fixed protocol the
ladder itself is measured with). Its rating is fitted on the anchored Elo scale
(`training/evaluation/anchored.py`: random at 0, the rungs at their reference ratings), with a
95% interval; a head-to-head row per rung gives its wins, draws and losses, score share and mean
score margin. In the solo game the agent plays the published deals against Zara and gets a win
rate with its Wilson interval instead, beside the rungs' reference win rates on the same deals.

Games are played by the tournament machinery (`jobs.JobPool`: this process or worker processes
kept across stages, seeds derived from the deal and seat). With a leaderboard database (`db`),
every finished game is stored at once and games already stored are not played again, so a
benchmark killed or interrupted part way continues where it stopped when run again, and a rerun
adds nothing twice.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
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
from .anchored import AnchoredFit, FittedRating, pair_outcome, pair_table
from .benchmark_table import BenchmarkResult, RungResult
from .jobs import Job, JobPool, check_int, progress_bar
from .ladder import BENCHMARK_SEED, Rung, ladder
from .leaderboard import Leaderboard, StoredGame
from .placement import DEFAULT_PRECISION, Estimate, Placement, solo_stop
from .ratings import wilson_interval

DEFAULT_GAMES = 200  # per rung (adaptive: at most); in the solo game, the deals (SOLO_DEALS)
MAX_PRECISION = 2000.0  # Elo points: a wider target would stop after the first stage
SOLO_STAGE_DEALS = 8  # solo deals per stage


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
    full: bool = False,
    precision: float = DEFAULT_PRECISION,
) -> BenchmarkResult:
    """Benchmark `agent` on `game` against the ladder (or `rungs`): adaptively (see
    `placement.py`: stages against the rung nearest the rating, until its 95% interval is
    narrower than ±`precision` Elo, at most `games` per rung), or with `full` the fixed protocol
    of `games` games per rung. `db` (a leaderboard file) stores every game and reuses those
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
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not (
            math.isfinite(precision) and 0 < precision <= MAX_PRECISION):
        raise InvalidConfigError(f"precision must be a number of Elo points above 0 up to "
                                 f"{MAX_PRECISION:g}, got {precision!r}")
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
    run = _Run(spec.name, players, jobs, ladder_rungs, done={})
    with contextlib.ExitStack() as stack:
        board = stack.enter_context(Leaderboard(db)) if db is not None else None
        if board is not None:
            ids = [board.agent_id(i.code, i.version, i.kind) for i in identities]
            run.stored = _stored_results(board, spec.name, players, jobs, ids)

            def store(result: dict[str, Any]) -> None:
                job = jobs[result["index"]]
                board.add_game(spec.name, players, job.seed, _rotation(job),
                               [ids[a] for a in job.seats], result, "benchmark")

            run.store = store
        pool = stack.enter_context(JobPool(spec.name, codes, workers, make_benchmark_agent))
        bar = progress_bar(len(jobs) if full else None,
                           f"{game_label(spec.name, players)} {identity.code}", progress,
                           kind="benchmark")
        if bar is not None:
            stack.callback(bar.close)
        if full and run.stored and log is not None:
            log(f"{len(run.stored)} of {len(jobs)} games already in {db}: playing the other "
                f"{len(jobs) - len(run.stored)}")
        try:
            if full:
                run.play(pool, jobs, bar)
                stopped = f"the full protocol: {games} games against each rung"
            else:
                stopped = _play_adaptive(run, pool, bar, precision)
        except KeyboardInterrupt:
            left = (f"play the other {len(jobs) - len(run.done)}" if full
                    else "go on from there")
            kept = (f"{len(run.done)} of {len(jobs)} games kept in {db}; run the same command "
                    f"again to {left}") if full and board is not None else (
                    f"{len(run.done)} games kept in {db}; run the same command again to "
                    f"{left}") if board is not None else (
                    f"{len(run.done)} games played; nothing kept (no database)")
            raise BenchmarkInterrupted(f"interrupted: {kept}") from None
    chosen = [j for j in jobs if j.index in run.done]
    results = [run.done[j.index] for j in chosen]
    deals = 1 + max(j.deal for j in chosen)
    summary = summarise_benchmark(spec.name, players, identity, ladder_rungs, rung_ids, chosen,
                                  results, seed, deals)
    summary.played, summary.reused = run.new, len(chosen) - run.new
    summary.db = str(db) if db is not None else None
    summary.protocol = "full" if full else f"adaptive, ±{precision:g}"
    summary.stopped = stopped
    summary.notes = notes
    return summary


@dataclass
class _Run:
    """The games of one benchmark: every job it may play, the results so far by job index, the
    results found in the database, and where new results are stored."""

    game: str
    players: int
    jobs: list[Job]
    rungs: list[Rung]
    done: dict[int, dict[str, Any]]
    stored: dict[int, dict[str, Any]] = field(default_factory=dict)
    store: Callable[[dict[str, Any]], None] | None = None
    new: int = 0

    def play(self, pool: JobPool, batch: list[Job], bar: Any) -> None:
        """Play the jobs of `batch` not yet done (those in the database are taken from it),
        storing each result as it finishes."""
        for job in batch:
            if job.index in self.stored and job.index not in self.done:
                self.done[job.index] = self.stored[job.index]
                if bar is not None:
                    bar.update(1)
        pending = iter([j for j in batch if j.index not in self.done])
        for result in pool.play(pending):
            result.pop("record", None)  # the database keeps results, not records
            if self.store is not None:
                self.store(result)
            self.done[result["index"]] = result
            self.new += 1
            if bar is not None:
                bar.update(1)

    def stage_jobs(self, rung: int, first: int, count: int) -> list[Job]:
        """The jobs of deals first .. first + count - 1 against rung `rung` (solo: the deals)."""
        if self.players == 1:
            return self.jobs[first:first + count]
        per_rung = len(self.jobs) // len(self.rungs)
        start = rung * per_rung + first * self.players
        return self.jobs[start:start + count * self.players]

    def estimate(self) -> Estimate:
        """The anchored rating of the games so far."""
        chosen = [j for j in self.jobs if j.index in self.done]
        fitted = anchored_rating(chosen, [self.done[j.index] for j in chosen], self.rungs)
        return Estimate(fitted.rating, fitted.low, fitted.high)


def _play_adaptive(run: _Run, pool: JobPool, bar: Any, precision: float) -> str:
    """Play stages until the placement stops (`placement.py`); return why it stopped."""
    if run.players == 1:
        max_deals = len(run.jobs)
        deals = 0
        while (why := solo_stop(sum(1 for r in run.done.values() if r["winners"]), deals,
                                max_deals, wilson_interval)) is None:
            count = min(SOLO_STAGE_DEALS, max_deals - deals)
            run.play(pool, run.stage_jobs(0, deals, count), bar)
            deals += count
            _show(bar, run)
        return why
    per_rung = len(run.jobs) // len(run.rungs) // run.players
    placement = Placement([r.rating for r in run.rungs], per_rung, run.players, precision)
    estimate = None
    while (stage := placement.next_stage(estimate)) is not None:
        run.play(pool, run.stage_jobs(*stage), bar)
        estimate = run.estimate()
        _show(bar, run, estimate, run.rungs[stage[0]].code)
    return placement.stopped or ""


def _show(bar: Any, run: _Run, estimate: Estimate | None = None, rung: str = "") -> None:
    """The current estimate beside the progress bar."""
    if bar is None:
        return
    if estimate is None:
        wins = sum(1 for r in run.done.values() if r["winners"])
        bar.set_postfix_str(f"{wins} won of {len(run.done)}")
    else:
        width = estimate.half_width
        text = f"±{width:.0f}" if math.isfinite(width) else "interval unbounded"
        bar.set_postfix_str(f"rating {estimate.rating:.0f} {text}, last stage vs {rung}")


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
    fitted = anchored_rating(jobs, results, rungs)
    return BenchmarkResult(game, players, identity, seed, deals, len(results), fitted.rating,
                           fitted.low, fitted.high, fitted.design_effect, rows,
                           truncated=truncated)


def anchored_rating(jobs: list[Job], results: list[dict[str, Any]],
                    rungs: Sequence[Rung]) -> FittedRating:
    """The agent's (code 0's) anchored rating and 95% interval from its games against the
    rungs (code r + 1), the rungs held at their reference ratings."""
    table = pair_table(((job.seed, job.seats, result["ranks"])
                        for job, result in zip(jobs, results, strict=True)), 1 + len(rungs))
    return AnchoredFit(table, {1 + k: r.rating for k, r in enumerate(rungs)}).fit()[0]
