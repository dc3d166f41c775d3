"""Win-rate confidence intervals and skill ratings for tournament results.

Ratings use openskill's Plackett-Luce model (a maintained multiplayer rating library); the
displayed rating is its conservative ordinal, mu - 3 sigma.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson_interval(wins: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a win rate of `wins` out of `games`."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1.0 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return (low, high)


def ranks_from_keys(keys: Sequence[Sequence[float]]) -> list[int]:
    """Rank 0 for the best key; equal keys share a rank (the number of strictly better keys)."""
    return [sum(1 for other in keys if tuple(other) > tuple(k)) for k in keys]


def openskill_ratings(
    games: Sequence[tuple[Sequence[str], Sequence[int]]], names: Sequence[str]
) -> dict[str, tuple[float, float, float]]:
    """Ratings after `games`, each (agent names by seat, ranks by seat), in the given order.

    Returns name -> (mu, sigma, ordinal). Names not in any game keep the prior.
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError as exc:  # comes with the `train` extra
        raise ImportError("ratings need openskill: pip install 'huerta[train]'") from exc
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    for seats, ranks in games:
        teams = [[ratings[name]] for name in seats]
        new = model.rate(teams, ranks=list(ranks))
        for name, team in zip(seats, new, strict=True):
            ratings[name] = team[0]
    return {n: (r.mu, r.sigma, r.ordinal()) for n, r in ratings.items()}
