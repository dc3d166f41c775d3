"""Determinized Monte Carlo tree search (single-observer information-set MCTS), for any game.

Each iteration samples a full state consistent with what the acting player knows
(`view.determinize`), walks one shared tree of that player's information by UCT, choosing among
the actions legal in this sample (availability counts make the comparison fair), expands one new
action, plays a rollout (random, or the game's heuristic) and backs the rollout's per-player
result up the path, each edge crediting the player who chose it. Chance that the engine resolves
inside `apply` (tiles revealed, dice drawn from a stored sequence) is resampled by every
determinization; a chance event that the engine lists explicitly (`chance_outcomes`, in games
with an explicit-chance mode) is sampled with its listed probabilities and resolved with
`apply_chance` (an open-loop tree: the outcomes share the node below). The search never touches
hidden information except through `determinize`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from huerta.envs.core.engine import GameState
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.policies import game_sizes
from huerta.envs.core.view import PlayerView

from .base import Agent


def resolve_chance(state: GameState, rng: np.random.Generator) -> None:
    """Resolve every chance event `state` lists explicitly (explicit-chance mode), each outcome
    drawn from `rng` with its listed probability; a state that lists none is left as it is."""
    outcomes = state.chance_outcomes()
    while outcomes:
        weights = np.array([p for _, p in outcomes], dtype=float)
        pick = int(rng.choice(len(outcomes), p=weights / weights.sum()))
        state.apply_chance(outcomes[pick][0])
        outcomes = state.chance_outcomes()


class _Node:
    """Statistics of the edges leaving one node of the tree."""

    __slots__ = ("available", "children", "value", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0  # visits of the edge leading here
        self.value = 0.0  # summed reward of the player who chose that edge
        self.available = 0  # times that edge was legal when its parent was visited


class MCTSAgent(Agent):
    """ISMCTS with UCT selection.

    Options: `iterations` (default 200) or `seconds` (a time budget per decision, which wins
    when given), `max_seconds` (a hard cap on any decision, iterations or not: the web page
    sets it), `c` (exploration, default 1.4), `rollout` ("random" or "heuristic"),
    `rollout_steps` (a cap on rollout length; an unfinished rollout is scored by the rank of the
    current scores), `reward` (the terminal reward mode credited to each player, default "rank").
    Time is read from `clock` (`time.perf_counter`; a clock that jumps to infinity ends the
    search after the iteration under way: the web page's stop).
    """

    name = "mcts"
    needs_view = True
    reads_observation = False

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 200,
        seconds: float | None = None,
        max_seconds: float | None = None,
        c: float = 1.4,
        rollout: str = "random",
        rollout_steps: int = 400,
        reward: str = "rank",
        game: str | None = None,
    ) -> None:
        super().__init__(seed)
        if iterations < 1:
            raise InvalidConfigError(f"mcts iterations must be at least 1, got {iterations}")
        if rollout not in ("random", "heuristic"):
            raise InvalidConfigError(f"mcts rollout={rollout!r}; valid values: random, heuristic")
        self.iterations = iterations
        self.seconds = seconds
        self.max_seconds = max_seconds
        self.clock: Callable[[], float] = time.perf_counter
        self.c = c
        self.rollout = rollout
        self.rollout_steps = rollout_steps
        self.reward = reward
        if game is not None:
            game_sizes(game)  # an unknown game is refused now, naming the valid ones
        self.game = game
        self._rollout_agent: Any = None
        if rollout == "heuristic":
            from .heuristics import make_heuristic

            if game is None:
                raise InvalidConfigError("mcts with heuristic rollouts needs the game name")
            self._rollout_agent = make_heuristic(game, seed=seed)
        self.last_root: _Node | None = None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self._rollout_agent is not None:
            self._rollout_agent.reset(seed)

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if len(legal) == 1:
            return int(legal[0])
        if view is None:
            raise ValueError("MCTS needs the game view (needs_view=True)")
        root = _Node()
        limits = [t for t in (self.seconds, self.max_seconds) if t is not None]
        deadline = self.clock() + min(limits) if limits else None
        done = 0
        while True:
            self._iterate(root, view.determinize(self.rng))
            done += 1
            if deadline is not None and self.clock() >= deadline:
                break
            if self.seconds is None and done >= self.iterations:
                break
        self.last_root = root
        legal_set = {int(a) for a in legal}
        best = max(
            (a for a in root.children if a in legal_set),
            key=lambda a: (root.children[a].visits, root.children[a].value),
        )
        return int(best)

    # --- one iteration -------------------------------------------------------------------------
    def _iterate(self, root: _Node, state: GameState) -> None:
        path: list[tuple[_Node, int]] = []  # (edge node, player who chose it)
        node = root
        while not state.is_terminal:
            resolve_chance(state, self.rng)
            if state.is_terminal:
                break
            legal = np.flatnonzero(state.legal_mask())
            player = state.current_player
            untried = [int(a) for a in legal if int(a) not in node.children]
            for a in legal:
                child = node.children.get(int(a))
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[int(self.rng.integers(len(untried)))]
                child = _Node()
                child.available = 1
                node.children[action] = child
                state.apply(action)
                path.append((child, player))
                break
            action = self._select(node, legal)
            node = node.children[action]
            state.apply(action)
            path.append((node, player))
        rewards = self._rollout(state)
        for edge, player in path:
            edge.visits += 1
            edge.value += rewards[player]

    def _select(self, node: _Node, legal: np.ndarray) -> int:
        best, best_score = -1, -math.inf
        for a in legal:
            child = node.children[int(a)]
            score = child.value / child.visits + self.c * math.sqrt(
                math.log(max(child.available, 1)) / child.visits
            )
            if score > best_score:
                best, best_score = int(a), score
        return best

    def _rollout(self, state: GameState) -> list[float]:
        steps = 0
        agent = self._rollout_agent
        while not state.is_terminal and steps < self.rollout_steps:
            resolve_chance(state, self.rng)
            if state.is_terminal:
                break
            mask = state.legal_mask()
            if agent is None:
                legal = np.flatnonzero(mask)
                action = int(legal[int(self.rng.integers(len(legal)))])
            else:
                player = state.current_player
                obs = {"observation": None, "action_mask": mask}
                action = agent.decide(obs, PlayerView(state, player))
            state.apply(action)
            steps += 1
        if state.is_terminal:
            return state.rewards(self.reward)
        return state.rewards("rank")  # unfinished: rank by the scores so far
