"""A tournament's results as a table, and its files: games.jsonl in game order, summary.json,
table.txt and the plot, each written atomically."""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict
from pathlib import Path

from ..runs import write_atomic
from ..runs.layout import GAMES_FILE, SUMMARY_FILE, TABLE_FILE, TOURNAMENT_PLOT
from .tournament_result import TournamentResult

TABLE_LEGEND = (
    "win %: games won (a shared victory counts 1/k), 95% CI: its Wilson interval; mean rank: 1 "
    "is first; rating: openskill (Plackett-Luce) mu - 3 sigma, comparable within this "
    "tournament only (huerta benchmark rates on a fixed scale)"
)
SOLO_LEGEND = (
    "win %: games won against the game's opponent, 95% CI: its Wilson interval; rating: "
    "openskill (Plackett-Luce) mu - 3 sigma against that opponent, comparable within this "
    "tournament only"
)


def format_results(result: TournamentResult) -> str:
    """The summary table, best rating first, and a line saying what its columns mean; the agent
    column is as wide as the longest name (22 at least)."""
    width = max([22, *(len(s.label) for s in result.stats)])
    header = (
        f"{'agent':<{width}} {'games':>6} {'win %':>7} {'95% CI':>15} {'mean score':>11} "
        f"{'mean rank':>10} {'rating':>8}"
    )
    if result.players == 1:
        deals = len(result.games) // max(1, len(result.stats))
        title = (f"{result.game}, solo against the game's opponent, {deals} deals played by each "
                 f"of {len(result.stats)} agent(s), {len(result.games)} games (the same deals for "
                 f"every agent; rating against the opponent)")
    else:
        title = (f"{result.game}, {result.players} players, {len(result.games)} games "
                 f"(seats rotated, paired deals)")
    lines = [
        title,
        header,
        "-" * len(header),
    ]
    for s in sorted(result.stats, key=lambda s: -s.rating):
        ci = f"[{100 * s.ci_low:5.1f}, {100 * s.ci_high:5.1f}]"
        rank = f"{s.mean_rank:10.2f}" if result.players > 1 else f"{'-':>10}"  # solo: no seats
        lines.append(
            f"{s.label:<{width}} {s.games:6d} {100 * s.win_rate:7.1f} {ci:>15} "
            f"{s.mean_score:11.1f} {rank} {s.rating:8.2f}"
        )
    lines.append(SOLO_LEGEND if result.players == 1 else TABLE_LEGEND)
    unfinished = sum(1 for g in result.games if not g["terminated"])
    if unfinished:
        lines.append(f"({unfinished} game(s) truncated at the step limit: no winner)")
    return "\n".join(lines)


def save_results(result: TournamentResult, out: Path) -> dict[str, Path]:
    """Write games.jsonl (one game per line, in game order, with its record), summary.json,
    table.txt and the plot, each atomically; return the paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "games": out / GAMES_FILE,
        "summary": out / SUMMARY_FILE,
        "table": out / TABLE_FILE,
    }
    write_atomic(
        paths["games"],
        "".join(json.dumps(game, separators=(",", ":")) + "\n" for game in result.games),
    )
    summary = {
        "game": result.game,
        "players": result.players,
        "agents": result.codes,
        "stats": [asdict(s) for s in result.stats],
    }
    write_atomic(paths["summary"], json.dumps(summary, indent=2) + "\n")
    write_atomic(paths["table"], format_results(result) + "\n")
    # matplotlib is in the `train` extra; without it the table and the JSON still stand
    with contextlib.suppress(ImportError):
        from .plots import plot_tournament

        plot = out / TOURNAMENT_PLOT
        tmp = out / f".tmp-{os.getpid()}-tournament.png"  # the suffix names the format
        try:
            plot_tournament(result, tmp)
            os.replace(tmp, plot)
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        paths["plot"] = plot
    return paths
