"""The one agent interface for every game: observation dict in, legal action id out."""

from __future__ import annotations

import abc
from typing import Any

import numpy as np

from huerta.envs.core.view import PlayerView


class Agent(abc.ABC):
    """Base class of huerta's agents.

    `act` receives the acting player's observation dict (`observation`, `action_mask`) and, only
    when `needs_view` is True (agents that search), a `PlayerView` of the game. `reset(seed)`
    reseeds the agent's own generator so that games are reproducible.
    """

    name = "agent"
    needs_view = False

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        self.options = options
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new game with a fresh generator seeded by `seed`."""
        self.rng = np.random.default_rng(seed)

    @abc.abstractmethod
    def act(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        """The action id to play; it must be unmasked in `observation["action_mask"]`."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"
