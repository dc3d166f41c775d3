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
import itertools
import json
import math
import multiprocessing
import os
import queue
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from huerta.agents import make_agent
from huerta.agents.registry import check_agent_code
from huerta.envs.core.errors import CorruptRecordError, InvalidConfigError
from huerta.envs.core.records import GameRecord, parse_json, verify_checksum
from huerta.envs.core.registry import get_game

from .matches import play_game
from .ratings import openskill_ratings, ranks_from_keys, wilson_interval
from .runs import ignore_sigint, write_atomic

MAX_GAMES = 10_000_000  # games per line-up
MAX_WORKERS = 256
MAX_SEED = 2**32 - 1
GAMES_FILE = "games.jsonl"
SETTINGS_FILE = "tournament.json"
LOCK_FILE = ".lock"
SETTINGS_FORMAT = 1
MAX_LINE_BYTES = 2 << 20  # one games.jsonl line: a record (at most 1 MiB) and a few fields


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM in the CLI) during a tournament; the message says what was kept."""

    def __init__(self, message: str, kept: int, total: int) -> None:
        super().__init__(message)
        self.kept = kept
        self.total = total


@dataclass(frozen=True)
class Job:
    """One game: which agents sit where, and the deal."""

    index: int
    lineup: int
    deal: int
    seed: int
    seats: tuple[int, ...]  # agent index per seat


@dataclass
class AgentStats:
    """One agent's results over the whole tournament."""

    label: str
    code: str
    games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    rank_sum: float = 0.0
    win_rate: float = 0.0
    ci_low: float = 0.0
    ci_high: float = 0.0
    mean_score: float = 0.0
    mean_rank: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    rating: float = 0.0


@dataclass
class TournamentResult:
    """The per-game results (in job order), the per-agent summary and, when saved, the files."""

    game: str
    players: int
    labels: list[str]
    codes: list[str]
    games: list[dict[str, Any]] = field(default_factory=list)
    stats: list[AgentStats] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)


def agent_labels(codes: Sequence[str]) -> list[str]:
    """Unique display names: a code used twice becomes `code#1`, `code#2`."""
    labels = []
    for i, code in enumerate(codes):
        if list(codes).count(code) > 1:
            labels.append(f"{code}#{list(codes)[: i + 1].count(code)}")
        else:
            labels.append(code)
    return labels


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
    from .threads import one_blas_thread

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
    extra = () if maker is None else (maker,)
    if workers <= 1:
        for job in jobs:
            yield run_job((game, codes, job, *extra))
        return
    ctx = multiprocessing.get_context("spawn")
    main_thread = threading.current_thread() is threading.main_thread()
    # workers start with SIGINT ignored, so a Ctrl-C at the terminal reaches only this process
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main_thread else None
    try:
        pool = ctx.Pool(workers, initializer=_init_worker)
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, previous)
    finished: queue.SimpleQueue = queue.SimpleQueue()
    try:
        in_flight = 0
        for job in itertools.islice(jobs, 2 * workers):
            pool.apply_async(run_job, ((game, codes, job, *extra),), callback=finished.put,
                             error_callback=lambda e: finished.put(_Failure(e)))
            in_flight += 1
        while in_flight:
            item = _get(finished)
            in_flight -= 1
            if isinstance(item, _Failure):
                raise item.error
            yield item
            for job in itertools.islice(jobs, 1):
                pool.apply_async(run_job, ((game, codes, job, *extra),), callback=finished.put,
                                 error_callback=lambda e: finished.put(_Failure(e)))
                in_flight += 1
        pool.close()
        pool.join()
    finally:
        pool.terminate()


def _get(finished: queue.SimpleQueue) -> Any:
    """The next finished result; waits in short slices so that Ctrl-C is seen at once."""
    while True:
        try:
            return finished.get(timeout=0.2)
        except queue.Empty:
            continue


def progress_bar(
    total: int, desc: str, enabled: bool, initial: int = 0, kind: str = "tournament"
) -> Any:
    """A tqdm bar on stderr, `kind desc` (None when disabled or tqdm is missing)."""
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm comes with the `train` extra
        return None
    return tqdm(total=total, initial=initial, desc=f"{kind} {desc}")


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


