"""A trained sb3-contrib MaskablePPO policy as an agent (`ppo:PATH`), always using the mask."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.view import PlayerView

from .base import Agent

# what `ppo:` takes (the registry's AGENT_USAGE["ppo"])
PPO_USAGE = ("ppo:PATH, PATH a MaskablePPO .zip or a run folder holding best_model.zip (a "
             "pickle-based format: loading it runs code the file holds, so load only files you "
             "trust)")


class PPOAgent(Agent):
    """Loads a MaskablePPO `.zip` (a run folder works too: its best model is used) and plays
    the masked action the policy prefers (deterministic unless `deterministic=False`)."""

    name = "ppo"

    def __init__(
        self,
        path: str | Path,
        seed: int | None = None,
        deterministic: bool = True,
        game: str | None = None,
    ):
        super().__init__(seed)
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as exc:  # the `train` extra
            raise InvalidConfigError(
                "the ppo agent needs sb3-contrib: pip install 'huerta[train]'"
            ) from exc
        path = ppo_model_path(str(path))
        check_ppo_file(path, game)
        self.model = _load_model(path, MaskablePPO)
        self.path = path
        if game is not None:
            _check_spaces(self.model, path, game)
        self.game = game
        self.sizes = _model_sizes(self.model)
        self.deterministic = deterministic

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        mask = observation["action_mask"].astype(bool)
        action, _ = self.model.predict(
            observation["observation"], action_masks=mask, deterministic=self.deterministic
        )
        return int(action)


def ppo_model_path(arg: str | None) -> Path:
    """The model file of `ppo:PATH` (a run folder gives its best, else its final model)."""
    if not arg:
        raise InvalidConfigError(f"the ppo agent needs a model path: {PPO_USAGE}")
    path = Path(arg).expanduser()
    if path.is_dir():
        found = [p for p in (path / "best_model.zip", path / "final_model.zip") if p.is_file()]
        if not found:
            raise InvalidConfigError(f"ppo:{arg}: no best_model.zip or final_model.zip in {path}")
        return found[0]
    if not path.exists():
        raise InvalidConfigError(f"ppo:{arg}: no trained model at {path}")
    return path


def check_ppo_file(path: Path, game: str | None = None) -> None:
    """Refuse a file that is not a saved MaskablePPO model (a zip holding `data` and
    `policy.pth`), or one whose observation or action count does not fit `game`."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if not {"data", "policy.pth"} <= names:
                raise InvalidConfigError(
                    f"{path} is not a MaskablePPO model: the zip lacks 'data' or 'policy.pth'"
                )
            data = json.loads(archive.read("data"))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        if isinstance(exc, InvalidConfigError):
            raise
        raise InvalidConfigError(f"{path} is not a MaskablePPO model (a .zip saved by "
                                 f"`huerta train`): {exc}") from None
    if game is None or not isinstance(data, dict):
        return
    from huerta.envs.core.registry import get_game

    spec = get_game(game)
    try:
        obs_size = int(data["observation_space"]["_shape"][0])
        num_actions = int(data["action_space"]["n"])
    except (KeyError, IndexError, TypeError, ValueError):
        return  # another layout of SB3's file: the load itself checks
    if (obs_size, num_actions) != (spec.observation_size, spec.num_actions):
        raise InvalidConfigError(
            f"{path} was trained for {obs_size} observations and {num_actions} actions; "
            f"{spec.name} has {spec.observation_size} and {spec.num_actions}: a model of "
            f"another game"
        )


# loaded models by (file, size, modification time): a tournament worker makes a new agent for
# every game, and loading a model costs far more than a game's moves
_MODELS: dict[tuple[str, int, int], object] = {}
_MODELS_KEPT = 4


def _load_model(path: Path, loader) -> object:
    """The MaskablePPO model in `path`, loaded once per process while the file is unchanged
    (the model is only read: agents sharing it cannot disturb each other)."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _MODELS:
        try:
            model = loader.load(str(path), device="cpu")
        except Exception as exc:  # a damaged zip fails in many ways inside torch and SB3
            first = (str(exc).strip().splitlines() or [""])[0][:200]
            raise InvalidConfigError(
                f"{path} cannot be loaded as a MaskablePPO model: {type(exc).__name__}: {first}"
            ) from None
        if len(_MODELS) >= _MODELS_KEPT:
            _MODELS.pop(next(iter(_MODELS)))
        _MODELS[key] = model
    return _MODELS[key]


def _model_sizes(model) -> tuple[int, int] | None:
    """(observation size, action count) of the model's spaces, which `act` checks the
    observations it is given against; None where they are not a vector and a count."""
    shape = tuple(getattr(model.observation_space, "shape", ()) or ())
    num_actions = getattr(model.action_space, "n", None)
    if len(shape) != 1 or num_actions is None:
        return None
    return int(shape[0]), int(num_actions)


def _check_spaces(model, path: Path, game: str) -> None:
    """Refuse a model whose observation or action count is not `game`'s (another game's model
    would fail, or play nonsense, mid-game)."""
    from huerta.envs.core.registry import get_game

    spec = get_game(game)
    obs_shape = tuple(getattr(model.observation_space, "shape", ()) or ())
    num_actions = getattr(model.action_space, "n", None)
    if obs_shape != (spec.observation_size,) or num_actions != spec.num_actions:
        raise InvalidConfigError(
            f"{path} was trained for observations of shape {obs_shape} and {num_actions} "
            f"actions; {spec.name} has ({spec.observation_size},) and {spec.num_actions}"
        )
