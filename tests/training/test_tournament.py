"""Tournaments: line-ups, rotation, reproducibility, intervals and ratings on crafted results."""

from __future__ import annotations

import json

import pytest

from huerta.envs.core.errors import InvalidConfigError
from huerta.training.evaluation.jobs import make_jobs
from huerta.training.evaluation.ratings import openskill_ratings, ranks_from_keys, wilson_interval
from huerta.training.evaluation.tournament import run_tournament
from huerta.training.evaluation.tournament_result import agent_labels, summarise
from huerta.training.evaluation.tournament_table import format_results, save_results


def test_wilson_interval_known_values():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-3)
    low, high = wilson_interval(10, 10)
    assert high == 1.0 and low == pytest.approx(0.7225, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_ranks_share_ties():
    assert ranks_from_keys([(10, 1), (12, 0), (10, 1)]) == [1, 0, 1]
    assert ranks_from_keys([(5,), (5,)]) == [0, 0]


def test_ratings_order_a_consistent_winner_first():
    games = [(["a", "b"], [0, 1])] * 10 + [(["b", "c"], [0, 1])] * 10
    ratings = openskill_ratings(games, ["a", "b", "c", "idle"])
    assert ratings["a"][0] > ratings["b"][0] > ratings["c"][0]
    assert ratings["idle"][0] == pytest.approx(25.0)


def test_solo_results_are_rated_against_the_scripted_opponent():
    """One-seat games (Alpujarras against Zara) are rated as each agent against one pseudo-agent,
    the game's scripted opponent: the agent that beats it more often rates higher."""
    def game(seat, won):
        return {"seats": [seat], "scores": [12], "winners": [0] if won else [], "ranks": [0],
                "terminated": True}

    results = [game(0, k < 6) for k in range(10)] + [game(1, k < 1) for k in range(10)]
    result = summarise("alpujarras", 1, ["strong", "weak"], results)
    strong, weak = result.stats
    assert (strong.wins, weak.wins) == (6, 1) and strong.games == weak.games == 10
    assert strong.mu > weak.mu


def test_a_solo_tournament_runs_end_to_end():
    result = run_tournament("alpujarras", ["heuristic", "random"], players=1, games=2, seed=3)
    assert [s.games for s in result.stats] == [2, 2]
    table = format_results(result)
    assert table.startswith("alpujarras, solo against the game's opponent, 2 deals played by "
                            "each of 2 agent(s), 4 games")
    assert all(line.split()[-2] == "-" for line in table.splitlines()[3:-1])  # no mean rank
    assert table.splitlines()[-1].startswith("win %: games won against the game's opponent")


def test_summary_of_crafted_results_counts_shared_victories_fractionally():
    def game(seats, scores, winners, ranks):
        return {"seats": seats, "scores": scores, "winners": winners, "ranks": ranks,
                "terminated": True}

    results = [
        game([0, 1], [10, 5], [0], [0, 1]),
        game([1, 0], [7, 7], [0, 1], [0, 0]),  # shared: each gets 1/2
        game([0, 1], [3, 9], [1], [1, 0]),
    ]
    result = summarise("finca", 2, ["x", "y"], results)
    x, y = result.stats
    assert (x.games, x.wins, y.wins) == (3, 1.5, 1.5)
    assert x.mean_score == pytest.approx((10 + 7 + 3) / 3)
    assert x.mean_rank == pytest.approx(1 + (0 + 0 + 1) / 3)
    assert (x.ci_low, x.ci_high) == wilson_interval(1.5, 3)


def test_jobs_rotate_seats_over_paired_deals():
    jobs = make_jobs(num_agents=3, players=2, games=4, seed=100)
    assert len(jobs) == 3 * 4  # three line-ups, two deals, two rotations
    lineup0 = [j for j in jobs if j.lineup == 0]
    assert [j.seats for j in lineup0] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert [j.seed for j in lineup0] == [100, 100, 101, 101]
    assert {j.seed for j in jobs if j.lineup == 2} == {100, 101}  # the same deals everywhere
    with pytest.raises(InvalidConfigError, match="cannot fill 3 seats"):
        make_jobs(2, 3, 10, 0)
    assert agent_labels(["random", "heuristic", "random"]) == ["random#1", "heuristic", "random#2"]


def test_tournament_is_reproducible_across_worker_counts(tmp_path):
    kwargs = {"players": 2, "games": 4, "seed": 3}
    one = run_tournament("finca", ["random", "heuristic", "mcts:5"], workers=1, **kwargs)
    two = run_tournament("finca", ["random", "heuristic", "mcts:5"], workers=2, **kwargs)
    strip = lambda r: [{k: v for k, v in g.items()} for g in r.games]  # noqa: E731
    assert strip(one) == strip(two)
    assert format_results(one) == format_results(two)
    paths = save_results(one, tmp_path)
    lines = paths["games"].read_text().splitlines()
    assert len(lines) == len(one.games) == 12
    first = json.loads(lines[0])
    assert first["record"]["game"] == "finca" and first["record"]["actions"]
    assert paths["plot"].stat().st_size > 10_000
    summary = json.loads(paths["summary"].read_text())
    assert [s["label"] for s in summary["stats"]] == ["random", "heuristic", "mcts:5"]


def test_three_player_round_robin():
    result = run_tournament("finca", ["random", "heuristic", "random"], players=3, games=3, seed=1)
    assert len(result.games) == 3  # one line-up, one deal, three rotations
    assert all(s.games == 3 for s in result.stats)
    assert sorted(tuple(g["seats"]) for g in result.games) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
