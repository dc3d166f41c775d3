"""The games of a tournament or a benchmark as jobs, and the runner that plays them: in this
process, or on worker processes with at most two jobs per worker in flight (the job iterator is
read lazily), each result handed back as its game ends.

Every line-up (each combination of `players` agents) plays the same deals (game seeds), and every
deal once per seat rotation; agents are rebuilt for every game with seeds derived from the deal
and the seat, so a result depends neither on the number of workers nor on the order games end.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import os
import queue
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from huerta.agents import make_agent
from huerta.agents.registry import check_agent_code
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import get_game

from ..limits import MAX_GAMES, MAX_SEED, MAX_WORKERS
from ..runs import ignore_sigint
from .matches import play_game
from .ratings import ranks_from_keys


@dataclass(frozen=True)
class Job:
    """One game: which agents sit where, and the deal."""

    index: int
    lineup: int
    deal: int
    seed: int
    seats: tuple[int, ...]  # agent index per seat


def check_int(name: str, value: Any, low: int, high: int) -> int:
    """`value` itself when it is an int from `low` to `high` (bounds included), else refused."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidConfigError(
            f"{name} must be an integer from {low:,} to {high:,}, got {value!r}"
        )
    return value


def count_jobs(num_agents: int, players: int, games: int) -> int:
    """How many games a tournament plays: line-ups x deals x seat rotations."""
    return math.comb(num_agents, players) * math.ceil(games / players) * players


def iter_jobs(num_agents: int, players: int, games: int, seed: int) -> Iterator[Job]:
    """Every line-up x deal x seat rotation, lazily, in index order; `games` per line-up is
    rounded up to a multiple of the player count so that every deal is played from every seat."""
    if num_agents < players:
        raise InvalidConfigError(
            f"{num_agents} agent(s) cannot fill {players} seats; give at least {players}"
        )
    if games < 1:
        raise InvalidConfigError(f"games must be at least 1, got {games}")
    deals = math.ceil(games / players)
    index = 0
    for lineup_index, lineup in enumerate(itertools.combinations(range(num_agents), players)):
        for deal in range(deals):
            for rotation in range(players):
                seats = tuple(lineup[(s + rotation) % players] for s in range(players))
                yield Job(index, lineup_index, deal, seed + deal, seats)
                index += 1


def make_jobs(num_agents: int, players: int, games: int, seed: int) -> list[Job]:
    """`iter_jobs` as a list (for inspection; tournaments use the generator)."""
    return list(iter_jobs(num_agents, players, games, seed))


def check_tournament(
    game: str, codes: Sequence[str], players: int, games: int, seed: int, workers: int
) -> list[str]:
    """Check every argument before the first game; return the cleaned agent codes.

    Agent codes with their arguments (a `ppo:` model is opened once), the ranges of `games`,
    `workers` and `seed`, enough agents for the seats, and `human` only with one worker and a
    terminal on standard input. Raises `InvalidConfigError` naming the bad argument.
    """
    spec = get_game(game)
    spec.check_players(players)
    codes = [str(c).strip() for c in codes if str(c).strip()]
    if not codes:
        raise InvalidConfigError("no agents given: list agent codes, e.g. random,heuristic")
    check_int("games", games, 1, MAX_GAMES)
    check_int("workers", workers, 1, MAX_WORKERS)
    check_int("seed", seed, 0, MAX_SEED)
    if len(codes) < players:
        raise InvalidConfigError(
            f"{len(codes)} agent(s) cannot fill {players} seats; give at least {players}"
        )
    names = {check_agent_code(code, spec.name, players) for code in codes}
    if "human" in names:
        if workers > 1:
            raise InvalidConfigError("a human agent plays in this process: use --workers 1")
        from huerta.agents.human import check_terminal

        check_terminal()
    for code in dict.fromkeys(codes):  # build each once, here, so a bad model fails now
        make_agent(code, game=spec.name, seed=0)
    return codes


# builds one seat's agent for one game: (code, game=..., seed=...) -> agent; `make_agent` for
# tournaments, `agent_specs.make_benchmark_agent` for benchmarks (a module-level function, so that
# it reaches worker processes by name)
AgentMaker = Callable[..., Any]


