"""`huerta bench`: the engines' speed and memory beside PettingZoo's connect_four_v3, or with
--train the training loop's speed."""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_choices

from .arguments import check_output_file, float_range, seat_count


def add_bench(sub: Any) -> None:
    """The `huerta bench` command and its arguments, on the subcommand parsers `sub`."""
    bench = sub.add_parser(
        "bench", help="speed and memory benchmark beside PettingZoo's connect_four_v3",
        description="Steps/s and games/s under random legal play: engine alone and through "
        "env(), with connect_four_v3 measured in the same run, plus peak memory.",
    )
    bench.add_argument("--game", nargs="+", default=None, choices=game_choices(),
                       metavar="GAME", help="games to measure (default: all of them: "
                       + ", ".join(game_choices()) + ")")
    bench.add_argument("--games", nargs="+", dest="games_deprecated", choices=game_choices(),
                       help=argparse.SUPPRESS)  # the old name of --game
    bench.add_argument("--players", type=seat_count, nargs="+", default=None,
                       help="player counts (default: every count each game supports; "
                       "--players 1 is alpujarras-solo)")
    bench.add_argument("--seconds", type=float_range(3600), default=None,
                       help="seconds per measurement (default 3; with --train 30)")
    bench.add_argument("--no-memory", action="store_true",
                       help="skip the tracemalloc pass (the RSS columns stay)")
    bench.add_argument("--train", action="store_true",
                       help="measure the training loop instead: learner steps/s of `huerta "
                       "train`'s defaults and the shares of its time (env, opponents, network), "
                       "beside the env's random-play steps/s (2 players unless --players)")
    bench.add_argument("--json", metavar="PATH",
                       help="also write the rows as JSON (each row's figures, the seconds per "
                       "row and this machine's cores)")
    bench.set_defaults(func=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    from huerta.envs.core.registry import game_choices, resolve_game

    from ..bench import TABLE_LEGEND, BenchResult, benchmark, format_row, table_header

    games = list(args.game or args.games_deprecated or game_choices())
    if args.players:
        counts = {}
        for g in games:
            spec, fixed = resolve_game(g)
            counts[g] = (fixed,) if fixed is not None else spec.player_counts
        for n in args.players:
            if not any(n in c for c in counts.values()):
                raise InvalidConfigError(
                    f"--players {n}: no selected game has {n} seats ("
                    + "; ".join(f"{g}: {', '.join(map(str, c))}" for g, c in counts.items())
                    + ")"
                )
    if args.json:
        check_output_file(args.json, "--json")
    if args.games_deprecated:  # checked first: a refused command prints one line
        print("huerta bench: --games is deprecated (it lists games here but counts games in "
              "demo, tournament and main); use --game", file=sys.stderr)
    if args.train:
        return _bench_training(games, args.players, 30.0 if args.seconds is None else args.seconds,
                               args.json)
    args.seconds = 3.0 if args.seconds is None else args.seconds
    print(f"random legal play, {args.seconds:g} s per row; 'x c4' = env() steps/s over "
          "connect_four_v3's in this run; each row is printed as it finishes")
    print(table_header(), flush=True)
    base: list[float] = []

    def show(row: BenchResult) -> None:
        if row.mode == "env()" and not base and row.name == "connect_four_v3":
            base.append(row.steps_per_s)
        print(format_row(row, base[0] if base else None), flush=True)

    rows = benchmark(
        games=tuple(games), players=tuple(args.players) if args.players else None,
        seconds=args.seconds, memory=not args.no_memory, on_row=show,
    )
    print(TABLE_LEGEND)
    if args.json:
        rows_json = [{**asdict(row), "steps_per_s": row.steps_per_s} for row in rows]
        print(f"written: {_write_rows(args.json, 'env', args.seconds, rows_json)}")
    return 0


def _bench_training(games: list[str], players: list[int] | None, seconds: float,
                    json_path: str | None = None) -> int:
    """`huerta bench --train`: the training loop's speed per game (training/train_bench.py)."""
    from ..train_bench import (
        TRAIN_HEADER,
        TRAIN_LEGEND,
        benchmark_training,
        format_train_row,
        train_rows,
    )

    rows = train_rows(games, players)
    if not rows:
        raise InvalidConfigError(f"--players {' '.join(map(str, players or []))}: none of the "
                                 "selected games is trained at that count")
    print(f"the training loop of `huerta train` (default settings), about {seconds:g} s per "
          "game; each row is printed as it finishes")
    print(TRAIN_HEADER)
    print("-" * len(TRAIN_HEADER), flush=True)
    results = benchmark_training(rows, seconds,
                                 on_row=lambda row: print(format_train_row(row), flush=True))
    print(TRAIN_LEGEND)
    if json_path:
        rows_json = [{**asdict(row), "steps_per_s": row.steps_per_s} for row in results]
        print(f"written: {_write_rows(json_path, 'train', seconds, rows_json)}")
    return 0


def _write_rows(path: str, mode: str, seconds: float, rows: list[dict[str, Any]]) -> str:
    """Write a bench run's rows as JSON (atomically): the mode (`env` or `train`), the seconds
    per row, this machine's cores and the rows."""
    from ..runs import write_atomic

    write_atomic(Path(path), json.dumps({"mode": mode, "seconds": seconds,
                                         "cores": os.cpu_count(), "rows": rows}, indent=2) + "\n")
    return path
