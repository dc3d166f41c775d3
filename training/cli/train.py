"""`huerta train` (any method, local or on Ray RLlib, through the one dispatcher of
`huerta.training.methods`) and `huerta export` (a run's best model as a numpy file)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_choices

from ..limits import MAX_ENVS, MAX_GENERATIONS, MAX_RECORDED_GAMES, MAX_STEPS, MAX_THREADS
from .arguments import GAME_HELP, SEED, int_range, seat_count


def add_train(sub: Any) -> None:
    """The `huerta train` command and its arguments, on the subcommand parsers `sub`."""
    train = sub.add_parser(
        "train", help="train an agent: an afterstate value for the heuristic's search, or "
        "MaskablePPO self-play (or Ray RLlib: --backend rllib)",
        description="Train an agent with the game's method (--method): an afterstate value "
        "learned from the heuristic's games and played by its one-turn search (Finca's and "
        "Alpujarras' default; Mi Tierra's with --method afterstate), the constants of the "
        "heuristic's solo value learned by the cross-entropy method from games against Zara "
        "(the Alpujarras solo game), or MaskablePPO self-play "
        "after imitating the heuristic (Mi Tierra; opponents drawn per episode from the "
        "learner's snapshots, the heuristic and random); checkpoints, TensorBoard logs, "
        "periodic evaluation and the best model go to --out. Settings: see TrainConfig in "
        "huerta/training/config.py (RLlibTrainConfig in huerta/training/rllib.py for --backend "
        "rllib); a JSON or TOML --config sets any of them, flags win.",
    )
    train.add_argument("game", choices=game_choices(), metavar="GAME", help=GAME_HELP)
    train.add_argument("--players", type=seat_count)
    train.add_argument("--steps", type=int_range(1, MAX_STEPS), help="total learner steps "
                       "(default 600,000; on --resume the run's own target)")
    train.add_argument("--envs", type=int_range(1, MAX_ENVS),
                       help="games played at once, stepped together in one process (default 64)")
    train.add_argument("--seed", type=SEED)
    train.add_argument("--threads", type=int_range(1, MAX_THREADS), default=None, metavar="N",
                       help="torch threads of every fit and update, recorded in the models "
                       "(default: the fits one per core up to 4, PPO's updates 1; on --resume "
                       "the run's own unless given)")
    train.add_argument("--imitation-games", type=int_range(0, MAX_RECORDED_GAMES), default=None,
                       metavar="N", help="games of the heuristic imitated before self-play "
                       "(default 2,000; 0: PPO from random weights)")
    train.add_argument("--method", choices=("ppo", "afterstate", "cem"), default=None,
                       help="ppo: MaskablePPO self-play (Mi Tierra's default); afterstate: the "
                       "heuristic's one-turn search judged by a value learned from its games "
                       "(Finca's and Alpujarras' default, any game); cem: the solo "
                       "heuristic's value constants learned from games against Zara "
                       "(alpujarras-solo's default)")
    train.add_argument("--value-games", type=int_range(1, MAX_RECORDED_GAMES), default=None,
                       metavar="N",
                       help="with --method afterstate: heuristic games recorded (default "
                       "2,000; fitted and evaluated at a quarter, a half and all of them)")
    train.add_argument("--value-player", default=None, metavar="CODE",
                       help="with --method afterstate: who plays the recorded games (default "
                       "heuristic); learned:PATH makes a self-play generation, a value fitted "
                       "on the games of the learned agent in PATH, which plays as that agent "
                       "did (with its learned search settings, where its file has them)")
    train.add_argument("--generations", dest="cem_generations", type=int_range(1, MAX_GENERATIONS),
                       default=None, metavar="N", help="with --method cem: generations of "
                       "candidate constants (default 8, each evaluated on 100 deals)")
    train.add_argument("--out", help="run folder (default runs/GAME)")
    train.add_argument("--config", help="JSON or TOML file of settings")
    resume_or_force = train.add_mutually_exclusive_group()
    resume_or_force.add_argument("--resume", action="store_true", help="continue the run in "
                                 "--out (its settings; its target unless --steps is given)")
    resume_or_force.add_argument("--force", action="store_true", help="start afresh in --out, "
                                 "removing the run there (checkpoints, pool, logs, eval.csv, "
                                 "models; other files kept)")
    train.add_argument("--no-progress", action="store_true", help="no progress bar")
    train.add_argument("--backend", choices=("sb3", "rllib"), default="sb3",
                       help="sb3: MaskablePPO on this machine (default); rllib: masked "
                       "self-play PPO on Ray RLlib, env runners over a Ray cluster (needs the "
                       "ray extra; run folder default runs/GAME-rllib)")
    train.add_argument("--ray-address", default=None, metavar="ADDR",
                       help="with --backend rllib: the cluster's address (HOST:PORT printed by "
                       "`ray start --head`); default: a local Ray started for the run")
    train.add_argument("--env-runners", type=int_range(1, MAX_ENVS), default=None, metavar="K",
                       help="with --backend rllib: Ray env runners, one CPU each, sharing "
                       "the --envs games (default: this machine's CPU cores)")
    train.set_defaults(func=run_train)


def run_train(args: argparse.Namespace) -> int:
    from huerta.envs.core.registry import resolve_game

    if args.backend == "rllib":
        if args.imitation_games is not None:
            raise InvalidConfigError("--imitation-games is a setting of --backend sb3 (the "
                                     "RLlib backend starts from random weights)")
        if args.method is not None or args.value_games is not None \
                or args.value_player is not None or args.cem_generations is not None:
            raise InvalidConfigError("--method, --value-games, --value-player and --generations "
                                     "are settings of --backend sb3 (the RLlib backend trains "
                                     "PPO)")
        return _train_rllib(args)
    if args.ray_address is not None or args.env_runners is not None:
        raise InvalidConfigError("--ray-address and --env-runners need --backend rllib")
    from ..config import TrainConfig
    from ..methods.dispatch import train
    from ..runs import TrainingInterrupted

    resolve_game(args.game, args.players)  # alpujarras-solo --players 2 is refused
    config = TrainConfig(**_train_settings(args, TrainConfig.from_file, f"runs/{args.game}",
                                           extra=("imitation_games", "method", "value_games",
                                                  "value_player", "cem_generations")))
    if not args.resume:
        config.check()  # the method: the one given, else the game's
        ppo_only = [flag for flag, value in (("--steps", args.steps), ("--envs", args.envs),
                                             ("--imitation-games", args.imitation_games))
                    if value is not None]
        if config.method == "afterstate" and ppo_only:
            raise InvalidConfigError(
                f"{', '.join(ppo_only)}: setting(s) of --method ppo; {config.game} trains "
                "--method afterstate here (heuristic games and a value: --value-games)")
        if config.method == "cem" and ppo_only:
            raise InvalidConfigError(
                f"{', '.join(ppo_only)}: setting(s) of --method ppo; the solo game trains "
                "--method cem here (generations of the value's constants: --generations)")
        if config.method != "afterstate" and args.value_games is not None:
            raise InvalidConfigError("--value-games is a setting of --method afterstate")
        if config.method != "afterstate" and args.value_player is not None:
            raise InvalidConfigError("--value-player is a setting of --method afterstate")
        if config.method != "cem" and args.cem_generations is not None:
            raise InvalidConfigError("--generations is a setting of --method cem (the "
                                     "Alpujarras solo game)")
    try:
        run = train(config, resume=args.resume, force=args.force)
    except TrainingInterrupted as exc:
        print(f"huerta train: {exc}", file=sys.stderr)
        return 128 + exc.signum
    from huerta.envs.core.registry import game_label

    saved = json.loads((run / "config.json").read_text())  # a resumed run's own settings
    game = game_label(saved["game"], saved["players"])
    players = "" if game != saved["game"] else f" --players {saved['players']}"
    print(f"run folder: {run}")
    print(f"play it: huerta tournament {game}{players} --agents learned:{run},random")
    return 0


def _train_settings(
    args: argparse.Namespace, from_file: Callable[[str], dict], default_out: str,
    extra: tuple[str, ...] = (),
) -> dict:
    """A training run's settings: the --config file's, then the flags given (they win), the
    run folder defaulting to `default_out`."""
    values: dict = {}
    if args.config:
        values.update(from_file(args.config))
    values["game"] = args.game
    for name in ("players", "steps", "envs", "seed", "threads", "out", *extra):
        if getattr(args, name) is not None:
            values[name] = getattr(args, name)
    if args.no_progress:
        values["progress"] = False
    values.setdefault("out", default_out)
    return values


def _train_rllib(args: argparse.Namespace) -> int:
    """`huerta train --backend rllib`: masked self-play PPO on Ray RLlib (training/rllib/)."""
    from huerta.envs.core.registry import game_label, resolve_game

    from ..ray_cluster import require_ray

    resolve_game(args.game, args.players)
    require_ray()
    from ..methods.dispatch import train
    from ..rllib import RLlibTrainConfig
    from ..runs import TrainingInterrupted

    config = RLlibTrainConfig(**_train_settings(
        args, RLlibTrainConfig.from_file, f"runs/{args.game}-rllib", extra=("env_runners",)
    ))
    try:
        run = train(config, resume=args.resume, force=args.force,
                    ray_address=args.ray_address,
                    overrides={"steps": args.steps, "env_runners": args.env_runners,
                               "envs": args.envs, "threads": args.threads})
    except TrainingInterrupted as exc:
        print(f"huerta train: {exc}", file=sys.stderr)
        return 128 + exc.signum
    game = game_label(config.game, config.players)
    players = "" if game != config.game else f" --players {config.players}"
    print(f"run folder: {run}")
    print(f"play it: huerta tournament {game}{players} --agents rllib:{run},random")
    return 0


def add_export(sub: Any) -> None:
    """The `huerta export` command and its arguments, on the subcommand parsers `sub`."""
    export = sub.add_parser(
        "export", help="write a trained model as a small numpy file (agent code learned:PATH)",
        description="Write a training run's best model (or the policy of a MaskablePPO .zip) "
        "as an .npz with what it was trained for and how: a policy's or an afterstate value's "
        "layers (up to a few MB), or a cem run's value constants (under a kB), played by the "
        "agent code learned:PATH without torch. `huerta train` writes best_policy.npz into "
        "each run folder itself.",
    )
    export.add_argument("run", help="a run folder (its best_model.zip) or a MaskablePPO .zip")
    export.add_argument("--out", default=None,
                        help="file to write (default: best_policy.npz beside the model)")
    export.add_argument("--float32", action="store_true",
                        help="store float32 weights (default float16: half the size; "
                        "value constants have no weights to store)")
    export.set_defaults(func=run_export)


def run_export(args: argparse.Namespace) -> int:
    from huerta.agents.learned import load_model
    from huerta.envs.core.registry import game_label

    from ..methods.export import export_policy

    out = export_policy(args.run, args.out, dtype="float32" if args.float32 else "float16")
    about = load_model(out).about  # a policy, an afterstate value or value constants
    size = out.stat().st_size
    shown = f"{size / 1e6:.2f} MB" if size >= 100_000 else f"{size / 1e3:.1f} kB"
    print(f"wrote {out} ({shown}); play it: huerta tournament "
          f"{game_label(about['game'], about['players'])} --agents learned:{out},heuristic")
    return 0
