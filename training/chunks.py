"""Games recorded in resumable chunks: the data of the imitation warm start and of the afterstate
value, played in worker processes and kept across interruptions.

Games are played in chunks of `CHUNK_GAMES`, each seeded by its index alone (`chunk_seed`) and
written whole to `<folder>/chunk_NNNNN.npz` (`chunk_path`) as soon as it is played (a temporary
file renamed), so an interrupted run keeps every finished chunk, a resumed one plays only the
missing ones (a damaged file is played again), and the data are the same for any number of
worker processes.
A chunk is a dataclass of numpy arrays, one row per recorded position, with `concatenate`.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from .runs import ignore_sigint, save_atomically

CHUNK_GAMES = 20  # games per recorded file (the unit of parallel work and of resuming)
POLL_SECONDS = 0.25  # how often a parent waiting on its workers asks whether to stop

T = TypeVar("T")


def chunk_seed(seed: int, chunk: int) -> int:
    """The seed of chunk `chunk` of a recording seeded `seed` (independent of the others)."""
    return int(np.random.SeedSequence([seed, chunk]).generate_state(1, np.uint64)[0] >> 1)


def save_chunk(path: Path, data: Any) -> None:
    """Write a chunk whole (a temporary file renamed, as every run file is)."""
    save_atomically(path, lambda f: np.savez_compressed(f, **asdict(data)))


def load_chunk(path: Path, kind: type[T]) -> T | None:
    """A recorded chunk of dataclass `kind`, or None when the file is damaged or foreign (it is
    then played again)."""
    try:
        with np.load(path) as data:
            return kind(*(data[f.name] for f in fields(kind)))
    except Exception:  # a torn or foreign file: record that chunk again
        return None


def chunk_path(folder: Path, chunk: int, games: int) -> Path:
    """Where chunk `chunk` of `games` games is kept: `chunk_NNNNN.npz` when it is whole, else
    `chunk_NNNNN_of_GG.npz` (a recording of more games later plays the whole chunk again)."""
    if games == CHUNK_GAMES:
        return folder / f"chunk_{chunk:05d}.npz"
    return folder / f"chunk_{chunk:05d}_of_{games:02d}.npz"


def _play_job(job: tuple) -> tuple[int, int, Any]:
    """Play and save one chunk (in a worker process): (chunk, games, its data)."""
    folder, play, chunk, games = job
    data = play(chunk, games)
    save_chunk(chunk_path(Path(folder), chunk, games), data)
    return chunk, games, data


def results_until_stopped(pool: Any, func: Callable[[Any], Any], jobs: Iterable[Any],
                          should_stop: Callable[[], bool]) -> Iterator[Any]:
    """`pool.imap_unordered(func, jobs)`, ending early once `should_stop()` is true, which it
    asks after every result and every `POLL_SECONDS` while it waits. The wait must not be
    blind: a worker killed with its job (a SIGTERM sent to the whole process group reaches the
    workers too) never sends that job's result, and the pool would wait for it for ever."""
    results = pool.imap_unordered(func, jobs)
    while not should_stop():
        try:
            yield results.next(timeout=POLL_SECONDS)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return


def record_chunks(
    folder: Path, games: int, play: Callable[[int, int], T], kind: type[T],
    workers: int | None = None, progress: str = "",
    should_stop: Callable[[], bool] = lambda: False,
) -> T | None:
    """`games` games as one dataclass `kind`: the chunks already in `folder` and those
    `play(chunk, games_in_chunk)` records now (a picklable callable, run in `workers`
    processes); None when `should_stop()` turned true before all were recorded (what was
    finished stays in `folder`). `progress`: a progress bar's title, or "" for none."""
    folder.mkdir(parents=True, exist_ok=True)
    chunks = (games + CHUNK_GAMES - 1) // CHUNK_GAMES
    sizes = [min(CHUNK_GAMES, games - c * CHUNK_GAMES) for c in range(chunks)]
    loaded: dict[int, Any] = {}
    for c in range(chunks):
        path = chunk_path(folder, c, sizes[c])
        if path.exists() and (part := load_chunk(path, kind)) is not None:
            loaded[c] = part
    jobs = [(str(folder), play, c, sizes[c]) for c in range(chunks) if c not in loaded]
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    bar = None
    if progress and jobs:
        from tqdm import tqdm

        bar = tqdm(total=games, initial=games - sum(job[3] for job in jobs), desc=progress,
                   unit="game")
    try:
        if workers == 1 or len(jobs) <= 1:
            for job in jobs:
                if should_stop():
                    return None
                chunk, played, loaded[chunk] = _play_job(job)
                if bar is not None:
                    bar.update(played)
        else:
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(workers, initializer=ignore_sigint) as pool:  # ends the workers
                for chunk, played, data in results_until_stopped(pool, _play_job, jobs,
                                                                 should_stop):
                    loaded[chunk] = data
                    if bar is not None:
                        bar.update(played)
            if len(loaded) < chunks:  # stopped: the finished chunks are in `folder`
                return None
    finally:
        if bar is not None:
            bar.close()
    return kind.concatenate([loaded[c] for c in range(chunks)])  # type: ignore[attr-defined]
