"""The personal farm: tiles on the 3x4 grid, animals in barnyards and the henhouse, harvests.

Animals are never placed by hand (G-22, G-23, G-24): new sheep and cows go first into barnyards
already holding their kind, then into empty barnyards (the smallest one that holds them all, else
the largest); hens live in the henhouse; every animal that finds no room becomes one meat. Animals
leave from the same-kind barnyard holding the fewest (ties: lowest cell). The player's animal totals
are mirrored in `goods[p]` (sheep, cow, hen) so that markets read one vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import components as C
from .groups import FARM, GOODS

if TYPE_CHECKING:
    from .state import MiTierraState

_BARNS = (C.T_BARN2, C.T_BARN3)


def group_size(tiles: Sequence[int], cell: int) -> int:
    """Cells in the orthogonally connected group of same-crop fields containing `cell`."""
    kind = tiles[cell]
    seen = {cell}
    stack = [cell]
    while stack:
        c = stack.pop()
        for nb in C.NEIGHBOURS[c]:
            if nb not in seen and tiles[nb] == kind:
                seen.add(nb)
                stack.append(nb)
    return len(seen)


def harvest_amount(state: MiTierraState, player: int, cell: int) -> int:
    """MIT-59, MIT-60, MIT-61, G-26, G-61: what one worker on `cell` produces this round."""
    tiles = state.tiles[player]
    crop = C.TILE_CROP[tiles[cell]]
    devs = state.devs[player]
    if (
        state.event_in_force() == C.FRUIT_FLY
        and crop in C.FRUIT_FLY_CROPS
        and not devs[C.INSURANCE]
    ):
        return 0
    cap = C.TRACTOR_CAP if devs[C.TRACTOR] else C.HARVEST_CAP
    return min(cap, group_size(tiles, cell))


def add_animals(state: MiTierraState, player: int, kind: int, count: int) -> int:
    """House `count` new animals of `kind` (G-22); each one without room becomes 1 meat (G-23).
    Returns how many were housed."""
    if count <= 0:
        return 0
    goods = state.goods[player]
    state.touched |= GOODS[player]
    if kind == C.HEN:
        room = C.HENHOUSE_CAPACITY - goods[C.HEN]
        housed = min(room, count)
        goods[C.HEN] += housed
        goods[C.MEAT] += count - housed
        return housed
    state.touched |= FARM[player]
    tiles = state.tiles[player]
    barn_kind = state.barn_kind[player]
    barn_count = state.barn_count[player]
    left = count
    for c in range(C.FARM_CELLS):  # barnyards already holding this kind, lowest cell first
        if left and barn_kind[c] == kind:
            put = min(left, C.BARN_CAPACITY[tiles[c]] - barn_count[c])
            barn_count[c] += put
            left -= put
    while left:
        empty = [c for c in range(C.FARM_CELLS) if tiles[c] in _BARNS and barn_count[c] == 0]
        if not empty:
            break
        fitting = [c for c in empty if C.BARN_CAPACITY[tiles[c]] >= left]
        if fitting:  # the smallest barnyard that holds them all (lowest cell on ties)
            target = min(fitting, key=lambda c: (C.BARN_CAPACITY[tiles[c]], c))
        else:  # none holds them all: the largest one (lowest cell on ties)
            target = min(empty, key=lambda c: (-C.BARN_CAPACITY[tiles[c]], c))
        put = min(left, C.BARN_CAPACITY[tiles[target]])
        barn_kind[target] = kind
        barn_count[target] = put
        left -= put
    housed = count - left
    goods[kind] += housed
    goods[C.MEAT] += left
    return housed


def remove_animals(state: MiTierraState, player: int, kind: int, count: int) -> None:
    """Take `count` animals of `kind` off the farm (sales, theft), fewest-first (G-24)."""
    goods = state.goods[player]
    if count > goods[kind]:
        raise ValueError(f"player {player} has {goods[kind]} {C.GOODS[kind]}, not {count}")
    state.touched |= GOODS[player]
    goods[kind] -= count
    if kind == C.HEN:
        return
    state.touched |= FARM[player]
    barn_kind = state.barn_kind[player]
    barn_count = state.barn_count[player]
    left = count
    while left:
        holding = [c for c in range(C.FARM_CELLS) if barn_kind[c] == kind]
        c = min(holding, key=lambda c: (barn_count[c], c))
        take = min(left, barn_count[c])
        barn_count[c] -= take
        left -= take
        if barn_count[c] == 0:
            barn_kind[c] = C.NO_KIND


def change_good(state: MiTierraState, player: int, good: int, delta: int) -> None:
    """Add (or with a negative `delta` remove) units of any good, animals through the farm."""
    if good in C.ANIMALS:
        if delta > 0:
            add_animals(state, player, good, delta)
        elif delta < 0:
            remove_animals(state, player, good, -delta)
        return
    state.goods[player][good] += delta
    state.touched |= GOODS[player]


def tile_targets(state: MiTierraState, player: int) -> list[int]:
    """G-20: cells a new tile may go on: any empty cell, or replacing a tile that is neither the
    printed apple field nor worked by a worker this round."""
    tiles = state.tiles[player]
    workers = state.farm_workers[player]
    return [
        c for c in range(C.FARM_CELLS)
        if tiles[c] == C.EMPTY or (c != C.PRINTED_APPLE_CELL and not workers[c])
    ]


def has_empty_cell(state: MiTierraState, player: int) -> bool:
    """Whether the farm still has a cell without a tile (then a new tile may not be discarded)."""
    return C.EMPTY in state.tiles[player]


def put_tile(state: MiTierraState, player: int, cell: int, tile: int) -> None:
    """Place `tile` on `cell` (MIT-32, MIT-40, MIT-56); a replaced tile leaves the game and the
    animals of a replaced barnyard are housed again, or become meat (G-21)."""
    tiles = state.tiles[player]
    barn_kind = state.barn_kind[player]
    barn_count = state.barn_count[player]
    evicted_kind = barn_kind[cell]
    evicted = barn_count[cell]
    tiles[cell] = tile
    barn_kind[cell] = C.NO_KIND
    barn_count[cell] = 0
    state.touched |= FARM[player]
    if evicted:  # (add_animals records the goods that moved)
        state.goods[player][evicted_kind] -= evicted
        add_animals(state, player, evicted_kind, evicted)


def farm_items(state: MiTierraState, player: int) -> int:
    """MIT-96, G-66: resource cards plus animals, the things exchanged 3 for $1 at the end."""
    return sum(state.goods[player])
