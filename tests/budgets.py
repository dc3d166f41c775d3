"""How big the random property runs are: HUERTA_FULL=1 (set by .ci/run) switches on the full size.

A module of its own, imported by name (`from budgets import games`), rather than a name in
conftest.py: tests/web and tests/ray have conftest files too, and which of them `import
conftest` finds depends on the order pytest collects them.
"""

from __future__ import annotations

import os

FULL = os.environ.get("HUERTA_FULL") == "1"


def games(default: int, full: int) -> int:
    """How many random games a property test plays: `full` under HUERTA_FULL=1, else `default`."""
    return full if FULL else default
