"""How big the random property runs are: HUERTA_FULL=1 (set by .ci/run) switches on the full size.

A module of its own, imported by name (`from budgets import games`), rather than a name in
conftest.py: tests/web and tests/ray have conftest files too, and which of them `import
conftest` finds depends on the order pytest collects them.
"""

from __future__ import annotations

import os

FULL = os.environ.get("HUERTA_FULL") == "1"
# random games per player count (and per solo variant) in the full-size property runs: enough
# to reach the rare states (long games, empty piles, every ending) many times over, and few
# enough to keep `.ci/run` within its 30-minute budget on two cores (26 min at 8c1bd51)
FULL_RANDOM_GAMES = 500


def games(default: int, full: int) -> int:
    """How many random games a property test plays: `full` under HUERTA_FULL=1, else `default`."""
    return full if FULL else default
