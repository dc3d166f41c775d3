"""The settings of an RLlib run: `TrainConfig`'s, with the same meaning, and the league's own."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from ..config import TrainConfig
from ..limits import MAX_ENVS
from ..runs import checked_float, checked_int, refuse


@dataclass
class RLlibTrainConfig(TrainConfig):
    """`TrainConfig` for the RLlib backend: the same fields with the same meaning (`envs` games
    at once, here spread evenly over the env runners; `n_steps` env steps per game and update;
    `batch_size` the minibatch; `n_epochs`), plus:

    env_runners: Ray env-runner actors, one CPU each (0: one per CPU core of this machine).
    snapshot_win_rate: also snapshot `main` once it wins this share of its recent games against
        snapshots (None: on the `snapshot_every` schedule only).
    snapshot_min_episodes: games against snapshots since the last snapshot before the win-rate
        rule may add one.
    checkpoints_kept: newest algorithm checkpoints kept in checkpoints/.
    """

    backend: str = "rllib"
    method: str = "ppo"  # the RLlib trainer trains PPO only
    shared_layers: int = 0  # RLlib's default modules: separate policy and value networks
    env_runners: int = 0
    snapshot_win_rate: float | None = None
    snapshot_min_episodes: int = 50
    checkpoints_kept: int = 3

    def check(self) -> RLlibTrainConfig:
        super().check()
        if self.backend != "rllib":
            refuse("backend", self.backend, '"rllib" (this is the RLlib trainer\'s settings)')
        if self.method != "ppo":
            refuse("method", self.method, '"ppo" with the RLlib backend')
        if self.shared_layers != 0:
            refuse("shared_layers", self.shared_layers,
                    "0 with the RLlib backend (its modules keep separate networks)")
        self.env_runners = checked_int("env_runners", self.env_runners, 0, MAX_ENVS)
        if self.env_runners == 0:
            self.env_runners = max(1, os.cpu_count() or 1)
        if self.snapshot_win_rate is not None:
            self.snapshot_win_rate = checked_float("snapshot_win_rate", self.snapshot_win_rate,
                                                    0.0, 1.0, False)
        self.snapshot_min_episodes = checked_int("snapshot_min_episodes",
                                                  self.snapshot_min_episodes, 1)
        self.checkpoints_kept = checked_int("checkpoints_kept", self.checkpoints_kept, 1)
        return self

    @property
    def envs_per_runner(self) -> int:
        """Games each env runner steps: `envs` shared out, rounded up."""
        return math.ceil(self.envs / self.env_runners)

    @property
    def train_batch_size(self) -> int:
        """Env steps per update: `n_steps` per game of every env runner."""
        return self.n_steps * self.env_runners * self.envs_per_runner
