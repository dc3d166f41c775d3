"""The stop-signal context of a run: SIGINT and SIGTERM ask a run to stop at its next safe point
(a checkpoint kept), a second Ctrl-C stops at once, and `TrainingInterrupted` says what was kept.

One copy for every method and backend (PPO, afterstate, CEM, RLlib) and the worker pools.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import HuertaError

# the end of every "nothing to resume" message (every method's and RLlib's): what to do instead
START_AFRESH = "; start afresh with --force (in place of --resume)"


class TrainingInterrupted(HuertaError):
    """Training stopped by SIGINT or SIGTERM after saving a checkpoint. The message says what
    was kept, in one line; `signum`, `steps` and `checkpoint` say it to programs."""

    def __init__(self, signum: int, steps: int, target: int, checkpoint: Path,
                 unit: str = "steps") -> None:
        self.signum = signum
        self.steps = steps
        self.checkpoint = checkpoint
        name = signal.Signals(signum).name
        super().__init__(
            f"interrupted by {name}: kept {checkpoint}, {steps:,} of {target:,} {unit}; "
            "continue with --resume"
        )


class EvaluationInterrupted(BaseException):
    """Raised by the signal handler inside an evaluation, which is abandoned (its row is made
    again on resume). A BaseException so that no `except Exception` on the way swallows it."""


class Stop:
    """The signal asked for, shared between the handlers and the training loop: `signum` is the
    first signal received (None until one is); while `evaluating`, a signal also abandons the
    evaluation (`EvaluationInterrupted`)."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.evaluating = False

    def handler(self, signum: int, frame: Any) -> None:
        """The handler of SIGINT and SIGTERM (`signals_caught` installs it)."""
        if self.signum is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt  # a second Ctrl-C: stop now, nothing more saved
        if self.signum is None:
            self.signum = signum
        if self.evaluating:
            raise EvaluationInterrupted

    @property
    def stopped(self) -> bool:
        """Whether a signal asked the run to stop."""
        return self.signum is not None


def ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the main process's to handle (it ends the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def signals_caught(stop: Any) -> Iterator[None]:
    """SIGINT and SIGTERM go to `stop.handler` while training (only the main thread can install
    handlers; elsewhere the signals keep their handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, stop.handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)