def run_job(args: tuple[Any, ...]) -> dict[str, Any]:
    """Play one job: args are (game, codes, job) or (game, codes, job, agent maker)."""
    game, codes, job, *rest = args
    maker: AgentMaker = rest[0] if rest else make_agent
    agent_seeds = [job.seed * 1009 + seat * 101 + a for seat, a in enumerate(job.seats)]
    agents = [
        maker(codes[a], game=game, seed=agent_seed)
        for a, agent_seed in zip(job.seats, agent_seeds, strict=True)
    ]
    record, state = play_game(game, agents, job.seed, agent_seeds=agent_seeds)
    keys = state.ranking_keys()
    return {
        "index": job.index,
        "lineup": job.lineup,
        "deal": job.deal,
        "seed": job.seed,
        "seats": list(job.seats),
        "scores": state.scores(),
        "ranks": ranks_from_keys(keys),
        "winners": state.winners() if state.is_terminal else [],
        "terminated": state.is_terminal,
        "steps": state.steps,
        "record": record.to_dict(),
    }


def _init_worker() -> None:
    """Worker initializer: Ctrl-C is the main process's to handle (it ends the pool); a network
    agent computes on one thread (the workers already share out the cores: more threads per
    worker only fight each other)."""
    ignore_sigint()
    os.environ["OMP_NUM_THREADS"] = "1"  # read by torch when a ppo agent first imports it
    from ..threads import one_blas_thread

    one_blas_thread()  # numpy's, for the learned agents


# plays jobs: (game, agent codes, jobs, workers) -> results in the order they finish
JobRunner = Callable[[str, list[str], Iterator[Job], int], Iterator[dict[str, Any]]]


@dataclass
class _Failure:
    error: BaseException


def play_jobs(
    game: str, codes: list[Any], jobs: Iterator[Job], workers: int,
    maker: AgentMaker | None = None,
) -> Iterator[dict[str, Any]]:
    """Results of `jobs` in the order they finish: in this process, or on `workers` spawned
    processes with at most two jobs per worker in flight (the job iterator is read lazily).
    `maker` builds the agents from `codes` (default `make_agent`). Closing the generator
    (Ctrl-C included) ends the workers."""
    with JobPool(game, codes, workers, maker) as pool:
        yield from pool.play(jobs)


class JobPool:
    """Worker processes that play several batches of jobs (`play`), kept between batches: the
    adaptive benchmark plays a stage, reads its results, then chooses the next stage. With one
    worker the jobs are played in this process. Leaving the `with` block ends the workers."""

    def __init__(self, game: str, codes: list[Any], workers: int,
                 maker: AgentMaker | None = None) -> None:
        self.game, self.codes, self.workers = game, codes, workers
        self.extra = () if maker is None else (maker,)
        self.pool: Any = None

    def __enter__(self) -> JobPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the workers (a no-op when none started)."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    def _start(self) -> Any:
        """The worker pool, started at the first batch."""
        if self.pool is None:
            ctx = multiprocessing.get_context("spawn")
            main_thread = threading.current_thread() is threading.main_thread()
            # workers start with SIGINT ignored, so a Ctrl-C at the terminal reaches only this
            # process
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main_thread else None
            try:
                self.pool = ctx.Pool(self.workers, initializer=_init_worker)
            finally:
                if main_thread:
                    signal.signal(signal.SIGINT, previous)
        return self.pool

    def play(self, jobs: Iterator[Job]) -> Iterator[dict[str, Any]]:
        """Results of `jobs` in the order they finish (see `play_jobs`); a failure in a game
        raises here, and closing the generator early ends the workers."""
        if self.workers <= 1:
            for job in jobs:
                yield run_job((self.game, self.codes, job, *self.extra))
            return
        pool = self._start()
        finished: queue.SimpleQueue = queue.SimpleQueue()
        in_flight, complete = 0, False

        def submit(job: Job) -> None:
            pool.apply_async(run_job, ((self.game, self.codes, job, *self.extra),),
                             callback=finished.put,
                             error_callback=lambda e: finished.put(_Failure(e)))

        try:
            for job in itertools.islice(jobs, 2 * self.workers):
                submit(job)
                in_flight += 1
            while in_flight:
                item = _get(finished)
                in_flight -= 1
                if isinstance(item, _Failure):
                    raise item.error
                yield item
                for job in itertools.islice(jobs, 1):
                    submit(job)
                    in_flight += 1
            complete = True
        finally:
            if not complete:  # games still running: they must not outlive the batch
                self.close()


def _get(finished: queue.SimpleQueue) -> Any:
    """The next finished result; waits in short slices so that Ctrl-C is seen at once."""
    while True:
        try:
            return finished.get(timeout=0.2)
        except queue.Empty:
            continue


def progress_bar(
    total: int | None, desc: str, enabled: bool, initial: int = 0, kind: str = "tournament"
) -> Any:
    """A tqdm bar on stderr, `kind desc` (None when disabled or tqdm is missing); a `total` of
    None counts games without an end (the adaptive benchmark stops when its interval is
    narrow enough)."""
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm comes with the `train` extra
        return None
    return tqdm(total=total, initial=initial, desc=f"{kind} {desc}")
