"""A policy trained with `huerta train GAME --backend rllib` as an agent (`rllib:PATH`).

PATH is a run folder (its `best_policy/`, else `final_policy/`), a policy folder (an RLModule
checkpoint with `huerta_policy.json`) or an RLlib algorithm checkpoint (its `main` module). The
module is loaded with `RLModule.from_checkpoint` (Ray RLlib must be installed: the `ray` extra;
no Ray cluster is needed) and plays the legal action it rates highest (or samples from its masked
distribution with `deterministic=False`). A loaded module is kept per process, so tournaments,
which build agents game after game, load each file once.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.view import PlayerView

from .base import Agent

POLICY_FILE = "huerta_policy.json"
MODULE_FILES = ("class_and_ctor_args.pkl",)
RUN_POLICIES = ("best_policy", "final_policy")
CHECKPOINT_MODULE = Path("learner_group", "learner", "rl_module", "main")
USAGE = ("rllib:PATH, PATH a run folder of `huerta train --backend rllib` (its best_policy), a "
         "policy folder or an RLlib checkpoint")

_LOADED: dict[tuple[str, int], Any] = {}


def rllib_policy_path(arg: str | None) -> Path:
    """The RLModule folder of `rllib:PATH`; a missing or unfit path is refused saying why."""
    if not arg:
        raise InvalidConfigError(f"the rllib agent needs a policy path: {USAGE}")
    path = Path(arg).expanduser()
    if not path.exists():
        raise InvalidConfigError(f"rllib:{arg}: no trained policy at {path}")
    if not path.is_dir():
        raise InvalidConfigError(f"rllib:{arg}: {path} is a file; {USAGE}")
    for candidate in (*(path / p for p in RUN_POLICIES), path / CHECKPOINT_MODULE, path):
        if all((candidate / f).is_file() for f in MODULE_FILES):
            return candidate
    raise InvalidConfigError(
        f"rllib:{arg}: {path} holds no RLlib policy (no best_policy/ or final_policy/ of a run, "
        f"no RLModule checkpoint with {MODULE_FILES[0]})"
    )


def check_rllib_policy(path: Path, game: str | None = None) -> dict[str, Any]:
    """Refuse, without loading it, a policy saved for another game (huerta_policy.json's sizes;
    a bare RLlib checkpoint has none and is checked when loaded); return that file's fields."""
    info_path = path / POLICY_FILE
    if not info_path.is_file():
        return {}
    try:
        info = json.loads(info_path.read_text())
        sizes = (int(info["observation_size"]), int(info["num_actions"]))
    except (ValueError, KeyError, TypeError, OSError) as exc:
        raise InvalidConfigError(f"{info_path} is damaged ({type(exc).__name__}: {exc})") from None
    if game is not None:
        from huerta.envs.core.registry import get_game

        spec = get_game(game)
        if sizes != (spec.observation_size, spec.num_actions):
            raise InvalidConfigError(
                f"{path} was trained for {sizes[0]} observations and {sizes[1]} actions "
                f"({info.get('game')}); {spec.name} has {spec.observation_size} and "
                f"{spec.num_actions}: a policy of another game"
            )
    return info


def check_ray_installed() -> None:
    """Refuse the rllib agent early when Ray RLlib is missing (no import: a cheap look-up)."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        raise InvalidConfigError("the rllib agent needs Ray RLlib: pip install 'huerta[ray]'")


def load_module(path: Path) -> Any:
    """The RLModule saved at `path` (loaded once per process and file version)."""
    key = (str(path.resolve()), (path / MODULE_FILES[0]).stat().st_mtime_ns)
    if key not in _LOADED:
        check_ray_installed()
        try:
            from ray.rllib.core.rl_module.rl_module import RLModule

            with quiet_deprecations():  # RLlib warns about its own internals when loading
                # Ray reads a checkpoint by URI: a relative path has no scheme, so it goes absolute
                module = RLModule.from_checkpoint(path.resolve())
        except ImportError as exc:
            raise InvalidConfigError(f"the rllib agent needs Ray RLlib: pip install "
                                     f"'huerta[ray]' ({exc})") from None
        except Exception as exc:  # a damaged checkpoint fails in many ways inside torch and Ray
            first = (str(exc).strip().splitlines() or [""])[0][:200]
            raise InvalidConfigError(
                f"{path} cannot be loaded as an RLlib policy: {type(exc).__name__}: {first}"
            ) from None
        module.eval()
        if len(_LOADED) >= 4:  # a few policies per process: a tournament's line-ups
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = module
    return _LOADED[key]


@contextlib.contextmanager
def quiet_deprecations() -> Iterator[None]:
    """Silence RLlib's deprecation warnings about its own internals while loading a module."""
    logger = logging.getLogger("ray._common.deprecation")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


class RLlibAgent(Agent):
    """A masked RLModule (observations dict `{"observations", "action_mask"}`) as an agent."""

    name = "rllib"

    def __init__(self, path: str | Path | None = None, seed: int | None = None,
                 deterministic: bool = True, game: str | None = None,
                 module: Any = None) -> None:
        super().__init__(seed)
        if module is None:
            policy = rllib_policy_path(str(path))
            check_rllib_policy(policy, game)
            module = load_module(policy)
            self.path: Path | None = policy
        else:
            self.path = None
        self.module = module
        self.deterministic = deterministic
        if game is not None:
            _check_spaces(module, self.path, game)
        self.game = game
        self.sizes = _module_sizes(module)

    def logits(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The module's logits for one observation, -inf where masked."""
        import torch
        from ray.rllib.core.columns import Columns

        mask = np.asarray(mask)
        batch = {Columns.OBS: {
            "observations": torch.as_tensor(np.asarray(observation, np.float32))[None],
            "action_mask": torch.as_tensor(mask.astype(np.float32))[None],
        }}
        with torch.no_grad():
            out = self.module.forward_inference(batch)
        logits = out[Columns.ACTION_DIST_INPUTS][0].double().numpy()
        return np.where(mask > 0, logits, -np.inf)

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        logits = self.logits(observation["observation"], observation["action_mask"])
        if self.deterministic:
            return int(np.argmax(logits))
        weights = np.exp(logits - logits.max())
        return int(self.rng.choice(len(weights), p=weights / weights.sum()))


def _spaces(module: Any) -> tuple[tuple[int, ...], int | None]:
    """(observation shape, action count) of a module's spaces (its observation space's
    "observations" part, beside the mask)."""
    space = getattr(module, "observation_space", None)
    inner = space["observations"] if hasattr(space, "spaces") and "observations" in space.spaces \
        else space
    obs_shape = tuple(getattr(inner, "shape", ()) or ())
    return obs_shape, getattr(getattr(module, "action_space", None), "n", None)


def _module_sizes(module: Any) -> tuple[int, int] | None:
    """(observation size, action count) of the module, which `act` checks the observations it
    is given against; None where its spaces are not a vector and a count."""
    obs_shape, num_actions = _spaces(module)
    if len(obs_shape) != 1 or num_actions is None:
        return None
    return int(obs_shape[0]), int(num_actions)


def _check_spaces(module: Any, path: Path | None, game: str) -> None:
    """Refuse a module whose observation or action count is not `game`'s."""
    from huerta.envs.core.registry import get_game

    spec = get_game(game)
    obs_shape, num_actions = _spaces(module)
    if obs_shape != (spec.observation_size,) or num_actions != spec.num_actions:
        raise InvalidConfigError(
            f"{path or 'the module'} was trained for observations of shape {obs_shape} and "
            f"{num_actions} actions; {spec.name} has ({spec.observation_size},) and "
            f"{spec.num_actions}"
        )
