"""Watch and play in the browser: `huerta serve` starts a local web server whose page replays game
records, plays any game against the registry's agents and shows the tournaments and training
runs under a runs folder.

The boards are drawn in the page as SVG from each game's state as JSON (`huerta.web.boards`),
with the colours of the Pillow pictures. In play the page gets the human seat's view only.
Needs the `web` extra (FastAPI and uvicorn): `pip install 'huerta[web]'`.
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


def create_app(runs: str | Path = "runs", workers: int = 4) -> FastAPI:
    """The server's FastAPI application (see `huerta.web.app`)."""
    from .app import create_app as make

    return make(runs, workers)


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
          log: Callable[[str], None] = print) -> None:
    """Serve the page on http://host:port until Ctrl-C (uvicorn, one process)."""
    import uvicorn

    app = create_app(runs)
    sock = bind(host, port)
    actual = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    log(f"huerta serve: http://{shown}:{actual}/ (results from {runs}; Ctrl-C stops)")
    if host not in LOCAL_HOSTS:
        log(f"huerta serve: note: listening on {host}, so other machines can reach the page")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
