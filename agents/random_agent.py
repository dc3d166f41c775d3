"""The uniform random agent: every legal action equally likely."""

from __future__ import annotations

from typing import Any

import numpy as np

from huerta.envs.core.policies import game_sizes
from huerta.envs.core.view import PlayerView

from .base import Agent


class RandomAgent(Agent):
    """Picks uniformly among the unmasked actions with its own seeded generator. Given its
    `game` (or a view at each move), it also refuses a mask of another size than the game's;
    without either it refuses only an empty mask (it never reads the observation vector)."""

    name = "random"
    reads_observation = False

    def __init__(self, seed: int | None = None, game: str | None = None,
                 **options: Any) -> None:
        super().__init__(seed, **options)
        if game is not None:
            game_sizes(game)  # an unknown game is refused now, naming the valid ones
        self.game = game

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[self.rng.integers(len(legal))])

    def act_batch(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray:
        """One action per row of `masks`, drawn as `decide` draws them one at a time, in row
        order (the batched env asks a whole round at once; it never reads `observations`)."""
        rows = []
        for mask in masks:
            legal = np.flatnonzero(mask)
            rows.append(int(legal[self.rng.integers(len(legal))]))
        return np.array(rows, dtype=np.int64)
