"""`huerta benchmark` (an agent against the ladder) and `huerta leaderboard` (every agent
benchmarked so far, rated together)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_choices

from .arguments import (
    GAME_HELP,
    GAMES,
    PICKLE_NOTE,
    SEED,
    WORKERS,
    check_output_file,
    db_arguments,
    db_path,
    float_range,
    seat_count,
    sigterm_as_interrupt,
)


def add_benchmark(sub: Any) -> None:
    """The `huerta benchmark` command and its arguments, on the subcommand parsers `sub`."""
    from ..evaluation.benchmark import DEFAULT_GAMES, MAX_PRECISION
    from ..evaluation.ladder import BENCHMARK_SEED
    from ..evaluation.placement import DEFAULT_PRECISION, SOLO_PRECISION

    bench_agent = sub.add_parser(
        "benchmark", help="rate an agent against the fixed ladder (anchored ratings)",
        description="Play AGENT against the game's ladder (random, the heuristic, search) on "
        "the published deals, each deal from every seat, and print its rating on a fixed scale "
        "(random = 0, the rungs at their reference ratings) with a 95% interval and a "
        "head-to-head row per rung. By default the games stop once the interval is narrow "
        f"enough (±{DEFAULT_PRECISION:g} Elo; the solo game: ±{100 * SOLO_PRECISION:g} points "
        "of win rate), each stage played against the rung nearest the rating so far, so a "
        "rung far above or below is never played; --full plays every rung's games. Games go "
        "into the leaderboard file; games already there are not played again, so an "
        "interrupted benchmark continues when rerun.",
    )
    bench_agent.add_argument("game", choices=game_choices(), metavar="GAME", help=GAME_HELP)
    bench_agent.add_argument(
        "agent", metavar="AGENT",
        help="an agent code (random, heuristic, search, mcts:400, ppo:PATH, rllib:PATH), a Python "
        "module:function or module:Class importable from the current folder (a function takes "
        "the observation dict and returns an action; a class has act(observation)), or a "
        "MaskablePPO model file (.zip). " + PICKLE_NOTE)
    bench_agent.add_argument("--players", type=seat_count, default=None,
                             help="seats per game (default 2; alpujarras-solo: 1)")
    bench_agent.add_argument("--games", type=GAMES, default=DEFAULT_GAMES,
                             help="games against each rung, rounded up to whole deals: with "
                             "--full all of them, else at most that many (default "
                             f"{DEFAULT_GAMES}; alpujarras-solo: deals against Zara)")
    bench_agent.add_argument("--full", action="store_true",
                             help="the fixed protocol: every rung's --games games, however "
                             "early the interval is narrow (what the ladder is measured with)")
    bench_agent.add_argument("--precision", type=float_range(MAX_PRECISION),
                             default=DEFAULT_PRECISION, metavar="ELO",
                             help="stop once the 95%% interval is narrower than ±ELO points "
                             f"(default {DEFAULT_PRECISION:g}; not with --full)")
    bench_agent.add_argument("--seed", type=SEED, default=BENCHMARK_SEED,
                             help=f"seed of the first deal (default {BENCHMARK_SEED:,}, the "
                             "published deals the ladder was measured on)")
    bench_agent.add_argument("--workers", type=WORKERS, default=1,
                             help="worker processes (default 1)")
    db_arguments(bench_agent, "store every finished game in this leaderboard file (and reuse "
                  "the games already there)")
    bench_agent.add_argument("--rungs", metavar="CODES", default=None,
                             help="comma-separated rungs to play (default: the whole ladder, "
                             "random,heuristic,search), e.g. random,heuristic for a quick look")
    bench_agent.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    bench_agent.add_argument("--quiet", action="store_true", help="no progress bar")
    bench_agent.set_defaults(func=run_benchmark)


def run_benchmark(args: argparse.Namespace) -> int:
    """`huerta benchmark`: the agent against the ladder (training/evaluation/benchmark.py)."""
    from huerta.envs.core.registry import resolve_game

    from ..evaluation.benchmark import benchmark
    from ..evaluation.benchmark_table import write_json

    spec, players = resolve_game(args.game, args.players)
    if args.json:
        check_output_file(args.json, "--json")
    rungs = _chosen_rungs(spec.name, players or 2, args.rungs)
    db = db_path(args)
    with sigterm_as_interrupt():
        result = benchmark(spec.name, args.agent, players=players, games=args.games,
                           seed=args.seed, workers=args.workers, db=db,
                           progress=not args.quiet, log=print, rungs=rungs, full=args.full,
                           precision=args.precision)
    print(result.table())
    if db is not None:
        print(f"games stored in the leaderboard {db} ({result.played} played now, "
              f"{result.reused} found there); see them all with: huerta leaderboard "
              f"{args.game}" + (f" --players {result.players}" if args.players else ""))
    if args.json:
        print(f"written: {write_json(result, args.json)}")
    return 0


def _chosen_rungs(game: str, players: int, codes: str | None) -> list | None:
    """The ladder's rungs named by `--rungs` (None: the whole ladder); an unknown code names
    the ladder's rungs."""
    if codes is None:
        return None
    from ..evaluation.ladder import ladder

    available = {rung.code: rung for rung in ladder(game, players)}
    names = list(dict.fromkeys(c.strip() for c in codes.split(",") if c.strip()))
    unknown = [n for n in names if n not in available]
    if unknown or not names:
        raise InvalidConfigError(
            f"--rungs {codes!r}: " + (f"{', '.join(unknown)} is not a rung" if unknown
                                      else "names no rung")
            + f"; the {game} ladder at {players} player(s) has: {', '.join(available)}"
        )
    return [available[n] for n in names]


