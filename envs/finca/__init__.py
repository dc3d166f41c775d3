"""Finca for 2-4 players: the engine (`new_game`, `FincaState`), its data and its environments."""

from . import components
from .actions import N_ACTIONS, DeliveryMode, Phase
from .game import SPEC, new_game
from .observation import OBS_LAYOUT, OBS_SIZE
from .state import FincaState

__all__ = [
    "N_ACTIONS", "OBS_LAYOUT", "OBS_SIZE", "SPEC", "DeliveryMode", "FincaState", "Phase",
    "components", "new_game",
]
