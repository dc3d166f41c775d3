"""Turning whatever a user passes as an opponent into something that picks actions.

An opponent may be an agent object with `act(observation, view=None)`, a plain callable taking the
observation dict, or a short code string such as "random" resolved by `huerta.agents`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from .engine import GameState
from .view import PlayerView


class Policy(Protocol):
    """Anything that returns a legal action id for the acting player."""

    def act(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int: ...


class CallablePolicy:
    """Wraps `f(observation) -> action` as a policy."""

    def __init__(self, f: Callable[[dict[str, np.ndarray]], int]) -> None:
        self.f = f
        self.name = getattr(f, "__name__", "callable")

    def act(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        return int(self.f(observation))


def make_policy(spec: Any, game: str, seed: int | None = None) -> Any:
    """A policy from an agent object, a callable or an agent code (see `huerta.agents`)."""
    if isinstance(spec, str):
        from huerta.agents import make_agent

        return make_agent(spec, game=game, seed=seed)
    if hasattr(spec, "act"):
        return spec
    if callable(spec):
        return CallablePolicy(spec)
    raise TypeError(f"an opponent must be an agent, a callable or an agent code; got {spec!r}")


def policy_action(policy: Any, state: GameState, player: int, obs: dict[str, np.ndarray]) -> int:
    """Ask `policy` for `player`'s action, giving a view only to agents that search."""
    if getattr(policy, "needs_view", False):
        return int(policy.act(obs, PlayerView(state, player)))
    return int(policy.act(obs))
