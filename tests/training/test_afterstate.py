"""Training of the afterstate value (training/methods/afterstate.py): positions recorded at every
turn boundary with the game's result, n-step targets, a fit that starts from the heuristic's margin,
and runs that evaluate, resume and hand back a value `learned` plays."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import numpy as np
import pytest
from shipped_values import shipped_value_alone

pytest.importorskip("torch")

from huerta.agents import make_agent
from huerta.agents.afterstate import ValueNetwork
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import get_game
from huerta.training import chunks
from huerta.training.cli import main as cli_main
from huerta.training.config import TrainConfig
from huerta.training.evaluation.matches import play_game
from huerta.training.methods import afterstate
from huerta.training.methods.afterstate import (
    Afterstates,
    eval_points,
    record,
    record_chunk,
    targets,
)
from huerta.training.methods.dispatch import train
from huerta.training.runs import TrainingInterrupted, read_eval

TINY = {"value_games": 8, "value_epochs": 1, "eval_games": 2, "progress": False}


def _same(a: Afterstates, b: Afterstates) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in
               ("observations", "terms", "priors", "outcomes", "seats", "turns", "games"))


@pytest.mark.parametrize("game, players", [("finca", 2), ("alpujarras", 3), ("alpujarras", 1),
                                           ("mi_tierra", 2)])
def test_every_turn_boundary_is_recorded_for_every_seat_with_the_games_result(game, players):
    data = record_chunk(game, players, 4, {}, 0, 2)
    assert set(np.unique(data.games)) == {0, 1}
    for g in (0, 1):
        rows = data.games == g
        turns = data.turns[rows]
        # each boundary once per seat, numbered 0, 1, 2, ... in order
        assert np.array_equal(np.bincount(turns), np.full(turns.max() + 1, players))
        assert np.array_equal(data.seats[rows], np.tile(np.arange(players), turns.max() + 1))
        # the outcome is the seat's share of the win, the same at every boundary
        shares = [data.outcomes[rows & (data.seats == s)] for s in range(players)]
        assert all(len(set(s.tolist())) == 1 for s in shares)
        if players > 1:
            assert np.isclose(sum(s[0] for s in shares), 1.0)
    assert data.observations.shape[1] == get_game(game).observation_size
    assert _same(data, record_chunk(game, players, 4, {}, 0, 2))  # same seed, same games


def test_targets_are_the_heuristics_chance_some_turns_later_or_the_result():
    n = 5  # one seat of one game, five boundaries, then a second game of two
    data = Afterstates(
        observations=np.zeros((7, 1), np.float16), terms=np.zeros((7, 3), np.float32),
        priors=np.array([0.0, 1.0, -1.0, 2.0, 0.5, 3.0, 3.0], np.float32),
        outcomes=np.array([1.0] * n + [0.0, 0.0], np.float32),
        seats=np.zeros(7, np.int8), turns=np.array([0, 1, 2, 3, 4, 0, 1], np.int32),
        games=np.array([0] * n + [1, 1], np.int32))
    sigmoid = 1 / (1 + np.exp(-data.priors))
    two = targets(data, 2)
    np.testing.assert_allclose(two[:3], sigmoid[2:5], rtol=1e-6)  # two boundaries on, same game
    np.testing.assert_allclose(two[3:], [1.0, 1.0, 0.0, 0.0])  # the game ends sooner
    np.testing.assert_allclose(targets(data, 0), data.outcomes)


def _synthetic(rows: int, seed: int, scale: float = 1.0, shift: float = 0.0,
               drawn: bool = True) -> Afterstates:
    """Positions whose results are drawn from the logistic of `scale * prior + shift` (or, not
    `drawn`, are that chance itself, as a share of the win), one position per game (horizon 0
    makes the result the target), features pure noise."""
    rng = np.random.default_rng(seed)
    priors = rng.normal(0.0, 2.0, rows).astype(np.float32)
    chance = 1 / (1 + np.exp(-(scale * priors + shift)))
    wins = rng.random(rows) < chance if drawn else chance
    return Afterstates(
        observations=rng.normal(size=(rows, 4)).astype(np.float16),
        terms=np.zeros((rows, 3), np.float32), priors=priors,
        outcomes=wins.astype(np.float32), seats=np.zeros(rows, np.int8),
        turns=np.zeros(rows, np.int32), games=np.arange(rows, dtype=np.int32))


def test_calibration_recovers_the_scale_and_shift_the_results_were_drawn_with():
    data = _synthetic(20_000, seed=1, scale=0.05, shift=-1.5)
    a, b = afterstate.calibrate(data.priors * 40, data.outcomes)  # a log chance 40 times too wide
    assert a == pytest.approx(0.05 / 40, rel=0.1) and b == pytest.approx(-1.5, abs=0.1)


def test_a_fit_that_no_epoch_improves_keeps_the_prior_alone():
    # the results are the prior's chances exactly: any correction is worse on held-out games
    data = _synthetic(3_000, seed=2, drawn=False)
    layers, epoch, loss, prior_loss = afterstate.fit(data, 0, 3, seed=0)
    assert epoch == 0 and loss == prior_loss
    value = ValueNetwork(layers, {"kind": "afterstate_value", "game": "finca", "players": 2,
                                  "observation_size": 4})
    features = np.random.default_rng(3).normal(size=(5, 7)).astype(np.float32)
    priors = np.array([-2.0, -0.5, 0.0, 1.0, 3.0])
    np.testing.assert_allclose(value.logits(features, priors), priors, atol=1e-6)
    # with the file's calibration, the prior is rescaled before the network's correction
    value.about.update(prior_scale=0.5, prior_shift=-1.0)
    np.testing.assert_allclose(value.logits(features, priors), 0.5 * priors - 1.0, atol=1e-6)


def test_a_solo_fit_calibrates_its_prior_and_a_two_player_fit_does_not(tmp_path):
    solo, _ = afterstate.fit_value(tmp_path / "solo", "alpujarras", 1, 6, 6, 1, seed=0,
                                   options={})
    assert solo.prior_scale > 0 and "prior_shift" in solo.about  # fitted, a wider log chance
    assert solo.prior_scale < 1  # the log chance runs -300..-10: a logit is far narrower
    duel, _ = afterstate.fit_value(tmp_path / "duel", "finca", 2, 2, 6, 1, seed=0, options={})
    assert (duel.prior_scale, duel.prior_shift) == (1.0, 0.0)
    assert "prior_scale" not in duel.about


def test_recording_resumes_from_its_chunks_with_the_same_data(tmp_path, monkeypatch):
    games = chunks.CHUNK_GAMES + 3
    fresh = record(tmp_path / "b", "finca", 2, games, seed=2, workers=2)
    monkeypatch.setattr(chunks.os, "cpu_count", lambda: 1)
    calls = []
    real = chunks.save_chunk
    monkeypatch.setattr(chunks, "save_chunk", lambda p, d: (calls.append(p.name), real(p, d)))
    stop_after_first = record(tmp_path / "a", "finca", 2, games, seed=2, workers=1,
                              should_stop=lambda: len(calls) >= 1)
    assert stop_after_first is None and calls == ["chunk_00000.npz"]
    resumed = record(tmp_path / "a", "finca", 2, games, seed=2, workers=1)
    assert calls == ["chunk_00000.npz", "chunk_00001_of_03.npz"]  # only the missing chunk
    assert _same(resumed, fresh)


def test_eval_points_are_a_quarter_a_half_and_all_in_whole_chunks():
    assert eval_points(2000) == [500, 1000, 2000]
    assert eval_points(100) == [20, 40, 100]
    assert eval_points(8) == [2, 4, 8]
    assert eval_points(1) == [1]


@pytest.mark.parametrize("game", ["finca", "mi_tierra"])
def test_a_tiny_run_fits_evaluates_and_hands_back_a_value_learned_plays(tmp_path, game):
    out = tmp_path / "run"
    method = "" if game == "finca" else " --method afterstate"  # Mi Tierra's default is ppo
    run = train(TrainConfig(game=game, method="afterstate", seed=3, out=str(out), **TINY))
    rows = read_eval(run)
    assert [r["steps"] for r in rows] == [2, 4, 8]  # games recorded at each evaluation
    assert all(set(r) == {"steps", "games", "vs_random", "vs_heuristic"} for r in rows)
    assert json.loads((run / "config.json").read_text())["method"] == "afterstate"
    value = ValueNetwork.load(run / "best_policy.npz")
    trained = value.about["trained"]
    assert trained["command"] == (f"huerta train {game} --seed 3 --value-games 8{method} "
                                  f"--out {out}")
    best = max(rows, key=lambda r: (r["vs_heuristic"], r["vs_random"]))
    assert trained["best_games"] == best["steps"]
    assert (run / "learning_curve.png").stat().st_size > 0
    report = json.loads((run / "afterstate.json").read_text())
    assert report["games"] == 8 and report["positions"] > 0
    agents = [make_agent(f"learned:{run}", game=game, seed=0),
              make_agent("random", game=game, seed=1)]
    _, state = play_game(game, agents, seed=1)
    assert state.is_terminal
    # a finished run resumed does nothing again; a new one in its folder is refused
    stamp = (run / "best_policy.npz").stat().st_mtime_ns
    train(TrainConfig(game=game, out=str(out), progress=False), resume=True)
    assert len(read_eval(run)) == 3
    with pytest.raises(InvalidConfigError, match="already holds a run"):
        train(TrainConfig(game=game, method="afterstate", out=str(out), **TINY))
    assert (run / "best_policy.npz").stat().st_mtime_ns >= stamp


def test_a_run_interrupted_while_recording_resumes_without_replaying(tmp_path, monkeypatch):
    out = tmp_path / "run"
    settings = {**TINY, "value_games": chunks.CHUNK_GAMES * 2}
    real = chunks.save_chunk
    saved: list[str] = []

    def save_then_interrupt(path: Path, data):  # Ctrl-C right after the first chunk
        real(path, data)
        saved.append(path.name)
        if len(saved) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(chunks, "save_chunk", save_then_interrupt)
    monkeypatch.setattr(chunks.os, "cpu_count", lambda: 1)
    monkeypatch.setattr(afterstate, "eval_points", lambda games: [games])
    with pytest.raises(TrainingInterrupted, match="20 of 40 heuristic games") as caught:
        train(TrainConfig(game="finca", out=str(out), **settings))
    assert caught.value.signum == signal.SIGINT
    assert saved == ["chunk_00000.npz"] and not (out / "best_policy.npz").exists()
    run = train(TrainConfig(game="finca", out=str(out), progress=False), resume=True)
    assert saved == ["chunk_00000.npz", "chunk_00001.npz"]  # the first chunk not played again
    assert [r["steps"] for r in read_eval(run)] == [40]


def test_settings_of_the_other_method_are_refused_by_name(tmp_path, capsys, monkeypatch):
    from huerta.agents.heuristics import heuristic_module

    TrainConfig(game="mi_tierra", method="afterstate").check()  # every game has the method
    # a game whose heuristic declares no afterstate_turn (its turn search) is refused
    monkeypatch.setattr(heuristic_module("mi_tierra"), "afterstate_turn", None)
    with pytest.raises(InvalidConfigError, match="method=afterstate: no afterstate agent for "
                                                 "mi_tierra"):
        TrainConfig(game="mi_tierra", method="afterstate").check()
    with pytest.raises(InvalidConfigError, match="method="):
        TrainConfig(game="finca", method="dqn").check()
    assert TrainConfig(game="finca").check().method == "afterstate"  # the game's default
    assert TrainConfig(game="mi_tierra").check().method == "ppo"
    out = str(tmp_path / "r")
    assert cli_main(["train", "finca", "--steps", "1000", "--out", out]) == 2
    assert "--steps: setting(s) of --method ppo" in capsys.readouterr().err
    assert cli_main(["train", "mi_tierra", "--value-games", "10", "--out", out]) == 2
    assert "--value-games is a setting of --method afterstate" in capsys.readouterr().err
    assert cli_main(["train", "finca", "--backend", "rllib", "--method", "ppo",
                     "--out", out]) == 2
    assert "--method, --value-games, --value-player and --generations are settings of " \
        "--backend sb3" in capsys.readouterr().err
    assert cli_main(["train", "mi_tierra", "--value-player", "heuristic", "--out", out]) == 2
    assert "--value-player is a setting of --method afterstate" in capsys.readouterr().err
    with pytest.raises(InvalidConfigError, match="value_player: unknown agent code"):
        TrainConfig(game="finca", value_player="nobody").check()
    assert not Path(out).exists()


def test_an_evaluation_is_the_same_over_any_workers_and_a_stop_abandons_it(tmp_path):
    """The shipped Finca value as a run evaluates it (the afterstate agent: the shipped file's
    learned search settings left out, as a fitted value has none, so no time budget can
    change a game)."""
    args = (shipped_value_alone("finca", tmp_path), "finca", 2, "random", 12, 5)
    one = afterstate.evaluate(*args, workers=1)
    assert one is not None and 0 <= one <= 1
    assert afterstate.evaluate(*args, workers=2) == one  # parts fixed by game index, fsum
    for workers in (1, 2):
        assert afterstate.evaluate(*args, workers=workers, should_stop=lambda: True) is None


def test_a_pool_wait_ends_on_a_stop_even_when_a_worker_died_with_its_job():
    """A worker killed mid-job (a SIGTERM to the whole process group) never sends that job's
    result; the parent still sees the stop and ends, keeping the results that did come."""
    import multiprocessing
    import threading
    import time

    got: list = []
    ready = threading.Event()
    stop_at: list[float] = []

    def consume():
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(2) as pool:
            # SIGCONT is a no-op for a running process (a result: None); SIGKILL ends the
            # worker that takes it, with its job
            jobs = [signal.SIGCONT, signal.SIGKILL]

            def should_stop():
                if got and not stop_at:
                    stop_at.append(time.monotonic() + 1.0)  # the signal comes a little later
                return bool(stop_at) and time.monotonic() > stop_at[0]

            for result in chunks.results_until_stopped(pool, signal.raise_signal, jobs,
                                                         should_stop):
                got.append(result)
        ready.set()

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    assert ready.wait(120), "the wait for a dead worker's result never ended"
    assert got == [None]


# --- self-play generations: the value refitted on the learned agent's own games ----------------
def _generation_zero(path: Path, search: dict | None) -> str:
    """A small random value file of Finca (declaring `search` settings where given); its agent
    code."""
    from huerta.agents.afterstate import HEURISTIC_TERMS, KIND

    rng = np.random.default_rng(0)
    width = get_game("finca").observation_size + HEURISTIC_TERMS
    about = {"kind": KIND, "game": "finca", "players": 2,
             "observation_size": get_game("finca").observation_size}
    if search is not None:
        about["search"] = search
    ValueNetwork([(rng.normal(0, 0.05, (width, 8)), rng.normal(0, 0.05, 8)),
                  (rng.normal(0, 0.5, (8, 1)), np.zeros(1))], about).save(path)
    return f"learned:{path}"


def test_a_generation_records_the_games_of_the_previous_generation(tmp_path, monkeypatch):
    """Every seat of every recorded game is the previous generation's agent (made from its
    code), and the positions are theirs, not the heuristic's games of the same seeds."""
    import huerta.agents

    code = _generation_zero(tmp_path / "gen0.npz", {"simulations": 2, "width": 2})
    made: list[str] = []
    real = huerta.agents.make_agent

    def spy(agent_code, game="finca", seed=None):
        made.append(agent_code)
        return real(agent_code, game=game, seed=seed)

    monkeypatch.setattr(huerta.agents, "make_agent", spy)
    data = record_chunk("finca", 2, 4, {}, 0, 2, player=code)
    assert made == [code] * 4  # 2 games, 2 seats
    assert set(np.unique(data.games)) == {0, 1} and len(data) > 0
    assert not _same(data, record_chunk("finca", 2, 4, {}, 0, 2))  # not the heuristic's games
    assert _same(data, record_chunk("finca", 2, 4, {}, 0, 2, player=code))  # reproducible


