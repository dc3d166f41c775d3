"""The PettingZoo AEC environment shared by every game: a thin layer over the engine protocol.

Agents are `player_0` … `player_{n-1}` in seat order. Observations follow PettingZoo classic:
`{"observation": float32 vector, "action_mask": int8 vector}`; a non-acting agent's mask is all
zeros. Rewards are zero until the end, then the game's terminal rewards (`reward` option); final
scores and winners go in `infos`. A masked action raises `IllegalActionError` and changes nothing;
so does an action that is not an integer id (envs/core/validation.py checks what users pass, for
this env and the Gymnasium view alike). Calls out of order (`step`, `last`, `observe`, `render`,
`agent_iter` before `reset`; `step` or `last` once every agent is done) raise `CallOrderError`.
An agent name that is not one of `possible_agents` (`observe`, `observation_space`,
`action_space`) raises `UnknownAgentError` (a `KeyError`) naming the valid agents.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .engine import GameSpec, GameState
from .errors import CallOrderError, InvalidConfigError
from .records import GameRecord
from .rewards import check_reward_mode
from .seeding import draw_seed
from .validation import (
    check_action,
    check_dead_action,
    check_game_options,
    check_max_steps,
    check_reset_options,
    check_seed,
    unknown_agent,
)

# PettingZoo's api_test calls reset(options={"options": 1}) only to see that the keyword exists
_PETTINGZOO_PROBE_KEYS = ("options",)


def _before_reset(method: str) -> CallOrderError:
    return CallOrderError(f"{method} called before reset(); call reset() first")


def _after_the_end(method: str) -> CallOrderError:
    return CallOrderError(
        f"{method} called after every agent is done (the game is over); call reset() to start "
        "a new game"
    )


class BoardGameAEC(AECEnv):
    """A PettingZoo AEC environment for any game described by a `GameSpec`."""

    # every mode some game draws; an instance lists its own game's modes and refuses any other
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        spec: GameSpec,
        num_players: int,
        render_mode: str | None = None,
        reward: str = "win_loss",
        max_steps: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game_spec = spec
        self.num_players = spec.check_players(num_players)
        self.metadata = {**self.metadata, "render_modes": list(spec.render_modes)}
        if render_mode is not None and render_mode not in spec.render_modes:
            raise InvalidConfigError(
                f"render_mode={render_mode!r}; valid values: None, "
                + ", ".join(repr(m) for m in spec.render_modes)
            )
        self.render_mode = render_mode
        self.reward_mode = check_reward_mode(reward)
        self.max_steps = check_max_steps(max_steps, spec.default_max_steps)
        self.game_options = check_game_options(
            spec.name, options, spec.options, ("reward", "max_steps", "render_mode")
        )
        self.metadata = {**self.metadata, "name": f"{spec.name}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (spec.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(spec.num_actions) for a in self.possible_agents}
        self._seed_rng = np.random.default_rng()
        self.game: GameState | None = None
        self.record: GameRecord | None = None

    # --- PettingZoo API -------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):  # TypeError: an unhashable name
            raise unknown_agent(agent, self.possible_agents) from None

    def action_space(self, agent: str) -> spaces.Space:
        try:
            return self.action_spaces[agent]
        except (KeyError, TypeError):
            raise unknown_agent(agent, self.possible_agents) from None

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. `seed`: a non-negative int (or None) seeding the sequence of game
        seeds; `options`: None or {} (no reset options are defined; the key "options" of
        PettingZoo's api_test probe is ignored)."""
        seed = check_seed(seed)
        check_reset_options(options, ignored=_PETTINGZOO_PROBE_KEYS)
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = draw_seed(self._seed_rng)
        self.game = self.game_spec.new_game(self.num_players, seed=game_seed, **self.game_options)
        self.record = GameRecord(
            game=self.game_spec.name,
            num_players=self.num_players,
            seed=game_seed,
            options=dict(self.game_options),
        )
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        if game is None:
            raise _before_reset("observe()")
        try:
            seat = self.agent_name_mapping[agent]
        except (KeyError, TypeError):  # TypeError: an unhashable name
            raise unknown_agent(agent, self.possible_agents) from None
        observation = game.observe(seat)  # a fresh vector: the game copies what it caches
        if game.current_player == seat and not game.is_terminal and agent in self.agents:
            mask = game.action_mask()
        else:
            mask = np.zeros(self.game_spec.num_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, cumulative reward, terminated, truncated and info of the agent to act."""
        if self.game is None:
            raise _before_reset("last()")
        if not self.agents:
            raise _after_the_end("last()")
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """Yields the agent to act until every agent is done (PettingZoo's iterator)."""
        if self.game is None:
            raise _before_reset("agent_iter()")
        return super().agent_iter(max_iter)

    def step(self, action: int | None) -> None:
        """Play `action` (an int id, a numpy integer or a 0-d integer array) for the agent to act;
        a done agent takes None. A refused action raises and changes nothing."""
        game = self.game
        if game is None:
            raise _before_reset("step()")
        if not self.agents:
            raise _after_the_end("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            check_dead_action(action, agent)
            self._was_dead_step(action)
            return
        if type(action) is not int:
            action = check_action(action, self.game_spec.num_actions)
        game.apply(action)  # raises IllegalActionError, state untouched
        self.record.actions.append(action)
        # rewards stay zero until the end, so only the acting agent's tally needs clearing
        self._cumulative_rewards[agent] = 0.0
        if game.is_terminal:
            self._finish(truncated=False)
        elif game.steps >= self.max_steps:
            self._finish(truncated=True)
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        if self.render_mode == "human":
            self.render()

    def _finish(self, truncated: bool) -> None:
        game = self.game
        scores = game.scores()
        if truncated:
            rewards = [0.0] * self.num_players
            winners: list[int] = []
        else:
            rewards = game.rewards(self.reward_mode)
            winners = game.winners()
        self.record.final_scores = list(scores)
        for seat, a in enumerate(self.possible_agents):
            self.rewards[a] = float(rewards[seat])
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
            self.infos[a] = {
                "scores": list(scores),
                "score": scores[seat],
                "winners": [self.possible_agents[w] for w in winners],
                "is_winner": seat in winners,
                "shared_victory": len(winners) > 1,
            }
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.game is None:
            raise _before_reset("render()")
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return self.game.render(self.render_mode)

    def close(self) -> None:
        pass

