"""The scalars of an RLlib run's training iterations: read from RLlib's result dict, written to
metrics.jsonl and TensorBoard."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .league import MAIN


def dig(result: Mapping[str, Any], *keys: str) -> Any:
    """The value under `keys` in RLlib's nested result dict, or None where one is missing."""
    value: Any = result
    for key in keys:
        if not isinstance(value, Mapping) or key not in value:
            return None
        value = value[key]
    return value


def finite_number(value: Any) -> float | None:
    """`value` as a finite float, or None when it is not one."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def learner_steps(result: Mapping[str, Any]) -> int:
    """The decisions of `main` sampled so far (over the run's whole life)."""
    value = dig(result, "env_runners", "num_module_steps_sampled_lifetime", MAIN)
    return int(value or 0)


def iteration_metrics(result: Mapping[str, Any], steps: int, env_steps_per_s: float | None,
                      league_size: int) -> dict[str, float]:
    """The scalars of one training iteration (metrics.jsonl and TensorBoard)."""
    runners = result.get("env_runners", {})
    learner = dig(result, "learners", MAIN) or {}
    wanted = {
        "rollout/ep_rew_mean": dig(runners, "module_episode_returns_mean", MAIN),
        "rollout/ep_len_mean": runners.get("episode_len_mean"),
        "rollout/win_rate": runners.get("learner_win_rate"),
        "rollout/win_rate_vs_snapshot": runners.get("learner_win_rate_vs_snapshot"),
        "rollout/win_rate_vs_heuristic": runners.get("learner_win_rate_vs_heuristic"),
        "rollout/win_rate_vs_random": runners.get("learner_win_rate_vs_random"),
        "train/entropy": learner.get("entropy"),
        "train/policy_loss": learner.get("policy_loss"),
        "train/value_loss": learner.get("vf_loss"),
        "train/explained_variance": learner.get("vf_explained_var"),
        "train/approx_kl": learner.get("mean_kl_loss"),
        "time/env_steps": runners.get("num_env_steps_sampled_lifetime"),
        "time/env_steps_per_s": env_steps_per_s,
        "time/sample_s": dig(result, "timers", "env_runner_sampling_timer"),
        "time/learn_s": dig(result, "timers", "learner_update_timer"),
        "league/size": league_size,
    }
    metrics = {"steps": float(steps)}
    metrics.update({k: n for k, v in wanted.items() if (n := finite_number(v)) is not None})
    return metrics


class Board:
    """TensorBoard scalars through tensorboardX (installed with Ray RLlib), if importable."""

    def __init__(self, folder: Path) -> None:
        self.writer: Any = None
        try:
            from tensorboardX import SummaryWriter
        except ImportError:
            return
        self.writer = SummaryWriter(str(folder))

    def write(self, metrics: Mapping[str, float], steps: int) -> None:
        if self.writer is not None:
            for key, value in metrics.items():
                if key != "steps":
                    self.writer.add_scalar(key, value, steps)
            self.writer.flush()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