class TournamentFolder:
    """The output folder of a tournament while it runs: its lock, its settings, the games
    already played (on resume) and the append-only games.jsonl."""

    def __init__(self, path: Path, settings: dict[str, Any], resume: bool) -> None:
        self.path = path
        self.settings = settings
        self.resume = resume
        self.games_path = path / GAMES_FILE
        self._lock: Any = None
        self._games: Any = None

    def __enter__(self) -> TournamentFolder:
        if self.path.exists() and not self.path.is_dir():
            raise InvalidConfigError(f"--out {self.path} is a file, not a folder")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._lock = (self.path / LOCK_FILE).open("a+")
        except OSError as exc:
            raise InvalidConfigError(
                f"--out {self.path}: cannot write there ({exc.strerror or exc})"
            ) from None
        try:
            _lock_file(self._lock)
        except BlockingIOError:
            self._lock.close()
            raise InvalidConfigError(
                f"--out {self.path}: another tournament is writing to this folder now; wait for "
                f"it to end or choose another --out"
            ) from None
        try:
            self._lock.truncate(0)
            self._lock.write(f"{os.getpid()}\n")
            self._lock.flush()
            self._check_folder()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._games is not None:
            self._games.close()
            self._games = None
        if self._lock is not None:
            self._lock.close()  # closing the file releases the lock
            self._lock = None

    def _check_folder(self) -> None:
        """Refuse a folder in use without --resume; on resume, the settings must match."""
        settings_path = self.path / SETTINGS_FILE
        contents = [p.name for p in self.path.iterdir() if p.name != LOCK_FILE]
        if not self.resume:
            if contents:
                raise InvalidConfigError(
                    f"--out {self.path} is not empty ({', '.join(sorted(contents)[:4])}"
                    f"{', ...' if len(contents) > 4 else ''}): continue the tournament in it "
                    f"with --resume, or choose another --out"
                )
        elif contents:
            if not settings_path.exists():
                raise InvalidConfigError(
                    f"--resume: {self.path} holds no tournament to continue (no {SETTINGS_FILE})"
                )
            try:
                saved = parse_json(settings_path.read_bytes(), str(settings_path))
            except (CorruptRecordError, OSError) as exc:
                raise InvalidConfigError(f"--resume: {exc}") from None
            if not isinstance(saved, dict):
                raise InvalidConfigError(f"--resume: {settings_path} is not a settings object")
            for key, value in self.settings.items():
                if saved.get(key) != value:
                    raise InvalidConfigError(
                        f"--resume: {key} {value!r} differs from the {saved.get(key)!r} of the "
                        f"tournament in {self.path}; resume it with its own settings"
                    )
        write_atomic(settings_path, json.dumps(self.settings, indent=2) + "\n")

    def load(self) -> dict[int, dict[str, Any]]:
        """The games already in games.jsonl, checked line by line (an unfinished last line, left
        by a kill mid-write, is dropped); then games.jsonl is opened for appending."""
        done: dict[int, dict[str, Any]] = {}
        if self.games_path.exists():
            done = self._read_games()
            if done:
                self._check_against_jobs(done)
        self._games = self.games_path.open("a", encoding="utf-8")
        return done

    def _read_games(self) -> dict[int, dict[str, Any]]:
        done: dict[int, dict[str, Any]] = {}
        good_end = 0
        with self.games_path.open("rb") as f:
            for number in itertools.count(1):
                line = f.readline(MAX_LINE_BYTES + 1)
                if not line:
                    break
                if not line.endswith(b"\n"):
                    if len(line) > MAX_LINE_BYTES:
                        raise CorruptRecordError(
                            f"{self.games_path} line {number} is over {MAX_LINE_BYTES:,} bytes"
                        )
                    break  # the game being written when the run was killed: played again
                game = self._check_line(line, number)
                if game["index"] in done:
                    raise CorruptRecordError(
                        f"{self.games_path} line {number}: game {game['index']} appears twice"
                    )
                done[game["index"]] = game
                good_end = f.tell()
        if good_end < self.games_path.stat().st_size:
            with self.games_path.open("r+b") as f:
                f.truncate(good_end)
        return done

    def _check_line(self, line: bytes, number: int) -> dict[str, Any]:
        where = f"{self.games_path} line {number}"
        game = parse_json(line, where, limit=MAX_LINE_BYTES)
        players = self.settings["players"]
        fields = {"index": int, "lineup": int, "deal": int, "seed": int, "seats": list,
                  "scores": list, "ranks": list, "winners": list, "terminated": bool,
                  "steps": int, "record": dict}
        if not isinstance(game, dict):
            raise CorruptRecordError(f"{where}: not a JSON object")
        for name, kind in fields.items():
            value = game.get(name)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise CorruptRecordError(f"{where}: field {name!r} must be {kind.__name__}")
        for name in ("seats", "scores", "ranks"):
            values = game[name]
            if len(values) != players or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in values
            ):
                raise CorruptRecordError(f"{where}: field {name!r} must list {players} integers")
        if not all(isinstance(w, int) and 0 <= w < players for w in game["winners"]):
            raise CorruptRecordError(f"{where}: field 'winners' must list seats")
        if not 0 <= game["index"] < self.settings["total"]:
            raise CorruptRecordError(f"{where}: game index {game['index']} is out of range")
        try:
            record = GameRecord.from_dict(game["record"])
            verify_checksum(record)
        except CorruptRecordError as exc:
            raise CorruptRecordError(f"{where}: {exc}") from None
        if (record.game, record.num_players, record.seed, record.final_scores) != (
            self.settings["game"], players, game["seed"], game["scores"]
        ):
            raise CorruptRecordError(f"{where}: its record does not match the game's fields")
        return game

    def _check_against_jobs(self, done: dict[int, dict[str, Any]]) -> None:
        """Each stored game must be the job of its index (same line-up, deal, seed, seats)."""
        s = self.settings
        for job in iter_jobs(len(s["agents"]), s["players"], s["games"], s["seed"]):
            game = done.get(job.index)
            if game is not None and (game["lineup"], game["deal"], game["seed"],
                                     tuple(game["seats"])) != (job.lineup, job.deal, job.seed,
                                                               job.seats):
                raise CorruptRecordError(
                    f"{self.games_path}: game {job.index} is not the game this tournament "
                    f"schedules at that index (line-up, deal, seed or seats differ)"
                )

    def append(self, game: dict[str, Any]) -> None:
        """Append one finished game as one line, flushed at once (it survives a kill)."""
        self._games.write(json.dumps(game, separators=(",", ":")) + "\n")
        self._games.flush()

    def count_games(self) -> int:
        """How many complete lines games.jsonl holds."""
        if not self.games_path.exists():
            return 0
        with self.games_path.open("rb") as f:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))

    def close_games(self) -> None:
        """Close games.jsonl (before it is rewritten in game order)."""
        if self._games is not None:
            self._games.close()
            self._games = None


