"""The trained reference agents (`learned`) and any exported policy (`learned:PATH`).

A policy file is a numpy `.npz` holding the policy's path of a MaskablePPO network, layer by
layer (`weight_0`, `bias_0`, ... in the order they apply; tanh between layers, none after the
last), and `about`, a JSON text saying what it was trained for and how (`game`, `players`,
`observation_size`, `num_actions`, `activation`, and `trained`: command, seed, steps, wall time,
evaluation). `huerta export RUN` writes one from a run's best model; the package ships one
model per game in `huerta/agents/models/` (`finca.npz`, `alpujarras.npz`, `alpujarras-solo.npz`,
`mi_tierra.npz`). Two other kinds of file share the format and play through this agent: an
afterstate value (`huerta.agents.afterstate`: the shipped Finca and Alpujarras agents) and
learned value constants (`huerta.agents.value_weights`: the shipped solo agent, a few numbers in
JSON). Network weights are stored in float16 to keep the repository small and computed in
float32.

Why numpy and not the saved model: playing needs only the policy's forward pass, a few matrix
products, so the shipped agents play without torch or stable-baselines3 installed, load in
milliseconds and take a move in tens of microseconds. The agent plays the likeliest legal action
of the policy (what `ppo:PATH` plays with `deterministic=True`).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.view import PlayerView

from .base import Agent

MODELS = Path(__file__).parent / "models"
ACTIVATIONS = ("tanh", "relu")


def shipped_model(game: str, players: int) -> Path:
    """The shipped policy file for `game` at `players` seats: a variant's own where that count
    is one (`alpujarras-solo.npz` for one player), else the game's 2-player model, which also
    sits at 3- and 4-player tables (the observation and the actions are the same at every
    count)."""
    from huerta.envs.core.registry import game_label

    return MODELS / f"{game_label(game, players)}.npz"


class PolicyNetwork:
    """A policy read from an `.npz` file: `logits(observations)` is its forward pass."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            with np.load(self.path, allow_pickle=False) as data:
                self.about: dict[str, Any] = json.loads(str(data["about"]))
                count = sum(1 for key in data.files if key.startswith("weight_"))
                if count == 0:
                    raise KeyError("weight_0")
                self.weights = [data[f"weight_{i}"].astype(np.float32) for i in range(count)]
                self.biases = [data[f"bias_{i}"].astype(np.float32) for i in range(count)]
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as exc:
            raise InvalidConfigError(
                f"{self.path} is not a policy file of `huerta export` (an .npz with "
                f"weight_0, bias_0, ... and about): {type(exc).__name__}: {exc}"
            ) from None
        self._check()

    @classmethod
    def from_layers(cls, layers: list[tuple[np.ndarray, np.ndarray]], about: dict[str, Any],
                    name: str = "<in memory>") -> PolicyNetwork:
        """A policy from (weight as inputs x outputs, bias) pairs, without a file (the
        self-play opponents are snapshots read this way)."""
        network = cls.__new__(cls)
        network.path = Path(name)
        network.about = dict(about)
        network.weights = [np.ascontiguousarray(w, dtype=np.float32) for w, _ in layers]
        network.biases = [np.asarray(b, dtype=np.float32) for _, b in layers]
        network._check()
        return network

    def _check(self) -> None:
        about, path = self.about, self.path
        missing = [k for k in ("game", "players", "observation_size", "num_actions",
                               "activation") if k not in about]
        if missing:
            raise InvalidConfigError(f"{path}: its `about` lacks {', '.join(missing)}")
        if about["activation"] not in ACTIVATIONS:
            raise InvalidConfigError(f"{path}: activation {about['activation']!r} is not one of "
                                     f"{', '.join(ACTIVATIONS)}")
        width = int(about["observation_size"])
        if not self.weights:
            raise InvalidConfigError(f"{path}: no layers (weight_0 missing)")
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise InvalidConfigError(
                    f"{path}: layer {i} has weights {w.shape} and biases {b.shape}, "
                    f"expected ({width}, n) and (n,)")
            width = w.shape[1]
        if width != int(about["num_actions"]):
            raise InvalidConfigError(f"{path}: its last layer gives {width} logits for "
                                     f"{about['num_actions']} actions")

    @property
    def game(self) -> str:
        return str(self.about["game"])

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """The policy's action logits for one observation or a batch of them (float32)."""
        x = np.asarray(observations, dtype=np.float32)
        last = len(self.weights) - 1
        relu = self.about["activation"] == "relu"
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0.0) if relu else np.tanh(x)
        return x

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The masked softmax of the logits, row by row (0 on illegal actions)."""
        return masked_softmax(self.masked_logits(observations, masks))

    def sample(self, observations: np.ndarray, masks: np.ndarray,
               rng: np.random.Generator) -> np.ndarray:
        """One legal action per row, drawn from the policy's masked probabilities with `rng`
        (so whoever plays it depends on its seed alone)."""
        masks = np.asarray(masks, dtype=bool)
        logits = self.masked_logits(observations, masks)
        cumulative = np.cumsum(masked_softmax(logits), axis=1)
        draws = rng.random(len(cumulative))[:, None] * cumulative[:, -1:]
        actions = np.minimum((cumulative <= draws).sum(axis=1), masks.shape[1] - 1)
        # float rounding must not land on a masked id: such a row takes its likeliest action
        legal = masks[np.arange(len(actions)), actions]
        return np.where(legal, actions, logits.argmax(axis=1))

    def greedy(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Each row's likeliest legal action (what `deterministic=True` plays)."""
        return self.masked_logits(observations, masks).argmax(axis=-1)

    def masked_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The logits with -inf on the illegal actions."""
        return np.where(np.asarray(masks, dtype=bool), self.logits(observations), -np.inf)

    def check_game(self, game: str) -> None:
        """Refuse a policy of another game (or of the same name with other sizes)."""
        from huerta.envs.core.registry import get_game

        spec = get_game(game)
        sizes = (int(self.about["observation_size"]), int(self.about["num_actions"]))
        if self.game != spec.name or sizes != (spec.observation_size, spec.num_actions):
            raise InvalidConfigError(
                f"{self.path} is a policy of {self.game} ({sizes[0]} observations, {sizes[1]} "
                f"actions), not of {spec.name} ({spec.observation_size}, {spec.num_actions})")


def masked_softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of logits that carry -inf on illegal actions."""
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    return weights / weights.sum(axis=1, keepdims=True)


