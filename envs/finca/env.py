"""Finca as a PettingZoo AEC environment: the shared AEC base bound to Finca's engine."""

from __future__ import annotations

from typing import Any

from ..core.aec import BoardGameAEC
from .game import SPEC


def raw_env(num_players: int = 2, render_mode: str | None = None, **kwargs: Any) -> BoardGameAEC:
    """The unwrapped environment. Options: `reward` ("win_loss", "score_margin", "rank"),
    `max_steps` (truncation, default 2000 agent steps) and `cart_shortage` (G-23)."""
    return BoardGameAEC(SPEC, num_players=num_players, render_mode=render_mode, **kwargs)


def env(num_players: int = 2, render_mode: str | None = None, **kwargs: Any) -> BoardGameAEC:
    """The environment users make. It checks call order itself (step or observe before reset
    raise a clear error) and raises `IllegalActionError` on masked actions, so PettingZoo's
    OrderEnforcing / TerminateIllegal wrappers, which cost a Python call per attribute, are not
    needed."""
    return raw_env(num_players, render_mode, **kwargs)
