"""What every game shares: the engine protocol, the AEC base, the single-agent wrapper, errors,
seeding, rewards and game records."""

from .engine import GameSpec, GameState
from .errors import (
    CallOrderError,
    CorruptRecordError,
    HuertaError,
    IllegalActionError,
    InvalidConfigError,
)
from .records import GameRecord, replay
from .registry import game_names, get_game
from .validation import UnknownAgentError

__all__ = [
    "CallOrderError", "CorruptRecordError", "GameRecord", "GameSpec", "GameState", "HuertaError",
    "IllegalActionError", "InvalidConfigError", "UnknownAgentError", "game_names", "get_game",
    "replay",
]
