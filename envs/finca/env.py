"""Finca as a PettingZoo AEC environment: the shared AEC base bound to Finca's engine."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from ..core.aec import BoardGameAEC
from .game import SPEC


def raw_env(num_players: int = 2, render_mode: str | None = None, **kwargs: Any) -> BoardGameAEC:
    """The unwrapped environment. Options: `reward` ("win_loss", "score_margin", "rank"),
    `max_steps` (truncation, default 2000 agent steps) and `cart_shortage` (G-23)."""
    return BoardGameAEC(SPEC, num_players=num_players, render_mode=render_mode, **kwargs)


def env(num_players: int = 2, render_mode: str | None = None, **kwargs: Any):
    """The environment with PettingZoo's order checks (step before reset, etc.)."""
    return wrappers.OrderEnforcingWrapper(raw_env(num_players, render_mode, **kwargs))
