"""The one dispatcher of the training methods: `train` runs any `Method` on its run folder.

It chooses the method from the settings (an `RLlibTrainConfig`: RLlib; else
`TrainConfig.method`) and does what every method shares through the run-folder layer (see
base.py), recording each session's source commit and libraries in provenance.json (the methods
copy them into the models they write). Nothing imports it but the command line and the callers
of the library; no method imports it back.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from huerta.envs.core.registry import get_game

from ..config import TRAIN_ALIASES, TrainConfig
from ..runs import (
    Stop,
    check_resume_or_force,
    claim_run,
    local_run_evidence,
    record_session,
    resumed_config,
    rllib_run_evidence,
    signals_caught,
    write_json,
)
from ..runs.layout import (
    CONFIG_FILE,
    LOCAL_RUN_FILES,
    LOCAL_RUN_FOLDERS,
    RLLIB_RUN_FILES,
    RLLIB_RUN_FOLDERS,
)
from ..threads import update_threads
from .afterstate import Afterstate
from .base import Method
from .cem import CEM
from .ppo import PPO

LOCAL_METHODS: dict[str, Method] = {m.name: m for m in (PPO(), Afterstate(), CEM())}


def is_rllib(config: Any) -> bool:
    """Whether `config` is an RLlib run's settings (`RLlibTrainConfig`, `backend: "rllib"`)."""
    return getattr(config, "backend", None) == "rllib"


def method_for(config: Any, ray_address: str | None = None) -> Method:
    """The method that trains checked settings `config`."""
    if is_rllib(config):
        from .rllib import RLlib

        return RLlib(ray_address)
    return LOCAL_METHODS[config.method]


def resumed(config: TrainConfig, run: Path,
            overrides: Mapping[str, Any] | None = None) -> TrainConfig:
    """The settings saved in `run`, for a resume asked with `config`: the run's own, checked;
    `out` and `progress` from `config`; from the others, those `overrides` gives (not None),
    by default a local run's `steps`, `cem_generations` and `threads` from `config`."""
    game = config.game
    if isinstance(game, str):
        game = TRAIN_ALIASES[game][0] if game in TRAIN_ALIASES else get_game(game).name
    if overrides is None:
        overrides = ({} if is_rllib(config) else
                     {"steps": config.steps, "cem_generations": config.cem_generations,
                      "threads": config.threads})
    return resumed_config(config, run, game, overrides)


def train(config: TrainConfig, resume: bool = False, force: bool = False, *,
          ray_address: str | None = None,
          overrides: Mapping[str, Any] | None = None) -> Path:
    """Run (or resume) a training run of any method; return the run folder.

    A folder that already holds a run is refused unless `resume` (continue it: its saved
    settings, its target unless `config.steps` is set; an RLlib run takes `overrides`, e.g.
    `steps`, `env_runners` and `envs`) or `force` (remove that run's files and start afresh).
    `ray_address` names the Ray cluster of an RLlib run (None: a local Ray). SIGINT or SIGTERM
    saves what was finished and raises `TrainingInterrupted`.
    """
    started = time.monotonic()
    rllib = is_rllib(config)
    check_resume_or_force(resume, force)
    run = Path(config.out)
    if resume:
        config = resumed(config, run, overrides)
        method = method_for(config, ray_address)
        method.check_resumable(config, run)
    else:
        config.check()
        if rllib:
            claim_run(run, rllib_run_evidence, force, RLLIB_RUN_FILES, RLLIB_RUN_FOLDERS)
        else:
            claim_run(run, local_run_evidence, force, LOCAL_RUN_FILES, LOCAL_RUN_FOLDERS)
        method = method_for(config, ray_address)
    if not rllib:
        import torch

        # small MLPs: a second thread costs more than it gains (the fits set their own)
        torch.set_num_threads(update_threads(config.threads))
    for sub in method.folders:
        (run / sub).mkdir(parents=True, exist_ok=True)
    write_json(run / CONFIG_FILE, asdict(config))
    record_session(run, resumed=resume)
    stop = Stop()
    with signals_caught(stop):
        count = method.train(config, run, stop, resume)
    print(method.finish(config, run, count, time.monotonic() - started), flush=True)
    return run
