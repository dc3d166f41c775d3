"""A Finca strategy a decent human would recognise, as a one-turn lookahead.

Every complete turn open to the player (each move, each Double move and Gust of wind, each
delivery with every choice of wild fruit, tile order ignored) is played out on a copy of the
game and the resulting position is scored by `position_value`:

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

Introduction placements add a small preference for blades just before a dividing line (their
farmers earn carts when they move) and for fruit types not yet held.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from huerta.envs.core.view import PlayerView
from huerta.envs.finca import components as C
from huerta.envs.finca.actions import COMM0, FRUIT0, Phase
from huerta.envs.finca.rules import score
from huerta.envs.finca.state import FincaState

from ..base import TurnPlanner

MAX_LEAVES = 3000  # complete turns examined per decision, a bound for pathological hands
_BEFORE_LINE = {4: 0.4, 5: 0.8, 10: 0.4, 11: 0.8}
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


def complete_turns(
    state: FincaState, me: int, limit: int = MAX_LEAVES
) -> Iterator[tuple[list[int], FincaState]]:
    """Every distinct way to finish `me`'s current turn: (actions, resulting state).

    Deliveries add communities in increasing order after the first one (the order of tiles in a
    delivery changes nothing, except that One fruit less reduces the first tile).
    """
    count = 0
    stack: list[tuple[list[int], FincaState]] = [([], state)]
    while stack:
        actions, s = stack.pop()
        if s.terminal or s.current_player != me or (actions and s.phase == Phase.INTRO):
            count += 1
            yield actions, s
            if count >= limit:
                return
            continue
        selected = [c for c, _, _ in s.selected]
        for action in np.flatnonzero(s.legal_mask()):
            action = int(action)
            if (
                s.phase == Phase.DELIVER_SELECT
                and COMM0 <= action < FRUIT0
                and len(selected) >= 2
                and action - COMM0 < selected[-1]
            ):
                continue
            child = s.clone()
            child.apply(action)
            stack.append(([*actions, action], child))


def afterstate_turn(
    state: FincaState, me: int, judge: Callable[[list[FincaState]], np.ndarray],
    rng: np.random.Generator | None = None,
) -> list[int]:
    """The complete turn of `me` whose resulting position `judge` (the positions of every
    complete turn -> a value each) rates best: this module's one-turn search with another
    evaluation (the learned afterstate agent's, `huerta.agents.afterstate`). Finca's turns hold
    no chance once the state is determinized, so `rng` is not needed. Empty when the turn has
    no action to choose."""
    turns = list(complete_turns(state, me))
    if not turns:
        return []
    values = judge([result for _, result in turns])
    return turns[int(np.argmax(values))][0]


class FincaHeuristic(TurnPlanner):
    """Plays the best complete turn by `position_value`; ties go to the agent's generator."""

    name = "heuristic"
    title = "the Finca heuristic"
    game = "finca"

    def __init__(self, seed: int | None = None, **options) -> None:
        super().__init__(seed, **options)
        self.first_values: dict[int, float] = {}  # last decision: best value per first action

    def plan_turn(self, view: PlayerView, legal: np.ndarray) -> list[int]:
        state = view.determinize(self.rng)  # Finca hides only face-down tiles
        me = view.player
        best_value, best_actions = -np.inf, []
        firsts: dict[int, float] = {}
        self.first_values = firsts
        for actions, result in complete_turns(state, me):
            value = position_value(result, me)
            if state.phase == Phase.INTRO:
                blade = actions[0]
                value += _BEFORE_LINE.get(blade, 0.0)
                if state.fruits[me][state.blades[blade]] == 0:
                    value += 0.3
            value += self.rng.random() * 1e-6  # random tie-break
            if actions and value > firsts.get(actions[0], -np.inf):
                firsts[actions[0]] = value
            if value > best_value:
                best_value, best_actions = value, actions
        return best_actions
