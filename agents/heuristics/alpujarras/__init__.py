"""An Alpujarras strategy a decent human would recognise, as a one-turn lookahead.

The sensible complete turns open to the player are played out on a copy of the game
(`view.determinize`: the crop bag's order and the die rolls resampled from public facts) and the
position after each is scored by a value function; the agent plays the best turn and keeps its
plan for the turn's later decisions (keyed by player and game step, so that one agent object can
play every seat, as MCTS rollouts do). Turns that irrigate a field are planned again once the
crop token drawn is known. One agent serves every player count: `view.num_players == 1` is the
solo game against Zara.

The package declares the `Heuristic` members (`huerta.agents.heuristics.protocol`), one concern
a module: `value` (the multiplayer plan, `position_value`), `solo` (the solo plan,
`solo_value`), `track` (what lies ahead on the track, read by both), `turns` (the turns
searched, and the afterstate agent's search over them) and `agent` (`AlpujarrasHeuristic`).
"""

from ..protocol import SearchSettings
from .agent import AlpujarrasHeuristic
from .solo import SOLO, SoloWeights, solo_value
from .track import TrackFacts, track_facts
from .turns import afterstate_turn, complete_turns, fruit_need, spend_turns
from .value import DEFAULT, Weights, delivery_potential, goal_progress, position_value

AGENT = AlpujarrasHeuristic
# chosen by 30-game trials of the search agent (README, the search agent)
SEARCH = SearchSettings(margin_scale=4.0, simulations=24, horizon=1, width=4)
stalled = None  # every Alpujarras position goes on

__all__ = [
    "AGENT", "DEFAULT", "SEARCH", "SOLO", "AlpujarrasHeuristic", "SoloWeights", "TrackFacts",
    "Weights", "afterstate_turn", "complete_turns", "delivery_potential", "fruit_need",
    "goal_progress", "position_value", "solo_value", "spend_turns", "stalled", "track_facts",
]
