"""Round-robin tournaments: any agents, any player count, seats rotated, paired deals.

Every line-up (each combination of `players` agents from the list) plays the same deals (game
seeds), and every deal once per seat rotation, so no agent profits from a lucky deal or seat.
Agents are rebuilt for every game with seeds derived from the deal and the seat, so the results
do not depend on the number of worker processes. Each game is written as one JSON line with its
record (replay it with `huerta replay`); the summary gives win rates with 95% Wilson intervals
(a shared victory counts 1/k), mean scores and ranks, and openskill ratings.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import multiprocessing
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from huerta.agents import make_agent
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import get_game

from .matches import play_game
from .ratings import openskill_ratings, ranks_from_keys, wilson_interval


@dataclass(frozen=True)
class Job:
    """One game: which agents sit where, and the deal."""

    index: int
    lineup: int
    deal: int
    seed: int
    seats: tuple[int, ...]  # agent index per seat


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
    """The per-game results (in job order) and the per-agent summary."""

    game: str
    players: int
    labels: list[str]
    codes: list[str]
    games: list[dict[str, Any]] = field(default_factory=list)
    stats: list[AgentStats] = field(default_factory=list)


def agent_labels(codes: Sequence[str]) -> list[str]:
    """Unique display names: a code used twice becomes `code#1`, `code#2`."""
    labels = []
    for i, code in enumerate(codes):
        if list(codes).count(code) > 1:
            labels.append(f"{code}#{list(codes)[: i + 1].count(code)}")
        else:
            labels.append(code)
    return labels


def make_jobs(num_agents: int, players: int, games: int, seed: int) -> list[Job]:
    """Every line-up x deal x seat rotation; `games` per line-up is rounded up to a multiple of
    the player count so that every deal is played from every seat."""
    if num_agents < players:
        raise InvalidConfigError(
            f"{num_agents} agent(s) cannot fill {players} seats; give at least {players}"
        )
    if games < 1:
        raise InvalidConfigError(f"games must be at least 1, got {games}")
    deals = math.ceil(games / players)
    jobs = []
    for lineup_index, lineup in enumerate(itertools.combinations(range(num_agents), players)):
        for deal in range(deals):
            for rotation in range(players):
                seats = tuple(lineup[(s + rotation) % players] for s in range(players))
                jobs.append(Job(len(jobs), lineup_index, deal, seed + deal, seats))
    return jobs


def _run_job(args: tuple[str, list[str], Job]) -> dict[str, Any]:
    game, codes, job = args
    agent_seeds = [job.seed * 1009 + seat * 101 + a for seat, a in enumerate(job.seats)]
    agents = [
        make_agent(codes[a], game=game, seed=agent_seed)
        for a, agent_seed in zip(job.seats, agent_seeds, strict=True)
    ]
    record, state = play_game(game, agents, job.seed, agent_seeds=agent_seeds)
    keys = state.ranking_keys()
    return {
        "index": job.index,
        "lineup": job.lineup,
        "deal": job.deal,
        "seed": job.seed,
        "seats": list(job.seats),
        "scores": state.scores(),
        "ranks": ranks_from_keys(keys),
        "winners": state.winners() if state.is_terminal else [],
        "terminated": state.is_terminal,
        "steps": state.steps,
        "record": record.to_dict(),
    }


def run_tournament(
    game: str,
    codes: Sequence[str],
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
) -> TournamentResult:
    """Play the whole round-robin and summarise it (see the module docstring)."""
    spec = get_game(game)
    spec.check_players(players)
    codes = list(codes)
    for code in set(codes):  # fail early, in this process, on unknown codes
        make_agent(code, game=spec.name, seed=0)
    jobs = make_jobs(len(codes), players, games, seed)
    args = [(spec.name, codes, job) for job in jobs]
    if workers > 1:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(workers) as pool:
            iterator = pool.imap(_run_job, args, chunksize=max(1, len(args) // (workers * 8)))
            results = list(_progress(iterator, len(args), spec.name, progress))
    else:
        results = list(_progress(map(_run_job, args), len(args), spec.name, progress))
    return summarise(spec.name, players, codes, results)


def _progress(iterator, total: int, desc: str, enabled: bool):
    if not enabled:
        return iterator
    try:
        from tqdm import tqdm
    except ImportError:
        return iterator
    return tqdm(iterator, total=total, desc=f"tournament {desc}")


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


def format_results(result: TournamentResult) -> str:
    """The summary table, best rating first."""
    header = (
        f"{'agent':<22} {'games':>6} {'win %':>7} {'95% CI':>15} {'mean score':>11} "
        f"{'mean rank':>10} {'rating':>8}"
    )
    if result.players == 1:
        title = (f"{result.game}, solo against the game's opponent, {len(result.games)} games "
                 f"(the same deals for every agent; rating against the opponent)")
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
            f"{s.label:<22} {s.games:6d} {100 * s.win_rate:7.1f} {ci:>15} {s.mean_score:11.1f} "
            f"{rank} {s.rating:8.2f}"
        )
    unfinished = sum(1 for g in result.games if not g["terminated"])
    if unfinished:
        lines.append(f"({unfinished} game(s) truncated at the step limit: no winner)")
    return "\n".join(lines)


def save_results(result: TournamentResult, out: Path) -> dict[str, Path]:
    """Write games.jsonl (one game per line, with its record), summary.json, table.txt and the
    plot; return the paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "games": out / "games.jsonl",
        "summary": out / "summary.json",
        "table": out / "table.txt",
    }
    with paths["games"].open("w") as f:
        for game in result.games:
            f.write(json.dumps(game, separators=(",", ":")) + "\n")
    summary = {
        "game": result.game,
        "players": result.players,
        "agents": result.codes,
        "stats": [asdict(s) for s in result.stats],
    }
    paths["summary"].write_text(json.dumps(summary, indent=2) + "\n")
    paths["table"].write_text(format_results(result) + "\n")
    from .plots import plot_tournament

    # matplotlib is in the `train` extra; without it the table and the JSON still stand
    with contextlib.suppress(ImportError):
        paths["plot"] = plot_tournament(result, out / "tournament.png")
    return paths
