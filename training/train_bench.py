"""Training throughput: `huerta bench --train`, where the time of a training run goes.

For each game it builds the training loop exactly as `huerta train` does with its default
settings (the same vector of games, opponent pool and MaskablePPO learner; the pool holds the
untrained learner, so every opponent kind is drawn with its default weight), runs it for about
the given seconds, and splits the wall time into

- env: the games' own transitions and observations (the learner's moves and the opponents');
- opponents: choosing the opponents' moves (snapshot networks in batches, the heuristic, random);
- rollout net: the rest of collecting a rollout, mostly the learner's forward pass and
  stable-baselines3's bookkeeping;
- update: the PPO update (gradient steps over the rollout).

Beside it stands the environment's own random-play speed (`env()` steps/s, the `huerta bench`
loop) measured in the same run, so the figure reads as "how much of the environment's speed the
training loop keeps". Steps are the learner's steps, the unit of `--steps`.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass
class TrainBenchResult:
    """One row: a game's training-loop speed and where its time went (shares of wall time)."""

    name: str
    players: int
    steps: int
    seconds: float
    env: float
    opponents: float
    rollout_net: float
    update: float
    random_play: float  # env() steps/s under random legal play, same run

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


def measure_training(game: str, players: int, seconds: float, seed: int = 0) -> TrainBenchResult:
    """Run the default training loop of `game` for about `seconds` (whole updates: at least
    one) and time its parts."""
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    from huerta.envs.core.registry import game_label

    from .bench import env_maker, run_aec
    from .config import TrainConfig
    from .methods.ppo import make_vec_env, new_model, save_model
    from .threads import one_blas_thread

    torch.set_num_threads(1)  # as `huerta train`
    config = TrainConfig(game=game, players=players, seed=seed, progress=False).check()
    with tempfile.TemporaryDirectory(prefix="huerta-bench-") as folder, one_blas_thread():
        pool = Path(folder)
        vec_env = make_vec_env(config, pool)
        model = new_model(config, vec_env, None)
        save_model(model, pool / "snapshot_000000000.zip")

        class Phases(BaseCallback):
            """Times rollouts and updates; stops at the first step after `seconds`."""

            def __init__(self) -> None:
                super().__init__()
                self.rollout = self.update = 0.0
                self.mark: float | None = None
                self.updates = 0
                self.first_step_of_rollout = False
                self.begin = time.perf_counter()

            def _on_rollout_start(self) -> None:
                now = time.perf_counter()
                if self.mark is not None:
                    self.update += now - self.mark
                    self.updates += 1
                self.mark = now
                self.first_step_of_rollout = True

            def _on_rollout_end(self) -> None:
                now = time.perf_counter()
                self.rollout += now - self.mark
                self.mark = now

            def _on_step(self) -> bool:
                first, self.first_step_of_rollout = self.first_step_of_rollout, False
                over = time.perf_counter() - self.begin >= seconds
                return not (first and over and self.updates >= 1)

        phases = Phases()
        start = time.perf_counter()
        model.learn(total_timesteps=10**12, callback=phases)
        wall = time.perf_counter() - start
        steps = model.num_timesteps - config.envs  # the step that saw the stop played no update
        vec_env.close()
    env_s, opp_s = vec_env.timing["env"], vec_env.timing["opponents"]
    play_steps, _, play_time = run_aec(env_maker(game, players), min(3.0, max(0.5, seconds / 5)))
    return TrainBenchResult(
        name=game_label(game, players), players=players, steps=steps, seconds=wall,
        env=env_s / wall, opponents=opp_s / wall,
        rollout_net=max(0.0, phases.rollout - env_s - opp_s) / wall,
        update=phases.update / wall, random_play=play_steps / play_time,
    )


def train_rows(games: Sequence[str], players: Sequence[int] | None) -> list[tuple[str, int]]:
    """(game, player count) per row: a game at 2 players (or those of `players` it supports),
    a variant at its own count (alpujarras-solo: 1)."""
    from huerta.envs.core.registry import resolve_game

    rows: list[tuple[str, int]] = []
    for name in games:
        spec, fixed = resolve_game(name)
        counts = [fixed] if fixed is not None else [
            n for n in (players or (2,)) if n in spec.player_counts
        ]
        rows += [(spec.name, n) for n in counts if (spec.name, n) not in rows]
    return rows


def benchmark_training(
    rows: Sequence[tuple[str, int]], seconds: float = 30.0,
    on_row: Callable[[TrainBenchResult], None] | None = None,
) -> list[TrainBenchResult]:
    """A row per (game, player count) of `rows` (see `train_rows`), each reported to `on_row`
    as it finishes."""
    results = []
    for game, n in rows:
        row = measure_training(game, n, seconds)
        results.append(row)
        if on_row is not None:
            on_row(row)
    return results


TRAIN_HEADER = (
    f"{'game':<16} {'players':>7} {'train steps/s':>13} {'env':>5} {'opponents':>9} "
    f"{'rollout net':>11} {'update':>6} {'random play':>11}"
)
TRAIN_LEGEND = (
    "train steps/s: learner steps per second of the whole training loop (default settings); "
    "env, opponents, rollout net, update: shares of its wall time (the games' transitions and "
    "observations; choosing the opponents' moves; the learner's forward pass and bookkeeping; "
    "the PPO update); random play: the env()'s own steps/s under random legal play, this run"
)


def format_train_row(r: TrainBenchResult) -> str:
    return (
        f"{r.name:<16} {r.players:>7} {r.steps_per_s:13.0f} {r.env:5.0%} {r.opponents:9.0%} "
        f"{r.rollout_net:11.0%} {r.update:6.0%} {r.random_play:11.0f}"
    )
