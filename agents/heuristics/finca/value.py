"""The Finca heuristic's value of a position (`position_value`), and the locked windmill it
must avoid (`stalled`). A position is worth, in points:

- points already earned (fruit tiles, finca tiles, bonus tiles, unused action tiles);
- fruit that brings face-up tiles within reach, weighted by the tile's value (plan deliveries
  toward reachable tiles);
- donkey carts, the first two worth most (a delivery needs one; use carts well);
- progress toward the next complete 1-6 set while a bonus tile is left (chase bonus sets);
- finca majorities, weighted by how close the community is to being emptied;
- a decisive bonus for ending the game in the lead, and a penalty for ending it behind;
- a heavy penalty for a locked windmill: with 3 or 4 players there are 12 farmers for 12 blades,
  and once all of them stand on one blade every move carries its farmer all the way round, back
  to the same blade, so no one gathers anything new; only a Gust of wind unlocks it (without
  this term four heuristics locked it in the introduction in 9 of 60 games, which then never
  ended).
"""

from __future__ import annotations

from huerta.envs.finca import components as C
from huerta.envs.finca.rules import score
from huerta.envs.finca.state import FincaState

LOCK_PENALTY = 25.0  # points: more than any turn gains, so a lock is never made and soon broken


def stalled(state: FincaState) -> bool:
    """Whether the windmill is locked: every farmer on one blade (12 farmers for 12 blades at 3
    and 4 players), so every move carries its farmer all the way round and back and no one
    gathers anything new until a Gust of wind. Left alone, such a game never ends."""
    return max(state.blade_total) == C.NUM_BLADES


def position_value(state: FincaState, me: int) -> float:
    """How good `state` is for seat `me`, in points (see the module docstring)."""
    if state.terminal:
        keys = state.ranking_keys()
        mine = keys[me]
        best_other = max(k for p, k in enumerate(keys) if p != me)
        return 1000.0 if mine > best_other else (0.0 if mine == best_other else -1000.0)
    value = float(score(state, me))
    if stalled(state):
        value -= LOCK_PENALTY
    fruits = state.fruits[me]
    catalogue = state.catalogue
    reach = 0.0
    for stack in state.stacks:
        if not stack:
            continue
        tile = catalogue[stack[-1]]
        have = sum(min(fruits[f], n) for f, n in enumerate(tile.fixed))
        if tile.wild:
            spare = max(fruits[f] - tile.fixed[f] for f in range(C.NUM_FRUITS))
            have += min(max(spare, 0), tile.wild)
        coverage = have / tile.size
        reach = max(reach, tile.value * coverage * coverage)
    value += 0.6 * reach
    carts = state.carts[me]
    value += 1.6 * min(carts, 2) + 0.3 * max(carts - 2, 0)
    value += 0.1 * min(sum(fruits), 14)
    if state.bonus_stack:
        sets = min(state.value_counts[me])
        progress = sum(1 for n in state.value_counts[me] if n > sets)
        value += state.bonus_stack[-1] * (progress / 6.0) ** 2 * 0.8
    for c, finca in enumerate(state.finca_tile):
        if finca < 0:
            continue
        stack = state.stacks[c]
        finca_tile = C.FINCA_TILES[finca]
        counts = (
            state.tile_points
            if finca_tile.universal
            else [sum(state.printed[p][f] for f in finca_tile.fruits) for p in
                  range(state.num_players)]
        )
        mine = counts[me]
        best_other = max(n for p, n in enumerate(counts) if p != me)
        urgency = 1.0 - (len(stack) - 1) / 4.0
        if mine > best_other:
            value += C.FINCA_TILE_POINTS * 0.8 * urgency
        elif mine == best_other and mine > 0:
            value += 0.5 * urgency
    return value