def test_a_tiny_generation_trains_saves_reloads_and_plays_as_its_parent(tmp_path):
    """A generation's value keeps its parent's learned search settings and says whose games
    it was fitted on; `learned` plays it as the learned search, legal games."""
    from huerta.agents.learned import LearnedAgent
    from huerta.agents.learned_search import LearnedSearchAgent

    search = {"simulations": 2, "width": 2, "horizon": 1}
    code = _generation_zero(tmp_path / "gen0.npz", search)
    out = tmp_path / "gen1"
    run = train(TrainConfig(game="finca", seed=3, out=str(out), value_player=code,
                            **{**TINY, "value_games": 4}))
    assert [r["steps"] for r in read_eval(run)] == [1, 2, 4]
    value = ValueNetwork.load(run / "best_policy.npz")
    assert value.about["search"] == search
    assert value.about["trained"]["value_player"] == code
    assert value.about["trained"]["command"] == (
        f"huerta train finca --seed 3 --value-games 4 --value-player {code} --out {out}")
    agent = LearnedAgent(seed=0, game="finca", path=str(run / "best_policy.npz"), players=2)
    assert isinstance(agent.searcher, LearnedSearchAgent)
    _, state = play_game("finca", [agent, make_agent("heuristic", game="finca", seed=1)], seed=2)
    assert state.is_terminal
