"""huerta's game environments. Importing this package registers each game under one id, in
Gymnasium's registry (the single-agent env, `gymnasium.make`) and in PettingZoo's AEC registry
(the multi-agent env, `pettingzoo.make("aec", id)`), as the games' specs declare them
(`huerta.envs.core.registry.gym_ids`, `pettingzoo_ids`):

- `huerta/Finca-v0`: Finca, 2-4 players, one learner against opponent policies.
- `huerta/Alpujarras-v0`: Alpujarras, 2-4 players (1 = solo), one learner against opponents.
- `huerta/AlpujarrasSolo-v0`: the solo game against the scripted Zara (options `double_turns`,
  `star_sides`).
- `huerta/MiTierra-v0`: Mi Tierra, 2-4 players, likewise.

`gymnasium.make_vec("huerta/Finca-v0", num_envs=64, vectorization_mode="vector_entry_point",
opponents="heuristic")` steps 64 games in one process (`huerta.envs.core.vector_env`);
`pettingzoo.make("aec", "huerta/Finca-v0", num_players=3)` gives the same env as
`huerta.envs.finca_v0.env(num_players=3)`; `huerta/AlpujarrasSolo-v0` is the solo game.

Every Gymnasium id takes `render_mode` None, "ansi" (the text board), "human" (printed) or
"rgb_array" (a picture), all listed in the class's metadata, so `gymnasium.make` warns of none
of them.
"""

import pettingzoo
from gymnasium.envs.registration import register, registry

from .core import policies as _policies
from .core.errors import (
    CallOrderError,
    CorruptRecordError,
    IllegalActionError,
    InvalidConfigError,
)
from .core.registry import VECTOR_ENTRY_POINT as _VECTOR_ENTRY_POINT
from .core.registry import gym_ids as _gym_ids
from .core.registry import pettingzoo_ids as _pettingzoo_ids

# every game's ids, from its GameSpec (gym_id, variants): id -> (entry point, kwargs)
_GYM_IDS = _gym_ids()

for _env_id, (_entry_point, _kwargs) in _GYM_IDS.items():
    if _env_id not in registry:
        register(
            id=_env_id,
            entry_point=_entry_point,
            kwargs=_kwargs,
            vector_entry_point=_VECTOR_ENTRY_POINT,
            disable_env_checker=False,
        )

# every game's PettingZoo AEC id (the same names): id -> (entry point, kwargs)
for _env_id, (_entry_point, _kwargs) in _pettingzoo_ids().items():
    if _env_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", _env_id, entry_point=_entry_point, kwargs=_kwargs)


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