def add_leaderboard(sub: Any) -> None:
    """The `huerta leaderboard` command and its arguments, on the subcommand parsers `sub`."""
    board = sub.add_parser(
        "leaderboard", help="ratings of every agent benchmarked so far, with a plot",
        description="Rate every agent in the leaderboard file for GAME and the player count "
        "together (the ladder's rungs held at their reference ratings), with 95% intervals, "
        "games played and the head-to-head matrix, and save a plot.",
    )
    board.add_argument("game", choices=game_choices(), metavar="GAME", help=GAME_HELP)
    board.add_argument("--players", type=seat_count, default=None,
                       help="seats per game (default 2; alpujarras-solo: 1)")
    board.add_argument("--db", metavar="PATH", default=None,
                       help="the leaderboard file (default $HUERTA_LEADERBOARD, else "
                       "runs/leaderboard.sqlite)")
    board.add_argument("--plot", metavar="PATH", default=None,
                       help="where to save the plot (default beside the leaderboard file: "
                       "leaderboard_GAME_Np.png)")
    board.set_defaults(func=run_leaderboard)


def run_leaderboard(args: argparse.Namespace) -> int:
    """`huerta leaderboard`: every stored agent's rating (training/evaluation/standings.py)."""
    from huerta.envs.core.registry import game_label, resolve_game

    from ..evaluation.leaderboard import Leaderboard, default_db_path
    from ..evaluation.standings import compute_standings, default_plot_path, format_standings

    spec, players = resolve_game(args.game, args.players)
    players = players or 2
    db = Path(args.db) if args.db else default_db_path()
    label = game_label(spec.name, players)
    if args.plot:
        check_output_file(args.plot, "--plot")
    if not db.exists():
        print(f"no leaderboard at {db} yet: `huerta benchmark {label} AGENT` and `huerta "
              f"tournament {label}` store their games there")
        return 0
    with Leaderboard(db, create=False) as board:
        standings = compute_standings(board, spec.name, players)
    if not standings.rows:
        print(f"no {label} games with {players} player(s) in {db} yet: `huerta benchmark "
              f"{label} AGENT` stores some")
        return 0
    print(format_standings(standings))
    plot = Path(args.plot) if args.plot else default_plot_path(db, spec.name, players)
    try:
        from ..evaluation.plots import plot_leaderboard
    except ImportError:  # pragma: no cover - matplotlib comes with the train extra
        print("no plot: matplotlib is missing (pip install 'huerta[train]')")
        return 0
    plot_leaderboard(standings, plot)
    print(f"plot: {plot}")
    return 0
