"""A batch of single-agent games stepped together in one process: a native Gymnasium `VectorEnv`.

`gymnasium.make_vec("huerta/Finca-v0", num_envs=64, vectorization_mode="vector_entry_point",
opponents="heuristic")` returns a `BoardGameVectorEnv`: `num_envs` games held as engine states,
no Python env object per game. A step plays every learner's action, then the opponents of all
games, round by round, until each game is back at its learner's turn or over. In a round, the
games whose seat to move is played by the same batching opponent (one with
`act_batch(observations, masks)`, such as a policy network) are decided in one call; every other
opponent is asked game by game, as `SingleAgentEnv` asks it.

Each game is what `SingleAgentEnv` with the same arguments plays: `reset(seed=s)` seeds game `i`
with `s + i` (a list gives one seed per game), from which its learner seat, its opponents' seeds
and its deal are drawn in the same order, so game `i` and a `SingleAgentEnv` reset with that seed
and given the same actions play the same game, reward for reward. Opponents given as agent codes
("random", "heuristic") are made once per game; an agent object or a callable is shared by every
game.

Autoreset follows Gymnasium's default, `AutoresetMode.NEXT_STEP`: the step that ends a game
returns its last observation with `terminated` or `truncated` set; the next step ignores that
game's action and returns the first observation of its next game (reward 0, both flags False).
`action_masks()` gives every game's legal actions for its learner (one row per game; a row that
waits for its reset allows every action, since that action is ignored).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .engine import GameState
from .errors import CallOrderError, IllegalActionError, InvalidConfigError
from .policies import AgentCodeResolver, make_policy, policy_action, seat_opponents
from .registry import get_game
from .rewards import check_reward_mode
from .seeding import draw_seed
from .validation import (
    check_action,
    check_finite,
    check_game_options,
    check_learner_seat,
    check_max_steps,
    check_seed,
)


class BatchPolicy(Protocol):
    """An opponent that decides many games at once: one action per row of `observations`
    (each row's `masks` row its legal actions), legal in that row; an opponent whose
    `reads_observation` is False is given None for `observations`. Opponents that share a
    `batch_key` attribute (say, copies of one network) are asked together, through the first of
    them; without one, each object is its own batch."""

    def act_batch(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray: ...


class _Game:
    """One game of the batch: its state, who plays which seat, and what the learner has earned."""

    __slots__ = ("done", "learner", "policies", "potential", "rng", "seed", "state")

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.rng: np.random.Generator | None = None
        self.seed: int | None = None  # the deal's seed (`new_game(seed)` replays the game)
        self.learner = 0
        self.policies: list[Any] = []  # per seat: None (the learner) or its opponent
        self.potential = 0.0
        self.done = False  # ended at the last step: reset by the next one


class BoardGameVectorEnv(VectorEnv):
    """`num_envs` single-agent games of one huerta game, stepped together (see the module doc).

    Args:
        game: the registered game ("finca").
        num_envs: games in the batch.
        num_players, opponents, learner_seat, reward, max_steps, shaping, game options: as for
            `SingleAgentEnv` (opponents: one for every other seat or a single one for all; agent
            codes, agents, callables, or a `BatchPolicy`).
        agent_codes: how an opponent given as an agent code becomes an agent (as for
            `SingleAgentEnv`: `huerta.agents.make_agent`, which the Gymnasium ids' vector entry
            point passes; None takes no codes).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": [],
    }

    def __init__(
        self,
        game: str = "finca",
        num_envs: int = 8,
        num_players: int = 2,
        opponents: Any = "random",
        learner_seat: int | None = None,
        reward: str = "win_loss",
        max_steps: int | None = None,
        shaping: float = 0.0,
        agent_codes: AgentCodeResolver | None = None,
        **options: Any,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidConfigError(f"num_envs={num_envs!r}; valid values: an int of 1 or more")
        self.game_spec = get_game(game)
        self.num_envs = num_envs
        self.num_players = self.game_spec.check_players(num_players)
        self.reward_mode = check_reward_mode(reward)
        self.learner_seat_fixed = check_learner_seat(learner_seat, self.num_players)
        self.max_steps = check_max_steps(max_steps, self.game_spec.default_max_steps)
        self.shaping = check_finite("shaping", shaping)
        self.game_options = check_game_options(game, options, self.game_spec.options, ())
        # None: a subclass draws each game's opponents (`_draw_opponents`, self-play from a pool)
        self.opponent_specs = ([None] * (self.num_players - 1) if opponents is None
                               else seat_opponents(opponents, self.num_players))
        # an agent object or a callable is one policy for every game; a code, one per game
        self._shared = {k: o if hasattr(o, "act_batch") else make_policy(o, self.game_spec.name)
                        for k, o in enumerate(self.opponent_specs)
                        if o is not None and not isinstance(o, str)}
        size, count = self.game_spec.observation_size, self.game_spec.num_actions
        self.single_observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.single_action_space = spaces.Discrete(count)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.games = [_Game() for _ in range(num_envs)]
        self._per_game = [[make_policy(o, self.game_spec.name, agent_codes=agent_codes)
                           if isinstance(o, str) else None
                           for o in self.opponent_specs] for _ in range(num_envs)]
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._started = False
        # seconds spent in the engine and in the opponents' decisions (`huerta bench --train`)
        self.timing = {"env": 0.0, "opponents": 0.0}

    # --- Gymnasium's VectorEnv API ---------------------------------------------------------------
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game in every slot: `seed` an int (game `i` gets `seed + i`), one seed per
        game, or None (fresh entropy); no options."""
        if options:
            raise InvalidConfigError(f"reset(options={options!r}); this env takes no options")
        seeds = self._seeds(seed)
        for i, game in enumerate(self.games):
            self._new_game(i, game, seeds[i])
        self._play_opponents(range(self.num_envs))
        for i, game in enumerate(self.games):
            game.potential = self._potential(game)
            self._write_obs(i)
        self._started = True
        return self._obs.copy(), self._infos(range(self.num_envs), {})

    def step(
        self, actions: Any,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play each game's learner action (ignored for a game waiting for its reset), then the
        opponents until every game is at its learner's turn again or over."""
        if not self._started:
            raise CallOrderError("step() called before reset(); call reset() first")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise InvalidConfigError(
                f"actions of shape {actions.shape}; expected ({self.num_envs},): one per game")
        restarted = [i for i, game in enumerate(self.games) if game.done]
        playing = [i for i, game in enumerate(self.games) if not game.done]
        checked = self._checked_actions(playing, actions)  # before any game moves
        for i in restarted:
            self._new_game(i, self.games[i], None)
        self._apply_learner_actions(playing, checked)
        self._play_opponents(restarted + playing)
        for i in restarted:
            self.games[i].potential = self._potential(self.games[i])
        rewards, terminated, truncated = self._outcomes(playing)
        for i in playing:
            self.games[i].done = bool(terminated[i] or truncated[i])
        for i in range(self.num_envs):
            self._write_obs(i)
        return self._obs.copy(), rewards, terminated, truncated, self._infos(
            range(self.num_envs), {})

    # --- the parts of a step (a self-play subclass puts them together its own way) --------------
    def _checked_actions(self, slots: list[int], actions: np.ndarray) -> list[int]:
        """The learner actions of the games of `slots` as ints, every one checked legal before
        any is played, so that a bad one leaves the whole batch as it was (IllegalActionError
        names the game and the action)."""
        checked = []
        for i in slots:
            action = actions[i].item()
            if type(action) is not int:
                action = check_action(action, self.game_spec.num_actions)
            state = self.games[i].state
            if not 0 <= action < self.game_spec.num_actions or not state.legal_mask()[action]:
                reason = "the action mask marks it illegal now"
                try:
                    state.clone().apply(action)
                except IllegalActionError as exc:
                    reason = exc.reason
                raise IllegalActionError(action, f"game {i} of the batch: {reason}")
            checked.append(action)
        return checked

    def _apply_learner_actions(self, slots: list[int], actions: list[int]) -> None:
        """Play each game's learner action (already checked)."""
        started = time.perf_counter()
        for i, action in zip(slots, actions, strict=True):
            self.games[i].state.apply(action)
        self.timing["env"] += time.perf_counter() - started

    def _outcomes(self, slots: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rewards, terminated, truncated) over the batch, filled in for the games of `slots`
        after their learner's move and their opponents'."""
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        for i in slots:
            game = self.games[i]
            state = game.state
            terminated[i] = state.is_terminal
            truncated[i] = not state.is_terminal and state.steps >= self.max_steps
            if terminated[i]:
                rewards[i] = float(state.rewards(self.reward_mode)[game.learner])
            if self.shaping:
                potential = self._potential(game)
                rewards[i] += potential - game.potential
                game.potential = potential
        return rewards, terminated, truncated

    def action_masks(self) -> np.ndarray:
        """Every game's legal actions for its learner, one bool row per game (a game waiting for
        its reset: every action, as the next step ignores it)."""
        masks = np.ones((self.num_envs, self.game_spec.num_actions), dtype=bool)
        for i, game in enumerate(self.games):
            if game.state is not None and not game.done:
                masks[i] = game.state.legal_mask()
        return masks

    # --- games -----------------------------------------------------------------------------------
    def _seeds(self, seed: Any) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, Sequence) and not isinstance(seed, (str, bytes)):
            if len(seed) != self.num_envs:
                raise InvalidConfigError(
                    f"{len(seed)} seeds given for {self.num_envs} games; give one per game or "
                    "one int")
            return [check_seed(s) for s in seed]
        first = check_seed(seed)
        return [first + i for i in range(self.num_envs)]

    def _new_game(self, i: int, game: _Game, seed: int | None) -> None:
        """Game `i`'s next game, drawn as `SingleAgentEnv.reset(seed=seed)` draws it (with no
        seed, from the game's own generator, as a single env's next reset does)."""
        if seed is not None or game.rng is None:
            game.rng, _ = seeding.np_random(seed)
        rng = game.rng
        n = self.num_players
        fixed = self.learner_seat_fixed
        game.learner = int(rng.integers(n)) if fixed is None else fixed
        opponents = [self._shared[k] if k in self._shared else self._per_game[i][k]
                     for k in range(len(self.opponent_specs))]
        self._draw_opponents(i, rng, opponents)
        if any(policy is None for policy in opponents):
            raise InvalidConfigError("opponents=None needs a subclass that draws them")
        for policy in opponents:
            if hasattr(policy, "reset"):
                policy.reset(seed=draw_seed(rng))
        game.seed = draw_seed(rng)
        game.state = self.game_spec.new_game(n, seed=game.seed, **self.game_options)
        others = iter(opponents)
        game.policies = [None if seat == game.learner else next(others) for seat in range(n)]
        game.done = False

    def _draw_opponents(self, i: int, rng: np.random.Generator, opponents: list[Any]) -> None:
        """Choose game `i`'s opponents for its next game, in place (fixed by default; a self-play
        subclass draws them from a pool)."""

    def _potential(self, game: _Game) -> float:
        return self.shaping * game.state.shaping_potential(game.learner) if self.shaping else 0.0

    def _write_obs(self, i: int) -> None:
        game = self.games[i]
        game.state.observe(game.learner, self._obs[i])

    def _infos(self, slots: Any, infos: dict[str, Any]) -> dict[str, Any]:
        """Gymnasium's batched infos: each key an array over the games, with its `_key` mask."""
        rows = [(i, self._info(self.games[i])) for i in slots]
        for i, info in rows:
            for key, value in info.items():
                if key not in infos:
                    infos[key] = np.zeros(self.num_envs, dtype=type(value) if isinstance(
                        value, (bool, int, float)) else object)
                    infos[f"_{key}"] = np.zeros(self.num_envs, dtype=bool)
                infos[key][i] = value
                infos[f"_{key}"][i] = True
        return infos

    def _info(self, game: _Game) -> dict[str, Any]:
        """What `SingleAgentEnv` reports of a game: the learner's seat, and at the end the scores
        and winners."""
        state = game.state
        info: dict[str, Any] = {"learner_seat": game.learner, "game_seed": game.seed}
        if state.is_terminal or state.steps >= self.max_steps:
            scores = state.scores()
            winners = state.winners() if state.is_terminal else []
            info.update(scores=tuple(scores), score=scores[game.learner], winners=tuple(winners),
                        is_winner=game.learner in winners, shared_victory=len(winners) > 1,
                        truncated=not state.is_terminal)
        return info

    # --- opponents -------------------------------------------------------------------------------
    def _to_move(self, game: _Game) -> bool:
        state = game.state
        return (not state.is_terminal and state.steps < self.max_steps
                and state.current_player != game.learner)

    def _play_opponents(self, slots: Any) -> None:
        """Play the opponents of the games in `slots` until each is at its learner's turn or
        over: one decision per game per round, the games of one batching opponent together."""
        waiting = [i for i in slots if self._to_move(self.games[i])]
        while waiting:
            started = time.perf_counter()
            batches: dict[Any, list[int]] = {}
            decided: list[tuple[GameState, int]] = []
            for i in waiting:
                game = self.games[i]
                state = game.state
                seat = state.current_player
                policy = game.policies[seat]
                if hasattr(policy, "act_batch"):
                    batches.setdefault(getattr(policy, "batch_key", id(policy)), []).append(i)
                    continue
                obs = {"action_mask": state.legal_mask().astype(np.int8)}
                if getattr(policy, "reads_observation", True):  # random and searches do not
                    obs["observation"] = state.observe(seat)
                decided.append((state, policy_action(policy, state, seat, obs)))
            for members in batches.values():
                decided.extend(self._decide_batch(members))
            middle = time.perf_counter()
            for state, action in decided:
                state.apply(action)
            self.timing["opponents"] += middle - started
            self.timing["env"] += time.perf_counter() - middle
            waiting = [i for i in waiting if self._to_move(self.games[i])]

    def _decide_batch(self, members: list[int]) -> list[tuple[GameState, int]]:
        """One decision for each game of `members`, whose seats to move are played by one
        batching opponent: a single `act_batch` call, each action checked against its game's
        mask (IllegalActionError names the batched opponent)."""
        states = [self.games[i].state for i in members]
        first = self.games[members[0]]
        policy = first.policies[first.state.current_player]
        masks = np.stack([s.legal_mask() for s in states])
        observations = (np.stack([s.observe(s.current_player) for s in states])
                        if getattr(policy, "reads_observation", True) else None)
        actions = policy.act_batch(observations, masks)
        decided = []
        for row, (state, action) in enumerate(zip(states, np.asarray(actions).tolist(),
                                                  strict=True)):
            if type(action) is not int or not 0 <= action < masks.shape[1] \
                    or not masks[row, action]:
                obs = {"action_mask": masks[row]}
                policy_action(_Fixed(action), state, state.current_player, obs)  # raises
            decided.append((state, action))
        return decided


class _Fixed:
    """An action already chosen (by a batch), checked by `policy_action` like any policy's."""

    def __init__(self, action: Any) -> None:
        self.action = action
        self.name = "a batched opponent"

    def act(self, observation: Any, view: Any = None) -> Any:
        return self.action
