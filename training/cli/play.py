"""`huerta demo` (a batch of games and a results table) and `huerta play` (one game in the
terminal)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from huerta.envs.core.errors import HuertaError
from huerta.envs.core.registry import game_choices

from ..evaluation.matches import play_batch, results_table
from .arguments import (
    GAME_HELP,
    GAMES,
    PICKLE_NOTE,
    SEED,
    check_output_file,
    game_and_counts,
    seat_count,
)


def add_demo(sub: Any) -> None:
    """The `huerta demo` command and its arguments, on the subcommand parsers `sub`."""
    demo = sub.add_parser(
        "demo", help="play a batch of games between agents and print a results table",
        description="Play seeded games between agents (seats rotated) and print win rates, "
        "scores and game lengths per player count.",
    )
    demo.add_argument("--game", default="finca", choices=game_choices(), help=GAME_HELP)
    demo.add_argument("--games", type=GAMES, default=200, help="games per player count")
    demo.add_argument("--players", type=seat_count, nargs="+", default=None,
                      help="player counts (default 2 3 4; alpujarras-solo: 1)")
    demo.add_argument("--agents", default="random",
                      help="comma-separated agent codes seated in turn, repeated when there "
                      "are more seats (random,heuristic with 3 players: random, heuristic, "
                      "random)")
    demo.add_argument("--seed", type=SEED, default=0, help="seed of the first game")
    demo.add_argument("--records", help="folder to save every game record (JSON) in")
    demo.set_defaults(func=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    spec, counts = game_and_counts(args.game, args.players)
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


def add_play(sub: Any) -> None:
    """The `huerta play` command and its arguments, on the subcommand parsers `sub`."""
    play = sub.add_parser(
        "play", help="play a game in the terminal, against agents or watching them",
        description="Play a game: 'human' seats are asked for their move (the board and the "
        "legal actions are shown; bad input is asked again), other seats are agents.",
    )
    play.add_argument("game", choices=game_choices(), metavar="GAME", help=GAME_HELP)
    play.add_argument("--agents", default=None,
                      help="comma-separated agent codes by seat (default human,heuristic; "
                      "alpujarras-solo: human). " + PICKLE_NOTE)
    play.add_argument("--players", type=seat_count, help="seats (default: the number of agents)")
    play.add_argument("--seed", type=SEED, default=0)
    play.add_argument("--save", help="save the game record (JSON) here")
    play.set_defaults(func=run_play)


def run_play(args: argparse.Namespace) -> int:
    from huerta.agents import make_agent
    from huerta.envs.core.registry import resolve_game

    from ..evaluation.matches import play_game

    spec, players = resolve_game(args.game, args.players)
    agents_text = args.agents or ("human" if players == 1 else "human,heuristic")
    players = players or len([c for c in agents_text.split(",") if c.strip()])
    codes = _agent_codes(agents_text, spec.check_players(players))
    if args.save:
        check_output_file(args.save, "--save")
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
