"""The single-agent Gymnasium view of any game: one learner seat, opponents played inside `step`.

The learner's seat is drawn per episode (unless fixed); the other seats are played by opponent
policies until it is the learner's turn again. The reward returned by `step` is everything the
learner earned since its previous move, including the final reward when an opponent's move ends
the game. `action_masks()` is what sb3-contrib's MaskablePPO asks for. What users pass (actions,
seeds, options) is checked by envs/core/validation.py, as in the AEC env.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from .errors import CallOrderError, IllegalActionError, InvalidConfigError
from .policies import AgentCodeResolver, make_policy, policy_action, seat_opponents
from .records import GameRecord
from .registry import get_game
from .rewards import check_reward_mode
from .seeding import draw_seed
from .validation import (
    check_action,
    check_finite,
    check_game_options,
    check_learner_seat,
    check_max_steps,
    check_reset_options,
    check_seed,
)


class SingleAgentEnv(gymnasium.Env):
    """`gymnasium.make("huerta/Finca-v0", num_players=3, opponents=["random", my_agent])`.

    Args:
        game: registered game name ("finca").
        num_players: seats at the table, the learner included.
        opponents: one policy for every other seat, or a single one used for all of them; each an
            agent, a callable `f(obs_dict) -> action` or an agent code such as "random" (taken
            only with `agent_codes`).
        learner_seat: fix the learner's seat (0 .. num_players - 1); None draws it uniformly per
            episode.
        reward: terminal reward mode ("win_loss", "score_margin", "rank").
        max_steps: agent steps (all players) before the episode is truncated: a positive int, or
            None for the game's default.
        illegal_action_penalty: None (default) makes a masked action raise `IllegalActionError`;
            a finite number instead ends the episode with that reward (for algorithms without
            masks, and for Gymnasium's `check_env`, which samples unmasked actions). An action
            that is not an integer id raises either way.
        shaping: weight of potential-based shaping (default 0: off). With w > 0 each step also
            pays w times the change of the learner's `shaping_potential` since its previous move:
            the score margin (own score minus the best other score), plus in the Alpujarras solo
            game the duties met (see seeds/alpujarras.md); over an episode these add up to w
            times the final potential, so the win/loss objective is kept and only made denser.
            A finite number.
        agent_codes: how an opponent given as an agent code becomes an agent,
            `agent_codes(code, game=..., seed=...)`: `huerta.agents.make_agent`, which the
            Gymnasium ids' entry point (`huerta.agents.gym_env`) passes; None takes no codes.

    `reset(seed=..., options=...)` takes a non-negative int seed (or None) and no options (None
    or {}).
    """

    # every mode some game draws, for gymnasium.make's check of the class; an instance lists
    # its own game's modes (`GameSpec.render_modes`) and refuses any other
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi", "rgb_array"], "render_fps": 2,
    }

    def __init__(
        self,
        game: str = "finca",
        num_players: int = 2,
        opponents: Any = "random",
        learner_seat: int | None = None,
        reward: str = "win_loss",
        max_steps: int | None = None,
        render_mode: str | None = None,
        illegal_action_penalty: float | None = None,
        shaping: float = 0.0,
        agent_codes: AgentCodeResolver | None = None,
        **options: Any,
    ) -> None:
        self.illegal_action_penalty = check_finite(
            "illegal_action_penalty", illegal_action_penalty, optional=True
        )
        self.shaping = check_finite("shaping", shaping)
        self._potential = 0.0
        self._ended_illegally = False
        self.game_spec = get_game(game)
        self.num_players = self.game_spec.check_players(num_players)
        self.reward_mode = check_reward_mode(reward)
        learner_seat = check_learner_seat(learner_seat, self.num_players)
        self.metadata = {**self.metadata, "render_modes": list(self.game_spec.render_modes)}
        if render_mode is not None and render_mode not in self.game_spec.render_modes:
            raise InvalidConfigError(
                f"render_mode={render_mode!r}; valid values: None, "
                + ", ".join(repr(m) for m in self.game_spec.render_modes)
            )
        self.game_options = check_game_options(game, options, self.game_spec.options, ())
        self.learner_seat_fixed = learner_seat
        self.render_mode = render_mode
        self.max_steps = check_max_steps(max_steps, self.game_spec.default_max_steps)
        self.opponent_specs = seat_opponents(opponents, self.num_players)
        self.opponents = [make_policy(o, self.game_spec.name, agent_codes=agent_codes)
                          for o in self.opponent_specs]
        self.observation_space = spaces.Box(
            0.0, 1.0, (self.game_spec.observation_size,), np.float32
        )
        self.action_space = spaces.Discrete(self.game_spec.num_actions)
        self.game = None
        self.record: GameRecord | None = None  # the current episode's record, made by reset()
        self.learner_seat = 0
        self.seat_policies: list[Any] = []
        self._obs = np.zeros(self.game_spec.observation_size, dtype=np.float32)

    # --- Gymnasium API ----------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode: a non-negative int `seed` (or None) and no `options` (None or {})."""
        seed = check_seed(seed)
        check_reset_options(options)
        super().reset(seed=seed)
        self._ended_illegally = False
        rng = self.np_random
        if self.learner_seat_fixed is None:
            self.learner_seat = int(rng.integers(self.num_players))
        else:
            self.learner_seat = self.learner_seat_fixed
        self._draw_opponents(rng)
        for policy in self.opponents:
            if hasattr(policy, "reset"):
                policy.reset(seed=draw_seed(rng))
        game_seed = draw_seed(rng)
        self.game = self.game_spec.new_game(self.num_players, seed=game_seed, **self.game_options)
        # the episode's game record, every seat's actions included: save() it, `huerta replay` it
        self.record = GameRecord(
            game=self.game_spec.name, num_players=self.num_players, seed=game_seed,
            options=dict(self.game_options),
        )
        others = iter(self.opponents)
        self.seat_policies = [
            None if seat == self.learner_seat else next(others) for seat in range(self.num_players)
        ]
        self._play_opponents()
        self._potential = self._margin_potential()
        if self.game.is_terminal:
            self.record.final_scores = list(self.game.scores())
        return self._observation(), self._info()

    def _draw_opponents(self, rng: np.random.Generator) -> None:
        """Choose this episode's opponents (fixed by default; self-play draws from a pool)."""

    def _margin_potential(self) -> float:
        if not self.shaping:
            return 0.0
        return self.shaping * self.game.shaping_potential(self.learner_seat)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's `action` (an int id, a numpy integer or a 0-d integer array), then
        the opponents until it is the learner's turn again or the episode ends."""
        game = self.game
        if game is None:
            raise CallOrderError("step() called before reset(); call reset() first")
        if game.is_terminal or game.steps >= self.max_steps or self._ended_illegally:
            raise CallOrderError("step() called after the episode ended; call reset() first")
        if game.current_player != self.learner_seat:
            # an opponent's policy raised inside the last step: its seat is still to move
            raise CallOrderError(
                f"step() called while seat {game.current_player} (an opponent) is to move, after "
                "its policy failed; call reset() first"
            )
        if type(action) is not int:
            # a refused type raises even with illegal_action_penalty: it is a bug, not a move
            action = check_action(action, self.game_spec.num_actions)
        if self.illegal_action_penalty is None:
            game.apply(action)  # IllegalActionError leaves the game untouched
        else:
            try:
                game.apply(action)
            except IllegalActionError as exc:
                self._ended_illegally = True  # the refused action is not part of the record
                info = self._info()
                info["illegal_action"] = str(exc)
                return self._observation(), float(self.illegal_action_penalty), True, False, info
        self.record.actions.append(action)
        self._play_opponents()
        terminated = game.is_terminal
        if terminated:
            self.record.final_scores = list(game.scores())
        truncated = not terminated and game.steps >= self.max_steps
        reward = 0.0
        if terminated:
            reward = float(game.rewards(self.reward_mode)[self.learner_seat])
        if self.shaping:
            potential = self._margin_potential()
            reward += potential - self._potential
            self._potential = potential
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (all False once the episode is over)."""
        game = self.game
        if (
            game is None
            or game.is_terminal
            or self._ended_illegally
            or game.current_player != self.learner_seat
        ):
            return np.zeros(self.game_spec.num_actions, dtype=bool)
        return game.legal_mask().copy()

    def render(self) -> str | None:
        """The board in the env's `render_mode` (None, with a warning, when it has none)."""
        if self.game is None:
            raise CallOrderError("render() called before reset(); call reset() first")
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return self.game.render(self.render_mode)

    # --- helpers ---------------------------------------------------------------------------------
    def _play_opponents(self) -> None:
        game = self.game
        while (
            not game.is_terminal
            and game.steps < self.max_steps
            and game.current_player != self.learner_seat
        ):
            seat = game.current_player
            obs = {
                "observation": game.observe(seat),
                "action_mask": game.legal_mask().astype(np.int8),
            }
            action = policy_action(self.seat_policies[seat], game, seat, obs)
            game.apply(action)
            self.record.actions.append(action)

    def _observation(self) -> np.ndarray:
        return self.game.observe(self.learner_seat, self._obs).copy()

    def _info(self) -> dict[str, Any]:
        game = self.game
        info: dict[str, Any] = {
            "learner_seat": self.learner_seat,
            "action_mask": self.action_masks(),
        }
        if game.is_terminal or game.steps >= self.max_steps:
            scores = game.scores()
            info["scores"] = scores
            info["score"] = scores[self.learner_seat]
            winners = game.winners() if game.is_terminal else []
            info["winners"] = winners
            info["is_winner"] = self.learner_seat in winners
            info["shared_victory"] = len(winners) > 1
            info["truncated"] = not game.is_terminal
        return info
