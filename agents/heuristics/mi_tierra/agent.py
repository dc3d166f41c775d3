"""The Mi Tierra heuristic agent.

How it decides. Every decision is judged on a copy of the game from `view.determinize(self.rng)`
(so hidden cards are resampled, never read) by `position_value`, the player's holdings after the
rest of the current round is *projected*: the player's workers still on the board act in the
rules' order with expected dice (Forest, Sheep, Square, Crops, Cow, Henhouse, the factories,
Developments, the farm, the markets), and the projected holdings are priced by
`holdings_value` (modules `projection` and `holdings`).

A placement is the legal spot whose projected round adds most (a pair of workers must beat two
single workers); if none adds anything the player passes. Every other decision applies each
legal action to the copy and keeps the best value; a market turn is followed through its sale
and the whole line is kept as a plan, keyed by (player, view.steps) like Finca's, so MCTS
rollouts may call one agent for every seat. Single units — one more unit in a sale, one sale
or purchase at the Black Market — are judged directly by their margin over the good's marginal
value to keep (the difference `position_value` would see); a Studies re-roll by the average
value of the six faces against the face rolled; upkeep is paid while a worker beyond three
still earns more than its $2. A decision takes about a millisecond, rarely more than 20.
"""

from __future__ import annotations

import numpy as np

from huerta.envs.core.view import PlayerView
from huerta.envs.mi_tierra.actions import PASS, Decision
from huerta.envs.mi_tierra.state import MiTierraState

from ...base import TurnPlanner
from .holdings import Worths, rounds_left
from .turns import (
    MIN_PLACEMENT_GAIN,
    UNIT_DECISIONS,
    follow_line,
    placement_gains,
    unit_choice,
)
from .value import position_value


class MiTierraHeuristic(TurnPlanner):
    """Plays the best line by `position_value` on a determinized copy; ties go to the agent's
    generator."""

    name = "heuristic"
    title = "the Mi Tierra heuristic"
    game = "mi_tierra"

    def __init__(self, seed: int | None = None, **options) -> None:
        super().__init__(seed, **options)
        self.first_values: dict[int, float] = {}  # last decision: its value per action, if any

    def plan_turn(self, view: PlayerView, legal: np.ndarray) -> list[int]:
        state = view.determinize(self.rng)
        return self.choose(state, view.player, [int(a) for a in legal])

    def choose(self, state: MiTierraState, me: int, legal: list[int]) -> list[int]:
        """The line of actions to play from `state` (its first action is legal now)."""
        decision = state.decision
        self.first_values = {}
        if decision == Decision.PLACE:
            gains = placement_gains(state, me, legal)
            self.first_values = {a: gains[a] for a in legal if a in gains}
            noise = self.rng.random(len(legal)) * 1e-6  # random tie-break
            best = max(range(len(legal)), key=lambda k: gains[legal[k]] + noise[k])
            action = legal[best]
            return [action if gains[action] >= MIN_PLACEMENT_GAIN else PASS]
        w = Worths(rounds_left(state))
        if decision in UNIT_DECISIONS:
            return [unit_choice(state, me, legal, w)]
        noise = self.rng.random(len(legal)) * 1e-6
        best_value, best_line = -np.inf, [legal[0]]
        for k, action in enumerate(legal):
            line, child = follow_line(state, me, action, w)
            value = position_value(child, me, w) + noise[k]
            self.first_values[action] = value
            if value > best_value:
                best_value, best_line = value, line
        return best_line
