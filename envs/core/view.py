"""What a searching agent may see of a game: one player's view, never the hidden parts.

An agent gets the legal actions, its observation and the public facts of the game directly; the
full state only through `determinize`, which resamples everything that player cannot know.
"""

from __future__ import annotations

import numpy as np

from .engine import GameState


class PlayerView:
    """A read-only window onto `state` from `player`'s seat."""

    __slots__ = ("_state", "player")

    def __init__(self, state: GameState, player: int) -> None:
        self._state = state
        self.player = player

    @property
    def num_players(self) -> int:
        return self._state.num_players

    @property
    def current_player(self) -> int:
        return self._state.current_player

    @property
    def steps(self) -> int:
        """Decisions taken so far in the game (all players)."""
        return self._state.steps

    @property
    def is_terminal(self) -> bool:
        return self._state.is_terminal

    def legal_mask(self) -> np.ndarray:
        """The acting player's legal-action mask (a copy)."""
        return self._state.legal_mask().copy()

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions()

    def observe(self) -> np.ndarray:
        """This player's observation vector."""
        return self._state.observe(self.player)

    def scores(self) -> list[int]:
        """Public scores."""
        return self._state.scores()

    def describe(self, action: int) -> str:
        return self._state.describe(action)

    def render_text(self) -> str:
        """The board as text, as this player may see it."""
        render_for = getattr(self._state, "render_text_for", None)
        return render_for(self.player) if render_for else self._state.render_text()

    def determinize(self, rng: np.random.Generator) -> GameState:
        """A full state consistent with this player's information, hidden parts resampled."""
        return self._state.determinize(self.player, rng)
