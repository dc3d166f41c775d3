"""A trained sb3-contrib MaskablePPO policy as an agent (`ppo:PATH`), always using the mask."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.view import PlayerView

from .base import Agent


class PPOAgent(Agent):
    """Loads a MaskablePPO `.zip` (a run folder works too: its best model is used) and plays
    the masked action the policy prefers (deterministic unless `deterministic=False`)."""

    name = "ppo"

    def __init__(self, path: str | Path, seed: int | None = None, deterministic: bool = True):
        super().__init__(seed)
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as exc:  # the `train` extra
            raise InvalidConfigError(
                "the ppo agent needs sb3-contrib: pip install 'huerta[train]'"
            ) from exc
        path = Path(path)
        if path.is_dir():
            candidates = [path / "best_model.zip", path / "final_model.zip"]
            found = [p for p in candidates if p.exists()]
            if not found:
                raise InvalidConfigError(f"no best_model.zip or final_model.zip in {path}")
            path = found[0]
        if not path.exists():
            raise InvalidConfigError(f"no trained model at {path}")
        self.path = path
        self.model = MaskablePPO.load(str(path), device="cpu")
        self.deterministic = deterministic

    def act(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        mask = observation["action_mask"].astype(bool)
        action, _ = self.model.predict(
            observation["observation"], action_masks=mask, deterministic=self.deterministic
        )
        return int(action)
