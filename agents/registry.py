"""Agents made from short codes such as "random" (more codes arrive with more agents)."""

from __future__ import annotations

from collections.abc import Callable

from huerta.envs.core.errors import InvalidConfigError

from .base import Agent
from .random_agent import RandomAgent

AGENT_FACTORIES: dict[str, Callable[..., Agent]] = {
    "random": lambda game, seed, arg: RandomAgent(seed=seed),
}


def agent_codes() -> list[str]:
    """Every known agent code."""
    return list(AGENT_FACTORIES)


def make_agent(code: str, game: str = "finca", seed: int | None = None) -> Agent:
    """An agent from a code `name` or `name:argument`; unknown codes name the valid ones."""
    name, _, arg = str(code).partition(":")
    key = name.strip().lower()
    if key not in AGENT_FACTORIES:
        raise InvalidConfigError(
            f"unknown agent code {code!r}; valid codes: {', '.join(AGENT_FACTORIES)}"
        )
    return AGENT_FACTORIES[key](game, seed, arg or None)
