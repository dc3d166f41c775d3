"""The complete turns of a Finca player (`complete_turns`), and the afterstate agent's search
over them (`afterstate_turn`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from huerta.envs.finca.actions import COMM0, FRUIT0, Phase
from huerta.envs.finca.state import FincaState

MAX_LEAVES = 3000  # complete turns examined per decision, a bound for pathological hands


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


