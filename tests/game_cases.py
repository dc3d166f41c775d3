"""Which games and player counts the tests that cover every game run over, read from the
registry (`huerta.envs.core.registry`) rather than listed by hand, so that a new game is tested
by them with no line of theirs (not a test module).

A module of its own, imported by name (`from game_cases import ...`) like budgets.py: the
conftest files of tests/web and tests/ray would shadow a name in tests/conftest.py.

Every name a command takes (`game_choices()`: each game, then its variants, such as
alpujarras-solo) stands for a game at some player counts: a variant at its fixed count, a game
at its own counts (its counts less its variants': alpujarras 2, 3, 4).
"""

from __future__ import annotations

from huerta.envs.core.registry import game_choices, own_player_counts, resolve_game


def name_counts(name: str) -> tuple[str, tuple[int, ...]]:
    """A game or variant name as (game, the player counts it stands for)."""
    spec, fixed = resolve_game(name)
    return spec.name, (fixed,) if fixed is not None else own_player_counts(spec.name)


def every_count() -> list[tuple[str, int]]:
    """Every name at every count it stands for: (name, players), in the registry's order
    (finca 2, 3, 4; alpujarras 2, 3, 4; alpujarras-solo 1; mi_tierra 2, 3, 4)."""
    return [(name, n) for name in game_choices() for n in name_counts(name)[1]]


def fewest_and_most() -> list[tuple[str, int]]:
    """Every game at the fewest and the most players of each name it goes by: (game, players),
    the games in the registry's order, each game's counts ascending (finca 2, 4; alpujarras 1,
    2, 4, its 1 being alpujarras-solo's; mi_tierra 2, 4)."""
    counts: dict[str, set[int]] = {}
    for name in game_choices():
        game, own = name_counts(name)
        counts.setdefault(game, set()).update((min(own), max(own)))
    return [(game, n) for game, ns in counts.items() for n in sorted(ns)]


def middle_count(name: str) -> int:
    """One player count for `name`: a variant's, else the middle one of the game's own counts
    (2, 3, 4: 3)."""
    counts = name_counts(name)[1]
    return counts[len(counts) // 2]
