"""`huerta main`: the README's main job, a short training on Finca, then tournaments of the
baselines on every game."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..limits import MAX_RECORDED_GAMES, MAX_STEPS
from .arguments import GAMES, SEED, WORKERS, int_range


def main_mcts_budget() -> dict[str, int]:
    """MCTS iterations per decision in the main job, per game: each game's
    `demo_mcts_budget` (training/games.py: a Mi Tierra rollout is a whole game of dice and
    markets, ~200 decisions, so its budget is smaller to keep `make run` to a few minutes)."""
    from huerta.envs.core.registry import game_names

    from ..games import training_facts

    return {game: training_facts(game).demo_mcts_budget for game in game_names()}


def add_main_job(sub: Any) -> None:
    """The `huerta main` command and its arguments, on the subcommand parsers `sub`."""
    main_job = sub.add_parser(
        "main", help="the README's main job: train briefly, then a tournament of the baselines",
        description="A short self-play training on Finca, then round-robin tournaments (2 "
        "players) of the trained agent, random, the game's heuristic and MCTS on every game; "
        "tables printed, results, plots and the learning curve saved under --out.",
    )
    main_job.add_argument("--train-steps", type=int_range(0, MAX_STEPS), default=60_000,
                          help="self-play training steps on Finca (0: skip training)")
    main_job.add_argument("--imitation-games", type=int_range(0, MAX_RECORDED_GAMES), default=200,
                          metavar="N", help="games of the heuristic imitated before the "
                          "self-play training (0: none)")
    main_job.add_argument("--games", type=GAMES, default=20, help="games per line-up")
    main_job.add_argument("--mcts", type=int_range(1, 10_000_000), default=None,
                          help="MCTS iterations per decision (default per game: "
                          + ", ".join(f"{g} {n}" for g, n in main_mcts_budget().items()) + ")")
    main_job.add_argument("--seed", type=SEED, default=0)
    main_job.add_argument("--workers", type=WORKERS, default=2)
    main_job.add_argument("--out", default="runs/main")
    main_job.set_defaults(func=run_main_job)


def run_main_job(args: argparse.Namespace) -> int:
    """The README's main job: a short self-play training on Finca, then a tournament of the
    trained agent against the baselines; then the baselines on every other game."""
    import shutil

    from huerta.agents.heuristics import HEURISTICS
    from huerta.envs.core.registry import game_names

    from ..config import TrainConfig
    from ..evaluation.tournament import run_tournament
    from ..evaluation.tournament_table import format_results, save_results
    from ..methods.dispatch import train

    out = Path(args.out)
    codes_by_game: dict[str, list[str]] = {}
    if args.train_steps > 0:
        run = out / "finca-ppo"
        shutil.rmtree(run, ignore_errors=True)
        print(f"1. training on finca (2 players): {args.imitation_games} games of the heuristic "
              f"imitated, then {args.train_steps} steps of self-play -> {run}")
        config = TrainConfig(
            game="finca", players=2, steps=args.train_steps, seed=args.seed, out=str(run),
            eval_every=max(args.train_steps // 4, 1), eval_games=20,
            snapshot_every=max(args.train_steps // 5, 1),
            checkpoint_every=max(args.train_steps // 2, 1),
            imitation_games=args.imitation_games, method="ppo",
        )
        train(config)
        codes_by_game["finca"] = [f"ppo:{run}"]
    step = 2 if args.train_steps > 0 else 1
    print(f"{step}. round-robin tournaments of the baselines (2 players, seats rotated)")
    budgets = main_mcts_budget()
    for game in game_names():
        codes = [*codes_by_game.get(game, []), "random"]
        if game in HEURISTICS:
            codes.append("heuristic")
        budget = args.mcts if args.mcts is not None else budgets[game]
        codes.append(f"mcts:{budget}")
        print(f"{game}: {', '.join(codes)}, {args.games} games per line-up", flush=True)
        result = run_tournament(
            game, codes, players=2, games=args.games, seed=args.seed, workers=args.workers,
            progress=True,
        )
        print(format_results(result))
        paths = save_results(result, out / game)
        print(f"written: {', '.join(str(p) for p in paths.values())}\n")
    return 0
