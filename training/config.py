"""The settings of a training run (`TrainConfig`), checked in one place whatever their source.

Below the training methods and their dispatcher (methods/: ppo, afterstate, cem, imitation,
export; rllib/), which read these settings and their defaults without importing one another.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from huerta.agents.heuristics import HEURISTICS
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import resolve_game
from huerta.envs.core.rewards import REWARD_MODES
from huerta.envs.core.validation import check_game_options

from .games import default_method, training_facts
from .limits import MAX_ENVS, MAX_GENERATIONS, MAX_SEED, MAX_THREADS
from .runs import checked_float, checked_int, is_int, refuse
from .selfplay import PoolWeights

# `huerta train alpujarras-solo` and friends: name -> (game, player count)
TRAIN_ALIASES: dict[str, tuple[str, int]] = {"alpujarras-solo": ("alpujarras", 1)}

DEFAULT_STEPS = 600_000  # the target of a new run that names none
METHODS = ("ppo", "afterstate", "cem")  # TrainConfig.method


@dataclass
class TrainConfig:
    """Everything a run needs; every field can come from a JSON/TOML file or a flag.
    `check()` validates every field (type and range) and names the one that is wrong."""

    game: str = "finca"
    players: int = 2
    steps: int | None = None  # None: 600,000 for a new run; on resume, the run's own target
    envs: int = 64  # games played at once in the training process (one vector, see vector.py)
    # torch's threads for every fit and update of the run, recorded in its models (threads.py);
    # None: the fits on big batches one per core up to 4, PPO's updates 1
    threads: int | None = None
    seed: int = 0
    out: str = "runs/finca"
    # MaskablePPO
    learning_rate: float = 3e-4
    n_steps: int = 64  # per game and update: 64 x 64 games = 4,096 steps per update
    batch_size: int = 1024
    n_epochs: int = 4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    # the first `shared_layers` layers of net_arch are one trunk for the policy and the value
    # (`networks.SharedTrunk`), the rest two heads; 0: two separate networks (SB3's MlpPolicy)
    shared_layers: int = 1
    game_options: dict[str, Any] = field(default_factory=dict)  # e.g. {"double_turns": 3}
    # rewards
    reward: str = "win_loss"
    shaping: float = 0.02
    # warm start: the heuristic's games recorded and imitated before PPO (methods/imitation.py);
    # imitation_games 0: none, PPO from random weights
    imitation_games: int = 2000
    imitation_epochs: int = 10
    imitation_explore: float = 0.1  # share of the recorded moves played at random
    # how to train: "ppo" (MaskablePPO self-play, the settings above and below), "afterstate"
    # (the heuristic's search with a learned value, methods/afterstate.py: the value_*
    # settings) or "cem" (the Alpujarras solo value's constants learned by the cross-entropy
    # method, methods/cem.py: the cem_* settings); "": the game's (training/games.py, else "ppo")
    method: str = ""
    value_games: int = 2000  # heuristic games recorded (the curve's last point)
    value_horizon: int = 6  # turns ahead whose heuristic margin is a position's target
    value_epochs: int = 15
    # who plays the recorded games: "heuristic", or an agent code such as
    # "learned:runs/gen0/best_policy.npz": a self-play generation, the value fitted on the games
    # of the agent it is to improve (one step of policy iteration; its value file plays as that
    # agent's did, e.g. with its learned search settings)
    value_player: str = "heuristic"
    # generations of candidates (each evaluated: the curve's points); None: 8 for a new run, on
    # resume the run's own (a resumed run given more goes on to them)
    cem_generations: int | None = None
    cem_population: int = 7  # candidates per generation: the mean and mirrored samples
    cem_elite: int = 3  # best candidates the next mean is made of
    cem_deals: int = 64  # fresh deals against Zara every candidate of a generation plays
    # self-play
    snapshot_every: int = 100_000
    # opponent kinds' weights; None or kinds left out: the game's (training/games.py),
    # else PoolWeights' defaults
    pool_weights: dict[str, float] | None = None
    # bookkeeping
    checkpoint_every: int = 100_000
    checkpoint_minutes: float = 5.0  # wall time between checkpoints at most (plus one update)
    eval_every: int = 100_000
    eval_games: int = 100  # per opponent and evaluation: intervals of about +-10 points
    progress: bool = True

    @classmethod
    def from_file(cls, path: str | Path) -> dict[str, Any]:
        """The fields set in a JSON or TOML file (unknown keys name the valid ones; values are
        checked by `check()`)."""
        path = Path(path)
        text = path.read_text()
        try:
            if path.suffix == ".toml":
                import tomllib

                data = tomllib.loads(text)
            else:
                data = json.loads(text)
        except ValueError as exc:  # JSONDecodeError and TOMLDecodeError are ValueErrors
            raise InvalidConfigError(f"{path}: not a valid settings file: {exc}") from None
        if not isinstance(data, dict):
            raise InvalidConfigError(f"{path}: settings must be a table/object of name: value")
        valid = {f.name for f in fields(cls)}
        unknown = set(data) - valid
        if unknown:
            raise InvalidConfigError(
                f"{path}: unknown setting(s) {sorted(unknown)}; valid: {', '.join(sorted(valid))}"
            )
        return data

    def check(self) -> TrainConfig:
        """Validate every field, resolve aliases and defaults; return self.

        The one place where settings are checked, whether they came from flags, a file or
        Python: a value of the wrong type (a string for a number, a float for a count) or out of
        range (a negative pool weight, a gamma above 1) is refused with the field's name, the
        value and what is valid.
        """
        if not isinstance(self.game, str):
            refuse("game", self.game, "a game name")
        if self.game in TRAIN_ALIASES:
            self.game, self.players = TRAIN_ALIASES[self.game]
        spec, _ = resolve_game(self.game)  # an unknown name: every valid one named
        self.game = spec.name
        self.players = checked_int("players", self.players, 1)
        spec.check_players(self.players)
        if self.steps is None:
            self.steps = DEFAULT_STEPS
        if self.cem_generations is None:
            from .methods.cem import DEFAULT_GENERATIONS

            self.cem_generations = DEFAULT_GENERATIONS
        if self.threads is not None:
            self.threads = checked_int("threads", self.threads, 1, MAX_THREADS)
        for name, minimum, maximum in _INT_FIELDS:
            setattr(self, name, checked_int(name, getattr(self, name), minimum, maximum))
        for name, minimum, maximum, open_low in _FLOAT_FIELDS:
            setattr(self, name, checked_float(name, getattr(self, name), minimum, maximum,
                                               open_low))
        if isinstance(self.out, os.PathLike):
            self.out = os.fspath(self.out)
        if not isinstance(self.out, str) or not self.out:
            refuse("out", self.out, "a folder path")
        if not isinstance(self.reward, str) or self.reward not in REWARD_MODES:
            refuse("reward", self.reward, "one of " + ", ".join(REWARD_MODES))
        if not isinstance(self.progress, bool):
            refuse("progress", self.progress, "true or false")
        if self.method == "":
            self.method = default_method(spec.name, self.players)
        if self.method not in METHODS:
            refuse("method", self.method, "one of " + ", ".join(METHODS))
        if self.method == "afterstate":
            from huerta.agents.afterstate import afterstate_games

            if spec.name not in (GAMES := afterstate_games()):
                raise InvalidConfigError(f"method=afterstate: no afterstate agent for "
                                         f"{spec.name}; games with one: {', '.join(GAMES)}")
            if not isinstance(self.value_player, str) or not self.value_player:
                refuse("value_player", self.value_player,
                       "an agent code (heuristic, or learned:PATH for a self-play generation)")
            if self.value_player != "heuristic":
                from huerta.agents.registry import check_agent_code

                try:
                    check_agent_code(self.value_player, spec.name, self.players)
                except InvalidConfigError as exc:
                    raise InvalidConfigError(f"value_player: {exc}") from None
        if self.method == "cem":
            if (spec.name, self.players) != ("alpujarras", 1):
                raise InvalidConfigError(
                    f"method=cem learns the constants of the Alpujarras solo value; "
                    f"{spec.name} at {self.players} player(s) trains with another method "
                    "(ppo or afterstate)")
            if self.cem_elite > self.cem_population:
                refuse("cem_elite", self.cem_elite,
                        f"at most cem_population ({self.cem_population})")
        if (not isinstance(self.net_arch, (list, tuple)) or not self.net_arch
                or not all(is_int(n) and n >= 1 for n in self.net_arch)):
            refuse("net_arch", self.net_arch, "a non-empty list of layer sizes (integers >= 1)")
        self.net_arch = [int(n) for n in self.net_arch]
        self.shared_layers = checked_int("shared_layers", self.shared_layers, 0,
                                          len(self.net_arch))
        weights = {} if self.pool_weights is None else self.pool_weights
        if isinstance(weights, dict):  # (anything else is refused below, named)
            weights = {**asdict(PoolWeights()), **training_facts(spec.name).pool, **weights}
        self.pool_weights = _checked_weights(weights)
        self._check_game_options(spec)
        return self

    def _check_game_options(self, spec: Any) -> None:
        if not isinstance(self.game_options, dict) or not all(
            isinstance(k, str) for k in self.game_options
        ):
            refuse("game_options", self.game_options, "a table of option name: value")
        try:
            self.game_options = check_game_options(
                spec.name, self.game_options, spec.options, ()
            )
            spec.new_game(self.players, seed=0, **self.game_options)  # the game checks values
        except InvalidConfigError as exc:
            raise InvalidConfigError(f"game_options: {exc}") from None


# (field, minimum, maximum or None): integer settings, bounds included
_INT_FIELDS: tuple[tuple[str, int, int | None], ...] = (
    ("steps", 1, None), ("envs", 1, MAX_ENVS), ("seed", 0, MAX_SEED),
    ("n_steps", 2, None), ("batch_size", 2, None), ("n_epochs", 1, None),
    ("snapshot_every", 1, None), ("checkpoint_every", 1, None), ("eval_every", 1, None),
    ("eval_games", 1, None), ("imitation_games", 0, None), ("imitation_epochs", 1, None),
    ("value_games", 1, None), ("value_horizon", 0, None), ("value_epochs", 1, None),
    ("cem_generations", 1, MAX_GENERATIONS), ("cem_population", 2, None), ("cem_elite", 1, None),
    ("cem_deals", 1, 100_000),
)
# (field, minimum, maximum or None, minimum excluded): real-number settings
_FLOAT_FIELDS: tuple[tuple[str, float, float | None, bool], ...] = (
    ("learning_rate", 0.0, None, True), ("gamma", 0.0, 1.0, False),
    ("gae_lambda", 0.0, 1.0, False), ("clip_range", 0.0, None, True),
    ("ent_coef", 0.0, None, False), ("vf_coef", 0.0, None, False),
    ("shaping", 0.0, None, False), ("checkpoint_minutes", 0.0, None, True),
    ("imitation_explore", 0.0, 1.0, False),
)


def _checked_weights(weights: object) -> dict[str, float]:
    """Pool weights as {kind: weight}: known kinds, finite numbers >= 0, not all zero."""
    valid = [f.name for f in fields(PoolWeights)]
    if not isinstance(weights, dict):
        refuse("pool_weights", weights, "a table of " + ", ".join(valid) + " to weights")
    unknown = sorted(map(str, set(weights) - set(valid)))
    if unknown:
        raise InvalidConfigError(f"pool_weights: unknown kind(s) {unknown}; valid: "
                                 + ", ".join(valid))
    checked = {k: checked_float(f"pool_weights.{k}", v, 0.0, None, False)
               for k, v in weights.items()}
    if not any(checked.get(k, getattr(PoolWeights(), k)) > 0 for k in valid):
        raise InvalidConfigError("pool_weights: every weight is 0; at least one must be > 0")
    return checked


def eval_opponents(game: str, players: int) -> list[str]:
    """Who a run is evaluated against: random and the heuristic, or Zara in a solo game (the
    opponent scripted inside the game)."""
    if players == 1:
        return ["zara"]
    return ["random", "heuristic"] if game in HEURISTICS else ["random"]
