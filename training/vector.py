"""Self-play games stepped together in one process, with the opponents' networks run in batches.

`SelfPlayVecEnv` is a stable-baselines3 `VecEnv` over `n_envs` games held as engine states (no
AEC or Gymnasium layer in between). A step plays every learner's action, then the opponents of
all games until each game is back at its learner's turn or over: at each round every game whose
opponent is to move gives one decision, and the decisions of opponents that are the same
network (a snapshot of the learner) are taken in one batched forward pass, so a snapshot costs
one matrix product per round for all games, not one forward pass per move. Random opponents
draw from the mask; the heuristic is asked per game (it searches, and costs what it costs).

It is what `huerta train` steps by default: the same episodes as `SelfPlayEnv` (a random learner
seat, opponents drawn per episode from `OpponentPool`'s weights, win/loss reward plus
potential-based shaping), without a process or a Python env wrapper per game. `BatchedPolicy`
is the batched network player; `SnapshotAgent` (one observation at a time) plays the same
probabilities, which tests/training/test_vector.py checks.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from huerta.envs.core.policies import policy_action
from huerta.envs.core.registry import get_game
from huerta.envs.core.rewards import check_reward_mode
from huerta.envs.core.validation import check_game_options, check_max_steps

from .selfplay import OpponentPool, PoolWeights, SnapshotAgent


class _Game:
    """One slot of the vector: a game in progress and who plays which seat."""

    __slots__ = ("kinds", "learner", "length", "opponents", "potential", "ret", "state")

    def __init__(self) -> None:
        self.state: Any = None
        self.learner = 0
        self.opponents: list[Any] = []  # per seat: None (learner) or the opponent
        self.kinds: list[str] = []
        self.potential = 0.0
        self.ret = 0.0
        self.length = 0


class SelfPlayVecEnv(VecEnv):
    """`n_envs` self-play games in one process (a stable-baselines3 VecEnv; see module doc).

    Args:
        game, num_players: the game (a registered name) and seats at the table.
        n_envs: games stepped together.
        pool_dir, weights: the opponent pool (snapshot files, heuristic, random) and its weights.
        seed: the seed of every draw (learner seats, opponents, games, opponents' sampling).
        reward, shaping, max_steps, game options: as for `SingleAgentEnv`.
    """

    def __init__(
        self,
        game: str,
        num_players: int = 2,
        n_envs: int = 8,
        pool_dir: str | Path | None = None,
        weights: PoolWeights | None = None,
        seed: int = 0,
        reward: str = "win_loss",
        shaping: float = 0.0,
        max_steps: int | None = None,
        **game_options: Any,
    ) -> None:
        self.spec = get_game(game)
        self.num_players = self.spec.check_players(num_players)
        self.game_options = check_game_options(game, game_options, self.spec.options, ())
        self.reward_mode = check_reward_mode(reward)
        self.shaping = float(shaping)
        self.max_steps = check_max_steps(max_steps, self.spec.default_max_steps)
        self.pool = OpponentPool(self.spec.name, Path(pool_dir) if pool_dir else None,
                                 weights or PoolWeights())
        self.rng = np.random.default_rng(seed)
        observation_space = spaces.Box(0.0, 1.0, (self.spec.observation_size,), np.float32)
        action_space = spaces.Discrete(self.spec.num_actions)
        super().__init__(n_envs, observation_space, action_space)
        self.games = [_Game() for _ in range(n_envs)]
        self._obs = np.zeros((n_envs, self.spec.observation_size), dtype=np.float32)
        self._actions: np.ndarray | None = None
        self.timing = {"env": 0.0, "opponents": 0.0}  # seconds spent, for `huerta bench --train`

    # --- the VecEnv interface ------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        for game in self.games:
            self._new_episode(game)
        self._play_opponents(range(self.num_envs))
        for i, game in enumerate(self.games):
            game.potential = self._potential(game)
            self._write_obs(i)
        return self._obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        assert self._actions is not None, "step_wait() before step_async()"
        started = time.perf_counter()
        for game, action in zip(self.games, self._actions, strict=True):
            game.state.apply(int(action))
            game.length += 1
        self.timing["env"] += time.perf_counter() - started
        self._play_opponents(range(self.num_envs))
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        restarted = []
        for i, game in enumerate(self.games):
            state = game.state
            terminated = state.is_terminal
            truncated = not terminated and state.steps >= self.max_steps
            reward = float(state.rewards(self.reward_mode)[game.learner]) if terminated else 0.0
            if self.shaping:
                potential = self._potential(game)
                reward += potential - game.potential
                game.potential = potential
            rewards[i] = reward
            game.ret += reward
            if terminated or truncated:
                dones[i] = True
                infos[i] = self._final_info(i, game, truncated)
                self._new_episode(game)
                restarted.append(i)
        if restarted:
            self._play_opponents(restarted)
            for i in restarted:
                self.games[i].potential = self._potential(self.games[i])
        for i in range(self.num_envs):
            self._write_obs(i)
        self._actions = None
        return self._obs.copy(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """Every game's legal actions for its learner, one row per game."""
        return np.stack([game.state.legal_mask() for game in self.games])

    def close(self) -> None:
        pass

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any):
        if method_name == "action_masks":
            return list(self.action_masks()[self._indices(indices)])
        raise AttributeError(f"SelfPlayVecEnv has no env method {method_name!r}")

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None for _ in self._indices(indices)]
        raise AttributeError(f"SelfPlayVecEnv has no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"SelfPlayVecEnv has no settable attribute {attr_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def seed(self, seed: int | None = None) -> list[int | None]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        return [seed for _ in range(self.num_envs)]

    def get_images(self) -> list[Any]:
        return [None for _ in range(self.num_envs)]

    # --- episodes --------------------------------------------------------------------------------
    def _new_episode(self, game: _Game) -> None:
        rng = self.rng
        n = self.num_players
        game.learner = int(rng.integers(n))
        drawn = [self.pool.draw(rng) for _ in range(n - 1)]
        others = iter(drawn)
        seats = [None if seat == game.learner else next(others) for seat in range(n)]
        game.kinds = [kind for kind, _ in drawn]
        game.opponents = [None if s is None else s[1] for s in seats]
        seed = int(rng.integers(2**63 - 1))
        game.state = self.spec.new_game(n, seed=seed, **self.game_options)
        for agent in game.opponents:
            if agent is not None and hasattr(agent, "reset"):
                agent.reset(seed=int(rng.integers(2**63 - 1)))
        game.ret = 0.0
        game.length = 0

    def _potential(self, game: _Game) -> float:
        return self.shaping * game.state.shaping_potential(game.learner) if self.shaping else 0.0

    def _final_info(self, i: int, game: _Game, truncated: bool) -> dict[str, Any]:
        state = game.state
        winners = state.winners() if state.is_terminal else []
        return {
            "terminal_observation": state.observe(game.learner).copy(),
            "TimeLimit.truncated": truncated,
            "episode": {"r": game.ret, "l": game.length, "t": 0.0},
            "is_winner": game.learner in winners,
            "scores": list(state.scores()),
            "opponents": list(game.kinds),
        }

    def _write_obs(self, i: int) -> None:
        game = self.games[i]
        game.state.observe(game.learner, self._obs[i])

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)

    # --- opponents -------------------------------------------------------------------------------
    def _play_opponents(self, slots: Any) -> None:
        """Play the opponents of the games in `slots` until each is at its learner's turn or
        over, one decision per game per round, snapshot decisions batched by network."""
        waiting = [i for i in slots if self._opponent_to_move(self.games[i])]
        while waiting:
            started = time.perf_counter()
            by_network: dict[int, list[int]] = {}
            decided: list[tuple[int, int]] = []
            for i in waiting:
                game = self.games[i]
                state = game.state
                agent = game.opponents[state.current_player]
                if isinstance(agent, SnapshotAgent):
                    by_network.setdefault(id(agent.network), []).append(i)
                elif agent is self.pool.random:
                    legal = np.flatnonzero(state.legal_mask())
                    decided.append((i, int(legal[self.rng.integers(len(legal))])))
                else:
                    seat = state.current_player
                    obs = {"observation": state.observe(seat),
                           "action_mask": state.legal_mask().astype(np.int8)}
                    decided.append((i, policy_action(agent, state, seat, obs)))
            for members in by_network.values():
                first = self.games[members[0]]
                player = first.opponents[first.state.current_player].player
                observations = np.stack([
                    self.games[i].state.observe(self.games[i].state.current_player)
                    for i in members
                ])
                masks = np.stack([self.games[i].state.legal_mask() for i in members])
                actions = player.sample(observations, masks, self.rng)
                decided.extend(zip(members, actions.tolist(), strict=True))
            middle = time.perf_counter()
            for i, action in decided:
                self.games[i].state.apply(action)
            self.timing["opponents"] += middle - started
            self.timing["env"] += time.perf_counter() - middle
            waiting = [i for i in waiting if self._opponent_to_move(self.games[i])]

    def _opponent_to_move(self, game: _Game) -> bool:
        state = game.state
        return (not state.is_terminal and state.steps < self.max_steps
                and state.current_player != game.learner)
