"""The Mi Tierra heuristic's view of a farm: what a worker on each crop field harvests, what the
two best farm workers earn a round, and where a new field or barnyard is best placed."""

from __future__ import annotations

from functools import lru_cache

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.farm import group_size

FARM_OPPORTUNITY = 3.5  # a farm worker must beat what the worker would earn elsewhere


@lru_cache(maxsize=4096)
def farm_yields(tiles: tuple[int, ...], cap: int) -> tuple[tuple[int, float], ...]:
    """(crop, harvest) of a worker on each crop field, best first."""
    out = []
    for c, tile in enumerate(tiles):
        if C.T_APPLE <= tile <= C.T_GRAPE:
            out.append((C.TILE_CROP[tile], float(min(cap, group_size(tiles, c)))))
    out.sort(key=lambda x: -x[1])
    return tuple(out)


def farm_income(tiles: tuple[int, ...], cap: int, keep: list[float]) -> float:
    """Per-round value of the two best farm workers, net of what the workers earn elsewhere."""
    total = 0.0
    for crop, amount in farm_yields(tiles, cap)[:2]:
        total += max(amount * keep[crop] - FARM_OPPORTUNITY, 0.0)
    return total


@lru_cache(maxsize=4096)
def best_field(tiles: tuple[int, ...], crop: int, cap: int) -> tuple[int, ...]:
    """The farm after a new `crop` field lands on the empty cell that grows the best group."""
    tile = C.CROP_TILE[crop]
    best, best_key = tiles, (-1.0, 0)
    for c, t in enumerate(tiles):
        if t != C.EMPTY:
            continue
        trial = (*tiles[:c], tile, *tiles[c + 1:])
        yields = farm_yields(trial, cap)
        key = (sum(a for _, a in yields[:2]), -_open_neighbours(trial, c))
        if key > best_key:
            best, best_key = trial, key
    return best


def _open_neighbours(tiles: tuple[int, ...], cell: int) -> int:
    return sum(1 for nb in C.NEIGHBOURS[cell] if tiles[nb] == C.EMPTY)


def barn_cell(tiles: tuple[int, ...], tile: int) -> tuple[int, ...]:
    """The farm after a barnyard lands on the empty cell least useful to fields."""
    best, best_key = tiles, None
    for c, t in enumerate(tiles):
        if t != C.EMPTY:
            continue
        key = sum(1 for nb in C.NEIGHBOURS[c] if C.T_APPLE <= tiles[nb] <= C.T_GRAPE)
        if best_key is None or key < best_key:
            best = (*tiles[:c], tile, *tiles[c + 1:])
            best_key = key
    return best
