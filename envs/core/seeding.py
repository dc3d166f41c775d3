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


# game seeds are drawn below 2**53: every one is exact as a JSON number in any reader (JavaScript,
# jq), and 2**53 values make two reset seeds that deal the same game vanishingly rare (odds of a
# repeat among a million resets: about 1 in 18,000), where 2**31 repeated 8 times below 200,000
GAME_SEED_LIMIT = 2**53


def draw_seed(rng: np.random.Generator) -> int:
    """A fresh game seed drawn from `rng`, 0 to `GAME_SEED_LIMIT` - 1: the env records it and
    `new_game(seed)` replays it, and so many values that different reset seeds deal different
    games."""
    return int(rng.integers(0, GAME_SEED_LIMIT))
