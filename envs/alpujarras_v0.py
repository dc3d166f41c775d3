"""PettingZoo-style entry module: `from huerta.envs import alpujarras_v0; alpujarras_v0.env()`.

`alpujarras_v0.env(num_players=1)` is the solo game against Zara.
"""

from .alpujarras.env import env, raw_env

__all__ = ["env", "raw_env"]
