"""Self-play opponents: a pool of the learner's earlier snapshots, the heuristic and random.

`SelfPlayEnv` is the single-agent environment whose opponents are drawn anew every episode from
the pool with documented weights (`PoolWeights`): a snapshot of the learner (uniformly among the
saved ones), the game's heuristic, or the random agent. Snapshots are MaskablePPO `.zip` files in
a folder that the trainer fills as it learns; every environment process sees new files at its next
reset and keeps each snapshot it has drawn, read once into numpy (its policy network alone). A
snapshot that cannot be loaded (a file damaged by a crash of an older version) is named in a
warning and left out of the draw.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from huerta.agents import RandomAgent, make_agent
from huerta.agents.base import Agent
from huerta.agents.heuristics import HEURISTICS
from huerta.envs.core.single_agent import SingleAgentEnv
from huerta.envs.core.view import PlayerView

from .policy_arrays import policy_network


@dataclass
class PoolWeights:
    """Sampling weights of the opponent kinds; a kind that is unavailable (no snapshot yet, no
    heuristic for the game) has its weight shared out over the others in proportion.

    The heuristic searches every turn: one of its decisions costs as much as hundreds of batched
    snapshot decisions, so at weight 0.3 it took most of a run's time (`huerta bench --train`).
    It sits at one episode in ten, where it still shows the learner a planned game."""

    snapshot: float = 0.7
    heuristic: float = 0.1
    random: float = 0.2


class BatchedPolicy:
    """A policy network's action probabilities for a batch of observations and masks.

    The network is a MaskablePPO model's policy read into numpy (`policy_arrays.policy_network`: a
    few matrix products, no torch call per move) or a `PolicyNetwork` itself, whose
    `probabilities`, `sample` and `greedy` this passes on: the training opponents and the
    `learned` agents draw their moves with the same code.
    """

    def __init__(self, model: Any) -> None:
        if hasattr(model, "policy"):  # a MaskablePPO model: its policy, read once
            model = policy_network(model)
        self.network = model

    def logits(self, observations: np.ndarray) -> np.ndarray:
        return self.network.logits(observations)

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return self.network.probabilities(observations, masks)

    def sample(
        self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator
    ) -> np.ndarray:
        """One legal action per row, drawn from the policy's masked probabilities."""
        return self.network.sample(observations, masks, rng)

    def greedy(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Each row's most likely legal action (what `deterministic=True` plays)."""
        return self.network.greedy(observations, masks)


class SnapshotAgent(Agent):
    """A frozen snapshot of the learner playing an opponent seat (masked, sampled actions):
    a MaskablePPO model or its policy network already read (`BatchedPolicy`)."""

    name = "snapshot"

    def __init__(self, model: Any, seed: int | None = None, deterministic: bool = False):
        super().__init__(seed)
        self.player = model if isinstance(model, BatchedPolicy) else BatchedPolicy(model)
        self.network = self.player.network
        self.deterministic = deterministic

    @property
    def batch_key(self) -> tuple[int, bool]:
        """Snapshots of one network (and one way of playing it) decide their games together."""
        return id(self.network), self.deterministic

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One action per row, as `decide` would play them one at a time from this agent's
        generator (the batched env's `BatchPolicy`)."""
        if self.deterministic:
            return self.player.greedy(observations, masks)
        return self.player.sample(observations, masks, self.rng)

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        obs = observation["observation"][None]
        mask = observation["action_mask"][None]
        if self.deterministic:
            return int(self.player.greedy(obs, mask)[0])
        return int(self.player.sample(obs, mask, self.rng)[0])


class OpponentPool:
    """Draws opponents for one environment process; loads snapshots lazily (LRU of `cache`).

    A snapshot is kept as its policy network in numpy (a few MB; no optimiser state, value head
    or rollout buffer), so the whole pool of a long run stays loaded: reloading evicted
    snapshots cost time, and keeping their torch policies cost memory."""

    def __init__(
        self, game: str, pool_dir: Path | None, weights: PoolWeights, cache: int = 256
    ) -> None:
        self.game = game
        self.pool_dir = pool_dir
        self.weights = weights
        self.cache_size = cache
        self._loaded: dict[Path, BatchedPolicy] = {}
        self._unreadable: set[Path] = set()
        self.heuristic = make_agent("heuristic", game=game) if game in HEURISTICS else None
        self.random = RandomAgent()

    def snapshots(self) -> list[Path]:
        """The snapshot files saved so far, oldest first."""
        if self.pool_dir is None or not self.pool_dir.exists():
            return []
        return sorted(p for p in self.pool_dir.glob("snapshot_*.zip")
                      if p not in self._unreadable)

    def draw(self, rng: np.random.Generator) -> tuple[str, Agent]:
        """(kind, agent) for one opponent seat."""
        snapshots = self.snapshots()
        kinds = []
        if snapshots and self.weights.snapshot > 0:
            kinds.append(("snapshot", self.weights.snapshot))
        if self.heuristic is not None and self.weights.heuristic > 0:
            kinds.append(("heuristic", self.weights.heuristic))
        if self.weights.random > 0 or not kinds:
            kinds.append(("random", max(self.weights.random, 1e-9)))
        total = sum(w for _, w in kinds)
        kind = kinds[int(rng.choice(len(kinds), p=[w / total for _, w in kinds]))][0]
        if kind == "snapshot":
            path = snapshots[int(rng.integers(len(snapshots)))]
            player = self._load(path)
            if player is None:
                return self.draw(rng)  # drawn again without it
            return f"snapshot:{path.stem}", SnapshotAgent(player)
        if kind == "heuristic":
            return "heuristic", self.heuristic
        return "random", self.random

    def _load(self, path: Path) -> BatchedPolicy | None:
        """The snapshot's batched player, or None (with a warning) when the file cannot be
        loaded."""
        if path not in self._loaded:
            from sb3_contrib import MaskablePPO

            try:
                model = BatchedPolicy(MaskablePPO.load(str(path), device="cpu"))
            except Exception as exc:  # any damage: a bad zip, a bad member, a bad pickle
                self._unreadable.add(path)
                warnings.warn(f"opponent pool: cannot load {path} ({type(exc).__name__}: "
                              f"{exc}); left out of the draw", RuntimeWarning, stacklevel=2)
                return None
            if len(self._loaded) >= self.cache_size:
                self._loaded.pop(next(iter(self._loaded)))
            self._loaded[path] = model
        return self._loaded[path]


class SelfPlayEnv(SingleAgentEnv):
    """`SingleAgentEnv` whose opponents are redrawn from an `OpponentPool` every episode.

    The learner's seat is random per episode; `info["opponents"]` names who sat where.
    """

    def __init__(
        self,
        game: str,
        num_players: int = 2,
        pool_dir: str | Path | None = None,
        weights: PoolWeights | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(game=game, num_players=num_players, opponents="random",
                         agent_codes=make_agent, **kwargs)
        self.pool = OpponentPool(
            self.game_spec.name, Path(pool_dir) if pool_dir else None, weights or PoolWeights()
        )
        self.opponent_kinds: list[str] = []

    def _draw_opponents(self, rng: np.random.Generator) -> None:
        drawn = [self.pool.draw(rng) for _ in range(self.num_players - 1)]
        self.opponent_kinds = [kind for kind, _ in drawn]
        self.opponents = [agent for _, agent in drawn]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = super().reset(seed=seed, options=options)
        info["opponents"] = list(self.opponent_kinds)
        return obs, info

    def step(self, action: int):
        obs, reward, terminated, truncated, info = super().step(action)
        info["opponents"] = list(self.opponent_kinds)
        return obs, reward, terminated, truncated, info
