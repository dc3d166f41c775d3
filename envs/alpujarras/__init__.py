"""Alpujarras for 2-4 players and the solo game against Zara (`num_players=1`): the engine
(`new_game`, `AlpujarrasState`), its data and its environments."""

from . import components
from .actions import N_ACTIONS, Chain, Phase
from .game import SPEC, new_game
from .observation import OBS_LAYOUT, OBS_SIZE
from .state import AlpujarrasState

__all__ = [
    "N_ACTIONS", "OBS_LAYOUT", "OBS_SIZE", "SPEC", "AlpujarrasState", "Chain", "Phase",
    "components", "new_game",
]
