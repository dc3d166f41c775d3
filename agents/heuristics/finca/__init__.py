"""A Finca strategy a decent human would recognise, as a one-turn lookahead.

Every complete turn open to the player (each move, each Double move and Gust of wind, each
delivery with every choice of wild fruit, tile order ignored; module `turns`) is played out on a
copy of the game and the resulting position is scored by `position_value` (module `value`); the
agent (`agent.FincaHeuristic`) plays the best. The package declares the `Heuristic` members
(`huerta.agents.heuristics.protocol`).
"""

from ..protocol import SearchSettings
from .agent import FincaHeuristic
from .turns import afterstate_turn, complete_turns
from .value import position_value, stalled

AGENT = FincaHeuristic
# chosen by 30-game trials of the search agent (README, the search agent)
SEARCH = SearchSettings(margin_scale=6.0, simulations=24, horizon=1, width=6)
solo_value = None  # Finca has no solo game

__all__ = [
    "AGENT", "SEARCH", "FincaHeuristic", "afterstate_turn", "complete_turns", "position_value",
    "solo_value", "stalled",
]
