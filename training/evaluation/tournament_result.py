"""What a tournament found: each agent's results (win rate with its 95% Wilson interval, mean
score and rank, openskill rating) summarised from the per-game results, in game-index order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .ratings import openskill_ratings, wilson_interval


@dataclass
class AgentStats:
    """One agent's results over the whole tournament."""

    label: str
    code: str
    games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    rank_sum: float = 0.0
    win_rate: float = 0.0
    ci_low: float = 0.0
    ci_high: float = 0.0
    mean_score: float = 0.0
    mean_rank: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    rating: float = 0.0


@dataclass
class TournamentResult:
    """The per-game results (in job order), the per-agent summary and, when saved, the files."""

    game: str
    players: int
    labels: list[str]
    codes: list[str]
    games: list[dict[str, Any]] = field(default_factory=list)
    stats: list[AgentStats] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)


def agent_labels(codes: Sequence[str]) -> list[str]:
    """Unique display names: a code used twice becomes `code#1`, `code#2`."""
    labels = []
    for i, code in enumerate(codes):
        if list(codes).count(code) > 1:
            labels.append(f"{code}#{list(codes)[: i + 1].count(code)}")
        else:
            labels.append(code)
    return labels


# Solo games (one seat, e.g. Alpujarras against Zara) are rated as the agent against this
# pseudo-agent, the game's scripted opponent: every solo agent meets the same one.
SOLO_OPPONENT = "scripted opponent"


def summarise(
    game: str, players: int, codes: list[str], results: list[dict[str, Any]]
) -> TournamentResult:
    """Win rates, intervals, mean scores and ranks, and ratings from per-game results."""
    labels = agent_labels(codes)
    stats = [AgentStats(label=label, code=code) for label, code in zip(labels, codes, strict=True)]
    rated_games = []
    for r in results:
        seats = r["seats"]
        winners = r["winners"]
        for seat, a in enumerate(seats):
            s = stats[a]
            s.games += 1
            s.score_sum += r["scores"][seat]
            s.rank_sum += r["ranks"][seat]
            if seat in winners:
                s.wins += 1.0 / len(winners)
        if len(seats) == 1:  # a solo game: the agent against the game's scripted opponent
            lineup = [labels[seats[0]], SOLO_OPPONENT]
            rated_games.append((lineup, [0, 1] if winners else [1, 0]))
        else:
            rated_games.append(([labels[a] for a in seats], r["ranks"]))
    ratings = openskill_ratings(rated_games, [*labels, SOLO_OPPONENT])
    for s in stats:
        if s.games:
            s.win_rate = s.wins / s.games
            s.ci_low, s.ci_high = wilson_interval(s.wins, s.games)
            s.mean_score = s.score_sum / s.games
            s.mean_rank = 1.0 + s.rank_sum / s.games
        s.mu, s.sigma, s.rating = ratings[s.label]
    return TournamentResult(game, players, labels, codes, results, stats)
