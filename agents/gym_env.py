"""The Gymnasium entry points of huerta's ids, where agent codes can be resolved.

`gymnasium.make("huerta/Finca-v0", opponents="heuristic")` calls `make_single_agent_env` and
`gymnasium.make_vec(..., vectorization_mode="vector_entry_point")` calls `make_vector_env`; each
builds the env of `huerta.envs` with `make_agent` as its agent-code resolver. The envs
themselves (`SingleAgentEnv`, `BoardGameVectorEnv`) take agents and callables, and take codes
only from the resolver they are handed: the engine imports no agent, and importing
`huerta.envs` installs nothing anywhere (it registers the ids, naming these functions by their
dotted paths).
"""

from __future__ import annotations

from typing import Any

from huerta.envs.core.single_agent import SingleAgentEnv
from huerta.envs.core.vector_env import BoardGameVectorEnv

from .registry import make_agent


def make_single_agent_env(**kwargs: Any) -> SingleAgentEnv:
    """The single-agent env of `kwargs` (see `SingleAgentEnv`), its opponents given as agents,
    callables or agent codes ("random", "heuristic", ...; see `huerta.agents.agent_codes`)."""
    kwargs.setdefault("agent_codes", make_agent)
    return SingleAgentEnv(**kwargs)


# gymnasium.make reads the render modes from its creator's metadata (the class's, every game's)
make_single_agent_env.metadata = SingleAgentEnv.metadata  # type: ignore[attr-defined]


def make_vector_env(**kwargs: Any) -> BoardGameVectorEnv:
    """The batched env of `kwargs` (see `BoardGameVectorEnv`), its opponents given as agents,
    callables, batch policies or agent codes."""
    kwargs.setdefault("agent_codes", make_agent)
    return BoardGameVectorEnv(**kwargs)


make_vector_env.metadata = BoardGameVectorEnv.metadata  # type: ignore[attr-defined]
