"""Alpujarras as a PettingZoo AEC environment: the shared AEC base bound to Alpujarras's engine.

`num_players=1` is the solo game against Zara: one agent, Zara scripted inside `step`.
"""

from __future__ import annotations

from typing import Any

from ..core.aec import BoardGameAEC
from ..core.errors import InvalidConfigError
from ..core.single_agent import SingleAgentEnv
from ..core.validation import check_solo_players
from .game import SPEC


def raw_env(num_players: int = 2, render_mode: str | None = None, **kwargs: Any) -> BoardGameAEC:
    """The unwrapped environment. Options: `reward` ("win_loss", "score_margin", "rank"),
    `max_steps` (truncation, default 3000 agent steps) and, for the solo game only,
    `double_turns` (0-5, default 3) and `star_sides` (0-5, default 0)."""
    return BoardGameAEC(SPEC, num_players=num_players, render_mode=render_mode, **kwargs)


def env(num_players: int = 2, render_mode: str | None = None, **kwargs: Any) -> BoardGameAEC:
    """The environment users make. It checks call order itself and raises `IllegalActionError`
    on masked actions, so PettingZoo's per-attribute wrappers are not needed (as for Finca)."""
    return raw_env(num_players, render_mode, **kwargs)


class SoloSingleAgentEnv(SingleAgentEnv):
    """`huerta/AlpujarrasSolo-v0`: the single-agent view of the solo game against Zara. It has one
    player, so `num_players` may only be 1; the other options are `SingleAgentEnv`'s and the solo
    variants `double_turns` and `star_sides`."""

    def __init__(self, num_players: int = 1, **kwargs: Any) -> None:
        check_solo_players(num_players, "huerta/AlpujarrasSolo-v0", "huerta/Alpujarras-v0")
        game = kwargs.pop("game", "alpujarras")
        if game != "alpujarras":
            raise InvalidConfigError(
                f"huerta/AlpujarrasSolo-v0: game={game!r}; valid values: 'alpujarras'"
            )
        super().__init__(game="alpujarras", num_players=1, **kwargs)
