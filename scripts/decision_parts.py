"""Where a searching agent's decision time goes: its simulations (the heuristic's rollouts and
the scoring of where they stop), and for the learned search the two parts the network adds, the
afterstate agent's turn search that picks the default and the network's score of each cut-off
simulation.

    .venv/bin/python scripts/decision_parts.py [--game finca] [--games 4] [--code learned]

Plays the games of scripts/search_timing.py (the agent against the heuristic, seats rotated,
the benchmark's deals, one process) with a timer around each part, and prints each part's
milliseconds per searched decision and per simulation. The turn search for the default also
runs outside searched decisions (a re-plan after the search chose another action, a stalled
position): all its calls are counted, so its row is an upper bound. The timers wrap the agents'
own methods that do each part (`PARTS`; the search agent's `_simulate` is internal):
instrumentation of this process, not an interface, so a renamed method fails here by name. Run
`--code search` beside it, on the same machine in the same minutes: the ratio holds where the
absolute times drift with the load.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from search_timing import time_game

from huerta.agents.afterstate import AfterstateAgent, Judge
from huerta.agents.search import SearchAgent

PARTS = (  # (the part, the class and method that does it)
    ("simulations", SearchAgent, "_simulate"),
    ("  of which the network's score of a cut-off simulation", Judge, "win_chance"),
    ("the default: the afterstate agent's turn search", AfterstateAgent, "plan_turn"),
)


def timed(method: Callable[..., Any], part: str, seconds: dict[str, float],
          calls: dict[str, int]) -> Callable[..., Any]:
    """`method` adding its wall time and one call to `part`'s tallies."""
    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            seconds[part] += time.perf_counter() - start
            calls[part] += 1
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="finca")
    parser.add_argument("--games", type=int, default=4, help="games against the heuristic")
    parser.add_argument("--code", default="learned", help="the agent code (default learned)")
    args = parser.parse_args(argv)
    seconds: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)
    for part, owner, name in PARTS:
        setattr(owner, name, timed(getattr(owner, name), part, seconds, calls))
    row = time_game(args.game, args.code, args.games)
    decisions, simulations = row["decisions"], calls["simulations"]
    print(f"{args.code} in {args.game}: {decisions} searched decisions, {row['mean']:.3f} s "
          f"each on average, {simulations / decisions:.1f} simulations each")
    print(f"{'part':58s} {'ms/decision':>11s} {'ms/simulation':>13s}")
    for part, _, _ in PARTS:
        if calls[part]:
            print(f"{part:58s} {1000 * seconds[part] / decisions:11.1f} "
                  f"{1000 * seconds[part] / simulations:13.2f}")
    print("ms/decision: the part's milliseconds per searched decision; ms/simulation: per "
          "simulation run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
