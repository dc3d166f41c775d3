"""Masked self-play PPO on Ray RLlib (`huerta train GAME --backend rllib`), and the games as RLlib
environments. Importing it imports Ray (the `ray` extra); the rest of huerta never does.

    env.py       the games as RLlib multi-agent envs (`register`, `make_env`), the league seats
    module.py    the masked RLModule, its spec, a trained module saved for `rllib:PATH`
    config.py    `RLlibTrainConfig`
    league.py    `main` against its snapshots: the mapping, the metrics, the `PPOConfig`
    metrics.py   the scalars of each training iteration
    trainer.py   the training loop of a run folder (the `rllib` method of
                 `huerta.training.methods` runs it)
"""

from __future__ import annotations

from ..ray_cluster import connect
from .config import RLlibTrainConfig
from .env import ENV_NAMES, make_env, register
from .league import MAIN, LeagueMapping, should_snapshot
from .module import MaskedPPOTorchRLModule, module_spec, save_policy
from .trainer import evaluate_agent

__all__ = [
    "ENV_NAMES", "MAIN", "LeagueMapping", "MaskedPPOTorchRLModule",
    "RLlibTrainConfig", "connect", "evaluate_agent", "make_env", "module_spec", "register",
    "save_policy", "should_snapshot",
]
