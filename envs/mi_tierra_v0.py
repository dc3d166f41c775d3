"""PettingZoo-style entry module:
`from huerta.envs import mi_tierra_v0; env = mi_tierra_v0.env(num_players=3)`."""

from .mi_tierra.env import env, raw_env

__all__ = ["env", "raw_env"]