# policies by (file, size, modification time): a tournament makes a new agent for every game
_NETWORKS: dict[tuple[str, int, int], PolicyNetwork] = {}


def _cached(path: str | Path, read: Any) -> Any:
    """`read(path)`, once per process while the file is unchanged (the last 8 files kept)."""
    path = Path(path)
    try:
        stat = path.stat()
    except OSError:
        raise InvalidConfigError(f"no policy file at {path}") from None
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _NETWORKS:
        if len(_NETWORKS) >= 8:
            _NETWORKS.pop(next(iter(_NETWORKS)))
        _NETWORKS[key] = read(path)
    return _NETWORKS[key]


def load_policy(path: str | Path) -> PolicyNetwork:
    """The policy in `path`, read once per process while the file is unchanged."""
    return _cached(path, PolicyNetwork)


SEARCH_MAX_SAMPLES = 1000


def load_model(path: str | Path) -> Any:
    """The model in `path`: an afterstate value (`huerta.agents.afterstate.ValueNetwork`, what
    an afterstate run trains), learned value constants (`huerta.agents.value_weights`, what a
    cem run trains) or a policy network; each read once per process while the file is
    unchanged."""
    from .afterstate import ValueNetwork, is_value_file
    from .value_weights import ValueWeights, is_weights_file

    def read(p: Path) -> Any:
        if is_value_file(p):
            return ValueNetwork.load(p)
        if is_weights_file(p):
            return ValueWeights.load(p)
        return PolicyNetwork(p)

    return _cached(path, read)


def learned_options(arg: str | None) -> tuple[str | None, int | None]:
    """(policy path or None for the shipped one, rollout samples or None for no search) of the
    part after `learned:`: nothing, PATH, `search` or `search:SAMPLES`."""
    if arg is None:
        return None, None
    name, _, rest = arg.partition(":")
    if name.strip().lower() != "search":
        return arg, None
    from .policy_rollouts import DEFAULT_SAMPLES

    if not rest.strip():
        return None, DEFAULT_SAMPLES
    try:
        samples = int(rest)
        if not 1 <= samples <= SEARCH_MAX_SAMPLES:
            raise ValueError
    except ValueError:
        raise InvalidConfigError(
            f"agent code learned:{arg} is not valid: learned:search:SAMPLES takes 1 to "
            f"{SEARCH_MAX_SAMPLES} determinized samples a decision (e.g. learned:search:6)"
        ) from None
    return None, samples


def learned_policy_path(game: str, arg: str | None, players: int) -> Path:
    """The file `learned` or `learned:PATH` plays for `game` at `players` seats."""
    arg = learned_options(arg)[0]
    if arg:
        path = Path(arg).expanduser()
        if path.is_dir():  # a run folder: its exported best policy
            path = path / "best_policy.npz"
        if not path.is_file():
            raise InvalidConfigError(
                f"learned:{arg}: no policy file at {path} (write one with `huerta export RUN`)")
        return path
    path = shipped_model(game, players)
    if not path.is_file():
        shipped = sorted(p.stem for p in MODELS.glob("*.npz"))
        raise InvalidConfigError(
            f"no shipped learned agent for {game}" + (" solo" if players == 1 else "")
            + f"; shipped: {', '.join(shipped) or 'none'} (or use learned:PATH)")
    return path


