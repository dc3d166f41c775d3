"""The `rllib` method: masked self-play PPO on Ray RLlib (`huerta.training.rllib`), behind the
`Method` interface. It leaves in the run folder eval.csv, checkpoints/step_<steps>/, tb/,
metrics.jsonl, best_policy/ and final_policy/ (what `rllib:PATH` plays) and learning_curve.png.
"""

from __future__ import annotations

from pathlib import Path

from huerta.envs.core.errors import InvalidConfigError

from ..rllib.config import RLlibTrainConfig
from ..rllib.trainer import finish, train_league
from ..runs import START_AFRESH, Stop, rllib_checkpoints
from ..runs.layout import CHECKPOINTS


class RLlib:
    """The `rllib` method, on the Ray cluster of `ray_address` (None: a local Ray for the run)."""

    name = "rllib"
    folders = (CHECKPOINTS, "tb")

    def __init__(self, ray_address: str | None = None) -> None:
        self.ray_address = ray_address

    def check_resumable(self, config: RLlibTrainConfig, run: Path) -> None:
        """Refuse a resume with no complete checkpoint."""
        if not rllib_checkpoints(run):
            raise InvalidConfigError(
                f"nothing to resume: no checkpoint in {run / CHECKPOINTS}{START_AFRESH}"
            )

    def train(self, config: RLlibTrainConfig, run: Path, stop: Stop, resume: bool) -> int:
        """Train the league (or go on with it); return the learner steps reached."""
        return train_league(config, run, stop, resume, self.ray_address)

    def finish(self, config: RLlibTrainConfig, run: Path, steps: int, seconds: float) -> str:
        """Draw the learning curve; the line that ends the run."""
        return finish(config, run, steps, seconds)
