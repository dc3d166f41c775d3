"""Training's own per-game facts: each game's default training method per player count and its
self-play opponent weights, where they differ from the library's defaults, chosen by the
measurements on the results pages (Training). A game not listed trains with PPO and the
`PoolWeights` defaults, so a new game needs no line here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TrainingFacts:
    """How `huerta train` and `huerta main` treat one game by default."""

    # player count -> `huerta train`'s default method where it is not "ppo" ("afterstate": the
    # heuristic's search with a learned value; "cem": the Alpujarras solo value's constants
    # learned against Zara)
    methods: Mapping[int, str] = field(default_factory=dict)
    # self-play opponent-pool weights (kind -> weight) where the game's differ from
    # `huerta.training.selfplay.PoolWeights`
    pool: Mapping[str, float] = field(default_factory=dict)


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
    ),
}


def training_facts(game: str) -> TrainingFacts:
    """`game`'s training facts (the defaults for a game not listed)."""
    return GAMES.get(game, TrainingFacts())


def default_method(game: str, players: int) -> str:
    """`huerta train`'s method for `game` at `players` when none is asked for."""
    return training_facts(game).methods.get(players, "ppo")
