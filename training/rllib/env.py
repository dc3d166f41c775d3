"""Every huerta game as an RLlib multi-agent environment, on RLlib's own PettingZoo wrapper.

RLlib (new API stack) plays PettingZoo AEC games through `ray.rllib.env.wrappers.pettingzoo_env.
PettingZooEnv`. Three thin layers adapt our AEC envs to it, each for a reason RLlib imposes:

* `RLlibObservations` (a PettingZoo wrapper) renames the observation dict to what RLlib's
  action-masking modules read: `{"observations": float32[N], "action_mask": float32[A]}` instead
  of our `{"observation", "action_mask" (int8)}` (the masking module takes the log of the mask,
  so it is delivered as floats).
* `LeagueSeats` (an AEC env over the game's AEC env) is the self-play table: per episode it names
  the learner's seat `learner` and the other seats `opponent_1` … (by their order after the
  learner), draws what plays each opponent seat (a frozen snapshot of the learner, the game's
  heuristic or random, with `PoolWeights`), and plays the heuristic and random seats itself. The
  heuristic searches the game state, which no RLModule sees, so it cannot be an RLModule; the
  random agent plays beside it for the same reason of simplicity. Only the learner and snapshot
  seats reach RLlib, which maps them to the `main` module and to frozen snapshot modules.
* `HuertaPettingZooEnv` (a subclass of RLlib's `PettingZooEnv`) declares the spaces of every
  *possible* agent: RLlib's wrapper takes them from the agents present after its first reset,
  and a league episode shows only some seats.

`make_env(game, num_players)` gives the plain table (every seat an agent, `player_0` …);
`register()` registers every game under a name (`huerta_finca`, `huerta_alpujarras`,
`huerta_alpujarras_solo`, `huerta_mi_tierra`) for `PPOConfig().environment(NAME, env_config=...)`.
Importing this module imports Ray; the rest of huerta never does.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper

from huerta.envs.core.aec import BoardGameAEC
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.policies import policy_action
from huerta.envs.core.registry import game_choices, resolve_game
from huerta.envs.core.seeding import draw_seed
from huerta.envs.core.validation import check_finite

try:
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
except ImportError as exc:  # the `ray` extra
    raise ImportError(
        "huerta's RLlib support needs Ray RLlib: pip install 'huerta[ray]'"
    ) from exc

LEARNER = "learner"
OPPONENT_KINDS = ("snapshot", "heuristic", "random")
ENV_PREFIX = "huerta_"


def env_name(game: str) -> str:
    """The registered RLlib name of a game or variant (`alpujarras-solo` ->
    `huerta_alpujarras_solo`)."""
    resolve_game(game)  # an unknown name: every valid one named
    return ENV_PREFIX + str(game).lower().replace("-", "_")


ENV_NAMES: dict[str, str] = {g: ENV_PREFIX + g.replace("-", "_") for g in game_choices()}


class RLlibObservations(BaseWrapper):
    """Our observation dict under the keys RLlib's masking modules read: `observations`
    (float32[N], the game's vector) and `action_mask` (float32[A], 1.0 where legal)."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._spaces: dict[str, spaces.Dict] = {}

    def observation_space(self, agent: str) -> spaces.Dict:
        if agent not in self._spaces:
            inner = self.env.observation_space(agent)
            n = inner["action_mask"].shape[0]
            self._spaces[agent] = spaces.Dict({
                "observations": inner["observation"],
                "action_mask": spaces.Box(0.0, 1.0, (n,), np.float32),
            })
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.env.observe(agent)
        return {"observations": obs["observation"],
                "action_mask": obs["action_mask"].astype(np.float32)}


def _checked_weights(weights: Mapping[str, float] | None) -> dict[str, float]:
    """League weights per opponent kind (defaults: `PoolWeights`), each finite and >= 0."""
    from ..selfplay import PoolWeights

    checked = {k: float(getattr(PoolWeights(), k)) for k in OPPONENT_KINDS}
    for kind, value in (weights or {}).items():
        if kind not in checked:
            raise InvalidConfigError(
                f"league weights: unknown kind {kind!r}; valid: {', '.join(OPPONENT_KINDS)}"
            )
        checked[kind] = check_finite(f"league weight {kind}", value)
        if checked[kind] < 0:
            raise InvalidConfigError(f"league weight {kind}={value!r}: must be >= 0")
    return checked


class LeagueSeats(AECEnv):
    """The self-play table over a game's AEC env: seat roles drawn per episode.

    Agents are `learner` and `opponent_1` … `opponent_{n-1}` (the seats after the learner's, in
    turn order). At every reset the learner's seat is drawn uniformly and each opponent seat's
    kind by `weights` (snapshot, heuristic, random; a kind the game lacks passes its weight on):
    snapshot seats are RLlib agents (mapped to frozen modules), heuristic and random seats are
    played here, between RLlib's steps, and never reach RLlib. With `shaping` > 0 the learner is
    also paid the change of its shaping potential between its moves (as the Gymnasium view does),
    so the rewards add up to the terminal reward plus `shaping` times the final potential.
    `infos["learner"]` at the end holds the game's verdict (`is_winner`, `scores`) and
    `opponents`, the kind of each opponent seat.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [], "is_parallelizable": False, "name": "huerta_league",
    }

    def __init__(
        self, env: BoardGameAEC, weights: Mapping[str, float] | None = None, shaping: float = 0.0
    ) -> None:
        super().__init__()
        from huerta.agents import RandomAgent, make_agent
        from huerta.agents.heuristics import HEURISTICS

        self.env = env
        self.num_players = env.num_players
        self.weights = _checked_weights(weights)
        self.shaping = check_finite("shaping", shaping)
        game = env.game_spec.name
        self.heuristic = (make_agent("heuristic", game=game)
                          if game in HEURISTICS and self.num_players > 1 else None)
        self.random = RandomAgent()
        self.possible_agents = [LEARNER, *(f"opponent_{k}" for k in range(1, self.num_players))]
        self.metadata = {**self.metadata, "name": f"{game}_league"}
        self._rng = np.random.default_rng()
        self.learner_seat = 0
        self.seat_kinds: list[str] = []
        self._potential = self.start_potential = 0.0

    # --- names and spaces ------------------------------------------------------------------------
    def seat_of(self, agent: str) -> int:
        """The seat an agent name sits in this episode."""
        if agent == LEARNER:
            return self.learner_seat
        if agent in self.possible_agents:
            return (self.learner_seat + int(agent.rpartition("_")[2])) % self.num_players
        raise InvalidConfigError(
            f"unknown agent {agent!r}; agents: {', '.join(self.possible_agents)}"
        )

    def name_of(self, seat: int) -> str:
        offset = (seat - self.learner_seat) % self.num_players
        return LEARNER if offset == 0 else f"opponent_{offset}"

    def observation_space(self, agent: str) -> spaces.Space:
        self.seat_of(agent)
        return self.env.observation_space("player_0")

    def action_space(self, agent: str) -> spaces.Space:
        self.seat_of(agent)
        return self.env.action_space("player_0")

    @property
    def record(self) -> Any:
        """The game record of the episode, every seat's actions included."""
        return self.env.record

    @property
    def unwrapped(self) -> BoardGameAEC:
        return self.env

    # --- the episode -----------------------------------------------------------------------------
    def _draw_kind(self) -> str:
        available = [(k, w) for k, w in self.weights.items()
                     if w > 0 and (k != "heuristic" or self.heuristic is not None)]
        if not available:
            return "random"
        total = sum(w for _, w in available)
        pick = int(self._rng.choice(len(available), p=[w / total for _, w in available]))
        return available[pick][0]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.env.reset(seed=seed, options=options)
        n = self.num_players
        self.learner_seat = int(self._rng.integers(n))
        self.seat_kinds = [LEARNER if s == self.learner_seat else self._draw_kind()
                           for s in range(n)]
        for policy in (self.heuristic, self.random):
            if policy is not None:
                policy.reset(seed=draw_seed(self._rng))
        self.agents = [self.name_of(s) for s in self._seats_in_turn_order()
                       if self.seat_kinds[s] in (LEARNER, "snapshot")]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._potential = self._learner_potential()
        self._play_scripted()
        self._sync()
        # the learner's rewards telescope from here: they add up to its terminal reward plus
        # the final potential less this one
        self.start_potential = self._potential

    def _seats_in_turn_order(self) -> list[int]:
        return [(self.learner_seat + k) % self.num_players for k in range(self.num_players)]

    def _learner_potential(self) -> float:
        if not self.shaping:
            return 0.0
        return self.shaping * self.env.game.shaping_potential(self.learner_seat)

    def _over(self) -> bool:
        return not self.env.agents or any(self.env.terminations.values()) or any(
            self.env.truncations.values())

    def _play_scripted(self) -> None:
        """Play the heuristic and random seats until an RLlib agent is to move or the game
        ends."""
        env = self.env
        while not self._over():
            seat = env.game.current_player
            kind = self.seat_kinds[seat]
            if kind in (LEARNER, "snapshot"):
                return
            policy = self.heuristic if kind == "heuristic" else self.random
            obs = env.observe(f"player_{seat}")
            env.step(policy_action(policy, env.game, seat, obs))

    def _sync(self) -> None:
        """Mirror the game's state onto the agents RLlib sees."""
        env = self.env
        if self._over():
            potential = self._learner_potential()
            for agent in self.agents:
                player = f"player_{self.seat_of(agent)}"
                reward = float(env.rewards[player])
                if agent == LEARNER:
                    reward += potential - self._potential
                self.rewards[agent] = self._cumulative_rewards[agent] = reward
                self.terminations[agent] = bool(env.terminations[player])
                self.truncations[agent] = bool(env.truncations[player])
                self.infos[agent] = {**env.infos[player], "opponents": self._opponent_kinds()}
            self._potential = potential
            self.agent_selection = self.agents[0]
            return
        agent = self.name_of(env.game.current_player)
        self.agent_selection = agent
        if agent == LEARNER and self.shaping:
            potential = self._learner_potential()
            self._cumulative_rewards[agent] = potential - self._potential
            self._potential = potential
        else:
            self._cumulative_rewards[agent] = 0.0

    def _opponent_kinds(self) -> list[str]:
        return [self.seat_kinds[s] for s in self._seats_in_turn_order()[1:]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.env.observe(f"player_{self.seat_of(agent)}")

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise InvalidConfigError(f"{agent} is done: step(None) only, got {action!r}")
            self.agents.remove(agent)
            for table in (self.rewards, self._cumulative_rewards, self.terminations,
                          self.truncations, self.infos):
                table.pop(agent, None)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self.env.step(action)
        self._play_scripted()
        self._sync()

    def render(self) -> Any:
        return self.env.render()

    def close(self) -> None:
        self.env.close()


class HuertaPettingZooEnv(PettingZooEnv):
    """RLlib's `PettingZooEnv`, declaring the spaces of every possible agent (RLlib's own takes
    those of the agents present after its first reset; a league episode shows only some)."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self.possible_agents = list(env.possible_agents)
        self.agents = list(self.possible_agents)
        self._agent_ids = set(self.possible_agents)
        self.observation_spaces = {a: env.observation_space(a) for a in self.possible_agents}
        self.action_spaces = {a: env.action_space(a) for a in self.possible_agents}
        self.observation_space = gym.spaces.Dict(self.observation_spaces)
        self.action_space = gym.spaces.Dict(self.action_spaces)

    def render(self) -> Any:
        return self.env.render()


def make_env(
    game: str,
    num_players: int | None = None,
    *,
    league: Mapping[str, Any] | None = None,
    reward: str = "win_loss",
    max_steps: int | None = None,
    **options: Any,
) -> HuertaPettingZooEnv:
    """A game as an RLlib `MultiAgentEnv`.

    Without `league`: every seat is an agent (`player_0` …), each observation a dict
    `{"observations", "action_mask"}` as RLlib's masking modules read it. With `league` (a dict:
    `weights` per opponent kind, `shaping`): the self-play table of `LeagueSeats`. `game` is a
    game or variant name (`alpujarras-solo`); `num_players` defaults to 2 (the variant's own
    count for a variant); `reward`, `max_steps` and game options go to the game's env.
    """
    spec, fixed = resolve_game(game, num_players)
    players = fixed if fixed is not None else (num_players or 2)
    aec: AECEnv = BoardGameAEC(spec, num_players=players, reward=reward, max_steps=max_steps,
                               **options)
    if league is not None:
        unknown = set(league) - {"weights", "shaping"}
        if unknown:
            raise InvalidConfigError(f"league: unknown key(s) {sorted(unknown)}; valid: "
                                     "weights, shaping")
        aec = LeagueSeats(aec, league.get("weights"), float(league.get("shaping", 0.0)))
    return HuertaPettingZooEnv(RLlibObservations(aec))


def env_from_config(game: str, env_config: Mapping[str, Any] | None) -> HuertaPettingZooEnv:
    """The env creator registered for `game`: `env_config` holds `num_players`, `league`,
    `reward`, `max_steps` and `options` (the game's options), all optional; the seed comes from
    RLlib's `reset(seed=...)`."""
    config = dict(env_config or {})
    unknown = set(config) - {"num_players", "league", "reward", "max_steps", "options"}
    if unknown:
        raise InvalidConfigError(
            f"env_config: unknown key(s) {sorted(unknown)}; valid: num_players, league, reward, "
            "max_steps, options"
        )
    return make_env(
        game, config.get("num_players"), league=config.get("league"),
        reward=config.get("reward", "win_loss"), max_steps=config.get("max_steps"),
        **dict(config.get("options") or {}),
    )


def register() -> dict[str, str]:
    """Register every game and variant with RLlib (`ray.tune.registry.register_env`) under
    `ENV_NAMES` (`huerta_finca`, `huerta_alpujarras`, `huerta_alpujarras_solo`,
    `huerta_mi_tierra`); return {game: name}. Call it in the driver, before or after
    `ray.init()`: the registry travels to every worker of the cluster."""
    import ray
    from ray.tune import registry

    if ray.is_initialized() and getattr(registry._global_registry, "_prefix", None):
        # Ray keys its registry by the job that first used it; after a ray.shutdown() and a new
        # connection in this process (a new job) the names must go under the new job's key
        registry._global_registry._prefix = None
    for game, name in ENV_NAMES.items():
        registry.register_env(name, partial(env_from_config, game))
    return dict(ENV_NAMES)


__all__ = ["ENV_NAMES", "LEARNER", "HuertaPettingZooEnv", "LeagueSeats",
           "RLlibObservations", "env_from_config", "env_name", "make_env", "register"]
