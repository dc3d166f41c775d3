"""Mi Tierra as a PettingZoo AEC environment: the shared AEC base bound to Mi Tierra's engine."""

from __future__ import annotations

from typing import Any

from ..core.aec import BoardGameAEC
from .game import SPEC


def raw_env(num_players: int = 2, render_mode: str | None = None, **kwargs: Any) -> BoardGameAEC:
    """The unwrapped environment. Options: `reward` ("win_loss", "score_margin", "rank") and
    `max_steps` (truncation, default 5000 agent steps)."""
    return BoardGameAEC(SPEC, num_players=num_players, render_mode=render_mode, **kwargs)


def env(num_players: int = 2, render_mode: str | None = None, **kwargs: Any) -> BoardGameAEC:
    """The environment users make. It checks call order itself and raises `IllegalActionError`
    on masked actions, so PettingZoo's per-attribute wrappers are not needed (as for Finca)."""
    return raw_env(num_players, render_mode, **kwargs)
