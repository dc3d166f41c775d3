"""The leaderboard's standings: every stored agent of a game and player count, rated together.

All games in the database for the game and player count give pairwise outcomes between every
two seats held by different agents; the ratings of all agents are fitted jointly on the anchored
Elo scale (`anchored.py`), the ladder's rungs at their current versions held at their
reference ratings (random at 0). An agent with no chain of games to a rung has no rating. The
head-to-head matrix gives each row agent's share of pairwise points against each column agent.
In the solo game there is no one to rate against but Zara, so each agent gets its win rate with
a Wilson interval instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from huerta.envs.core.registry import game_label

from ..agent_specs import agent_identity
from .anchored import AnchoredFit, pair_table
from .benchmark_table import RATING_LEGEND
from .ladder import ladder
from .leaderboard import AgentRow, Leaderboard
from .ratings import wilson_interval

ANCHOR_NOTE = "(ladder)"
UNRATED_NOTE = "(not connected)"
MATRIX_LEGEND = (
    "head-to-head: the row agent's share of pairwise points against the column agent, in % "
    "(finishing ahead 1, a tie ½, over every two seats they held in one game); '-': never met"
)
SOLO_LEGEND = "win %: games won against Zara, 95% Wilson interval"


@dataclass
class Standing:
    """One agent's line: its rating (None: not connected to the ladder) and interval, or in
    the solo game its win rate and interval; `anchor` marks a rung held at its reference."""

    agent: AgentRow
    games: int
    rating: float | None = None
    low: float | None = None
    high: float | None = None
    anchor: bool = False
    wins: int = 0


@dataclass
class Standings:
    """The standings of one game and player count, best first, and the head-to-head matrix
    (`points[i][j]` and `pairs[i][j]` between rows i and j)."""

    game: str
    players: int
    db: str
    games: int
    rows: list[Standing] = field(default_factory=list)
    points: list[list[float]] = field(default_factory=list)
    pairs: list[list[int]] = field(default_factory=list)

    @property
    def solo(self) -> bool:
        """The solo game: win rates against Zara, not ratings."""
        return self.players == 1


def compute_standings(board: Leaderboard, game: str, players: int) -> Standings:
    """Fit and tabulate every agent of `game` at `players` in the database."""
    stored = list(board.games(game, players))
    agents = board.agents()
    present = sorted({a for g in stored for a in g.agents})
    index = {a: i for i, a in enumerate(present)}
    games = [0] * len(present)
    wins = [0] * len(present)
    for g in stored:
        for a in set(g.agents):
            games[index[a]] += 1
        for a, won in zip(g.agents, g.won, strict=True):
            wins[index[a]] += int(won)
    rows = [Standing(agents[a], games[i], wins=wins[i]) for i, a in enumerate(present)]
    result = Standings(game, players, str(board.path), len(stored), rows)
    if not stored:
        return result
    if players == 1:
        for row in rows:
            row.rating = row.wins / row.games
            row.low, row.high = wilson_interval(row.wins, row.games)
        result.rows = sorted(rows, key=lambda r: -(r.rating or 0.0))
        return result
    table = pair_table(((g.seed, [index[a] for a in g.agents], g.ranks) for g in stored),
                       len(present))
    anchors = _anchors(game, players, rows)
    if anchors:
        for i, fitted in AnchoredFit(table, anchors).fit().items():
            rows[i].rating, rows[i].low, rows[i].high = fitted.rating, fitted.low, fitted.high
    for i, rating in anchors.items():
        rows[i].rating, rows[i].anchor = rating, True
    order = sorted(range(len(rows)), key=lambda i: (rows[i].rating is None,
                                                    -(rows[i].rating or 0.0), -rows[i].games))
    points = table.score.sum(axis=0)[np.ix_(order, order)]
    pairs = table.count.sum(axis=0)[np.ix_(order, order)]
    result.rows = [rows[i] for i in order]
    result.points = points.tolist()
    result.pairs = pairs.astype(int).tolist()
    return result


def _anchors(game: str, players: int, rows: list[Standing]) -> dict[int, float]:
    """Row index -> reference rating of the rows that are ladder rungs at their current
    version."""
    current = {}
    for rung in ladder(game, players):
        identity = agent_identity(rung.code, game)
        current[(identity.code, identity.version)] = rung.rating
    return {i: current[(r.agent.code, r.agent.version)] for i, r in enumerate(rows)
            if (r.agent.code, r.agent.version) in current}


def format_standings(standings: Standings) -> str:
    """The ratings table (or solo win rates) and the head-to-head matrix, each with a line
    saying what its columns mean; the agent column fits the longest name."""
    s = standings
    label = game_label(s.game, s.players)
    who = "solo against Zara" if s.solo else f"{s.players} players"
    lines = [f"{label}, {who}: {len(s.rows)} agents, {s.games:,} games in {s.db}"]
    width = max(5, *(len(r.agent.code) for r in s.rows))
    if s.solo:
        header = f"{'#':>3} {'agent':<{width}} {'version':<12} {'games':>6} {'win %':>7} " \
                 f"{'95% CI':>15}"
        lines += [header, "-" * len(header)]
        for n, r in enumerate(s.rows, 1):
            ci = f"[{100 * (r.low or 0):5.1f}, {100 * (r.high or 0):5.1f}]"
            lines.append(f"{n:>3} {r.agent.code:<{width}} {r.agent.version:<12} {r.games:6d} "
                         f"{100 * (r.rating or 0):7.1f} {ci:>15}")
        lines.append(SOLO_LEGEND)
        return "\n".join(lines)
    header = (f"{'#':>3} {'agent':<{width}} {'version':<12} {'rating':>8} "
              f"{'95% interval':>18} {'games':>6}")
    lines += [header, "-" * len(header)]
    for n, r in enumerate(s.rows, 1):
        rating = "-" if r.rating is None else f"{r.rating:8.1f}"
        if r.anchor:
            interval = ANCHOR_NOTE
        elif r.rating is None:
            interval = UNRATED_NOTE
        else:
            interval = f"[{r.low:7.1f}, {r.high:7.1f}]"
        lines.append(f"{n:>3} {r.agent.code:<{width}} {r.agent.version:<12} {rating:>8} "
                     f"{interval:>18} {r.games:6d}")
    lines.append(f"{RATING_LEGEND}; {ANCHOR_NOTE}: a rung held at its reference rating; "
                 f"{UNRATED_NOTE}: no chain of games to a rung")
    lines.append("")
    cell = 7
    lines.append(f"{'#':>3} " + "".join(f"{n:>{cell}}" for n in range(1, len(s.rows) + 1)))
    for i in range(len(s.rows)):
        cells = []
        for j in range(len(s.rows)):
            pairs = s.pairs[i][j]
            cells.append(f"{100 * s.points[i][j] / pairs:{cell}.1f}" if pairs else
                         f"{'-':>{cell}}")
        lines.append(f"{i + 1:>3} " + "".join(cells))
    lines.append(f"{MATRIX_LEGEND}; rows and columns numbered as in the table above")
    return "\n".join(lines)


def default_plot_path(db: str | Path, game: str, players: int) -> Path:
    """Where the leaderboard's plot goes unless --plot says: beside the database."""
    return Path(db).parent / f"leaderboard_{game_label(game, players)}_{players}p.png"
