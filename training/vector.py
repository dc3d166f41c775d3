"""Self-play games stepped together in one process, with the opponents' networks run in batches.

`SelfPlayVecEnv` is the stable-baselines3 `VecEnv` that `huerta train` steps: the games are a
`BoardGameVectorEnv` (huerta.envs.core.vector_env, the env `gymnasium.make_vec` gives), whose
opponents are drawn per game from `OpponentPool`'s weights (snapshots of the learner, the
heuristic, random), the learner's seat drawn per game too. A step plays every learner's action,
then the opponents of all games until each game is back at its learner's turn or over: at each
round every game whose opponent is to move gives one decision, and the decisions of snapshot
opponents that are the same network are taken in one batched forward pass (`SnapshotAgent`'s
`act_batch`), so a snapshot costs one matrix product per round for all games, not one forward
pass per move. Random opponents draw from the mask; the heuristic is asked per game.

The difference from the Gymnasium env is stable-baselines3's autoreset: a game that ends is
restarted in the same step, its last observation in `info["terminal_observation"]` and its
return and length in `info["episode"]`. Game `i` is seeded with `seed + i`, as the Gymnasium
env's `reset(seed=seed)` seeds it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from huerta.envs.core.registry import get_game
from huerta.envs.core.vector_env import BoardGameVectorEnv

from .selfplay import OpponentPool, PoolWeights


class PoolGames(BoardGameVectorEnv):
    """The games of a self-play run: every new game's opponents drawn from the pool with that
    game's own generator; `kinds[i]` names game `i`'s opponents (`random`, `heuristic`,
    `snapshot:NAME`)."""

    def __init__(self, game: str, num_envs: int, pool: OpponentPool, **settings: Any) -> None:
        self.pool = pool
        self.kinds: list[list[str]] = [[] for _ in range(num_envs)]
        super().__init__(game, num_envs=num_envs, opponents=None, **settings)

    def _draw_opponents(self, i: int, rng: np.random.Generator, opponents: list[Any]) -> None:
        drawn = [self.pool.draw(rng) for _ in opponents]
        self.kinds[i] = [kind for kind, _ in drawn]
        opponents[:] = [agent for _, agent in drawn]


class SelfPlayVecEnv(VecEnv):
    """`n_envs` self-play games in one process (a stable-baselines3 VecEnv; see module doc).

    Args:
        game, num_players: the game (a registered name) and seats at the table.
        n_envs: games stepped together.
        pool_dir, weights: the opponent pool (snapshot files, heuristic, random) and its weights.
        seed: game `i` is seeded with `seed + i` (its learner seat, opponents, deals, and the
            opponents' own draws follow from it).
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
        pool = OpponentPool(get_game(game).name, Path(pool_dir) if pool_dir else None,
                            weights or PoolWeights())
        self.batch = PoolGames(game, n_envs, pool, num_players=num_players, reward=reward,
                               shaping=shaping, max_steps=max_steps, **game_options)
        self.spec = self.batch.game_spec
        self.num_players = self.batch.num_players
        self._seed: int | None = seed
        super().__init__(n_envs, self.batch.single_observation_space,
                         spaces.Discrete(self.spec.num_actions))
        self._returns = np.zeros(n_envs)
        self._lengths = np.zeros(n_envs, dtype=int)
        self._actions: np.ndarray | None = None

    @property
    def pool(self) -> OpponentPool:
        return self.batch.pool

    @property
    def games(self) -> list[Any]:
        """The batch's games: state, learner seat, `policies` per seat (None: the learner)."""
        return self.batch.games

    @property
    def timing(self) -> dict[str, float]:
        """Seconds spent in the engine and in the opponents (for `huerta bench --train`)."""
        return self.batch.timing

    # --- the VecEnv interface ------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        obs, _ = self.batch.reset(seed=self._seed)
        self._seed = None  # a later reset goes on with each game's generator
        self._returns[:] = 0.0
        self._lengths[:] = 0
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        assert self._actions is not None, "step_wait() before step_async()"
        batch = self.batch
        slots = list(range(self.num_envs))
        batch._apply_learner_actions(slots, [int(a) for a in self._actions])
        batch._play_opponents(slots)
        rewards, terminated, truncated = batch._outcomes(slots)
        self._returns += rewards
        self._lengths += 1
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in slots]
        restarted = np.flatnonzero(dones).tolist()
        for i in restarted:
            infos[i] = self._final_info(i, bool(truncated[i]))
            batch._new_game(i, batch.games[i], None)
            self._returns[i] = 0.0
            self._lengths[i] = 0
        if restarted:
            batch._play_opponents(restarted)
            for i in restarted:
                batch.games[i].potential = batch._potential(batch.games[i])
        for i in slots:
            batch._write_obs(i)
        self._actions = None
        return batch._obs.copy(), rewards.astype(np.float32), dones, infos

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
        """Seed the next reset: game `i` with `seed + i`."""
        self._seed = seed
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def get_images(self) -> list[Any]:
        return [None for _ in range(self.num_envs)]

    # --- episodes --------------------------------------------------------------------------------
    def _final_info(self, i: int, truncated: bool) -> dict[str, Any]:
        game = self.games[i]
        state = game.state
        winners = state.winners() if state.is_terminal else []
        return {
            "terminal_observation": state.observe(game.learner).copy(),
            "TimeLimit.truncated": truncated,
            "episode": {"r": float(self._returns[i]), "l": int(self._lengths[i]), "t": 0.0},
            "is_winner": game.learner in winners,
            "scores": list(state.scores()),
            "opponents": list(self.batch.kinds[i]),
        }

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)
