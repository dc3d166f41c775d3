"""The adaptive benchmark: stages against the rung nearest the rating, stopping once the
interval is narrow enough or the agent is off the ladder; the same games whatever the workers,
resumed from the leaderboard after an interrupt."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from huerta.training.evaluation import benchmark as benchmark_module
from huerta.training.evaluation.benchmark import BenchmarkInterrupted, benchmark
from huerta.training.evaluation.ladder import Rung
from huerta.training.evaluation.placement import (
    FAR_RUNG,
    MIN_END_GAMES,
    STAGE_DEALS,
    Estimate,
    Placement,
    solo_stop,
)
from huerta.training.evaluation.ratings import wilson_interval

pytestmark = pytest.mark.usefixtures("quick_ladder")  # random and heuristic only


# --- the schedule alone ----------------------------------------------------------------------


def test_the_first_stage_is_the_cheapest_rung_then_the_nearest_to_the_estimate():
    plan = Placement([0.0, 880.0, 1350.0], max_deals=100, players=2)
    assert plan.next_stage(None) == (0, 0, STAGE_DEALS)
    assert plan.next_stage(Estimate(600.0, 300.0, 900.0)) == (1, 0, STAGE_DEALS)
    assert plan.next_stage(Estimate(1200.0, 1000.0, 1400.0)) == (2, 0, STAGE_DEALS)
    assert plan.next_stage(Estimate(1300.0, 1200.0, 1400.0)) == (2, STAGE_DEALS, STAGE_DEALS)
    assert plan.next_stage(Estimate(440.0, 100.0, 780.0)) == (0, STAGE_DEALS, STAGE_DEALS)  # tie
    assert plan.deals == [2 * STAGE_DEALS, STAGE_DEALS, 2 * STAGE_DEALS]


def test_it_stops_once_the_interval_is_narrow_enough():
    plan = Placement([0.0, 880.0], max_deals=100, players=2, precision=75)
    plan.next_stage(None)
    assert plan.next_stage(Estimate(500.0, 400.0, 600.0)) is not None  # ±100
    assert plan.next_stage(Estimate(500.0, 430.0, 570.0)) is None  # ±70
    assert plan.stopped.startswith("placed: the 95% interval is ±70")


def test_off_the_ladder_needs_games_against_the_end_rung():
    plan = Placement([0.0, 880.0, 1350.0], max_deals=100, players=2)
    below = Estimate(-900.0, -1700.0, -500.0)
    stage = plan.next_stage(None)
    while stage is not None:
        assert stage[0] == 0  # never a game against the rungs far above
        stage = plan.next_stage(below)
    assert plan.stopped.startswith("below the ladder") and 2 * plan.deals[0] >= MIN_END_GAMES
    assert 2 * (plan.deals[0] - STAGE_DEALS) < MIN_END_GAMES  # not one stage later than needed

    plan = Placement([0.0, 880.0, 1350.0], max_deals=100, players=2)
    plan.next_stage(None)
    above = Estimate(2000.0, 1600.0, 2900.0)
    stages = [plan.next_stage(above) for _ in range(MIN_END_GAMES // (2 * STAGE_DEALS))]
    assert [s[0] for s in stages] == [2] * len(stages)
    assert plan.next_stage(above) is None and plan.stopped.startswith("above the ladder")


def test_a_used_up_rung_gives_way_and_the_end_says_the_interval_stayed_wide():
    plan = Placement([0.0, 880.0], max_deals=6, players=2)
    wide = Estimate(100.0, -400.0, 600.0)
    stages = [plan.next_stage(None)]
    while (stage := plan.next_stage(wide)) is not None:
        stages.append(stage)
    assert stages == [(0, 0, 4), (0, 4, 2), (1, 0, 4), (1, 4, 2)]  # the last stage is partial
    assert "every rung's 12 games played" in plan.stopped and "±500" in plan.stopped


def test_a_rung_far_outside_the_interval_is_never_played_even_when_the_near_ones_are_used_up():
    # beats random, never the heuristic: the interval sits between them; the rungs 400+ Elo
    # above it (learned, search) would only add certain losses, slow ones
    plan = Placement([0.0, 1000.0, 1207.0, 1300.0], max_deals=6, players=2)
    between = Estimate(540.0, 450.0, 630.0)
    stages = [plan.next_stage(None)]
    while (stage := plan.next_stage(between)) is not None:
        stages.append(stage)
    assert {rung for rung, _, _ in stages} == {0, 1} and plan.deals[2:] == [0, 0]
    assert plan.stopped.startswith("the rungs near the rating")
    assert f"within {FAR_RUNG:.0f} Elo of the interval" in plan.stopped
    assert "±90" in plan.stopped

    # the neighbours of the rating are played even when both lie far outside the interval
    # (games at 90% odds still narrow it); the rung beyond the upper neighbour is not
    plan = Placement([0.0, 1161.0, 1207.0, 1300.0], max_deals=6, players=2)
    stages = [plan.next_stage(None)]
    while (stage := plan.next_stage(between)) is not None:
        stages.append(stage)
    assert plan.deals == [6, 6, 0, 0]


def test_a_bad_precision_is_refused():
    for bad in (0, -5, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="precision"):
            Placement([0.0], max_deals=10, players=2, precision=bad)


def test_the_solo_game_stops_on_the_win_rate_interval_or_the_deals():
    assert solo_stop(0, 0, 200, wilson_interval) is None
    assert solo_stop(3, 16, 200, wilson_interval) is None  # ±17 points
    assert solo_stop(40, 300, 400, wilson_interval).startswith("placed")
    assert solo_stop(30, 200, 200, wilson_interval) == "all 200 published deals played"


# --- the adaptive benchmark, played ----------------------------------------------------------


def first_legal(observation):
    """The policy of the issue: the first legal action, always."""
    return int(np.flatnonzero(observation["action_mask"])[0])


def test_a_policy_below_random_is_placed_without_one_game_against_the_rungs_above():
    result = benchmark("finca", first_legal)
    played = {r.code: r.games for r in result.rungs}
    assert played["heuristic"] == 0 and MIN_END_GAMES <= played["random"] < 200
    assert result.high < 0.0 and result.stopped.startswith("below the ladder")
    assert result.protocol == "adaptive, ±75"
    assert "not played" in result.table() and "stopped: below the ladder" in result.table()


def test_the_nearest_rung_is_played_and_a_far_rung_never():
    # random rated against random at 0 and a rung it could never reach (1,500 points up)
    rungs = [Rung("random", 0.0), Rung("heuristic", 1500.0)]
    result = benchmark("finca", "random", rungs=rungs, precision=200)
    assert result.rungs[1].games == 0 and result.rungs[0].games > 0
    assert result.high - result.low <= 400 and result.low < 0 < result.high
    assert result.stopped.startswith("placed")


def test_the_same_games_whatever_the_workers_and_a_rerun_reuses_them(tmp_path):
    one = benchmark("finca", "random", precision=300)
    two = benchmark("finca", "random", precision=300, workers=2)
    assert one.to_json() == two.to_json()
    db = tmp_path / "board.sqlite"
    stored = benchmark("finca", "random", precision=300, db=db)
    again = benchmark("finca", "random", precision=300, db=db)
    assert (again.played, again.reused) == (0, stored.games)
    assert again.rating == stored.rating == one.rating
    with sqlite3.connect(db) as con:  # the leaderboard holds every game the benchmark played
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == stored.games


def test_an_interrupted_adaptive_benchmark_goes_on_from_its_stored_games(tmp_path,
                                                                      monkeypatch):
    db = tmp_path / "board.sqlite"
    real = benchmark_module.JobPool.play

    def five_then_ctrl_c(self, jobs):
        for n, result in enumerate(real(self, jobs)):
            if n == 5:
                raise KeyboardInterrupt
            yield result

    monkeypatch.setattr(benchmark_module.JobPool, "play", five_then_ctrl_c)
    with pytest.raises(BenchmarkInterrupted, match=r"5 games kept in .*go on from there"):
        benchmark("finca", "random", precision=300, db=db)
    monkeypatch.setattr(benchmark_module.JobPool, "play", real)
    resumed = benchmark("finca", "random", precision=300, db=db)
    whole = benchmark("finca", "random", precision=300)
    assert resumed.reused == 5 and resumed.played == whole.games - 5
    assert resumed.rating == whole.rating and resumed.games == whole.games


def test_the_solo_game_stops_when_its_win_rate_is_known():
    result = benchmark("alpujarras-solo", first_legal)
    assert result.games < 200 and result.rating == 0.0
    assert result.stopped.startswith("placed: the 95% interval of the win rate")


def test_precision_is_checked():
    with pytest.raises(Exception, match="precision must be"):
        benchmark("finca", "random", precision=0)
