"""How many threads a run computes on: numpy's BLAS on one thread where processes already share
out the cores, and torch's thread count for the learning (`--threads`), set explicitly and
recorded in every model the run writes (the sums of a fit depend on how they are split).

numpy's OpenBLAS starts a thread per core and spins while it waits for work. In a training run
(the learner's torch threads beside it) or a tournament worker (one per core), the self-play
opponents' and the learned agents' small matrix products then fight the other threads for the
cores: under load a batch of 32 opponent moves took 3.6 ms on two BLAS threads and 0.4 ms on
one. `one_blas_thread()` limits numpy's BLAS (not torch's own pool) through threadpoolctl, and
does nothing where threadpoolctl is not installed (the core install plays without it).

torch's threads: a run's `threads` setting (`TrainConfig.threads`, `huerta train --threads N`)
gives every fit and update of the run N threads; left unset, the fits on big batches (the
imitation and the afterstate value) take up to `FIT_THREADS` threads, one per core, and PPO's
updates on small networks one (a second thread costs more than it gains there).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

FIT_THREADS = 4  # the most torch threads an unset `threads` gives a fit


def one_blas_thread() -> Any:
    """Limit numpy's BLAS to one thread in this process from now on. The returned limiter is a
    context manager: leaving it restores the former limits (`with one_blas_thread(): ...`);
    without threadpoolctl it is a context that does nothing."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def fit_threads(threads: int | None) -> int:
    """torch's threads for a fit on big batches (the imitation, the afterstate value): `threads`
    when set, else one per core up to `FIT_THREADS`."""
    return threads if threads is not None else max(1, min(FIT_THREADS, os.cpu_count() or 1))


def update_threads(threads: int | None) -> int:
    """torch's threads for PPO's updates (SB3's and RLlib's learner): `threads` when set,
    else 1."""
    return threads if threads is not None else 1


@contextlib.contextmanager
def torch_threads(count: int) -> Iterator[int]:
    """torch computes on `count` threads inside the block (the former count restored after)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield count
    finally:
        torch.set_num_threads(before)
