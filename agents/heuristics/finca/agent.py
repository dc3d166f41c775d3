"""The Finca heuristic agent: plays the best complete turn by `position_value`.

Introduction placements add a small preference for blades just before a dividing line (their
farmers earn carts when they move) and for fruit types not yet held.
"""

from __future__ import annotations

import numpy as np

from huerta.envs.core.view import PlayerView
from huerta.envs.finca.actions import Phase

from ...base import TurnPlanner
from .turns import complete_turns
from .value import position_value

_BEFORE_LINE = {4: 0.4, 5: 0.8, 10: 0.4, 11: 0.8}


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
