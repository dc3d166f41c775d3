"""Training's own per-game facts: each game's default training method per player count, its
self-play opponent weights and the demonstration's MCTS budget, where they differ from the
library's defaults, chosen by the measurements in the README (Training). A game not listed
trains with PPO, the `PoolWeights` defaults and a budget of `DEMO_MCTS_BUDGET`, so a new game
needs no line here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

DEMO_MCTS_BUDGET = 50  # MCTS iterations per decision in `huerta run`'s demonstration


@dataclass(frozen=True)
class TrainingFacts:
    """How `huerta train` and `huerta run` treat one game by default."""

    # player count -> `huerta train`'s default method where it is not "ppo" ("afterstate": the
    # heuristic's search with a learned value; "cem": the Alpujarras solo value's constants
    # learned against Zara)
    methods: Mapping[int, str] = field(default_factory=dict)
    # self-play opponent-pool weights (kind -> weight) where the game's differ from
    # `huerta.training.selfplay.PoolWeights`
    pool: Mapping[str, float] = field(default_factory=dict)
    # the demonstration's MCTS iterations per decision (`huerta run`): a game whose random
    # rollout is long gets fewer, to keep the run to a few minutes
    demo_mcts_budget: int = DEMO_MCTS_BUDGET


GAMES: dict[str, TrainingFacts] = {
    # `huerta train finca` learns the heuristic's value (66% against it, where PPO reached 44%)
    "finca": TrainingFacts(methods={2: "afterstate", 3: "afterstate", 4: "afterstate"}),
    "alpujarras": TrainingFacts(
        # `huerta train alpujarras` learns the heuristic's value (60% against it, where PPO
        # reached 20%), `huerta train alpujarras-solo` the solo value's constants (21% of the
        # deals against Zara, where PPO reached 5% and the heuristic wins 13-16%)
        methods={1: "cem", 2: "afterstate", 3: "afterstate", 4: "afterstate"},
        # the heuristic at one episode in a hundred, not ten: it searches every turn, and an
        # untrained learner hands it many turns in a row, so at 0.1 it took 89% of the training
        # time, while the learner lost every evaluation against it either way
        pool={"heuristic": 0.01, "random": 0.29},
        demo_mcts_budget=100,
    ),
    # a Mi Tierra rollout is a whole game of dice and markets, ~200 decisions
    "mi_tierra": TrainingFacts(demo_mcts_budget=10),
}


def training_facts(game: str) -> TrainingFacts:
    """`game`'s training facts (the defaults for a game not listed)."""
    return GAMES.get(game, TrainingFacts())


def default_method(game: str, players: int) -> str:
    """`huerta train`'s method for `game` at `players` when none is asked for."""
    return training_facts(game).methods.get(players, "ppo")
