"""`huerta tournament`: a round-robin of agents, on this machine or a Ray cluster, its games
stored in the leaderboard."""

from __future__ import annotations

import argparse
import contextlib
import functools
from collections.abc import Callable
from typing import Any

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_choices

from .arguments import (
    GAME_HELP,
    GAMES,
    PICKLE_NOTE,
    SEED,
    WORKERS,
    db_arguments,
    db_path,
    seat_count,
    sigterm_as_interrupt,
)


def add_tournament(sub: Any) -> None:
    """The `huerta tournament` command and its arguments, on the subcommand parsers `sub`."""
    tour = sub.add_parser(
        "tournament", help="round-robin of agents with win rates, intervals and ratings",
        description="Every line-up of --players agents plays the same deals from every seat. "
        "Prints win rates with 95% intervals, mean scores and ranks and openskill ratings; "
        "--out writes games.jsonl (with records), summary.json, table.txt and a plot.",
    )
    tour.add_argument("game", choices=game_choices(), metavar="GAME", help=GAME_HELP)
    tour.add_argument("--agents", default="random,heuristic",
                      help="comma-separated agent codes: random, heuristic, search[:N|:Ts], "
                      "mcts[:N[:heuristic]], mcts:1.5s, learned[:PATH], ppo:PATH, rllib:PATH. "
                      + PICKLE_NOTE)
    tour.add_argument("--games", type=GAMES, default=100, help="games per line-up")
    tour.add_argument("--players", type=seat_count, default=None,
                      help="seats per game (default 2; alpujarras-solo: 1)")
    tour.add_argument("--seed", type=SEED, default=0)
    tour.add_argument("--workers", type=WORKERS, default=None,
                      help="worker processes (at most one per game; default 1); with "
                      "--backend ray the games played at once (default: the cluster's CPUs)")
    tour.add_argument("--out", help="folder for the results (new or empty, unless --resume)")
    tour.add_argument("--resume", action="store_true",
                      help="continue the interrupted tournament in --out: play only the games "
                      "games.jsonl lacks")
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    tour.add_argument("--backend", choices=("local", "ray"), default="local",
                      help="local: this machine's processes (default); ray: the games spread "
                      "over a Ray cluster, with the same results (needs the ray extra)")
    tour.add_argument("--ray-address", default=None, metavar="ADDR",
                      help="the cluster's address (HOST:PORT printed by `ray start --head`); "
                      "default: a local Ray started for the tournament")
    db_arguments(tour, "store every finished game in this leaderboard file")
    tour.set_defaults(func=run_tournament)


def run_tournament(args: argparse.Namespace) -> int:
    from ..evaluation.tournament import TournamentInterrupted, run_tournament
    from ..evaluation.tournament_table import format_results

    if args.resume and not args.out:
        raise InvalidConfigError("--resume continues the tournament in --out: give --out DIR")
    from huerta.envs.core.registry import resolve_game

    spec, players = resolve_game(args.game, args.players)
    codes = [c.strip() for c in args.agents.split(",") if c.strip()]
    play: Callable[..., Any] = run_tournament
    if args.backend == "ray":  # the same tournament, its games played on a Ray cluster
        from ..evaluation.ray_tournament import run_ray_tournament

        play = functools.partial(run_ray_tournament, address=args.ray_address)
    elif args.ray_address is not None:
        raise InvalidConfigError("--ray-address needs --backend ray")
    db = db_path(args)
    with sigterm_as_interrupt(), contextlib.ExitStack() as stack:
        on_game = None
        if db is not None:
            from ..evaluation.leaderboard import Leaderboard, tournament_recorder

            board = stack.enter_context(Leaderboard(db))
            on_game = tournament_recorder(board, spec.name, players or 2, codes)
        try:
            result = play(
                spec.name, codes, players=players or 2, games=args.games, seed=args.seed,
                workers=args.workers if args.backend == "ray" else (args.workers or 1),
                progress=not args.quiet, out=args.out, resume=args.resume, log=print,
                on_game=on_game,
            )
        except TournamentInterrupted as exc:
            if db is None:
                raise
            message = (f"{exc}; they are in the leaderboard {db} too" if args.out else
                       f"interrupted after {exc.kept} of {exc.total} games; the finished ones "
                       f"are stored in the leaderboard {db} (no --out folder)")
            raise TournamentInterrupted(message, exc.kept, exc.total) from None
    print(format_results(result))
    if result.paths:
        print("written: " + ", ".join(str(p) for p in result.paths.values()))
    if db is not None:
        print(f"games stored in the leaderboard {db}")
    return 0
