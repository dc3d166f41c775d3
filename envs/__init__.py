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

The ids' entry points are `huerta.agents.gym_env`'s (`make_single_agent_env`,
`make_vector_env`), where opponents given as agent codes ("random", "heuristic") become agents;
importing this package registers the ids and changes nothing else (the engine imports no agent).

Every Gymnasium id takes `render_mode` None, "ansi" (the text board), "human" (printed) or
"rgb_array" (a picture), all listed in the class's metadata, so `gymnasium.make` warns of none
of them.
"""

import pettingzoo
from gymnasium.envs.registration import register, registry

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


__all__ = [
    "CallOrderError", "CorruptRecordError", "IllegalActionError", "InvalidConfigError",
]
