"""How long the search agent takes per decision, on one core: the README's timing table.

    .venv/bin/python scripts/search_timing.py [--games 4] [--code search]

Plays `--games` 2-player games of each game between the search agent (`--code`) and the
heuristic in this one process (seats rotated, the published deals), times every decision of the
search agent, and prints, per game, the decisions it searched (its first of a turn with more
than one legal action), their mean, 95th percentile and longest time, and the simulations a
search ran on average. Run it on an otherwise idle machine: the budget is wall-clock time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from huerta.agents import make_agent
from huerta.envs.core.registry import game_names
from huerta.training.evaluation.ladder import BENCHMARK_SEED
from huerta.training.evaluation.matches import play_game

GAMES = tuple(game_names())


def time_game(game: str, code: str, games: int) -> dict[str, float]:
    """Timings of `code`'s searched decisions over `games` games against the heuristic."""
    searched: list[float] = []
    simulations: list[int] = []
    for g in range(games):
        agent = make_agent(code, game=game, seed=g)
        act = agent.act

        def timed(observation, view=None, act=act, agent=agent):
            agent.last_stats = {}
            start = time.perf_counter()
            action = act(observation, view)
            if agent.last_stats:  # a search ran (not a turn's continuation)
                searched.append(time.perf_counter() - start)
                simulations.append(agent.last_stats["simulations"])
            return action

        agent.act = timed
        seats = [agent, make_agent("heuristic", game=game, seed=g + 1)]
        if g % 2:
            seats.reverse()
        play_game(game, seats, seed=BENCHMARK_SEED + g // 2)
    if not searched:  # a code that never searches (the heuristic, random) has nothing to time
        raise SystemExit(f"{code} searched in none of its decisions over {games} {game} "
                         f"game(s): only `search` and the learned search (`learned` in Finca "
                         f"and Alpujarras) report their searches")
    times = np.array(searched)
    return {"decisions": len(times), "mean": float(times.mean()),
            "p95": float(np.percentile(times, 95)), "max": float(times.max()),
            "simulations": float(np.mean(simulations))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per game (default 4)")
    parser.add_argument("--code", default="search", help="the agent code (default search)")
    parser.add_argument("--game", nargs="+", default=list(GAMES))
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    header = f"{'game':<11} {'searched':>8} {'mean s':>7} {'95% s':>7} {'max s':>7} {'sims':>6}"
    print(header)
    print("-" * len(header))
    rows = []
    for game in args.game:
        t = time_game(game, args.code, args.games)
        rows.append({"game": game, **t})
        print(f"{game:<11} {t['decisions']:8d} {t['mean']:7.3f} {t['p95']:7.3f} "
              f"{t['max']:7.3f} {t['simulations']:6.1f}", flush=True)
    print("searched: decisions that ran a search (the first of a turn with a choice); mean, "
          "95% and max s: seconds per such decision, the heuristic's own choice included; "
          "sims: simulations per search")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"code": args.code, "games": args.games, "rows": rows}, f, indent=2)
        print(f"written: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
