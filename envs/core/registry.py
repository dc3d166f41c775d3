"""The games huerta knows, by name; a game that lands later adds one line here."""

from __future__ import annotations

import importlib

from .engine import GameSpec
from .errors import InvalidConfigError

# name -> module that defines SPEC
GAME_MODULES = {
    "finca": "huerta.envs.finca.game",
    "alpujarras": "huerta.envs.alpujarras.game",
    "mi_tierra": "huerta.envs.mi_tierra.game",
}


def game_names() -> list[str]:
    """Every registered game name."""
    return list(GAME_MODULES)


def get_game(name: str) -> GameSpec:
    """The `GameSpec` of game `name`; an unknown name raises naming the valid ones."""
    key = str(name).lower().replace("-", "_")
    if key not in GAME_MODULES:
        raise InvalidConfigError(f"unknown game {name!r}; valid games: {', '.join(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[key]).SPEC
