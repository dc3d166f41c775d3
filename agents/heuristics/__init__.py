"""One hand-written strategy per game, each a documented plan a decent human would recognise.

Which game has one is found by the game's name: the package `huerta.agents.heuristics.<game>`
(Finca's is `huerta.agents.heuristics.finca`), which declares the `Heuristic` members
(`protocol.py`: its agent, the search agent's settings, its values and turn search). A game
without such a package has no heuristic, and a new game's heuristic needs no line here.
Alpujarras' covers every player count, the solo game (num_players=1) included.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_names

from ..base import Agent
from .protocol import Heuristic, SearchSettings


def _has_package(game: str) -> bool:
    """Whether `huerta.agents.heuristics.<game>` exists (found without importing it)."""
    return importlib.util.find_spec(f"{__name__}.{game}") is not None


def _factory(game: str) -> Callable[..., Agent]:
    """`factory(seed, **options)` for `game`'s heuristic agent, its package imported on first
    use."""

    def make(seed: int | None = None, **options) -> Agent:
        return heuristic_module(game).AGENT(seed=seed, **options)

    make.__qualname__ = make.__name__ = f"{game}_heuristic"
    return make


# game -> factory(seed, **options), for every registered game with a heuristic package
HEURISTICS: dict[str, Callable[..., Agent]] = {
    game: _factory(game) for game in game_names() if _has_package(game)
}


def heuristic_module(game: str) -> Heuristic:
    """The heuristic package of `game` (its `position_value`, `solo_value`, ... serve the search
    and afterstate agents); a game without one raises naming the games that have one, and a
    package that lacks a member of `Heuristic` raises naming the members."""
    check_heuristic_game(game)
    return _load(game)


@functools.cache
def _load(game: str) -> Heuristic:
    """Import `game`'s heuristic package once and check that it declares every member."""
    module = importlib.import_module(f"{__name__}.{game}")
    if not isinstance(module, Heuristic):
        missing = [m for m in Heuristic.__annotations__ if not hasattr(module, m)]
        raise InvalidConfigError(f"{module.__name__} does not declare the heuristic's members "
                                 f"{', '.join(missing)} (huerta.agents.heuristics.protocol)")
    return module


def search_settings_of(game: str) -> SearchSettings | None:
    """The search agent's settings declared beside `game`'s heuristic (None: no search agent,
    which a game without a heuristic has neither)."""
    return heuristic_module(game).SEARCH if game in HEURISTICS else None


def check_heuristic_game(game: str) -> None:
    """Refuse a game without a heuristic agent, naming the games that have one."""
    if game not in HEURISTICS:
        raise InvalidConfigError(
            f"no heuristic agent for game {game!r} yet; games with one: {', '.join(HEURISTICS)}"
        )


def make_heuristic(game: str, seed: int | None = None, **options) -> Agent:
    """The heuristic agent of `game`; a game without one names the games that have one."""
    check_heuristic_game(game)
    return HEURISTICS[game](seed, **options)
