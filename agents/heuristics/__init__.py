"""One hand-written strategy per game, each a documented plan a decent human would recognise.

Which game has one, and where it lives, is the game's own fact: its spec's `heuristic`, the
`module:factory` path of the agent (`GameSpec.heuristic`), so `HEURISTICS` follows the game
registry and a new game's heuristic needs no line here. Alpujarras' covers every player count,
the solo game (num_players=1) included.
"""

from __future__ import annotations

from collections.abc import Callable

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_specs, get_game, load_attribute

from ..base import Agent


def _factory(path: str) -> Callable[..., Agent]:
    """`factory(seed, **options)` for the agent at `path`, imported on first use."""

    def make(seed: int | None = None, **options) -> Agent:
        return load_attribute(path)(seed=seed, **options)

    make.__qualname__ = make.__name__ = path.rpartition(":")[2] or path
    return make


# game -> factory(seed, **options), for every registered game whose spec names a heuristic
HEURISTICS: dict[str, Callable[..., Agent]] = {
    spec.name: _factory(spec.heuristic) for spec in game_specs() if spec.heuristic
}


def heuristic_module(game: str):
    """The module of `game`'s heuristic (its `position_value`, and `solo_value` where the game
    has a solo variant, serve the search agent); a game without one raises naming the games that
    have one."""
    check_heuristic_game(game)
    return load_attribute(get_game(game).heuristic.partition(":")[0])


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
