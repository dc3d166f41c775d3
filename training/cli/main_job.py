"""`huerta main`: the README's main job. For every game, a short training with the game's own
best method, a benchmark of the trained agent against the fixed ladder, and one table of it
beside the ladder's rungs (random, the heuristic, the shipped learned agent, the search agent)
on the fixed scale."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Any

from ..limits import MAX_RECORDED_GAMES, MAX_STEPS
from .arguments import SEED, WORKERS, float_range, int_range

PLAYERS = 2
MAIN_PRECISION = 200.0  # Elo: the main job's benchmark stops at a 95% interval of ±200
VALUE_GAMES = 20  # afterstate: heuristic games recorded (a real run records 2,000)
PPO_STEPS = 8_192  # PPO: learner steps (a real run takes 600,000)
IMITATION_GAMES = 20  # PPO: heuristic games imitated first (a real run imitates 2,000)
EVAL_GAMES = 2  # the run's own evaluations, per opponent: the benchmark is the measure


def add_main_job(sub: Any) -> None:
    """The `huerta main` command and its arguments, on the subcommand parsers `sub`."""
    from huerta.envs.core.registry import game_names

    from ..evaluation.benchmark import MAX_PRECISION

    main_job = sub.add_parser(
        "main", help="the README's main job: train briefly, then rate on the fixed ladder",
        description="For every game (2 players): a short training with the game's own best "
        "method (`huerta train`'s default), then a benchmark of the trained agent against the "
        "fixed ladder, printed as one table per game beside the ladder's rungs (random, the "
        "heuristic, the shipped learned agent, the search agent) on the same scale. The runs "
        "and the benchmarks' JSON are saved under --out.",
    )
    main_job.add_argument("--game", choices=game_names(), nargs="+", default=game_names(),
                          metavar="GAME", help="the games, of %(choices)s (default: all)")
    main_job.add_argument("--value-games", type=int_range(1, MAX_RECORDED_GAMES),
                          default=VALUE_GAMES, metavar="N",
                          help=f"afterstate training: heuristic games recorded (default "
                          f"{VALUE_GAMES}; `huerta train` records 2,000)")
    main_job.add_argument("--steps", type=int_range(1, MAX_STEPS), default=PPO_STEPS,
                          help=f"PPO training: learner steps (default {PPO_STEPS:,})")
    main_job.add_argument("--imitation-games", type=int_range(0, MAX_RECORDED_GAMES),
                          default=IMITATION_GAMES, metavar="N",
                          help="PPO training: heuristic games imitated first (default "
                          f"{IMITATION_GAMES})")
    main_job.add_argument("--precision", type=float_range(MAX_PRECISION), default=MAIN_PRECISION,
                          metavar="ELO",
                          help="stop each benchmark once the 95%% interval is within ±ELO "
                          f"(default {MAIN_PRECISION:g}; `huerta benchmark` uses 75)")
    main_job.add_argument("--seed", type=SEED, default=0)
    main_job.add_argument("--workers", type=WORKERS, default=2)
    main_job.add_argument("--out", default="runs/main")
    main_job.set_defaults(func=run_main_job)


def brief_config(game: str, seed: int, out: Path, args: argparse.Namespace) -> Any:
    """The `TrainConfig` of the main job's short run of `game`: the game's own method with
    small budgets, one evaluation of a few games (the benchmark measures it)."""
    from ..config import TrainConfig
    from ..games import default_method

    method = default_method(game, PLAYERS)
    settings: dict[str, Any] = {"eval_games": EVAL_GAMES}
    if method == "afterstate":
        settings |= {"value_games": args.value_games}
    else:
        settings |= {"steps": args.steps, "imitation_games": args.imitation_games,
                     "eval_every": args.steps, "snapshot_every": args.steps,
                     "checkpoint_every": args.steps}
    return TrainConfig(game=game, players=PLAYERS, seed=seed, out=str(out), method=method,
                       progress=False, **settings)


def run_main_job(args: argparse.Namespace) -> int:
    """The README's main job (see the module docstring)."""
    from huerta.envs.core.registry import game_label

    from ..evaluation.benchmark import benchmark
    from ..evaluation.benchmark_table import format_ladder_standing, write_json
    from ..methods.dispatch import train

    out = Path(args.out)
    for n, game in enumerate(args.game, 1):
        run = out / game
        shutil.rmtree(run, ignore_errors=True)
        config = brief_config(game, args.seed, run, args)
        print(f"{n}. {game_label(game, PLAYERS)}: training with {config.method} ("
              + (f"{config.value_games} heuristic games recorded" if config.method ==
                 "afterstate" else f"{config.imitation_games} heuristic games imitated, "
                 f"{config.steps:,} steps of self-play") + f") -> {run}", flush=True)
        train(config)
        trained = f"learned:{run}"
        print(f"   rating {trained} against the ladder (stops at ±{args.precision:g} Elo)",
              flush=True)
        result = benchmark(game, trained, players=PLAYERS, workers=args.workers, progress=True,
                           precision=args.precision)
        write_json(result, run / "benchmark.json")
        print(format_ladder_standing(result, f"trained ({config.method})"))
        print(flush=True)
    return 0
