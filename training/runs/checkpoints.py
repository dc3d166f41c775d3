"""A run's checkpoints: where they go, which to resume from, and how many are kept.

A local (SB3) run keeps checkpoints/model_<steps>.zip at its schedule, the newest
`AUTO_CHECKPOINTS_KEPT` auto_<steps>.zip (taken after a session's first update, on a timer and
on a signal) and latest.zip, a copy of the newest. An RLlib run keeps folders
checkpoints/step_<steps>/, complete once their league.json is written (layout.py).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from .files import copy_atomic, save_atomically, write_json
from .layout import CHECKPOINTS, LEAGUE_FILE, RLLIB_CHECKPOINT_PREFIX, rllib_checkpoints

AUTO_CHECKPOINTS_KEPT = 2  # auto_<steps>.zip files kept (model_<steps>.zip are all kept)
LATEST = "latest.zip"


def checkpoint_steps(path: Path) -> int | None:
    """The step count in a checkpoint's name (model_<steps>.zip, auto_<steps>.zip), else None."""
    kind, _, digits = path.stem.partition("_")
    return int(digits) if kind in ("model", "auto") and digits.isdigit() else None


def save_checkpoint(write: Callable[[BinaryIO], Any], steps: int, run: Path, kind: str) -> Path:
    """Save checkpoints/<kind>_<steps>.zip through `write` (a model's `save`), atomically, and
    copy it to latest.zip; keep the newest `AUTO_CHECKPOINTS_KEPT` auto ones."""
    folder = run / CHECKPOINTS
    path = folder / f"{kind}_{steps:09d}.zip"
    save_atomically(path, write)
    copy_atomic(path, folder / LATEST)
    if kind == "auto":
        autos = sorted(folder.glob("auto_*.zip"), key=lambda p: checkpoint_steps(p) or -1)
        for old in autos[:-AUTO_CHECKPOINTS_KEPT]:
            old.unlink(missing_ok=True)
    return path


def resume_candidates(run: Path) -> list[Path]:
    """The checkpoints a resume tries, in order: latest.zip, then the others newest first."""
    folder = Path(run) / CHECKPOINTS
    latest = folder / LATEST
    others = [p for p in folder.glob("*.zip") if checkpoint_steps(p) is not None]
    others.sort(key=lambda p: (checkpoint_steps(p), p.name.startswith("model")), reverse=True)
    return ([latest] if latest.exists() else []) + others


def save_folder_checkpoint(write: Callable[[Path], Any], run: Path, league: dict[str, Any],
                           kept: int) -> Path:
    """Save an RLlib checkpoint at `league["steps"]` as checkpoints/step_<steps>/ through
    `write(folder)` (league.json last, so a folder without it is incomplete and ignored); keep
    the newest `kept`."""
    folder = run / CHECKPOINTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{RLLIB_CHECKPOINT_PREFIX}{league['steps']:09d}"
    tmp = folder / f".{path.name}.{os.getpid()}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    write(tmp)
    write_json(tmp / LEAGUE_FILE, league)
    shutil.rmtree(path, ignore_errors=True)
    os.replace(tmp, path)
    for old in rllib_checkpoints(run)[kept:]:
        shutil.rmtree(old, ignore_errors=True)
    return path
