"""The Alpujarras heuristic agent: plays the best complete turn by the position value (solo: the
solo value), keeping its plan for the turn's later decisions.

**Speed** (the heuristic is a self-play training opponent): a multiplayer turn is valued just
before its END_TURN, which elsewhere than on the end track changes nothing the value reads; what
the turn cannot change (`TurnFacts`: the track's facts, the other seats' farmers, the towns'
tokens and the goals that read tokens until the player delivers) is worked out once per decision,
and the deliveries, fruit and majorities part of the value once per distinct mule position, fruit
and farmers. A multiplayer decision typically takes 3-5 ms of one core in self-play (2-4
players) and 10-20 ms against random seats (2-4 players; their games leave the heuristic more
farmers and channels to choose from), a solo one about 35 ms.
"""

from __future__ import annotations

import numpy as np

from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras.actions import (
    END_TURN,
    Phase,
)
from huerta.envs.alpujarras.state import AlpujarrasState
from huerta.envs.core.view import PlayerView

from ...base import TurnPlanner
from .solo import SOLO, SoloWeights, solo_value
from .turns import ROLL_SAMPLES, SPEND_BEAM, complete_turns, fruit_need, spend_turns, until_chance
from .value import DEFAULT, TurnFacts, Weights, position_value

_P_ACTION = int(Phase.ACTION)


class AlpujarrasHeuristic(TurnPlanner):
    """Plays the best complete turn by `position_value` (solo: `solo_value`); ties go to the
    agent's generator. Serves every player count, the solo game included."""

    name = "heuristic"
    title = "the Alpujarras heuristic"
    game = "alpujarras"

    def __init__(self, seed: int | None = None, weights: Weights = DEFAULT,
                 solo_weights: SoloWeights = SOLO, **options) -> None:
        super().__init__(seed, **options)
        self.weights = weights
        self.solo_weights = solo_weights
        self.first_values: dict[int, float] = {}  # last decision: best value per first action

    def _roll_samples(self, state: AlpujarrasState) -> list[list[int]]:
        """Die rolls to come, resampled `ROLL_SAMPLES` times, for the solo game: Zara's moves
        decide the stops before the next duty, so a turn is judged over several of her
        futures. Empty for multiplayer games (the 2-player die only blocks spaces)."""
        if not state.solo or not state.rolls:
            return []
        size = len(state.rolls)
        return [self.rng.integers(1, C.DIE_SIDES + 1, size=size).tolist()
                for _ in range(ROLL_SAMPLES)]

    def value(self, state: AlpujarrasState, me: int) -> float:
        """The value this agent gives `state` from seat `me`."""
        if state.solo:
            return solo_value(state, self.solo_weights)
        return position_value(state, me, self.weights)

    def _judge(self, actions: list[int], result: AlpujarrasState, me: int,
               samples: list[list[int]], value) -> float:
        """The value of a finished turn by `value(state, me)`. A turn given before its END_TURN
        is ended under every roll sample and the values averaged (solo); a multiplayer turn is
        ended only where the END_TURN changes what the value reads (the end track's sale and
        the game's end), since elsewhere it only hands the turn on and moves the die."""
        if actions[-1] == END_TURN and not result.terminal and result.phase == _P_ACTION:
            if samples:
                total = 0.0
                for rolls in samples:
                    after = result.clone()
                    after.rolls = list(rolls)
                    after.apply(END_TURN)
                    total += value(after, me)
                v = total / len(samples)
            elif result.solo or result.harvest_left or result.track.is_end[result.pos[me]]:
                after = result.clone()
                after.apply(END_TURN)
                v = value(after, me)
            else:
                v = value(result, me)
        else:
            v = value(result, me)
        return v + self.rng.random() * 1e-6  # random tie-break

    def best_turn(self, state: AlpujarrasState, me: int) -> tuple[float, list[int]]:
        """(value, actions) of the best complete turn from `state` (a determinized copy).

        Multiplayer turns are searched in two passes: every turn without optional noria spends,
        then the spends added to the `SPEND_BEAM` best of them. The solo game's trees are small
        and its spends decisive (swaps make deliveries), so it searches spends at once."""
        state.invalidate()  # the search never observes: clones need not copy the observation
        samples = self._roll_samples(state)
        solo = state.solo
        if solo:
            value = self.value
        else:
            turn = TurnFacts(state, me)
            weights = self.weights

            def value(s: AlpujarrasState, me: int) -> float:
                return position_value(s, me, weights, turn)
        need = fruit_need(state, me, value)
        before_end = not solo or bool(samples)
        scored = [
            (self._judge(actions, result, me, samples, value), actions)
            for actions, result in complete_turns(state.clone(), me, before_end=before_end,
                                                  need=need, spend=solo)
        ]
        firsts: dict[int, float] = {}
        self.first_values = firsts
        for v, actions in scored:
            if actions and v > firsts.get(actions[0], -np.inf):
                firsts[actions[0]] = v
        if not scored:
            return -np.inf, []
        scored.sort(key=lambda item: item[0], reverse=True)
        best_value, best_actions = scored[0]
        if solo:
            return best_value, best_actions
        for _, actions in scored[:SPEND_BEAM]:
            for spent, result in spend_turns(state, actions, me, need):
                v = self._judge(spent, result, me, samples, value)
                if v > firsts.get(spent[0], -np.inf):
                    firsts[spent[0]] = v
                if v > best_value:
                    best_value, best_actions = v, spent
        return best_value, best_actions

    def plan_turn(self, view: PlayerView, legal: np.ndarray) -> list[int]:
        state = view.determinize(self.rng)
        _, best_actions = self.best_turn(state, view.player)
        return until_chance(state, best_actions)