def learned_files(game: str, arg: str | None) -> list[Path]:
    """The model files `learned` (or `learned:PATH`) may play for `game`: PATH's file, or the
    game's shipped ones (every seat count's and variant's), for its version
    (`huerta.agents.versions`: a retrained policy is a new version)."""
    from huerta.envs.core.registry import game_label

    if learned_options(arg)[0]:
        return [learned_policy_path(game, arg, 2)]
    names = {game_label(game, n) for n in (1, 2, 3, 4)}
    return sorted(p for p in MODELS.glob("*.npz") if p.stem in names)


class LearnedAgent(Agent):
    """Plays the likeliest legal action of a policy network (see the module docstring), or with
    `samples`, the best of its likeliest actions after rollouts of the policy itself
    (`learned:search`, `policy_rollouts.py`). A file that holds an afterstate value (what an
    afterstate run trains: the shipped Finca and Alpujarras agents) plays as
    `huerta.agents.afterstate.AfterstateAgent`, the heuristic's search judged by that value,
    or, where its `about` holds `search` settings, as the search agent driven by that value
    (`huerta.agents.learned_search.LearnedSearchAgent`); one that holds learned value
    constants (the shipped solo agent) plays as the solo heuristic with those constants
    (`huerta.agents.value_weights`).

    With no `path`, the shipped model of `game`: the solo game's own at one seat, else the
    game's 2-player model; the seat count is read from the game view at the first decision
    (or given as `players`)."""

    name = "learned"
    needs_view = True  # only to tell the solo game from the others

    def __init__(self, seed: int | None = None, game: str = "finca",
                 path: str | None = None, players: int | None = None,
                 samples: int | None = None) -> None:
        super().__init__(seed)
        self.game = game
        self.arg = path
        self.samples = samples
        self.players = players
        self.network: Any = None
        self.searcher: Agent | None = None  # the afterstate agent of a value file
        if path is not None or players is not None:
            self.network = self._load(players or 2, known=players is not None)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self.searcher is not None:
            self.searcher.reset(int(self.rng.integers(2**63 - 1)))

    @property
    def last_stats(self) -> dict[str, Any]:
        """What the learned search's last decision did (its rounds, simulations and
        candidates; empty where it searched nothing, or where this agent does not search), as
        the search agent's `last_stats`: what scripts/search_timing.py reads."""
        return getattr(self.searcher, "last_stats", {})

    @last_stats.setter
    def last_stats(self, value: dict[str, Any]) -> None:
        if self.searcher is not None and hasattr(self.searcher, "last_stats"):
            self.searcher.last_stats = value

    def _load(self, players: int, known: bool = True) -> Any:
        """The model for `players` seats (`known`: the count is the table's, not a guess)."""
        from .afterstate import AfterstateAgent, ValueNetwork
        from .learned_search import LearnedSearchAgent, SearchConfig
        from .value_weights import ValueWeights

        network = load_model(learned_policy_path(self.game, self.arg, players))
        self.searcher = None
        if isinstance(network, ValueWeights):
            network.check_game(self.game, players if known else None)
            if self.samples is not None:
                raise InvalidConfigError(
                    "learned:search plays rollouts of a policy network; the learned agent of "
                    f"the {self.game} solo game is the heuristic's search with learned "
                    "constants, which searches on its own (play it as `learned`)")
            self.searcher = network.agent(seed=int(self.rng.integers(2**63 - 1)))
            return network
        network.check_game(self.game)
        if isinstance(network, ValueNetwork):
            if self.samples is not None:
                raise InvalidConfigError(
                    f"learned:search plays rollouts of a policy network; the learned agent of "
                    f"{self.game} is an afterstate value, which searches on its own (play it "
                    "as `learned`)")
            seed = int(self.rng.integers(2**63 - 1))
            config = SearchConfig.of(self.game, network.about)
            if config is None:
                self.searcher = AfterstateAgent(seed=seed, network=network, game=self.game)
            else:  # the file says it plays with search (`huerta.agents.learned_search`)
                self.searcher = LearnedSearchAgent(seed=seed, network=network, game=self.game,
                                                   config=config)
        return network

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        players = view.num_players if view is not None else (self.players or 2)
        if self.network is None or (self.arg is None and players != self.players):
            self.network, self.players = self._load(players), players
        elif view is not None and hasattr(self.network, "solo_weights"):
            self.network.check_game(self.game, players)  # learned:PATH at a multiplayer table
        if self.searcher is not None:
            return self.searcher.decide(observation, view)
        if self.samples is not None and view is not None:
            from .policy_rollouts import best_by_rollouts

            return best_by_rollouts(self.network, observation, view, self.rng,
                                    samples=self.samples)
        return int(self.network.greedy(observation["observation"],
                                       observation["action_mask"]))
