"""Tournaments on a Ray cluster: `huerta tournament GAME ... --backend ray [--ray-address ADDR]`.

The local runner's tournament (`tournament.run_tournament`: the same line-ups, deals, seeds,
resume, files and summary) with its games played as Ray tasks, one game per task, at most two
per cluster CPU in flight (or per `workers` when given). Each task runs the local runner's own
`run_job`, which rebuilds the agents from their codes with seeds derived from the deal and the
seat, so a game's result depends on nothing but its job: the table is the local runner's for
the same seeds, whatever node plays which game and in whatever order they finish.

Trained models travel with the tasks: the files of every `ppo:PATH` and `rllib:PATH` code are
read once on the driver, put in Ray's object store, and unpacked on each node into its temporary
folder (`huerta-ray-models/<sha256>/`, reused by later tournaments), so the nodes need no shared
filesystem, only the same huerta and Ray (`pip install "huerta[ray]"`). `human` cannot play on a
cluster and is refused.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import shutil
import tarfile
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from huerta.agents.registry import split_code
from huerta.envs.core.errors import InvalidConfigError

from ..limits import MAX_WORKERS
from ..ray_cluster import cluster_cpus, connect
from .jobs import Job, run_job
from .tournament import run_tournament
from .tournament_result import TournamentResult

MODELS_FOLDER = "huerta-ray-models"
# packed model files per agent code: code -> (agent name, sha256, tar bytes, member name)
Packed = dict[str, tuple[str, str, bytes, str]]


def model_files(code: str) -> Path | None:
    """The file (ppo) or folder (rllib) a code's agent loads, or None for codes without one."""
    name, arg = split_code(code)
    if name == "ppo":
        from huerta.agents.ppo import ppo_model_path

        return ppo_model_path(arg)
    if name == "rllib":
        from huerta.agents.rllib_agent import rllib_policy_path

        return rllib_policy_path(arg)
    return None


def pack_models(codes: Sequence[str]) -> Packed:
    """Every model file of `codes`, as tar bytes with their sha256 (for the object store)."""
    packed: Packed = {}
    for code in dict.fromkeys(codes):
        path = model_files(code)
        if path is None:
            continue
        member = "model.zip" if path.is_file() else "policy"
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as tar:
            tar.add(path, arcname=member)
        data = buffer.getvalue()
        packed[code] = (split_code(code)[0], hashlib.sha256(data).hexdigest(), data, member)
    return packed


_LOCAL_CODES: dict[str, str] = {}  # sha256 -> the code that loads this node's unpacked copy


def _unpack(name: str, digest: str, data: bytes, member: str) -> str:
    """The code of a model unpacked on this node (once per node: a later task, or a later
    tournament, finds the folder complete)."""
    if digest not in _LOCAL_CODES:
        root = Path(tempfile.gettempdir()) / MODELS_FOLDER / digest
        if not (root / member).exists():
            root.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=f".{digest[:12]}-", dir=root.parent))
            try:
                with tarfile.open(fileobj=io.BytesIO(data)) as tar:
                    # the "data" filter (safe paths only) where this Python has it
                    safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
                    tar.extractall(tmp, **safe)
                try:
                    os.rename(tmp, root)  # atomic; another worker may have won the race
                except OSError:
                    if not (root / member).exists():
                        raise
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        _LOCAL_CODES[digest] = f"{name}:{root / member}"
    return _LOCAL_CODES[digest]


def play_remote_job(game: str, codes: list[str], packed: Packed, job: Job) -> dict[str, Any]:
    """One game on a Ray worker: the local runner's `run_job` with model codes pointing at
    this node's copies of the files."""
    local = [_unpack(*packed[c]) if c in packed else c for c in codes]
    return run_job((game, local, job))


class RayRunner:
    """A `tournament.JobRunner` playing each job as a Ray task (Ray must be connected)."""

    def __init__(self, in_flight_per_worker: int = 2) -> None:
        self.in_flight_per_worker = in_flight_per_worker

    def __call__(self, game: str, codes: list[str], jobs: Iterator[Job],
                 workers: int) -> Iterator[dict[str, Any]]:
        import ray

        task = ray.remote(num_cpus=1)(play_remote_job)
        packed = ray.put(pack_models(codes))
        pending: dict[Any, Job] = {}

        def submit(batch: Iterator[Job]) -> None:
            for job in batch:
                pending[task.remote(game, codes, packed, job)] = job

        try:
            submit(itertools.islice(jobs, self.in_flight_per_worker * workers))
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
                if not ready:
                    continue  # short waits, so that Ctrl-C is seen at once
                pending.pop(ready[0])
                try:
                    result = ray.get(ready[0])
                except ray.exceptions.RayTaskError as exc:
                    raise exc.as_instanceof_cause() from None  # the game's own error
                yield result
                submit(itertools.islice(jobs, 1))
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)


def run_ray_tournament(
    game: str,
    codes: Sequence[str],
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    workers: int | None = None,
    progress: bool = False,
    out: str | Path | None = None,
    resume: bool = False,
    log: Callable[[str], None] | None = None,
    address: str | None = None,
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> TournamentResult:
    """`run_tournament` with the games spread over the Ray cluster at `address` (None: a local
    Ray started for it). `workers` caps the games played at once (default: the cluster's
    CPUs). Same arguments, files and result as the local runner otherwise."""
    for code in codes:
        if split_code(code)[0] == "human":
            raise InvalidConfigError("a human agent cannot play on a Ray cluster: use the local "
                                     "backend (--backend local --workers 1)")
    with connect(address):
        concurrency = min(workers or cluster_cpus(), MAX_WORKERS)
        if log is not None:
            log(f"ray: {cluster_cpus()} CPUs in the cluster, up to {concurrency} games at once")
        return run_tournament(game, codes, players=players, games=games, seed=seed,
                              workers=concurrency, progress=progress, out=out, resume=resume,
                              log=log, runner=RayRunner(), on_game=on_game)
