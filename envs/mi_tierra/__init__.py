"""Mi Tierra for 2-4 players: the engine (`new_game`, `MiTierraState`), its data and its
environments."""

from . import components
from .actions import N_ACTIONS, Decision, Stage
from .game import SPEC, new_game
from .observation import OBS_LAYOUT, OBS_SIZE
from .state import MiTierraState

__all__ = [
    "N_ACTIONS", "OBS_LAYOUT", "OBS_SIZE", "SPEC", "Decision", "MiTierraState", "Stage",
    "components", "new_game",
]
