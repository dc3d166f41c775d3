"""Connecting to a Ray cluster, for RLlib training and Ray tournaments (imports Ray lazily).

`connect(address)` joins the cluster that `ray start --head` started (its `HOST:PORT`, or
"auto" for the one on this machine) or, without an address, starts a local Ray for the block and
stops it after. Every node of a cluster needs the same huerta and Ray installed
(`pip install "huerta[ray]"`). A cluster with Ray's token authentication needs its token on
every machine that joins or connects (`RAY_AUTH_TOKEN`, or the file ~/.ray/auth_token); this
machine's token is sent to an explicit address as well.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator

from huerta.envs.core.errors import InvalidConfigError

INSTALL_HINT = "pip install 'huerta[ray]'"


def require_ray() -> None:
    """Refuse, in one line, when Ray is not installed (the `ray` extra)."""
    try:
        import ray  # noqa: F401
    except ImportError as exc:
        raise InvalidConfigError(f"the Ray backend needs Ray: {INSTALL_HINT} ({exc})") from None


@contextlib.contextmanager
def connect(address: str | None) -> Iterator[bool]:
    """Ray connected for the block: to the cluster at `address`, else a local Ray started for
    it (and stopped after). Yields whether this call made the connection; one already made
    (`ray.init()` in the caller) is used as it is. An address where no cluster answers is
    refused in one line naming it."""
    require_ray()
    import ray

    if ray.is_initialized():
        yield False
        return
    if address not in (None, "auto"):
        _use_local_token()
    try:
        ray.init(address=address, include_dashboard=False if address is None else None,
                 logging_level=logging.WARNING)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        where = f"--ray-address {address}" if address else "a local Ray"
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise InvalidConfigError(
            f"{where}: cannot connect ({first}); start a cluster with `ray start --head` and "
            "pass the address it prints"
        ) from None
    try:
        yield True
    finally:
        ray.shutdown()


def _use_local_token() -> None:
    """Send this machine's Ray token (RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token)
    to an explicit address too, unless RAY_AUTH_MODE says otherwise. Ray does this only for a
    cluster it finds itself; but `ray start --head` turns token authentication on once this
    machine has a token (any local `ray.init()` makes one), and a cluster without it ignores the
    token, so sending it is what a user means."""
    if "RAY_AUTH_MODE" in os.environ:
        return
    try:
        from ray._private.authentication.authentication_token_setup import (
            maybe_enable_token_auth_if_token_available,
        )
    except ImportError:  # another Ray version: its defaults stand
        return
    maybe_enable_token_auth_if_token_available(warn_if_disabled=False)


def cluster_cpus() -> int:
    """The CPUs of the connected cluster (at least 1)."""
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1)))
