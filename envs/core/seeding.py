"""One source of randomness per game: a `np.random.Generator`, never the global `random`."""

from __future__ import annotations

import numpy as np

from .errors import InvalidConfigError
from .validation import is_int, short_repr


def make_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """A generator from a non-negative int seed (reproducible), an existing generator, or fresh
    entropy (None); anything else raises `InvalidConfigError` naming it."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or (type(seed) is int and seed >= 0):
        return np.random.default_rng(seed)
    if is_int(seed) and seed >= 0:
        return np.random.default_rng(int(seed))
    raise InvalidConfigError(
        f"seed={short_repr(seed)}; expected a non-negative int, a numpy Generator or None"
    )


def draw_seed(rng: np.random.Generator) -> int:
    """A fresh 31-bit game seed drawn from `rng` (for records that must replay)."""
    return int(rng.integers(0, 2**31 - 1))
