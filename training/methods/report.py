"""What a training run prints: each evaluation as a line and the line that ends the run, the win
rates with their 95% Wilson intervals (PPO and RLlib print the same lines; afterstate and cem
theirs with `rates_text`)."""

from __future__ import annotations

from pathlib import Path

from ..evaluation.ratings import wilson_interval
from ..runs import best_candidates, best_key, rates_of, read_eval


def rates_text(rates: dict[str, float], games: int) -> str:
    """Win rates as text, each with its 95% Wilson interval over `games` games, e.g.
    `92.5% [80.1, 97.4] vs random, 10.0% [4.0, 23.1] vs heuristic`."""
    parts = []
    for opponent, rate in rates.items():
        low, high = wilson_interval(rate * games, games)
        parts.append(f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}] vs {opponent}")
    return ", ".join(parts)


def eval_line(steps: int, rates: dict[str, float], games: int) -> str:
    """One evaluation as a line: each win rate with its 95% Wilson interval, e.g.
    `eval at 100,000 steps: 92.5% [80.1, 97.4] vs random, 10.0% [4.0, 23.1] vs heuristic
    (40 games each)`."""
    each = " each" if len(rates) > 1 else ""
    return f"eval at {steps:,} steps: {rates_text(rates, games)} ({games} games{each})"


def summary_line(run: Path, steps: int, seconds: float, games: int) -> str:
    """The line that ends a run: steps, wall time, and the best evaluation (the one
    best_model.zip holds)."""
    minutes, secs = divmod(round(seconds), 60)
    text = f"training done: {steps:,} steps, {minutes} min {secs:02d} s"
    rows = best_candidates(run) or read_eval(run)
    if rows:
        best = max(rows, key=lambda r: best_key(rates_of(r)))  # the first of the best
        text += (f"; best model at {int(best['steps']):,} steps: "
                 f"{rates_text(rates_of(best), games)}")
    return text

