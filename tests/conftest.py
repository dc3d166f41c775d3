"""Shared test settings: HUERTA_FULL=1 (set by .ci/run) switches on the full-size random runs."""

from __future__ import annotations

import os

FULL = os.environ.get("HUERTA_FULL") == "1"


def games(default: int, full: int) -> int:
    """How many random games a property test plays: `full` under HUERTA_FULL=1, else `default`."""
    return full if FULL else default
