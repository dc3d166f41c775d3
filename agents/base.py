"""The one agent interface for every game: observation dict in, legal action id out."""

from __future__ import annotations

import abc
from typing import Any

import numpy as np

from huerta.envs.core.policies import check_observation
from huerta.envs.core.view import PlayerView


class Agent:
    """Base class of huerta's agents.

    `act` receives the acting player's observation dict (`observation`, `action_mask`) and, only
    when `needs_view` is True (agents that search), a `PlayerView` of the game. `reset(seed)`
    reseeds the agent's own generator so that games are reproducible.

    `act` checks the observation first (`check_observation`: a dict with both keys, of the
    sizes of the agent's `game`, else of its model's `sizes`, else of the view's game; a legal
    action left; the game in view not over) and refuses one it cannot play with an
    `InvalidObservationError` naming the input and the reason; then `decide` chooses. A subclass
    implements `decide`; an agent that asks another (its rollouts, a delegate) calls that one's
    `decide` with what it has checked or built itself, so the check runs once a move.
    """

    name = "agent"
    title = ""  # how error messages name the agent; default "the NAME agent"
    needs_view = False
    reads_observation = True  # False: plays from the view; the vector may be left out
    game: str | None = None  # the game played, where known: the sizes `act` expects
    sizes: tuple[int, int] | None = None  # (observation size, actions) of a model of no game

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        self.options = options
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new game with a fresh generator seeded by `seed`."""
        self.rng = np.random.default_rng(seed)

    @property
    def label(self) -> str:
        """How messages name this agent: its `title`, else "the NAME agent" (and its game)."""
        if self.title:
            return self.title
        return f"the {self.name} agent" + (f" of {self.game}" if self.game else "")

    def act(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        """The action id to play; it must be unmasked in `observation["action_mask"]`. An
        observation the agent cannot play raises `InvalidObservationError` (see the class)."""
        checked = check_observation(observation, self.game, view, sizes=self.sizes,
                                    reads_observation=self.reads_observation, agent=self)
        return self.decide(checked, view)

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        """The action id to play from an observation `act` has checked (or one the caller
        built from a live state: a rollout's, whose vector may be None where the agent plays
        from the view)."""
        raise NotImplementedError(f"{type(self).__name__} implements neither decide nor act")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class TurnPlanner(Agent, abc.ABC):
    """An agent that plans a whole turn at its first decision and plays the rest as planned
    (the heuristics and the afterstate agent): `plan_turn(view, legal)` gives the turn's
    actions, the first one to play now; the plan goes on while the same player acts at the next
    step and its next action is legal, and is made afresh otherwise. A decision with one legal
    action is played without planning; an empty plan, or one whose first action is illegal,
    plays a random legal action."""

    needs_view = True
    reads_observation = False

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed, **options)
        self.plan: list[int] = []
        self.plan_key: tuple[int, int] = (-1, -1)  # (player, game step) the plan continues from

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.plan = []

    @abc.abstractmethod
    def plan_turn(self, view: PlayerView, legal: np.ndarray) -> list[int]:
        """The actions to play from this decision on (the first one now)."""

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        mask = observation["action_mask"]
        if view is None:
            raise ValueError(f"{self.label} needs the game view (needs_view=True)")
        if self.plan and self.plan_key == (view.player, view.steps) and mask[self.plan[0]]:
            self.plan_key = (view.player, view.steps + 1)
            return self.plan.pop(0)
        self.plan = []
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        plan = self.plan_turn(view, legal)
        if not plan or not mask[plan[0]]:
            return int(legal[self.rng.integers(len(legal))])
        self.plan = list(plan[1:])
        self.plan_key = (view.player, view.steps + 1)
        return int(plan[0])
