"""Build Finca states directly, for tests, puzzles and analysis.

`scenario(...)` starts from a seeded main-phase game with no farmers and no holdings, then applies
what you give it. Fruit and carts not assigned to a player are in the supply / centre, so the
conservation invariants hold unless you set the supply explicitly. Tiles are given by requirement
(`tile("2F+1A")`, `tile("3?")`); they are appended to the state's own catalogue when the standard
one lacks them.
"""

from __future__ import annotations

from typing import Any

from . import components as C
from .actions import Phase
from .game import new_game
from .state import FincaState


def parse_tile(text: str, value: int | None = None) -> tuple[tuple[int, ...], int, int]:
    """'2F+1A' -> (fixed counts, wild count, value); the value defaults to the fruit count."""
    fixed, wild = C.parse_requirement(text)
    return fixed, wild, sum(fixed) + wild if value is None else value


def scenario(
    num_players: int = 2,
    seed: int = 0,
    *,
    blades: list[int] | None = None,
    farmers: dict[int, dict[int, int]] | None = None,
    fruits: dict[int, dict[int, int] | list[int]] | None = None,
    supply: list[int] | None = None,
    carts: dict[int, int] | None = None,
    centre_carts: int | None = None,
    stacks: dict[int, list[str | tuple[str, int]]] | None = None,
    finca_tiles: dict[int, int] | None = None,
    displays: dict[int, list[str | tuple[str, int]]] | None = None,
    used_action_tiles: dict[int, list[int]] | None = None,
    wooden_reserve: int | None = None,
    bonus_stack: list[int] | None = None,
    current_player: int = 0,
    phase: Phase = Phase.MAIN,
) -> FincaState:
    """A state in `phase` (MAIN by default) built from the given pieces.

    farmers: {player: {blade: count}}; fruits: {player: {fruit: count}}; stacks: {community: [tiles
    bottom-to-top]} where each tile is '2F+1A' or ('2F+1A', value); communities not named keep their
    seeded stacks; displays: {player: [tiles]}; used_action_tiles: {player: [tile index]}.
    """
    s = new_game(num_players, seed=seed)
    n = s.num_players
    s.intro_left = 0
    s.phase = int(phase)
    s.current_player = current_player
    catalogue = list(s.catalogue)

    def tile_id(spec: str | tuple[str, int]) -> int:
        text, value = (spec, None) if isinstance(spec, str) else spec
        fixed, wild, val = parse_tile(text, value)
        for t in catalogue:
            if t.fixed == fixed and t.wild == wild and t.value == val and t.tile_id not in used:
                used.add(t.tile_id)
                return t.tile_id
        new = C.FruitTile(len(catalogue), fixed, wild, val)
        catalogue.append(new)
        used.add(new.tile_id)
        return new.tile_id

    used: set[int] = set()
    if blades is not None:
        s.blades = list(blades)
    s.farmers = [[0] * C.NUM_BLADES for _ in range(n)]
    for p, where in (farmers or {}).items():
        for b, count in where.items():
            s.farmers[p][b] = count
    s.farmer_counts = [sum(s.farmers[p]) for p in range(n)]
    s.blade_total = [sum(s.farmers[p][b] for p in range(n)) for b in range(C.NUM_BLADES)]
    for p, held in (fruits or {}).items():
        s.fruits[p] = list(held) if isinstance(held, list) else [
            held.get(f, 0) for f in range(C.NUM_FRUITS)
        ]
    s.supply = list(supply) if supply is not None else [
        C.FRUITS_PER_TYPE - sum(s.fruits[p][f] for p in range(n)) for f in range(C.NUM_FRUITS)
    ]
    for p, count in (carts or {}).items():
        s.carts[p] = count
    s.centre_carts = (
        centre_carts if centre_carts is not None else s.carts_in_play - sum(s.carts)
    )
    # Tiles named by the scenario first, so that they get the catalogue ids they match.
    named_stacks = {c: [tile_id(t) for t in tiles] for c, tiles in (stacks or {}).items()}
    named_displays = {p: [tile_id(t) for t in tiles] for p, tiles in (displays or {}).items()}
    leftovers = [
        t for stack in s.stacks for t in stack if t not in used
    ] + [t for t in s.boxed if t not in used]
    leftovers += [t.tile_id for t in catalogue[C.NUM_FRUIT_TILES:] if t.tile_id not in used]
    pool = iter(leftovers)
    new_stacks = []
    for c in range(C.NUM_COMMUNITIES):
        if c in named_stacks:
            new_stacks.append(named_stacks[c])
        else:
            new_stacks.append([next(pool) for _ in range(C.TILES_PER_STACK)])
    s.stacks = new_stacks
    s.boxed = list(pool)
    s.catalogue = tuple(catalogue) if len(catalogue) > C.NUM_FRUIT_TILES else C.FRUIT_TILES
    s.displays = [named_displays.get(p, []) for p in range(n)]
    s.revealed = [False] * len(catalogue)
    for stack in s.stacks:
        if stack:
            s.revealed[stack[-1]] = True
    for d in s.displays:
        for t in d:
            s.revealed[t] = True
    if finca_tiles:
        order = list(s.finca_tile)
        for c, finca in finca_tiles.items():
            j = order.index(finca)
            order[j], order[c] = order[c], order[j]
        s.finca_tile = order
    for c, stack in enumerate(s.stacks):
        if not stack:  # an emptied community: finca tile resolved (removed), wooden finca placed
            s.wooden[c] = True
            s.fincas_removed.append(s.finca_tile[c])
            s.finca_tile[c] = -1
    s.wooden_reserve = (
        C.SETUP[n].wooden_fincas - sum(s.wooden) if wooden_reserve is None else wooden_reserve
    )
    for p, tiles in (used_action_tiles or {}).items():
        for t in tiles:
            s.unused[p][t] = False
    if bonus_stack is not None:
        s.bonus_stack = list(bonus_stack)
    from .rules import tally_display

    for p in range(n):
        values, printed, wild, points = tally_display(s.catalogue, s.displays[p])
        s.value_counts[p], s.printed[p] = values, printed
        s.wild_symbols[p], s.tile_points[p] = wild, points
    s.invalidate()
    return s


def scenario_dict(**kwargs: Any) -> dict[str, Any]:
    """`scenario(**kwargs).to_dict()`, handy for writing fixtures."""
    return scenario(**kwargs).to_dict()
