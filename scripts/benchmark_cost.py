"""What a benchmark costs, adaptive against fixed: the issue's first-legal-action policy and the
heuristic, rated by `huerta benchmark`'s default (adaptive) protocol and by the full one.

    .venv/bin/python scripts/benchmark_cost.py --workers 2 --json runs/benchmark_cost.json

For every game (2 players) and both agents, the adaptive benchmark is timed (wall seconds and
the CPU seconds of this process and its workers), then the full protocol (`--full`, 200 games
against each rung) is played against every rung the adaptive run played and those of
`--full-rungs` (default random and the heuristic; the search rung only where the adaptive run
needed it: a first-legal policy drags a game against it to 35-50 s), and the table says whether
the adaptive rating lies inside the full protocol's 95% interval and whether the full rating lies
inside the adaptive interval (what an interval promises: to hold the rating that many more games
would find).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from huerta.envs.core.registry import game_names
from huerta.training.evaluation.benchmark import benchmark
from huerta.training.evaluation.ladder import ladder


def first_legal(observation: dict[str, Any]) -> int:
    """The first legal action, always: the degenerate policy of issue 38."""
    return int(np.flatnonzero(observation["action_mask"])[0])


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (the benchmark's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(game: str, agent: Any, workers: int, full_rungs: list[str]) -> dict[str, Any]:
    """The adaptive benchmark of `agent` timed, and the full protocol against `full_rungs`."""
    wall, cpu = time.monotonic(), cpu_seconds()
    adaptive = benchmark(game, agent, players=2, workers=workers)
    wall, cpu = time.monotonic() - wall, cpu_seconds() - cpu
    played = {r.code for r in adaptive.rungs if r.games}
    rungs = [r for r in ladder(game, 2) if r.code in full_rungs or r.code in played]
    full = benchmark(game, agent, players=2, workers=workers, full=True, rungs=rungs)
    return {
        "game": game, "agent": adaptive.agent.code, "version": adaptive.agent.version,
        "adaptive": {"rating": adaptive.rating, "low": adaptive.low, "high": adaptive.high,
                     "games": adaptive.games, "stopped": adaptive.stopped,
                     "rungs_played": [r.code for r in adaptive.rungs if r.games],
                     "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1)},
        "full": {"rating": full.rating, "low": full.low, "high": full.high,
                 "games": full.games, "rungs": [r.code for r in rungs]},
        "inside": full.low <= adaptive.rating <= full.high,
        "covers": adaptive.low <= full.rating <= adaptive.high,
    }


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as text, with a legend."""
    lines = [f"{'game':<11} {'agent':<12} {'adaptive':>8} {'95% interval':>18} {'games':>6} "
             f"{'wall s':>7} {'cpu s':>7} {'full':>8} {'95% interval':>18} {'games':>6} "
             "inside covers"]
    lines.append("-" * len(lines[0]))
    for r in rows:
        a, f = r["adaptive"], r["full"]
        lines.append(
            f"{r['game']:<11} {r['agent'].split(':')[-1]:<12} {a['rating']:8.1f} "
            f"[{a['low']:7.1f}, {a['high']:7.1f}] {a['games']:6d} {a['wall_seconds']:7.1f} "
            f"{a['cpu_seconds']:7.1f} {f['rating']:8.1f} [{f['low']:7.1f}, {f['high']:7.1f}] "
            f"{f['games']:6d} {'yes' if r['inside'] else 'NO':>6} "
            f"{'yes' if r['covers'] else 'NO':>6}")
    lines.append("adaptive: huerta benchmark's default (±75 Elo); wall s / cpu s: its wall time "
                 "and the CPU time of the process and its workers; full: --full against the "
                 "rungs listed in the JSON; inside: the adaptive rating lies in the full "
                 "protocol's 95% interval; covers: the full protocol's rating lies in the "
                 "adaptive 95% interval")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", nargs="+", default=game_names())
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--full-rungs", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    rows = []
    for game in args.game:
        for agent in (first_legal, "heuristic"):
            rows.append(measure(game, agent, args.workers, args.full_rungs))
            print(table(rows[-1:]).splitlines()[2], flush=True)
    print(table(rows))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"cores": os.cpu_count(), "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
