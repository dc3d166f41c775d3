"""Turning whatever a user passes as an opponent into something that picks actions.

An opponent may be an agent object with `act(observation, view=None)`, a plain callable taking the
observation dict, or a short code string such as "random", which the resolver that `huerta.envs`
sets up hands to `huerta.agents` (the engine imports no agent). What it
returns is checked like a user's action (envs/core/validation.py): an int id, a numpy integer or a
0-d integer array, legal now; anything else raises `IllegalActionError` naming the seat, the
policy and the value, before the game is touched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from .engine import GameState
from .errors import IllegalActionError, InvalidConfigError
from .validation import check_action, short_repr, value_kind
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
        return self.f(observation)  # checked by policy_action, never coerced


AgentCodeResolver = Callable[..., Any]  # (code, game=..., seed=...) -> agent

# how an agent code string becomes an agent: set by `huerta.envs` (huerta.agents' make_agent,
# imported on first use); the engine itself knows no agent
_agent_code_resolver: AgentCodeResolver | None = None


def set_agent_code_resolver(resolver: AgentCodeResolver | None) -> AgentCodeResolver | None:
    """Make `resolver(code, game=..., seed=...)` turn agent code strings into agents (None: no
    codes taken); returns the resolver it replaces."""
    global _agent_code_resolver
    previous, _agent_code_resolver = _agent_code_resolver, resolver
    return previous


def make_policy(spec: Any, game: str, seed: int | None = None) -> Any:
    """A policy from an agent object, a callable or an agent code (see `huerta.agents`)."""
    if isinstance(spec, str):
        if _agent_code_resolver is None:
            raise InvalidConfigError(
                f"an opponent given as the agent code {spec!r}, but no agent codes are set up "
                "(huerta.envs.core.policies.set_agent_code_resolver); pass an agent or a callable"
            )
        return _agent_code_resolver(spec, game=game, seed=seed)
    if hasattr(spec, "act"):
        return spec
    if callable(spec):
        return CallablePolicy(spec)
    raise TypeError(f"an opponent must be an agent, a callable or an agent code; got {spec!r}")


def policy_action(policy: Any, state: GameState, player: int, obs: dict[str, np.ndarray]) -> int:
    """Ask `policy` for `player`'s action, giving a view only to agents that search.

    The action comes back as a Python int, legal in `state` (by `obs["action_mask"]`, or the
    state's mask when the observation has none); anything else raises `IllegalActionError` naming
    the seat, the policy and the value, and `state` is left as it was."""
    if getattr(policy, "needs_view", False):
        action = policy.act(obs, PlayerView(state, player))
    else:
        action = policy.act(obs)
    mask = obs.get("action_mask") if isinstance(obs, dict) else None
    if mask is None:
        mask = state.legal_mask()
    if type(action) is not int:
        try:
            action = check_action(action, len(mask))
        except IllegalActionError as exc:
            raise _refused(policy, player, action, exc.reason, value_kind(action)) from None
    if not 0 <= action < len(mask) or not mask[action]:
        raise _illegal(policy, state, player, action)
    return action


def policy_name(policy: Any) -> str:
    """How messages name a policy: its `name`, else its type."""
    name = getattr(policy, "name", None)
    return name if isinstance(name, str) and name else type(policy).__name__


def _refused(
    policy: Any, player: int, value: object, reason: str, description: str | None = None
) -> IllegalActionError:
    error = IllegalActionError(
        short_repr(value),
        f"returned by the policy playing seat {player} ({policy_name(policy)}); {reason}",
        description,
    )
    error.action = value
    return error


def _illegal(policy: Any, state: GameState, player: int, action: int) -> IllegalActionError:
    """The game's own refusal of a well-typed but masked id (out of range included), with the
    seat and the policy named; a copy is asked, so `state` is untouched."""
    try:
        state.clone().apply(action)
    except IllegalActionError as exc:
        return _refused(policy, player, action, exc.reason, _describe(state, action))
    # the mask said no but the game took it: say what the mask says
    return _refused(policy, player, action, "the action mask marks it illegal now")


def _describe(state: GameState, action: int) -> str | None:
    """The action's meaning now, or None when the game cannot name it (out of range)."""
    try:
        return state.describe(action)
    except Exception:  # naming the action must not hide the real error
        return None
