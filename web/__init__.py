"""Watch and play in the browser: `huerta serve` starts a local web server whose page replays game
records, plays any game against the registry's agents and shows the tournaments and training
runs under a runs folder.

The boards are drawn in the page as SVG from each game's state as JSON (`huerta.web.boards`),
with the colours of the Pillow pictures. In play the page gets the human seat's view only.
Needs the `web` extra (FastAPI and uvicorn): `pip install 'huerta[web]'`.

Safe by default: the server listens on 127.0.0.1 and answers only its own page (`guard.py`),
its agents never load a pickle or a file a request names (`agents.py`), and it reads only
regular files inside the runs folder (`runs.py`). Listening on another address takes
`allow_remote=True` (`--allow-remote`).
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


REMOTE_WARNING = (
    "listening on {host} lets every machine that can reach this one open the page: see your "
    "tournaments and training runs under {runs}, replay their games, and start games whose "
    "agents use this machine's processor (there is no password). Agents never load a pickle "
    "or a file a request names")


class RemoteNotAllowed(ValueError):
    """A non-loopback --host without --allow-remote."""


def is_loopback(host: str) -> bool:
    """Whether `host` is a loopback address or name (only this machine can connect)."""
    import ipaddress

    if host.strip("[]").lower() in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def create_app(runs: str | Path = "runs", workers: int = 4, allow_remote: bool = False,
               hosts: tuple[str, ...] = ()) -> FastAPI:
    """The server's FastAPI application (see `huerta.web.app`)."""
    from .app import create_app as make

    return make(runs, workers, allow_remote, hosts)


def bind(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> socket.socket:
    """A listening socket on (host, port); port 0 takes a free port. Binding here, before the
    server starts, turns a port in use into one clear OSError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, runs: str | Path = "runs",
          log: Callable[[str], None] = print, allow_remote: bool = False) -> None:
    """Serve the page on http://host:port until Ctrl-C (uvicorn, one process). A `host` other
    than a loopback one is refused (`RemoteNotAllowed`) unless `allow_remote`."""
    import uvicorn

    remote = not is_loopback(host)
    if remote and not allow_remote:
        raise RemoteNotAllowed(
            f"--host {host}: " + REMOTE_WARNING.format(host=host, runs=runs)
            + "; give --allow-remote to do so, or leave --host out (127.0.0.1: this machine "
            "only)")
    app = create_app(runs, allow_remote=remote, hosts=(host,))
    sock = bind(host, port)
    actual = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    log(f"huerta serve: http://{shown}:{actual}/ (results from {runs}; Ctrl-C stops)")
    if remote:
        log("huerta serve: warning: " + REMOTE_WARNING.format(host=host, runs=runs) + ".")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    if server.should_exit:
        # Only a signal sets it. uvicorn re-raises the Ctrl-C it caught once it has shut down,
        # but under asyncio.run that lands in the runner's own handler, which may swallow it
        # (the command then ended with status 0, not 130, on a loaded machine): say it here.
        raise KeyboardInterrupt
