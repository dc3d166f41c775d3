"""One hand-written strategy per game, each a documented plan a decent human would recognise."""

from __future__ import annotations

from collections.abc import Callable

from huerta.envs.core.errors import InvalidConfigError

from ..base import Agent


def _finca(seed: int | None, **options) -> Agent:
    from .finca import FincaHeuristic

    return FincaHeuristic(seed=seed, **options)


def _alpujarras(seed: int | None, **options) -> Agent:
    from .alpujarras import AlpujarrasHeuristic

    return AlpujarrasHeuristic(seed=seed, **options)


def _mi_tierra(seed: int | None, **options) -> Agent:
    from .mi_tierra import MiTierraHeuristic

    return MiTierraHeuristic(seed=seed, **options)


HEURISTICS: dict[str, Callable[..., Agent]] = {
    "finca": _finca,
    "alpujarras": _alpujarras,  # every player count, the solo game (num_players=1) included
    "mi_tierra": _mi_tierra,
}


def make_heuristic(game: str, seed: int | None = None, **options) -> Agent:
    """The heuristic agent of `game`; a game without one names the games that have one."""
    if game not in HEURISTICS:
        raise InvalidConfigError(
            f"no heuristic agent for game {game!r} yet; games with one: {', '.join(HEURISTICS)}"
        )
    return HEURISTICS[game](seed, **options)
