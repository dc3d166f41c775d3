"""The `huerta` command line.

    huerta play GAME --agents human,heuristic [--players N] [--seed S]
    huerta tournament GAME --agents random,heuristic,mcts:200 --games 400 [--players N]
                      [--workers K] [--out DIR]
    huerta replay RECORD.json [--boards] [--gif OUT.gif]
    huerta bench [--seconds S] [--players 2 3 4] [--no-memory]
    huerta demo [--games N] [--players 2 3 4] [--agents random] [--records DIR]
    huerta train GAME [--players N] [--steps S] [--envs K] [--seed X] [--out DIR] [--config F]
                 [--resume]
    huerta main      (the README's main job: a short training, then tournaments)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from huerta.envs.core.errors import HuertaError

from .matches import play_batch, results_table


def _demo(args: argparse.Namespace) -> int:
    from huerta.envs.core.registry import get_game

    spec = get_game(args.game)
    print(
        f"huerta demo: {args.games} games of {spec.name} per player count, "
        f"agents {args.agents}, seats rotated, seeds {args.seed}..{args.seed + args.games - 1}"
    )
    summaries = []
    for n in args.players:
        codes = _agent_codes(args.agents, n)
        summaries.append(
            play_batch(
                spec.name, n, codes, games=args.games, seed=args.seed,
                record_dir=Path(args.records) if args.records else None, progress=True,
            )
        )
    print(results_table(summaries))
    return 0


def _agent_codes(spec: str, n: int) -> list[str]:
    codes = [c.strip() for c in spec.split(",") if c.strip()]
    if len(codes) == 1:
        codes = codes * n
    if len(codes) != n:
        raise HuertaError(f"--agents lists {len(codes)} agents for {n} players; give 1 or {n}")
    return codes


def _bench(args: argparse.Namespace) -> int:
    from .bench import benchmark, format_table

    print(f"random legal play, {args.seconds:g} s per row; 'x c4' = env() steps/s over "
          "connect_four_v3's in this run")
    results = benchmark(
        games=tuple(args.games), players=tuple(args.players) if args.players else None,
        seconds=args.seconds,
        memory=not args.no_memory,
    )
    print(format_table(results))
    return 0


def _play(args: argparse.Namespace) -> int:
    from huerta.agents import make_agent
    from huerta.envs.core.registry import get_game

    from .matches import play_game

    spec = get_game(args.game)
    players = args.players or len(args.agents.split(","))
    codes = _agent_codes(args.agents, spec.check_players(players))
    agents = [make_agent(code, game=spec.name, seed=args.seed + i) for i, code in enumerate(codes)]

    def narrate(seat: int, action: int, state) -> None:
        if codes[seat] != "human":
            print(f"player_{seat} ({codes[seat]}): {state.describe(action)}")

    try:
        record, state = play_game(spec.name, agents, args.seed, on_action=narrate)
    except EOFError as exc:
        print(f"huerta play: {exc}", file=sys.stderr)
        return 1
    print(state.render_text())
    print(f"final scores: {state.scores()}")
    if args.save:
        record.save(args.save)
        print(f"record saved to {args.save} (replay it with: huerta replay {args.save})")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from .tournament import format_results, run_tournament, save_results

    codes = [c.strip() for c in args.agents.split(",") if c.strip()]
    result = run_tournament(
        args.game, codes, players=args.players, games=args.games, seed=args.seed,
        workers=args.workers, progress=not args.quiet,
    )
    print(format_results(result))
    if args.out:
        paths = save_results(result, Path(args.out))
        print("written: " + ", ".join(str(p) for p in paths.values()))
    return 0


# MCTS iterations per decision in the main job: a Mi Tierra rollout is a whole game of dice and
# markets (~200 decisions), so its budget is smaller to keep `make run` to a few minutes.
MAIN_MCTS_BUDGET = {"finca": 50, "alpujarras": 100, "mi_tierra": 10}


def _main_job(args: argparse.Namespace) -> int:
    """The README's main job: a short self-play training on Finca, then a tournament of the
    trained agent against the baselines; then the baselines on every other game."""
    import shutil

    from huerta.agents.heuristics import HEURISTICS
    from huerta.envs.core.registry import game_names

    from .tournament import format_results, run_tournament, save_results
    from .train import TrainConfig, train

    out = Path(args.out)
    codes_by_game: dict[str, list[str]] = {}
    if args.train_steps > 0:
        run = out / "finca-ppo"
        shutil.rmtree(run, ignore_errors=True)
        print(f"1. self-play training on finca (2 players) for {args.train_steps} steps -> {run}")
        config = TrainConfig(
            game="finca", players=2, steps=args.train_steps, seed=args.seed, out=str(run),
            eval_every=max(args.train_steps // 4, 1), eval_games=20,
            snapshot_every=max(args.train_steps // 5, 1),
            checkpoint_every=max(args.train_steps // 2, 1),
        )
        train(config)
        codes_by_game["finca"] = [f"ppo:{run}"]
    step = 2 if args.train_steps > 0 else 1
    print(f"{step}. round-robin tournaments of the baselines (2 players, seats rotated)")
    for game in game_names():
        codes = [*codes_by_game.get(game, []), "random"]
        if game in HEURISTICS:
            codes.append("heuristic")
        budget = args.mcts if args.mcts is not None else MAIN_MCTS_BUDGET.get(game, 50)
        codes.append(f"mcts:{budget}")
        result = run_tournament(
            game, codes, players=2, games=args.games, seed=args.seed, workers=args.workers,
            progress=True,
        )
        print(format_results(result))
        paths = save_results(result, out / game)
        print(f"written: {', '.join(str(p) for p in paths.values())}\n")
    return 0


def _train(args: argparse.Namespace) -> int:
    from .train import TrainConfig, train

    values: dict = {}
    if args.config:
        values.update(TrainConfig.from_file(args.config))
    values["game"] = args.game
    for name in ("players", "steps", "envs", "seed", "out"):
        if getattr(args, name) is not None:
            values[name] = getattr(args, name)
    if args.no_progress:
        values["progress"] = False
    values.setdefault("out", f"runs/{args.game}")
    config = TrainConfig(**values)
    run = train(config, resume=args.resume)
    print(f"run folder: {run}")
    print(f"play it: huerta tournament {config.game} --players {config.players} "
          f"--agents ppo:{run / 'best_model.zip'},random")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from huerta.envs.core.records import GameRecord
    from huerta.envs.core.transcript import transcript_lines

    record = GameRecord.load(args.record)
    if args.gif:
        from .animation import save_gif

        count = save_gif(record, args.gif, seconds_per_turn=args.seconds, scale=args.scale)
        print(f"{args.gif}: {count} frames (one per turn, then the final position)")
        return 0
    for line in transcript_lines(record, boards=args.boards):
        print(line)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `huerta` command."""
    from huerta.envs.core.registry import game_names

    parser = argparse.ArgumentParser(
        prog="huerta",
        description="Reinforcement-learning environments for farming board games.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = sub.add_parser(
        "demo", help="play a batch of games between agents and print a results table",
        description="Play seeded games between agents (seats rotated) and print win rates, "
        "scores and game lengths per player count.",
    )
    demo.add_argument("--game", default="finca", choices=game_names())
    demo.add_argument("--games", type=int, default=200, help="games per player count")
    demo.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    demo.add_argument("--agents", default="random",
                      help="comma-separated agent codes, one per seat or one for all")
    demo.add_argument("--seed", type=int, default=0, help="seed of the first game")
    demo.add_argument("--records", help="folder to save every game record (JSON) in")
    demo.set_defaults(func=_demo)

    bench = sub.add_parser(
        "bench", help="speed and memory benchmark beside PettingZoo's connect_four_v3",
        description="Steps/s and games/s under random legal play: engine alone and through "
        "env(), with connect_four_v3 measured in the same run, plus peak memory.",
    )
    bench.add_argument("--games", nargs="+", default=game_names(), choices=game_names())
    bench.add_argument("--players", type=int, nargs="+", default=None,
                       help="player counts (default: every count each game supports)")
    bench.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    bench.add_argument("--no-memory", action="store_true", help="skip the peak-memory pass")
    bench.set_defaults(func=_bench)

    play = sub.add_parser(
        "play", help="play a game in the terminal, against agents or watching them",
        description="Play a game: 'human' seats are asked for their move (the board and the "
        "legal actions are shown; bad input is asked again), other seats are agents.",
    )
    play.add_argument("game", choices=game_names())
    play.add_argument("--agents", default="human,heuristic",
                      help="comma-separated agent codes by seat, e.g. human,heuristic")
    play.add_argument("--players", type=int, help="seats (default: the number of agents)")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--save", help="save the game record (JSON) here")
    play.set_defaults(func=_play)

    tour = sub.add_parser(
        "tournament", help="round-robin of agents with win rates, intervals and ratings",
        description="Every line-up of --players agents plays the same deals from every seat. "
        "Prints win rates with 95%% intervals, mean scores and ranks and openskill ratings; "
        "--out writes games.jsonl (with records), summary.json, table.txt and a plot.",
    )
    tour.add_argument("game", choices=game_names())
    tour.add_argument("--agents", default="random,heuristic",
                      help="comma-separated agent codes: random, heuristic, mcts[:N[:heuristic]], "
                      "mcts:1.5s, ppo:PATH")
    tour.add_argument("--games", type=int, default=100, help="games per line-up")
    tour.add_argument("--players", type=int, default=2)
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--workers", type=int, default=1, help="worker processes")
    tour.add_argument("--out", help="folder for the results")
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    tour.set_defaults(func=_tournament)

    train = sub.add_parser(
        "train", help="self-play training with MaskablePPO",
        description="Train an agent by self-play (opponents drawn per episode from the "
        "learner's snapshots, the heuristic and random); checkpoints, TensorBoard logs, "
        "periodic evaluation and the best model go to --out. Settings: see TrainConfig in "
        "huerta/training/train.py; a JSON or TOML --config sets any of them, flags win.",
    )
    train.add_argument(
        "game", help="a game name (" + ", ".join(game_names()) + ") or alpujarras-solo"
    )
    train.add_argument("--players", type=int)
    train.add_argument("--steps", type=int, help="total learner steps")
    train.add_argument("--envs", type=int, help="environment processes (default: CPU cores)")
    train.add_argument("--seed", type=int)
    train.add_argument("--out", help="run folder (default runs/GAME)")
    train.add_argument("--config", help="JSON or TOML file of settings")
    train.add_argument("--resume", action="store_true", help="continue the run in --out")
    train.add_argument("--no-progress", action="store_true", help="no progress bar")
    train.set_defaults(func=_train)

    main_job = sub.add_parser(
        "main", help="the README's main job: train briefly, then a tournament of the baselines",
        description="A short self-play training on Finca, then round-robin tournaments (2 "
        "players) of the trained agent, random, the game's heuristic and MCTS on every game; "
        "tables printed, results, plots and the learning curve saved under --out.",
    )
    main_job.add_argument("--train-steps", type=int, default=60_000,
                          help="self-play training steps on Finca (0: skip training)")
    main_job.add_argument("--games", type=int, default=20, help="games per line-up")
    main_job.add_argument("--mcts", type=int, default=None,
                          help="MCTS iterations per decision (default per game: "
                          + ", ".join(f"{g} {n}" for g, n in MAIN_MCTS_BUDGET.items()) + ")")
    main_job.add_argument("--seed", type=int, default=0)
    main_job.add_argument("--workers", type=int, default=2)
    main_job.add_argument("--out", default="runs/main")
    main_job.set_defaults(func=_main_job)

    replay = sub.add_parser(
        "replay", help="print a recorded game step by step",
        description="Replay a JSON game record: one line per decision, then the final board.",
    )
    replay.add_argument("record", help="path of a game record (JSON)")
    replay.add_argument("--boards", action="store_true", help="print the board before each step")
    replay.add_argument("--gif", help="write an animated GIF (one frame per turn) here instead")
    replay.add_argument("--seconds", type=float, default=0.8, help="GIF seconds per turn")
    replay.add_argument("--scale", type=float, default=1.0, help="GIF frame size factor")
    replay.set_defaults(func=_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `huerta` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (HuertaError, OSError) as exc:
        print(f"huerta {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
