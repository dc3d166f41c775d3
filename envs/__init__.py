"""huerta's game environments. Importing this package registers the Gymnasium ids, one per
game and one per variant, as the games' specs declare them (`huerta.envs.core.registry.gym_ids`):

- `huerta/Finca-v0`: Finca, 2-4 players, one learner against opponent policies.
- `huerta/Alpujarras-v0`: Alpujarras, 2-4 players (1 = solo), one learner against opponents.
- `huerta/AlpujarrasSolo-v0`: the solo game against the scripted Zara (options `double_turns`,
  `star_sides`).
- `huerta/MiTierra-v0`: Mi Tierra, 2-4 players, likewise.

Every id takes `render_mode` None, "ansi" (the text board), "human" (printed) or "rgb_array" (a
picture), all listed in the class's metadata, so `gymnasium.make` warns of none of them.
"""

from gymnasium.envs.registration import register, registry

from .core import policies as _policies
from .core.errors import (
    CallOrderError,
    CorruptRecordError,
    IllegalActionError,
    InvalidConfigError,
)
from .core.registry import gym_ids as _gym_ids

# every game's ids, from its GameSpec (gym_id, variants): id -> (entry point, kwargs)
_GYM_IDS = _gym_ids()

for _env_id, (_entry_point, _kwargs) in _GYM_IDS.items():
    if _env_id not in registry:
        register(
            id=_env_id,
            entry_point=_entry_point,
            kwargs=_kwargs,
            disable_env_checker=False,
        )


def _agent_from_code(code: str, game: str, seed: int | None = None):
    """An opponent given as an agent code ("random", "heuristic", ...) to an env: huerta.agents'
    own `make_agent`, imported on first use. The wiring lives here, in the package, so that the
    engine (huerta.envs.core) imports no agent."""
    from huerta.agents import make_agent

    return make_agent(code, game=game, seed=seed)


_policies.set_agent_code_resolver(_agent_from_code)

__all__ = [
    "CallOrderError", "CorruptRecordError", "IllegalActionError", "InvalidConfigError",
]
