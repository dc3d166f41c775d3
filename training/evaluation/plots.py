"""Pictures of results: tournament win rates with their 95% intervals, and ratings; the
leaderboard's anchored ratings.

matplotlib is imported only when a plot is drawn, with the Agg backend (no display needed).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from huerta.envs.core.registry import game_label

from .ratings import wilson_interval

if TYPE_CHECKING:
    from .standings import Standings
    from .tournament_result import TournamentResult


def _pyplot():
    try:
        import matplotlib
    except ImportError as exc:  # comes with the `train` extra
        raise ImportError("plots need matplotlib: pip install 'huerta[train]'") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_tournament(result: TournamentResult, path: Path) -> Path:
    """Two panels: win rate per agent with its interval, and openskill rating (mu ± 3 sigma)."""
    plt = _pyplot()
    stats = sorted(result.stats, key=lambda s: s.rating)
    labels = [s.label for s in stats]
    rates = [100 * s.win_rate for s in stats]
    low = [max(0.0, 100 * (s.win_rate - s.ci_low)) for s in stats]
    high = [max(0.0, 100 * (s.ci_high - s.win_rate)) for s in stats]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 0.6 * len(stats) + 2.2), sharey=True)
    ax1.barh(labels, rates, xerr=[low, high], color="#6a9f58", capsize=4)
    ax1.axvline(100 / result.players, color="grey", linestyle="--", linewidth=1,
                label="chance (1/players)")
    ax1.set_xlim(0, 100)
    ax1.set_xlabel("win rate, % (95% Wilson interval)")
    ax1.legend(loc="lower right", fontsize=8)
    mus = [s.mu for s in stats]
    ax2.errorbar(mus, labels, xerr=[3 * s.sigma for s in stats], fmt="o", color="#b5651d",
                 capsize=4)
    ax2.set_xlabel("openskill rating (mu ± 3 sigma)")
    games = len(result.games)
    fig.suptitle(f"{result.game}, {result.players} players: {games} games, seats rotated")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_learning_curve(
    rows: list[dict[str, float]], path: Path, title: str = "learning curve",
    x_label: str = "training steps (learner decisions)",
) -> Path:
    """Evaluation win rates (against random and the heuristic, or Zara) over training steps
    (or what `x_label` names: an afterstate run's recorded games), each with its 95% Wilson
    band when the rows say how many games it took."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [r["steps"] for r in rows]
    series = sorted({k for r in rows for k in r if k.startswith("vs_")})
    for name, marker in zip(series, "osd^v", strict=False):
        rates = [r.get(name, 0.0) for r in rows]
        (line,) = ax.plot(steps, [100 * v for v in rates], marker=marker,
                          label=name.replace("_", " "))
        if all(r.get("games") for r in rows):  # 95% Wilson band of each evaluation
            bands = [wilson_interval(v * r["games"], int(r["games"]))
                     for v, r in zip(rates, rows, strict=True)]
            ax.fill_between(steps, [100 * lo for lo, _ in bands], [100 * hi for _, hi in bands],
                            color=line.get_color(), alpha=0.15, linewidth=0)
    ax.set_ylim(0, 100)
    ax.set_xlabel(x_label)
    ax.set_ylabel("win rate, % (band: 95% Wilson interval)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_leaderboard(standings: Standings, path: Path) -> Path:
    """Horizontal bars of the leaderboard's ratings with their 95% intervals as whiskers, the
    ladder's rungs (held at their reference ratings) in their own colour; in the solo game,
    win rates against Zara with their Wilson intervals."""
    plt = _pyplot()
    rows = [r for r in reversed(standings.rows) if r.rating is not None]
    labels = [f"{r.agent.code}@{r.agent.version[:7]}" for r in rows]
    scale = 100.0 if standings.solo else 1.0
    values = [scale * (r.rating or 0.0) for r in rows]

    def whisker(row, value: float, end: float | None) -> float:
        """How far an interval end lies from the value (none for rungs and open ends)."""
        if row.anchor or end is None or not math.isfinite(end):
            return 0.0
        return abs(scale * end - value)

    low = [whisker(r, v, r.low) for r, v in zip(rows, values, strict=True)]
    high = [whisker(r, v, r.high) for r, v in zip(rows, values, strict=True)]
    colours = ["#8c8c8c" if r.anchor else "#6a9f58" for r in rows]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.8))
    ax.barh(labels, values, xerr=[low, high], color=colours, capsize=4)
    ax.axvline(0, color="black", linewidth=0.8)
    if standings.solo:
        ax.set_xlabel("win % against Zara (95% Wilson interval)")
    else:
        ax.set_xlabel("rating, Elo points: random = 0, grey bars the ladder's rungs at their "
                      "reference ratings (95% interval)")
    who = "solo against Zara" if standings.solo else f"{standings.players} players"
    fig.suptitle(f"{game_label(standings.game, standings.players)}, {who}: leaderboard of "
                 f"{standings.games:,} games")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
