"""The uniform random agent: every legal action equally likely."""

from __future__ import annotations

import numpy as np

from huerta.envs.core.view import PlayerView

from .base import Agent


class RandomAgent(Agent):
    """Picks uniformly among the unmasked actions with its own seeded generator."""

    name = "random"

    def act(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if len(legal) == 0:
            raise ValueError("the action mask is empty: this agent is not the one to act")
        return int(legal[self.rng.integers(len(legal))])
