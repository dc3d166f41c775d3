"""Errors every game raises, so callers can catch one type per kind of bad input."""

from __future__ import annotations


class HuertaError(Exception):
    """Base class of every error huerta raises on purpose."""


class IllegalActionError(HuertaError, ValueError):
    """An action that the current state does not allow; the state is left untouched.

    The message names the action (id and meaning) and the reason it is refused.
    """

    def __init__(self, action: object, reason: str, description: str | None = None) -> None:
        self.action = action
        self.reason = reason
        name = f"{action}" if description is None else f"{action} ({description})"
        super().__init__(f"illegal action {name}: {reason}")


class InvalidConfigError(HuertaError, ValueError):
    """A game or environment option with a value outside the valid ones (which it names)."""


class CallOrderError(HuertaError, RuntimeError):
    """A method called when the environment is not ready for it (before `reset()`, or once the
    game is over); the message says what to call first."""


class CorruptRecordError(HuertaError, ValueError):
    """A game record that cannot be read or replayed; the message says where it is corrupt."""


class InvalidObservationError(HuertaError, ValueError):
    """An observation an agent cannot choose an action from: not a dict, a key missing, a mask
    or observation vector of another size than the game's, no legal action, or a finished game;
    the message names the input and the reason."""