def _lock_file(handle: Any) -> None:
    """An exclusive, non-blocking lock on an open file; BlockingIOError when another process
    holds it. The OS drops it when the process ends, however it ends."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        handle.seek(0)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            raise BlockingIOError from None
        return
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


# Solo games (one seat, e.g. Alpujarras against Zara) are rated as the agent against this
# pseudo-agent, the game's scripted opponent: every solo agent meets the same one.
SOLO_OPPONENT = "scripted opponent"


def summarise(
    game: str, players: int, codes: list[str], results: list[dict[str, Any]]
) -> TournamentResult:
    """Win rates, intervals, mean scores and ranks, and ratings from per-game results."""
    labels = agent_labels(codes)
    stats = [AgentStats(label=label, code=code) for label, code in zip(labels, codes, strict=True)]
    rated_games = []
    for r in results:
        seats = r["seats"]
        winners = r["winners"]
        for seat, a in enumerate(seats):
            s = stats[a]
            s.games += 1
            s.score_sum += r["scores"][seat]
            s.rank_sum += r["ranks"][seat]
            if seat in winners:
                s.wins += 1.0 / len(winners)
        if len(seats) == 1:  # a solo game: the agent against the game's scripted opponent
            lineup = [labels[seats[0]], SOLO_OPPONENT]
            rated_games.append((lineup, [0, 1] if winners else [1, 0]))
        else:
            rated_games.append(([labels[a] for a in seats], r["ranks"]))
    ratings = openskill_ratings(rated_games, [*labels, SOLO_OPPONENT])
    for s in stats:
        if s.games:
            s.win_rate = s.wins / s.games
            s.ci_low, s.ci_high = wilson_interval(s.wins, s.games)
            s.mean_score = s.score_sum / s.games
            s.mean_rank = 1.0 + s.rank_sum / s.games
        s.mu, s.sigma, s.rating = ratings[s.label]
    return TournamentResult(game, players, labels, codes, results, stats)


TABLE_LEGEND = (
    "win %: games won (a shared victory counts 1/k), 95% CI: its Wilson interval; mean rank: 1 "
    "is first; rating: openskill (Plackett-Luce) mu - 3 sigma, comparable within this "
    "tournament only (huerta benchmark rates on a fixed scale)"
)
SOLO_LEGEND = (
    "win %: games won against the game's opponent, 95% CI: its Wilson interval; rating: "
    "openskill (Plackett-Luce) mu - 3 sigma against that opponent, comparable within this "
    "tournament only"
)


def format_results(result: TournamentResult) -> str:
    """The summary table, best rating first, and a line saying what its columns mean; the agent
    column is as wide as the longest name (22 at least)."""
    width = max([22, *(len(s.label) for s in result.stats)])
    header = (
        f"{'agent':<{width}} {'games':>6} {'win %':>7} {'95% CI':>15} {'mean score':>11} "
        f"{'mean rank':>10} {'rating':>8}"
    )
    if result.players == 1:
        deals = len(result.games) // max(1, len(result.stats))
        title = (f"{result.game}, solo against the game's opponent, {deals} deals played by each "
                 f"of {len(result.stats)} agent(s), {len(result.games)} games (the same deals for "
                 f"every agent; rating against the opponent)")
    else:
        title = (f"{result.game}, {result.players} players, {len(result.games)} games "
                 f"(seats rotated, paired deals)")
    lines = [
        title,
        header,
        "-" * len(header),
    ]
    for s in sorted(result.stats, key=lambda s: -s.rating):
        ci = f"[{100 * s.ci_low:5.1f}, {100 * s.ci_high:5.1f}]"
        rank = f"{s.mean_rank:10.2f}" if result.players > 1 else f"{'-':>10}"  # solo: no seats
        lines.append(
            f"{s.label:<{width}} {s.games:6d} {100 * s.win_rate:7.1f} {ci:>15} "
            f"{s.mean_score:11.1f} {rank} {s.rating:8.2f}"
        )
    lines.append(SOLO_LEGEND if result.players == 1 else TABLE_LEGEND)
    unfinished = sum(1 for g in result.games if not g["terminated"])
    if unfinished:
        lines.append(f"({unfinished} game(s) truncated at the step limit: no winner)")
    return "\n".join(lines)


def save_results(result: TournamentResult, out: Path) -> dict[str, Path]:
    """Write games.jsonl (one game per line, in game order, with its record), summary.json,
    table.txt and the plot, each atomically; return the paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "games": out / GAMES_FILE,
        "summary": out / "summary.json",
        "table": out / "table.txt",
    }
    write_atomic(
        paths["games"],
        "".join(json.dumps(game, separators=(",", ":")) + "\n" for game in result.games),
    )
    summary = {
        "game": result.game,
        "players": result.players,
        "agents": result.codes,
        "stats": [asdict(s) for s in result.stats],
    }
    write_atomic(paths["summary"], json.dumps(summary, indent=2) + "\n")
    write_atomic(paths["table"], format_results(result) + "\n")
    # matplotlib is in the `train` extra; without it the table and the JSON still stand
    with contextlib.suppress(ImportError):
        from .plots import plot_tournament

        plot = out / "tournament.png"
        tmp = out / f".tmp-{os.getpid()}-tournament.png"  # the suffix names the format
        try:
            plot_tournament(result, tmp)
            os.replace(tmp, plot)
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        paths["plot"] = plot
    return paths
