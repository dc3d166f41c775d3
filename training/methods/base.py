"""The interface every training method declares, so that one dispatcher (dispatch.py) runs them
all the same way: PPO (ppo.py), afterstate (afterstate.py), CEM (cem.py) and PPO on Ray RLlib
(rllib.py). Imitation (imitation.py) is no method of its own: it is PPO's warm start.

The dispatcher does what is common to every method, through the run-folder layer
(`huerta.training.runs`): it refuses `resume` with `force`, claims the folder of a new run
(refusing one that holds a run, unless forced) or reads a resumed run's settings back, makes the
method's `folders`, writes config.json, and catches SIGINT and SIGTERM into a `Stop` while the
method trains. A method then:

- takes the run's checked settings (a `TrainConfig`; an `RLlibTrainConfig` for RLlib), the run
  folder, the `Stop` and whether the run is resumed;
- leaves in the folder its evaluation log (eval.csv, one row per evaluated step count or game
  count), its best model (best_model.zip and best_policy.npz for PPO; best_policy.npz for
  afterstate and cem; best_policy/ for RLlib), the files it resumes from (checkpoints/,
  values/, ...), and learning_curve.png when matplotlib is there;
- on a signal, keeps what it finished and raises `TrainingInterrupted` saying what was kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..runs import Stop


@runtime_checkable
class Method(Protocol):
    """A training method, as the dispatcher runs it (see the module docstring)."""

    name: str  # the value of `TrainConfig.method` ("ppo", "afterstate", "cem"), or "rllib"
    folders: tuple[str, ...]  # the run folder's subfolders it writes, made before it starts

    def check_resumable(self, config: Any, run: Path) -> None:
        """Refuse (`InvalidConfigError` ending in `runs.START_AFRESH`) a resume of `run` that
        finds nothing to resume from."""

    def train(self, config: Any, run: Path, stop: Stop, resume: bool) -> int:
        """Train (a new run, or go on with the one in `run`); return what it counts at the end
        (learner steps, or games for afterstate and cem). Raises `TrainingInterrupted` when
        `stop` caught a signal."""

    def finish(self, config: Any, run: Path, count: int, seconds: float) -> str:
        """After training, with the signals back to their handlers: draw what is drawn (the
        learning curve) and return the line that ends the run."""
