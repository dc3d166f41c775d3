"""What a game's heuristic package declares, so that the search and afterstate agents (and the
afterstate training) type against one interface instead of probing a module for names.

A game's heuristic lives in `huerta.agents.heuristics.<game>` (found by the game's name, see
`huerta.agents.heuristics`); the package satisfies `Heuristic`: the agent class, the search
agent's settings, and the hand-written values and turn search the other agents reuse. A member a
game has no use for is None (Finca has no solo value, Mi Tierra no afterstate turn search), so
every member is present and a caller asks `module.solo_value is None`, not `hasattr`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

# (state, seat) -> how good `state` is for `seat`, in the game's points
PositionValue = Callable[[Any, int], float]
# state of a solo game -> the log of the chance that its player wins
SoloValue = Callable[[Any], float]
# state -> whether the game can no longer go on (Finca's locked windmill)
Stalled = Callable[[Any], bool]
# (positions) -> a value each: how the afterstate agent rates the ends of the turns it searches
Judge = Callable[[list[Any]], np.ndarray]
# (state, seat, judge, rng) -> the actions of the complete turn `judge` rates best
AfterstateTurn = Callable[[Any, int, Judge, np.random.Generator], list[int]]
# (state, seat) -> every complete turn open to `seat`: (actions, resulting state)
CompleteTurns = Callable[..., Iterator[tuple[list[int], Any]]]


@dataclass(frozen=True)
class SearchSettings:
    """The search agent's tuning for one game (`huerta.agents.search`), declared beside the
    game's heuristic (its package's `SEARCH`): settings of the agent, not rules of the game."""

    # points of margin that make a 73% (e^1 : 1) win chance: about a turn's gain
    margin_scale: float
    simulations: int  # simulations per decision
    horizon: int  # turns of this player simulated after the current one (0: to the game's end)
    width: int  # candidates compared: the heuristic's choice and its width - 1 next best


class HeuristicAgent(Protocol):
    """A game's heuristic agent as the search agent drives it: an agent that plans whole turns
    (`plan`: the rest of its turn, emptied to make it plan afresh) and keeps the value it gave
    each first action of its last decision (`first_values`, a fresh dict per planned decision,
    empty where it valued none)."""

    first_values: dict[int, float]
    plan: list[int]

    def decide(self, observation: dict[str, np.ndarray], view: Any = None) -> int: ...

    def reset(self, seed: int | None = None) -> None: ...


@runtime_checkable
class Heuristic(Protocol):
    """The members of a game's heuristic package (`huerta.agents.heuristics.<game>`).

    - `AGENT`: the hand-written agent (a `HeuristicAgent`), `AGENT(seed=..., **options)`;
    - `SEARCH`: the search agent's settings for the game, None where it has no search agent;
    - `position_value(state, seat)`: how good a position is for a seat, in points (the search
      agent scores its cut-off simulations with it, the afterstate agent takes it as its prior);
    - `solo_value(state)`: a solo game's log win chance, None for a game without a solo game;
    - `stalled(state)`: whether a position can no longer go on, None where none can stall;
    - `complete_turns(state, seat)`: the complete turns the heuristic chooses among;
    - `afterstate_turn(state, seat, judge, rng)`: the heuristic's turn search with positions
      rated by `judge` (the afterstate agent's), None for a game without one.
    """

    AGENT: Callable[..., HeuristicAgent]
    SEARCH: SearchSettings | None
    position_value: PositionValue
    solo_value: SoloValue | None
    stalled: Stalled | None
    complete_turns: CompleteTurns | None
    afterstate_turn: AfterstateTurn | None

