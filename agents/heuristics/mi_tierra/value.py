"""The Mi Tierra heuristic's value of a position (`position_value`): the player's holdings after
the rest of the current round is projected (module `projection`), priced by `holdings_value`
(module `holdings`)."""

from __future__ import annotations

from huerta.envs.mi_tierra.rules import score
from huerta.envs.mi_tierra.state import MiTierraState

from .holdings import Worths, holdings_value
from .projection import project


def position_value(state: MiTierraState, me: int, w: Worths | None = None) -> float:
    """How good `state` is for seat `me`, in dollars: the final score once the game is over,
    else the value of the projected holdings (module docstring). A lookahead passes the `w` of
    the position it started from, so that a card revealed on the way does not change the
    prices it compares with."""
    if state.terminal:
        return float(score(state, me))
    return holdings_value(*project(state, me, w=w))
