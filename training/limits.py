"""The limits every command and library function checks its counts against: one set, read by
the command line's argument types (cli/arguments.py and the commands), the training settings
(config.py, rllib/config.py) and the tournament's and benchmark's checks."""

from __future__ import annotations

MAX_SEED = 2**32 - 1  # seeds are numpy's: 32-bit
MAX_GAMES = 10_000_000  # games per line-up, or against each rung
MAX_WORKERS = 256  # worker processes
MAX_THREADS = 1024  # torch threads of a training run
MAX_ENVS = 4096  # games a training run steps at once, and RLlib env runners
MAX_STEPS = 10**12  # learner steps of a training run
MAX_RECORDED_GAMES = 10**7  # heuristic games a run imitates or learns a value from
MAX_GENERATIONS = 10**4  # generations of a cem run
