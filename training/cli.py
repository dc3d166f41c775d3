"""The `huerta` command line: the main demo job, the speed benchmark and game replays.

    huerta demo [--games N] [--players 2 3 4] [--agents random,random] [--records DIR]
    huerta bench [--seconds S] [--players 2 3 4] [--no-memory]
    huerta replay RECORD.json [--boards]
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
        games=tuple(args.games), players=tuple(args.players), seconds=args.seconds,
        memory=not args.no_memory,
    )
    print(format_table(results))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from huerta.envs.core.records import GameRecord
    from huerta.envs.core.transcript import transcript_lines

    record = GameRecord.load(args.record)
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
    bench.add_argument("--games", nargs="+", default=["finca"], choices=game_names())
    bench.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    bench.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    bench.add_argument("--no-memory", action="store_true", help="skip the peak-memory pass")
    bench.set_defaults(func=_bench)

    replay = sub.add_parser(
        "replay", help="print a recorded game step by step",
        description="Replay a JSON game record: one line per decision, then the final board.",
    )
    replay.add_argument("record", help="path of a game record (JSON)")
    replay.add_argument("--boards", action="store_true", help="print the board before each step")
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
