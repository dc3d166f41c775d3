"""Turning whatever a user passes as an opponent into something that picks actions.

An opponent may be an agent object with `act(observation, view=None)`, a plain callable taking the
observation dict, or a short code string such as "random", which only the caller's resolver turns
into an agent (`agent_codes`: `huerta.agents.make_agent`, which the Gymnasium ids' entry point
`huerta.agents.gym_env` hands over; the engine imports no agent). What it returns is checked
like a user's action (envs/core/validation.py): an int id, a numpy integer or a 0-d integer
array, legal now; anything else raises `IllegalActionError` naming the seat, the policy and the
value, before the game is touched.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from .engine import GameState
from .errors import IllegalActionError, InvalidConfigError, InvalidObservationError
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


def seat_opponents(opponents: Any, num_players: int) -> list[Any]:
    """One opponent for every seat but the learner's: `opponents` as a list of that length, or
    a single one (a code, an agent, a callable) repeated; another length is refused, naming the
    count to give."""
    count = num_players - 1
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        return [opponents] * count
    if len(opponents) != count:
        raise InvalidConfigError(
            f"{len(opponents)} opponents given for {num_players} players; "
            f"give {count} or a single one for every seat"
        )
    return list(opponents)


def make_policy(spec: Any, game: str, seed: int | None = None,
                agent_codes: AgentCodeResolver | None = None) -> Any:
    """A policy from an agent object, a callable or an agent code, which `agent_codes(code,
    game=..., seed=...)` turns into an agent (`huerta.agents.make_agent`); a code without a
    resolver is refused, saying how to get one."""
    if isinstance(spec, str):
        if agent_codes is None:
            raise InvalidConfigError(
                f"an opponent given as the agent code {spec!r}, but this env takes no agent "
                "codes: make it with gymnasium.make (huerta.agents resolves them), pass "
                "agent_codes=huerta.agents.make_agent, or pass an agent or a callable"
            )
        return agent_codes(spec, game=game, seed=seed)
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


NO_LEGAL_ACTION = "no legal action: the mask is all zeros — is the game over?"


@functools.cache
def game_sizes(game: str) -> tuple[str, int, int]:
    """(name, observation size, action count) of `game` (read from its spec once); an unknown
    game raises `InvalidConfigError` naming the valid ones."""
    from .registry import get_game

    spec = get_game(game)
    return spec.name, spec.observation_size, spec.num_actions


def check_observation(
    observation: Any,
    game: str | None = None,
    view: PlayerView | None = None,
    *,
    sizes: tuple[int, int] | None = None,
    reads_observation: bool = True,
    agent: Any = "the agent",
) -> dict[str, Any]:
    """Refuse what no action can be chosen from, before an agent tries: a non-dict, a missing
    'action_mask' (or 'observation', where the agent reads it), a mask or observation vector of
    another size than `game`'s (else `sizes`, (observation size, action count), else the mask
    of `view`'s game), a finished game (`view` terminal) or no legal action. Raises
    `InvalidObservationError` naming `agent` (a text, or an agent: its `label`, else its name),
    the input and the reason; returns the observation, its mask and vector as numpy arrays (the
    same dict when they are already).

    An agent that plays from the view (`reads_observation=False`: the heuristics, the searches)
    may be given no observation vector (or None); one that is given is checked all the same.
    Every move passes here, so it costs a shape compare and `mask.any()`."""
    try:
        return _checked(observation, game, view, sizes, reads_observation)
    except _Refusal as refusal:
        raise InvalidObservationError(f"{_agent_name(agent)} {refusal}") from None


class _Refusal(Exception):
    """Why `_checked` refuses an observation (the agent's name is put before it only then)."""


def _checked(observation: Any, game: str | None, view: PlayerView | None,
             sizes: tuple[int, int] | None, reads_observation: bool) -> dict[str, Any]:
    if type(observation) is not dict and not isinstance(observation, Mapping):
        raise _Refusal(
            f"cannot play {value_kind(observation)} {short_repr(observation)}: an observation "
            "is a dict with 'observation' and 'action_mask' (what the environments give)")
    if view is not None and view.is_terminal:
        raise _Refusal("was asked to act in a finished game (the view's game is over): there "
                       "is no action to choose")
    if "action_mask" not in observation:
        raise _missing("action_mask", observation, "the legal actions are read from it")
    if reads_observation and "observation" not in observation:
        raise _missing("observation", observation, "it chooses from that vector")
    if game is not None:
        where, obs_size, num_actions = game_sizes(game)
    elif sizes is not None:
        where, (obs_size, num_actions) = "its model", sizes
    elif view is not None:
        where, obs_size, num_actions = "the game in view", None, len(view.legal_mask())
    else:
        where, obs_size, num_actions = "the game", None, None
    mask = observation["action_mask"]
    if type(mask) is not np.ndarray:
        mask = _array(mask, "action_mask")
    if mask.ndim != 1 or (num_actions is not None and mask.shape[0] != num_actions):
        expected = f"({num_actions},): {where} has {num_actions} actions" \
            if num_actions is not None else "one value per action id"
        raise _Refusal(f"cannot play an 'action_mask' of shape {mask.shape}; expected {expected}")
    if mask.dtype.kind not in "biuf":
        raise _Refusal(f"cannot play an 'action_mask' of dtype {mask.dtype}: a mask holds 1 for "
                       "each legal action and 0 elsewhere")
    vector = observation.get("observation")
    if vector is not None or reads_observation:
        if type(vector) is not np.ndarray:
            vector = _array(vector, "observation")
        if vector.ndim != 1 or (obs_size is not None and vector.shape[0] != obs_size):
            expected = f"({obs_size},): {where}'s observation vector has {obs_size} values" \
                if obs_size is not None else "a vector"
            raise _Refusal(f"cannot play an 'observation' of shape {vector.shape}; expected "
                           f"{expected}")
    if not mask.any():
        raise _Refusal(f"cannot play: {NO_LEGAL_ACTION}")
    if mask is observation["action_mask"] and vector is observation.get("observation"):
        return observation  # type: ignore[return-value]
    checked = {**observation, "action_mask": mask}
    if vector is not None:
        checked["observation"] = vector
    return checked


def _missing(key: str, observation: Any, why: str) -> _Refusal:
    return _Refusal(f"cannot play an observation without the key {key!r} (its keys: "
                    f"{sorted(map(str, observation))}): {why}")


def _agent_name(agent: Any) -> str:
    """How a refusal names `agent`: the text given, else the agent's `label`, else its name
    (worked out only for the message: `check_observation` runs every move)."""
    if isinstance(agent, str):
        return agent
    label = getattr(agent, "label", None)
    return label if isinstance(label, str) and label else policy_name(agent)


def _array(value: Any, key: str) -> np.ndarray:
    """`value` of `key` as a numpy array (a list is read as one); None, a ragged list or an
    object that is no array are refused naming the key."""
    if value is not None and not isinstance(value, (str, bytes, Mapping)):
        try:
            array = np.asarray(value)
        except (ValueError, TypeError):
            pass
        else:
            if array.dtype != object:
                return array
    raise _Refusal(f"cannot play an {key!r} of {value_kind(value)} {short_repr(value)}: it "
                   "must be an array (a numpy array or a list of numbers)")


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
