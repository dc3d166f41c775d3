"""Claiming a run folder and resuming the run in it, the same way for every method and backend.

A new run claims its folder: a folder that already holds a run is refused unless the caller
forces it (that run's own files are removed, nothing else). A resumed run reads its saved
settings back (config.json), checked against this version's settings and the game asked for.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any, TypeVar

from huerta.envs.core.errors import InvalidConfigError

from .files import clear_run
from .layout import CONFIG_FILE
from .stop import START_AFRESH

Config = TypeVar("Config")


def check_resume_or_force(resume: bool, force: bool) -> None:
    """Refuse `resume` and `force` together."""
    if resume and force:
        raise InvalidConfigError("resume and force contradict each other: --resume continues "
                                 "the run in --out, --force replaces it")


def claim_run(run: Path, evidence: Callable[[Path], list[str]], force: bool,
              files: Iterable[str], folders: Iterable[str]) -> None:
    """Make `run` the folder of a new run: refused when `evidence(run)` finds a run there,
    unless `force`, which removes that run's `files` and `folders` (nothing else)."""
    found = evidence(run)
    if found and not force:
        raise InvalidConfigError(
            f"{run} already holds a run ({', '.join(found)}); use --resume to continue "
            "it, --force to replace it, or choose another --out"
        )
    if found:
        clear_run(run, files, folders)


def resumed_config(config: Config, run: Path, game: str,
                   overrides: Mapping[str, Any]) -> Config:
    """The settings saved in `run` as a `type(config)`, checked: `game` (the name of the game
    asked for) must be the run's; `out` and `progress` come from `config`, and every override
    that is not None from `overrides`. An RLlib config (`backend == "rllib"`) refuses a local
    run's settings and the other way round."""
    cls: Any = type(config)
    rllib = getattr(config, "backend", None) == "rllib"
    path = run / CONFIG_FILE
    if not path.exists():
        raise InvalidConfigError(f"nothing to resume: {path} does not exist{START_AFRESH}")
    try:
        saved = json.loads(path.read_text())
    except ValueError as exc:
        raise InvalidConfigError(f"{path}: not a valid run configuration: {exc}") from None
    valid = {f.name for f in fields(cls)}
    if rllib:
        if not isinstance(saved, dict) or saved.get("backend") != "rllib":
            raise InvalidConfigError(
                f"{run} holds an SB3 run, not an RLlib one; resume it without --backend rllib"
            )
        if set(saved) - valid:
            raise InvalidConfigError(f"{path}: unknown settings {sorted(set(saved) - valid)}")
    elif not isinstance(saved, dict) or set(saved) - valid:
        raise InvalidConfigError(f"{path}: not a run configuration of this version (unknown "
                                 f"settings {sorted(set(saved) - valid) if saved else saved})")
    if game != saved.get("game"):
        raise InvalidConfigError(
            f"{run} holds a {saved.get('game')} run, not {config.game}; "  # type: ignore[attr-defined]
            "resume it under its own game or choose another --out"
        )
    saved.setdefault("shared_layers", 0)  # runs from before the shared trunk: two networks
    saved.setdefault("imitation_games", 0)  # runs from before the warm start: none
    saved.setdefault("method", "ppo")  # runs from before the afterstate method
    saved.update({k: v for k, v in overrides.items() if v is not None})
    saved["out"] = config.out  # type: ignore[attr-defined]  # where the run is now
    saved["progress"] = config.progress  # type: ignore[attr-defined]
    return cls(**saved).check()
