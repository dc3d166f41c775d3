"""The checks of a run's settings: a value out of range is refused naming the setting, the value,
its type and what is valid (one wording for every method and backend)."""

from __future__ import annotations

import math
from numbers import Real

import numpy as np

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.validation import short_repr


def refuse(name: str, value: object, expected: str) -> None:
    """Raise `InvalidConfigError` naming the setting, its value and type, and what is valid."""
    raise InvalidConfigError(
        f"{name}={short_repr(value)} ({type(value).__name__}): expected {expected}"
    )


def is_int(value: object) -> bool:
    """Whether `value` is an integer (Python's or numpy's), booleans excluded."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _range_text(minimum: float, maximum: float | None, open_low: bool = False) -> str:
    def show(x: float) -> str:
        return str(x) if isinstance(x, int) else f"{x:g}"

    low = f"> {show(minimum)}" if open_low else f">= {show(minimum)}"
    return low if maximum is None else f"{low} and <= {show(maximum)}"


def checked_int(name: str, value: object, minimum: int, maximum: int | None = None) -> int:
    """`value` as an int in range; a float with an integral value (1e5 in JSON) is accepted."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not is_int(value) or value < minimum or (maximum is not None and value > maximum):
        refuse(name, value, "an integer " + _range_text(minimum, maximum))
    return int(value)


def checked_float(
    name: str, value: object, minimum: float, maximum: float | None, open_low: bool
) -> float:
    """`value` as a finite float in range (`open_low`: the minimum itself excluded)."""
    ok = isinstance(value, Real) and not isinstance(value, (bool, np.bool_))
    number = float(value) if ok else math.nan
    if (not math.isfinite(number) or number < minimum or (open_low and number == minimum)
            or (maximum is not None and number > maximum)):
        refuse(name, value, "a number " + _range_text(minimum, maximum, open_low))
    return number
