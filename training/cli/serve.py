"""`huerta serve`: the local web page (replays, games against agents, the runs folder)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import HuertaError, InvalidConfigError

from .arguments import int_range


def add_serve(sub: Any) -> None:
    """The `huerta serve` command and its arguments, on the subcommand parsers `sub`."""
    serve = sub.add_parser(
        "serve", help="watch and play in the browser: a local web page",
        description="Start a local web server: its page replays game records (step by step, "
        "autoplay), plays any game against agent codes (you click on the board) and shows the "
        "tournaments and training runs under --runs. Ctrl-C stops it. Needs the web extra. "
        "Safe by default: it answers only its own page, and its agents never load a pickle or "
        "a file a request names (no ppo:PATH, rllib:PATH or learned:PATH; a run's exported "
        "best_policy.npz is seated as run:ID).",
    )
    serve.add_argument("--port", type=int_range(0, 65535), default=8000,
                       help="port to listen on (default 8000; 0: any free port)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only; "
                       "any other needs --allow-remote)")
    serve.add_argument("--allow-remote", action="store_true",
                       help="allow a --host other machines can reach: they can then see the "
                       "runs folder and start games on this machine (no password)")
    serve.add_argument("--runs", default=None,
                       help="folder of tournaments and training runs to show (default runs)")
    serve.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Start the web page (huerta.web): replays, play against agents, results under --runs."""
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise HuertaError("the web page needs FastAPI and uvicorn: pip install 'huerta[web]'"
                          ) from None
    from huerta.web import RemoteNotAllowed, serve

    if args.runs is not None and not Path(args.runs).is_dir():
        raise InvalidConfigError(f"--runs {args.runs}: no such folder")
    try:
        serve(args.host, args.port, args.runs if args.runs is not None else "runs",
              allow_remote=args.allow_remote)
    except RemoteNotAllowed as exc:
        raise InvalidConfigError(str(exc)) from None
    return 0
