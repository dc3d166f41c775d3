"""huerta's game environments. Importing this package registers the Gymnasium ids:

- `huerta/Finca-v0`: Finca, 2-4 players, one learner against opponent policies.
- `huerta/Alpujarras-v0`: Alpujarras, 2-4 players (1 = solo), one learner against opponents.
- `huerta/AlpujarrasSolo-v0`: the solo game against the scripted Zara (options `double_turns`,
  `star_sides`).
- `huerta/MiTierra-v0`: Mi Tierra, 2-4 players, likewise.

Every id takes `render_mode` None, "ansi" (the text board), "human" (printed) or "rgb_array" (a
picture), all listed in the class's metadata, so `gymnasium.make` warns of none of them.
"""

from gymnasium.envs.registration import register, registry

from .core.errors import (
    CallOrderError,
    CorruptRecordError,
    IllegalActionError,
    InvalidConfigError,
)

_SINGLE_AGENT = "huerta.envs.core.single_agent:SingleAgentEnv"
_GYM_IDS = {  # id -> (entry point, kwargs)
    "huerta/Finca-v0": (_SINGLE_AGENT, {"game": "finca"}),
    "huerta/Alpujarras-v0": (_SINGLE_AGENT, {"game": "alpujarras"}),
    # the solo view refuses any num_players but 1
    "huerta/AlpujarrasSolo-v0": (
        "huerta.envs.alpujarras.env:SoloSingleAgentEnv", {"game": "alpujarras", "num_players": 1}
    ),
    "huerta/MiTierra-v0": (_SINGLE_AGENT, {"game": "mi_tierra"}),
}

for _env_id, (_entry_point, _kwargs) in _GYM_IDS.items():
    if _env_id not in registry:
        register(
            id=_env_id,
            entry_point=_entry_point,
            kwargs=_kwargs,
            disable_env_checker=False,
        )

__all__ = [
    "CallOrderError", "CorruptRecordError", "IllegalActionError", "InvalidConfigError",
]
