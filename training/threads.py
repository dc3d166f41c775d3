"""numpy's BLAS on one thread where processes already share out the cores.

numpy's OpenBLAS starts a thread per core and spins while it waits for work. In a training run
(the learner's torch threads beside it) or a tournament worker (one per core), the self-play
opponents' and the learned agents' small matrix products then fight the other threads for the
cores: under load a batch of 32 opponent moves took 3.6 ms on two BLAS threads and 0.4 ms on
one. `one_blas_thread()` limits numpy's BLAS (not torch's own pool) through threadpoolctl, and
does nothing where threadpoolctl is not installed (the core install plays without it).
"""

from __future__ import annotations

import contextlib
from typing import Any


def one_blas_thread() -> Any:
    """Limit numpy's BLAS to one thread in this process from now on. The returned limiter is a
    context manager: leaving it restores the former limits (`with one_blas_thread(): ...`);
    without threadpoolctl it is a context that does nothing."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")
