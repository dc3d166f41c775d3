"""Checks of what users pass to the environments and engines, shared by the AEC env, the
Gymnasium view, the opponent policies and the games so they cannot drift: actions (also those an
opponent returns, and those passed to an engine's `apply`), seeds (also a game's
`new_game(seed=...)`), agent names, `max_steps`, numeric options, seats, game options and
`reset(options=...)`.

Every refusal raises one of huerta's errors (`IllegalActionError` for an action,
`InvalidConfigError` for an option or a seed, both `ValueError`s; `UnknownAgentError`, a
`KeyError`, for an agent name) whose message names the value passed (its repr) and what is
expected. The checks return the value in its plain Python form (a numpy integer becomes an
`int`), so what is recorded is JSON-safe.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from numbers import Real
from typing import Any

import numpy as np

from .errors import HuertaError, IllegalActionError, InvalidConfigError

ACTION_KINDS = "a Python int, a numpy integer or a 0-d integer array"
MAX_SEED = 2**63 - 1  # the largest seed a game record holds (a signed 64-bit int)
_REPR_LIMIT = 60


def short_repr(value: object) -> str:
    """`repr(value)`, cut short (with "...") when it is long, e.g. a whole array."""
    text = repr(value)
    return text if len(text) <= _REPR_LIMIT else text[:_REPR_LIMIT - 3] + "..."


def value_kind(value: object) -> str:
    """The type of `value` for messages; arrays also say their shape and dtype."""
    if isinstance(value, np.ndarray):
        return f"ndarray of shape {value.shape} and dtype {value.dtype}"
    return type(value).__name__


def is_int(value: object) -> bool:
    """True for a Python int (not a bool) or a numpy integer scalar."""
    return type(value) is int or (
        isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    )


def check_action(action: object, num_actions: int) -> int:
    """`action` as a Python int if it is one, a numpy integer scalar or a 0-d integer array.

    Anything else (a bool, a float, a string, bytes, a Fraction, a list, an array of another shape
    or dtype, None) raises `IllegalActionError` naming it; whether the id is in range and legal is
    the game's to say.
    """
    if type(action) is int:
        return action
    if is_int(action):  # numpy integers, and int subclasses such as IntEnum members
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    raise _refused_value(action, f"actions are integer ids 0-{num_actions - 1} ({ACTION_KINDS})")


def _refused_value(action: object, reason: str) -> IllegalActionError:
    """The error for a value that cannot be played: named by its short repr and its type, with
    the value itself kept as `error.action`."""
    error = IllegalActionError(short_repr(action), reason, value_kind(action))
    error.action = action
    return error


class UnknownAgentError(HuertaError, KeyError):
    """An agent name the environment does not have (`observe("player_9")`); the message names
    the valid agents. A `KeyError`, as the bare lookup that it replaces raised."""

    def __str__(self) -> str:  # the message as it is, not KeyError's repr of it
        return str(self.args[0]) if self.args else ""


def unknown_agent(agent: object, agents: Collection[str]) -> UnknownAgentError:
    """The error for an agent name not among `agents` (the environment's possible agents)."""
    error = UnknownAgentError(
        f"unknown agent {short_repr(agent)}; valid agents: {', '.join(agents)}"
    )
    error.agent = agent
    return error


def check_dead_action(action: object, agent: str) -> None:
    """A done (terminated or truncated) agent's step takes `None` only, as PettingZoo asks."""
    if action is not None:
        raise _refused_value(
            action,
            f"{agent} is done (terminated or truncated); step(None) is its only valid action",
        )


def check_seed(seed: object, name: str = "seed", generators: bool = False) -> Any:
    """`seed` as a Python int if it is an int from 0 to `MAX_SEED` (numpy integers too), or None;
    with `generators` (a game's `new_game`) a `np.random.Generator` too, returned as it is.

    Anything else (a negative or larger int, a bool, a float, a string) raises
    `InvalidConfigError` naming it. The bound is the largest seed a game record holds."""
    if seed is None or (type(seed) is int and 0 <= seed <= MAX_SEED):
        return seed
    if is_int(seed) and 0 <= seed <= MAX_SEED:
        return int(seed)
    if generators and isinstance(seed, np.random.Generator):
        return seed
    expected = "a non-negative int, a numpy Generator or None" if generators else (
        "a non-negative int or None"
    )
    raise InvalidConfigError(
        f"{name}={short_repr(seed)}; expected {expected} (ints at most 2**63 - 1)"
    )


def check_max_steps(max_steps: object, default: int) -> int:
    """`max_steps` as a positive Python int; None gives the game's `default`."""
    if max_steps is None:
        return default
    if is_int(max_steps) and max_steps >= 1:
        return int(max_steps)
    raise InvalidConfigError(
        f"max_steps={short_repr(max_steps)}; max_steps must be at least 1 and an int (agent "
        f"steps before the episode is truncated), or None for the game's default ({default})"
    )


def check_finite(name: str, value: object, optional: bool = False) -> float | None:
    """`value` as a float if it is a finite real number (not a bool); None too when `optional`."""
    if value is None and optional:
        return None
    if isinstance(value, Real) and not isinstance(value, (bool, np.bool_)):
        number = float(value)
        if math.isfinite(number):
            return number
    expected = "a finite number" + (" or None" if optional else "")
    raise InvalidConfigError(f"{name}={short_repr(value)}; expected {expected}")


def check_learner_seat(seat: object, num_players: int) -> int | None:
    """The learner's fixed seat as a Python int in 0 .. num_players - 1, or None (drawn)."""
    if seat is None:
        return None
    if is_int(seat) and 0 <= seat < num_players:
        return int(seat)
    seats = "0" if num_players == 1 else f"0-{num_players - 1}"
    raise InvalidConfigError(
        f"learner_seat={short_repr(seat)}; valid values: None (drawn per episode) or {seats}"
    )


def check_solo_players(num_players: object, gym_id: str, multi_id: str) -> int:
    """The solo game's player count: exactly 1 (an int, not True)."""
    if is_int(num_players) and num_players == 1:
        return 1
    raise InvalidConfigError(
        f"{gym_id}: num_players={short_repr(num_players)}; the solo game has one player: "
        f"valid values: 1 (use {multi_id} for more players)"
    )


def check_game_options(
    game: str, options: Mapping[str, Any], valid: Collection[str], env_options: Collection[str]
) -> dict[str, Any]:
    """The game's own options as a plain dict, unknown names refused naming the valid ones.

    `valid` are the game's option names, `env_options` the environment's own keyword names (named
    first in the message when given). Values are the game's to check when a game is set up (its
    messages name the valid values); numpy scalars become plain Python values here.
    """
    unknown = set(options) - set(valid)
    if unknown:
        own = ", ".join(valid) or "(none)"
        names = f"valid options: {', '.join(env_options)}, {own}" if env_options else (
            f"valid game options: {own}"
        )
        raise InvalidConfigError(
            f"{game}: unknown option(s) {sorted(map(str, unknown))}; {names}"
        )
    return {k: v.item() if isinstance(v, np.generic) else v for k, v in options.items()}


def check_reset_options(
    options: object, accepted: Collection[str] = (), ignored: Collection[str] = ()
) -> dict[str, Any]:
    """`reset(options=...)` as a dict: None or a dict whose keys are all `accepted` (or
    `ignored`); anything else is refused naming the accepted keys."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InvalidConfigError(
            f"reset(options={short_repr(options)}); expected a dict or None"
        )
    unknown = [k for k in options if k not in accepted and k not in ignored]
    if unknown:
        valid = ", ".join(map(str, accepted)) or "none (pass None or {})"
        raise InvalidConfigError(
            f"reset(options=...): unknown key(s) {', '.join(sorted(map(repr, unknown)))}; "
            f"valid keys: {valid}"
        )
    return {k: v for k, v in options.items() if k in accepted}
