"""The limits every command and library function checks its counts against (one set: the
command line's argument types and the tournament's and benchmark's checks use these)."""

from __future__ import annotations

MAX_SEED = 2**32 - 1  # seeds are numpy's: 32-bit
MAX_GAMES = 10_000_000  # games per line-up, or against each rung
MAX_WORKERS = 256  # worker processes
