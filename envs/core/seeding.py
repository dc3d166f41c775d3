"""One source of randomness per game: a `np.random.Generator`, never the global `random`."""

from __future__ import annotations

import numpy as np


def make_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """A generator from an int seed (reproducible), an existing generator, or fresh entropy."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise TypeError(f"seed must be an int, a numpy Generator or None, got {seed!r}")
    return np.random.default_rng(seed)


def draw_seed(rng: np.random.Generator) -> int:
    """A fresh 31-bit game seed drawn from `rng` (for records that must replay)."""
    return int(rng.integers(0, 2**31 - 1))
