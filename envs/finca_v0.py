"""PettingZoo-style entry module: `from huerta.envs import finca_v0; env = finca_v0.env()`."""

from .finca.env import env, raw_env

__all__ = ["env", "raw_env"]
