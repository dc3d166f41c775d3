"""The `huerta` command line.

    huerta play GAME --agents human,heuristic [--players N] [--seed S]
    huerta tournament GAME --agents random,heuristic,mcts:200 --games 400 [--players N]
                      [--workers K] [--out DIR [--resume]] [--backend ray [--ray-address ADDR]]
                      [--db PATH | --no-db]
    huerta benchmark GAME AGENT [--players N] [--games K] [--workers K] [--db PATH | --no-db]
                     [--json PATH]
    huerta leaderboard GAME [--players N] [--db PATH] [--plot PATH]
    huerta replay RECORD.json [--boards] [--gif OUT.gif]
    huerta bench [--game GAME ...] [--seconds S] [--players 2 3 4] [--no-memory]
    huerta demo [--game GAME] [--games N] [--players 2 3 4] [--agents random] [--records DIR]
    huerta train GAME [--players N] [--steps S] [--envs K] [--seed X] [--out DIR] [--config F]
                 [--resume | --force] [--backend rllib [--ray-address ADDR] [--env-runners K]]
    huerta main      (the README's main job: a short training, then tournaments)
    huerta serve [--port P] [--runs DIR] [--host H]   (watch and play in the browser)

GAME is finca, alpujarras, alpujarras-solo (the solo game against Zara: alpujarras with 1
player; `alpujarras --players 1` is the same game) or mi_tierra, in every command. `--games` is
always a number of games; `bench --game` lists the games to measure.

Bad input never ends in a traceback: numbers out of range are refused by the parser (with the
usage line), agent codes with their arguments right after it, before anything runs, and anything
found later (an unsupported player count, a corrupt record, an unreadable file) as one line
`huerta COMMAND: error: ...`; all of these exit with status 2. Ctrl-C prints one line (exit
status 130) and output cut short by a closed pipe (`| head`) ends quietly (exit status 1).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from huerta.envs.core.errors import HuertaError, InvalidConfigError

from .matches import play_batch, results_table

if TYPE_CHECKING:
    from huerta.envs.core.engine import GameSpec

MAX_SEED = 2**32 - 1
MAX_GAMES = 10_000_000
MAX_WORKERS = 256


def _int_range(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from `low` to `high`, refused with the range otherwise."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{value} is out of range: give an integer from {low:,} to {high:,}"
            )
        return value

    return parse


def _float_range(high: float) -> Callable[[str], float]:
    """An argparse type: a finite number above 0 and at most `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not (math.isfinite(value) and 0 < value <= high):
            raise argparse.ArgumentTypeError(
                f"{text} is out of range: give a number above 0 and at most {high:g}"
            )
        return value

    return parse


SEED = _int_range(0, MAX_SEED)
GAMES = _int_range(1, MAX_GAMES)
WORKERS = _int_range(1, MAX_WORKERS)


def _players(text: str) -> int:
    """An argparse type: a seat count some game has (each game's own counts are checked once
    the game is known)."""
    from huerta.envs.core.registry import game_names, get_game

    most = max(max(get_game(g).player_counts) for g in game_names())
    return _int_range(1, most)(text)


def _check_agent_argument(args: argparse.Namespace) -> None:
    """Check the --agents codes, each with its argument, for the command's game, right after
    parsing and before anything runs (an unknown code names the valid ones; `heuristic:3` says
    what heuristic accepts; `ppo:FILE` must be a saved model of this game)."""
    text = getattr(args, "agents", None)
    if text is None:
        return
    codes = [c.strip() for c in text.split(",") if c.strip()]
    if not codes:
        raise InvalidConfigError("--agents lists no agent codes, e.g. random,heuristic")
    game = getattr(args, "game", None)
    players = getattr(args, "players", None)
    if not isinstance(players, int):  # demo takes a list of counts: checked per game later
        players = None
    if isinstance(game, str):
        from huerta.envs.core.registry import resolve_game

        # alpujarras-solo: alpujarras's agents at 1 seat; a count the game lacks is refused here
        spec, players = resolve_game(game, players)
        game = spec.name
        if players is None and args.command == "play":  # seats: the number of agents
            players = len(codes)
    _check_codes(codes, game, players)


def _check_codes(codes: Sequence[str], game: str | None, players: int | None = None) -> None:
    """Check every agent code for `game` (at a table of `players` seats, when known) before
    the first game."""
    from huerta.agents.registry import check_agent_code

    for code in codes:
        check_agent_code(code, game, players)


def _check_output_file(path: str, flag: str) -> None:
    """Refuse, before any work, an output file whose folder is missing or that is a folder."""
    target = Path(path)
    if target.is_dir():
        raise InvalidConfigError(f"{flag} {path} is a folder; give a file name")
    if not target.parent.is_dir():
        raise InvalidConfigError(f"{flag} {path}: the folder {target.parent} does not exist")
    if not os.access(target.parent, os.W_OK):
        raise InvalidConfigError(f"{flag} {path}: the folder {target.parent} is not writable")


def _game_and_counts(name: str, players: Sequence[int] | None) -> tuple[GameSpec, list[int]]:
    """The game of a game or variant name and the player counts to play: those given (each
    checked; a variant takes only its own), else the variant's count or 2, 3 and 4."""
    from huerta.envs.core.registry import own_player_counts, resolve_game

    spec, fixed = resolve_game(name)
    if not players:
        return spec, [fixed] if fixed is not None else list(own_player_counts(spec.name))
    for n in players:
        resolve_game(name, n)
    return spec, list(players)


class _Progress:
    """Progress on stderr: a tqdm bar where tqdm is installed (the `train` extra), else a line
    at every tenth of the work."""

    def __init__(self, desc: str, total: int) -> None:
        self.desc, self.total, self.done, self.shown = desc, max(total, 1), 0, -1
        self.bar: Any = None
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self.bar = tqdm(total=self.total, desc=desc)

    def update_to(self, done: int) -> None:
        """Advance to `done` of the total."""
        if self.bar is not None:
            self.bar.update(done - self.done)
        else:
            tenth = 10 * done // self.total
            if tenth > self.shown:
                self.shown = tenth
                print(f"{self.desc}: {done}/{self.total}", file=sys.stderr, flush=True)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _demo(args: argparse.Namespace) -> int:
    spec, counts = _game_and_counts(args.game, args.players)
    for n in counts:  # every count and line-up checked before the first game
        _seated_codes(args.agents, n)
    if args.records:
        Path(args.records).mkdir(parents=True, exist_ok=True)
    print(
        f"huerta demo: {args.games} games of {args.game} per player count, "
        f"agents {args.agents}, seats rotated, seeds {args.seed}..{args.seed + args.games - 1}"
    )
    summaries = []
    for n in counts:
        codes = _seated_codes(args.agents, n)
        summaries.append(
            play_batch(
                spec.name, n, codes, games=args.games, seed=args.seed,
                record_dir=Path(args.records) if args.records else None, progress=True,
            )
        )
    print(results_table(summaries))
    return 0


def _seated_codes(spec: str, n: int) -> list[str]:
    """demo's line-up for n seats: the listed agents in turn, repeated when there are more seats
    than agents (`random,heuristic` with 3 players seats random, heuristic, random); more agents
    than seats is refused."""
    codes = [c.strip() for c in spec.split(",") if c.strip()]
    if not codes:
        raise HuertaError("--agents lists no agent")
    if len(codes) > n:
        raise HuertaError(f"--agents lists {len(codes)} agents for {n} players; give at most {n}")
    return [codes[k % len(codes)] for k in range(n)]


def _agent_codes(spec: str, n: int) -> list[str]:
    codes = [c.strip() for c in spec.split(",") if c.strip()]
    if len(codes) == 1:
        codes = codes * n
    if len(codes) != n:
        raise HuertaError(f"--agents lists {len(codes)} agents for {n} players; give 1 or {n}")
    return codes


def _bench(args: argparse.Namespace) -> int:
    from huerta.envs.core.registry import game_choices, resolve_game

    from .bench import TABLE_LEGEND, BenchResult, benchmark, format_row, table_header

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
    if args.games_deprecated:  # checked first: a refused command prints one line
        print("huerta bench: --games is deprecated (it lists games here but counts games in "
              "demo, tournament and main); use --game", file=sys.stderr)
    if args.train:
        return _bench_training(games, args.players, 30.0 if args.seconds is None else args.seconds)
    args.seconds = 3.0 if args.seconds is None else args.seconds
    print(f"random legal play, {args.seconds:g} s per row; 'x c4' = env() steps/s over "
          "connect_four_v3's in this run; each row is printed as it finishes")
    print(table_header(), flush=True)
    base: list[float] = []

    def show(row: BenchResult) -> None:
        if row.mode == "env()" and not base and row.name == "connect_four_v3":
            base.append(row.steps_per_s)
        print(format_row(row, base[0] if base else None), flush=True)

    benchmark(
        games=tuple(games), players=tuple(args.players) if args.players else None,
        seconds=args.seconds, memory=not args.no_memory, on_row=show,
    )
    print(TABLE_LEGEND)
    return 0


def _bench_training(games: list[str], players: list[int] | None, seconds: float) -> int:
    """`huerta bench --train`: the training loop's speed per game (training/train_bench.py)."""
    from .train_bench import (
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
    benchmark_training(rows, seconds,
                       on_row=lambda row: print(format_train_row(row), flush=True))
    print(TRAIN_LEGEND)
    return 0


def _play(args: argparse.Namespace) -> int:
    from huerta.agents import make_agent
    from huerta.envs.core.registry import resolve_game

    from .matches import play_game

    spec, players = resolve_game(args.game, args.players)
    agents_text = args.agents or ("human" if players == 1 else "human,heuristic")
    players = players or len([c for c in agents_text.split(",") if c.strip()])
    codes = _agent_codes(agents_text, spec.check_players(players))
    if args.save:
        _check_output_file(args.save, "--save")
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
    from .tournament import TournamentInterrupted, format_results, run_tournament

    if args.resume and not args.out:
        raise InvalidConfigError("--resume continues the tournament in --out: give --out DIR")
    from huerta.envs.core.registry import resolve_game

    spec, players = resolve_game(args.game, args.players)
    codes = [c.strip() for c in args.agents.split(",") if c.strip()]
    play: Callable[..., Any] = run_tournament
    if args.backend == "ray":  # the same tournament, its games played on a Ray cluster
        from .ray_tournament import run_ray_tournament

        play = functools.partial(run_ray_tournament, address=args.ray_address)
    elif args.ray_address is not None:
        raise InvalidConfigError("--ray-address needs --backend ray")
    db = _db_path(args)
    with _sigterm_as_interrupt(), contextlib.ExitStack() as stack:
        on_game = None
        if db is not None:
            from .leaderboard import Leaderboard, tournament_recorder

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


def _db_path(args: argparse.Namespace) -> Path | None:
    """The leaderboard file of a command: --db, else $HUERTA_LEADERBOARD, else
    runs/leaderboard.sqlite; None with --no-db."""
    from .leaderboard import default_db_path

    if getattr(args, "no_db", False):
        return None
    return Path(args.db) if args.db else default_db_path()


def _benchmark(args: argparse.Namespace) -> int:
    """`huerta benchmark`: the agent against the ladder (training/benchmark.py)."""
    from huerta.envs.core.registry import resolve_game

    from .benchmark import benchmark, write_json

    spec, players = resolve_game(args.game, args.players)
    if args.json:
        _check_output_file(args.json, "--json")
    rungs = _chosen_rungs(spec.name, players or 2, args.rungs)
    db = _db_path(args)
    with _sigterm_as_interrupt():
        result = benchmark(spec.name, args.agent, players=players, games=args.games,
                           seed=args.seed, workers=args.workers, db=db,
                           progress=not args.quiet, log=print, rungs=rungs)
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
    from .ladder import ladder

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


def _leaderboard(args: argparse.Namespace) -> int:
    """`huerta leaderboard`: every stored agent's rating (training/standings.py)."""
    from huerta.envs.core.registry import game_label, resolve_game

    from .leaderboard import Leaderboard, default_db_path
    from .standings import compute_standings, default_plot_path, format_standings

    spec, players = resolve_game(args.game, args.players)
    players = players or 2
    db = Path(args.db) if args.db else default_db_path()
    label = game_label(spec.name, players)
    if args.plot:
        _check_output_file(args.plot, "--plot")
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
        from .plots import plot_leaderboard
    except ImportError:  # pragma: no cover - matplotlib comes with the train extra
        print("no plot: matplotlib is missing (pip install 'huerta[train]')")
        return 0
    plot_leaderboard(standings, plot)
    print(f"plot: {plot}")
    return 0


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """Treat SIGTERM (a `kill`) like Ctrl-C while a tournament runs: finished games are kept
    and one line says so."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread (main() called from a thread)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main_mcts_budget() -> dict[str, int]:
    """MCTS iterations per decision in the main job, per game: each game's
    `demo_mcts_budget` (training/games.py: a Mi Tierra rollout is a whole game of dice and
    markets, ~200 decisions, so its budget is smaller to keep `make run` to a few minutes)."""
    from huerta.envs.core.registry import game_names

    from .games import training_facts

    return {game: training_facts(game).demo_mcts_budget for game in game_names()}


def _main_job(args: argparse.Namespace) -> int:
    """The README's main job: a short self-play training on Finca, then a tournament of the
    trained agent against the baselines; then the baselines on every other game."""
    import shutil

    from huerta.agents.heuristics import HEURISTICS
    from huerta.envs.core.registry import game_names

    from .config import TrainConfig
    from .tournament import format_results, run_tournament, save_results
    from .train import train

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


def _train(args: argparse.Namespace) -> int:
    from huerta.envs.core.registry import resolve_game

    if args.backend == "rllib":
        if args.imitation_games is not None:
            raise InvalidConfigError("--imitation-games is a setting of --backend sb3 (the "
                                     "RLlib backend starts from random weights)")
        if args.method is not None or args.value_games is not None \
                or args.cem_generations is not None:
            raise InvalidConfigError("--method, --value-games and --generations are settings "
                                     "of --backend sb3 (the RLlib backend trains PPO)")
        return _train_rllib(args)
    if args.ray_address is not None or args.env_runners is not None:
        raise InvalidConfigError("--ray-address and --env-runners need --backend rllib")
    from .config import TrainConfig
    from .runs import TrainingInterrupted
    from .train import train

    resolve_game(args.game, args.players)  # alpujarras-solo --players 2 is refused
    config = TrainConfig(**_train_settings(args, TrainConfig.from_file, f"runs/{args.game}",
                                           extra=("imitation_games", "method", "value_games",
                                                  "cem_generations")))
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
    for name in ("players", "steps", "envs", "seed", "out", *extra):
        if getattr(args, name) is not None:
            values[name] = getattr(args, name)
    if args.no_progress:
        values["progress"] = False
    values.setdefault("out", default_out)
    return values


def _train_rllib(args: argparse.Namespace) -> int:
    """`huerta train --backend rllib`: masked self-play PPO on Ray RLlib (training/rllib.py)."""
    from huerta.envs.core.registry import game_label, resolve_game

    from .ray_cluster import require_ray

    resolve_game(args.game, args.players)
    require_ray()
    from .rllib import RLlibTrainConfig, train_rllib
    from .runs import TrainingInterrupted

    config = RLlibTrainConfig(**_train_settings(
        args, RLlibTrainConfig.from_file, f"runs/{args.game}-rllib", extra=("env_runners",)
    ))
    try:
        run = train_rllib(config, resume=args.resume, force=args.force,
                          ray_address=args.ray_address,
                          overrides={"steps": args.steps, "env_runners": args.env_runners,
                                     "envs": args.envs})
    except TrainingInterrupted as exc:
        print(f"huerta train: {exc}", file=sys.stderr)
        return 128 + exc.signum
    game = game_label(config.game, config.players)
    players = "" if game != config.game else f" --players {config.players}"
    print(f"run folder: {run}")
    print(f"play it: huerta tournament {game}{players} --agents rllib:{run},random")
    return 0


def _export(args: argparse.Namespace) -> int:
    from huerta.agents.learned import load_model
    from huerta.envs.core.registry import game_label

    from .export import export_policy

    out = export_policy(args.run, args.out, dtype="float32" if args.float32 else "float16")
    about = load_model(out).about  # a policy, an afterstate value or value constants
    size = out.stat().st_size
    shown = f"{size / 1e6:.2f} MB" if size >= 100_000 else f"{size / 1e3:.1f} kB"
    print(f"wrote {out} ({shown}); play it: huerta tournament "
          f"{game_label(about['game'], about['players'])} --agents learned:{out},heuristic")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from huerta.envs.core.records import GameRecord, replay
    from huerta.envs.core.transcript import transcript_lines

    record = GameRecord.load(args.record)
    replay(record)  # exactly the API's checks: set-up, every step, final scores, checksum
    if args.gif:
        _check_output_file(args.gif, "--gif")
        from .animation import save_gif

        bars: dict[str, _Progress] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in bars:
                for bar in bars.values():
                    bar.close()
                bars[stage] = _Progress(f"{stage} frames", total)
            bars[stage].update_to(done)

        try:
            count = save_gif(record, args.gif, seconds_per_turn=args.seconds, scale=args.scale,
                             progress=progress)
        finally:
            for bar in bars.values():
                bar.close()
        print(f"{args.gif}: {count} frames (one per turn, then the final position)")
        return 0
    for line in transcript_lines(record, boards=args.boards):
        print(line)
    return 0


def _serve(args: argparse.Namespace) -> int:
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


GAME_HELP = "one of %(choices)s (alpujarras-solo: the solo game against Zara)"
PICKLE_NOTE = ("Warning: ppo:PATH (a MaskablePPO .zip) and rllib:PATH (an RLlib checkpoint) are "
               "pickle-based formats, and loading one runs the code it holds: load only files "
               "you trust (learned:PATH, a numpy file, runs nothing)")


def _db_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """--db PATH and --no-db, one or the other."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--db", metavar="PATH", default=None,
                       help=f"{what} (default $HUERTA_LEADERBOARD, else runs/leaderboard.sqlite)")
    group.add_argument("--no-db", action="store_true", help="store nothing in the leaderboard")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `huerta` command."""
    from huerta.envs.core.registry import game_choices

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
    demo.add_argument("--game", default="finca", choices=game_choices(), help=GAME_HELP)
    demo.add_argument("--games", type=GAMES, default=200, help="games per player count")
    demo.add_argument("--players", type=_players, nargs="+", default=None,
                      help="player counts (default 2 3 4; alpujarras-solo: 1)")
    demo.add_argument("--agents", default="random",
                      help="comma-separated agent codes seated in turn, repeated when there "
                      "are more seats (random,heuristic with 3 players: random, heuristic, "
                      "random)")
    demo.add_argument("--seed", type=SEED, default=0, help="seed of the first game")
    demo.add_argument("--records", help="folder to save every game record (JSON) in")
    demo.set_defaults(func=_demo)

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
    bench.add_argument("--players", type=_players, nargs="+", default=None,
                       help="player counts (default: every count each game supports; "
                       "--players 1 is alpujarras-solo)")
    bench.add_argument("--seconds", type=_float_range(3600), default=None,
                       help="seconds per measurement (default 3; with --train 30)")
    bench.add_argument("--no-memory", action="store_true",
                       help="skip the tracemalloc pass (the RSS columns stay)")
    bench.add_argument("--train", action="store_true",
                       help="measure the training loop instead: learner steps/s of `huerta "
                       "train`'s defaults and the shares of its time (env, opponents, network), "
                       "beside the env's random-play steps/s (2 players unless --players)")
    bench.set_defaults(func=_bench)

    play = sub.add_parser(
        "play", help="play a game in the terminal, against agents or watching them",
        description="Play a game: 'human' seats are asked for their move (the board and the "
        "legal actions are shown; bad input is asked again), other seats are agents.",
    )
    play.add_argument("game", choices=game_choices(), metavar="GAME", help=GAME_HELP)
    play.add_argument("--agents", default=None,
                      help="comma-separated agent codes by seat (default human,heuristic; "
                      "alpujarras-solo: human). " + PICKLE_NOTE)
    play.add_argument("--players", type=_players, help="seats (default: the number of agents)")
    play.add_argument("--seed", type=SEED, default=0)
    play.add_argument("--save", help="save the game record (JSON) here")
    play.set_defaults(func=_play)

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
    tour.add_argument("--players", type=_players, default=None,
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
    _db_arguments(tour, "store every finished game in this leaderboard file")
    tour.set_defaults(func=_tournament)

    from .benchmark import DEFAULT_GAMES
    from .ladder import BENCHMARK_SEED

    bench_agent = sub.add_parser(
        "benchmark", help="rate an agent against the fixed ladder (anchored ratings)",
        description="Play AGENT against every rung of the game's ladder (random, the heuristic, "
        "...) on the published deals, each deal from every seat, and print its rating on a "
        "fixed scale (random = 0, the rungs at their reference ratings) with a 95% interval "
        "and a head-to-head row per rung. Games go into the leaderboard file; games already "
        "there are not played again, so an interrupted benchmark continues when rerun.",
    )
    bench_agent.add_argument("game", choices=game_choices(), metavar="GAME", help=GAME_HELP)
    bench_agent.add_argument(
        "agent", metavar="AGENT",
        help="an agent code (random, heuristic, search, mcts:400, ppo:PATH, rllib:PATH), a Python "
        "module:function or module:Class importable from the current folder (a function takes "
        "the observation dict and returns an action; a class has act(observation)), or a "
        "MaskablePPO model file (.zip). " + PICKLE_NOTE)
    bench_agent.add_argument("--players", type=_players, default=None,
                             help="seats per game (default 2; alpujarras-solo: 1)")
    bench_agent.add_argument("--games", type=GAMES, default=DEFAULT_GAMES,
                             help="games against each rung, rounded up to whole deals "
                             f"(default {DEFAULT_GAMES}; alpujarras-solo: deals against Zara)")
    bench_agent.add_argument("--seed", type=SEED, default=BENCHMARK_SEED,
                             help=f"seed of the first deal (default {BENCHMARK_SEED:,}, the "
                             "published deals the ladder was measured on)")
    bench_agent.add_argument("--workers", type=WORKERS, default=1,
                             help="worker processes (default 1)")
    _db_arguments(bench_agent, "store every finished game in this leaderboard file (and reuse "
                  "the games already there)")
    bench_agent.add_argument("--rungs", metavar="CODES", default=None,
                             help="comma-separated rungs to play (default: the whole ladder, "
                             "random,heuristic,search), e.g. random,heuristic for a quick look")
    bench_agent.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    bench_agent.add_argument("--quiet", action="store_true", help="no progress bar")
    bench_agent.set_defaults(func=_benchmark)

    board = sub.add_parser(
        "leaderboard", help="ratings of every agent benchmarked so far, with a plot",
        description="Rate every agent in the leaderboard file for GAME and the player count "
        "together (the ladder's rungs held at their reference ratings), with 95% intervals, "
        "games played and the head-to-head matrix, and save a plot.",
    )
    board.add_argument("game", choices=game_choices(), metavar="GAME", help=GAME_HELP)
    board.add_argument("--players", type=_players, default=None,
                       help="seats per game (default 2; alpujarras-solo: 1)")
    board.add_argument("--db", metavar="PATH", default=None,
                       help="the leaderboard file (default $HUERTA_LEADERBOARD, else "
                       "runs/leaderboard.sqlite)")
    board.add_argument("--plot", metavar="PATH", default=None,
                       help="where to save the plot (default beside the leaderboard file: "
                       "leaderboard_GAME_Np.png)")
    board.set_defaults(func=_leaderboard)

    train = sub.add_parser(
        "train", help="train an agent: an afterstate value for the heuristic's search, or "
        "MaskablePPO self-play (or Ray RLlib: --backend rllib)",
        description="Train an agent with the game's method (--method): an afterstate value "
        "learned from the heuristic's games and played by its one-turn search (Finca, "
        "Alpujarras), the constants of the heuristic's solo value learned by the cross-entropy "
        "method from games against Zara (the Alpujarras solo game), or MaskablePPO self-play "
        "after imitating the heuristic (Mi Tierra; opponents drawn per episode from the "
        "learner's snapshots, the heuristic and random); checkpoints, TensorBoard logs, "
        "periodic evaluation and the best model go to --out. Settings: see TrainConfig in "
        "huerta/training/config.py (RLlibTrainConfig in huerta/training/rllib.py for --backend "
        "rllib); a JSON or TOML --config sets any of them, flags win.",
    )
    train.add_argument("game", choices=game_choices(), metavar="GAME", help=GAME_HELP)
    train.add_argument("--players", type=_players)
    train.add_argument("--steps", type=_int_range(1, 10**12), help="total learner steps "
                       "(default 600,000; on --resume the run's own target)")
    train.add_argument("--envs", type=_int_range(1, 4096),
                       help="games played at once, stepped together in one process (default 64)")
    train.add_argument("--seed", type=SEED)
    train.add_argument("--imitation-games", type=_int_range(0, 10**7), default=None,
                       metavar="N", help="games of the heuristic imitated before self-play "
                       "(default 2,000; 0: PPO from random weights)")
    train.add_argument("--method", choices=("ppo", "afterstate", "cem"), default=None,
                       help="ppo: MaskablePPO self-play (Mi Tierra's default); afterstate: the "
                       "heuristic's one-turn search judged by a value learned from its games "
                       "(Finca's and Alpujarras' default); cem: the solo heuristic's value "
                       "constants learned from games against Zara (alpujarras-solo's default)")
    train.add_argument("--value-games", type=_int_range(1, 10**7), default=None, metavar="N",
                       help="with --method afterstate: heuristic games recorded (default "
                       "2,000; fitted and evaluated at a quarter, a half and all of them)")
    train.add_argument("--generations", dest="cem_generations", type=_int_range(1, 10**4),
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
    train.add_argument("--env-runners", type=_int_range(1, 4096), default=None, metavar="K",
                       help="with --backend rllib: Ray env runners, one CPU each, sharing "
                       "the --envs games (default: this machine's CPU cores)")
    train.set_defaults(func=_train)

    main_job = sub.add_parser(
        "main", help="the README's main job: train briefly, then a tournament of the baselines",
        description="A short self-play training on Finca, then round-robin tournaments (2 "
        "players) of the trained agent, random, the game's heuristic and MCTS on every game; "
        "tables printed, results, plots and the learning curve saved under --out.",
    )
    main_job.add_argument("--train-steps", type=_int_range(0, 10**12), default=60_000,
                          help="self-play training steps on Finca (0: skip training)")
    main_job.add_argument("--imitation-games", type=_int_range(0, 10**7), default=200,
                          metavar="N", help="games of the heuristic imitated before the "
                          "self-play training (0: none)")
    main_job.add_argument("--games", type=GAMES, default=20, help="games per line-up")
    main_job.add_argument("--mcts", type=_int_range(1, 10_000_000), default=None,
                          help="MCTS iterations per decision (default per game: "
                          + ", ".join(f"{g} {n}" for g, n in main_mcts_budget().items()) + ")")
    main_job.add_argument("--seed", type=SEED, default=0)
    main_job.add_argument("--workers", type=WORKERS, default=2)
    main_job.add_argument("--out", default="runs/main")
    main_job.set_defaults(func=_main_job)

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
    export.set_defaults(func=_export)

    replay = sub.add_parser(
        "replay", help="print a recorded game step by step",
        description="Replay a JSON game record: one line per decision, then the final board. "
        "The record is verified first, as the API's replay() does (set-up, every step, final "
        "scores, checksum); a corrupt one is refused saying where.",
    )
    replay.add_argument("record", help="path of a game record (JSON)")
    replay.add_argument("--boards", action="store_true", help="print the board before each step")
    replay.add_argument("--gif", help="write an animated GIF (one frame per turn) here instead")
    replay.add_argument("--seconds", type=_float_range(60), default=0.8,
                        help="GIF seconds per turn")
    replay.add_argument("--scale", type=_float_range(8), default=1.0,
                        help="GIF frame size factor (above 0, at most 8)")
    replay.set_defaults(func=_replay)

    serve = sub.add_parser(
        "serve", help="watch and play in the browser: a local web page",
        description="Start a local web server: its page replays game records (step by step, "
        "autoplay), plays any game against agent codes (you click on the board) and shows the "
        "tournaments and training runs under --runs. Ctrl-C stops it. Needs the web extra. "
        "Safe by default: it answers only its own page, and its agents never load a pickle or "
        "a file a request names (no ppo:PATH, rllib:PATH or learned:PATH; a run's exported "
        "best_policy.npz is seated as run:ID).",
    )
    serve.add_argument("--port", type=_int_range(0, 65535), default=8000,
                       help="port to listen on (default 8000; 0: any free port)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only; "
                       "any other needs --allow-remote)")
    serve.add_argument("--allow-remote", action="store_true",
                       help="allow a --host other machines can reach: they can then see the "
                       "runs folder and start games on this machine (no password)")
    serve.add_argument("--runs", default=None,
                       help="folder of tournaments and training runs to show (default runs)")
    serve.set_defaults(func=_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `huerta` console script: every expected failure becomes one line on
    stderr and a non-zero exit status, never a traceback."""
    command = "huerta"
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        command = f"huerta {args.command}"
        _check_agent_argument(args)
        code = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at exit
        return code
    except KeyboardInterrupt as exc:
        _flush_quietly()
        print(f"{command}: {_one_line(exc) or 'interrupted'}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except (HuertaError, ValueError, OSError, EOFError, ImportError) as exc:
        _flush_quietly()
        print(f"{command}: error: {_one_line(exc)}", file=sys.stderr)
        return 2


def _one_line(exc: BaseException) -> str:
    """The error's message on one line (a library's message may span several)."""
    return " ".join(line.strip() for line in str(exc).splitlines() if line.strip())


def _flush_quietly() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    """After a closed pipe (`huerta replay x.json | head`): point stdout at devnull so that
    Python's final flush is quiet too (the recipe of Python's signal documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout is not a real file (tests)
        pass


if __name__ == "__main__":
    sys.exit(main())
