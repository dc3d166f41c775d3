"""Training of the solo value's constants by the cross-entropy method (training/methods/cem.py):
candidates are the mean and mirrored samples, the elite make the next mean, and runs play the same
deals for every candidate, evaluate every generation, stop keeping what was finished, resume to the
same constants, and hand back a file `learned` plays."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from huerta.agents import make_agent
from huerta.agents.heuristics.alpujarras import SOLO
from huerta.agents.value_weights import ValueWeights
from huerta.envs.core.errors import InvalidConfigError
from huerta.training.cli import main as cli_main
from huerta.training.config import TrainConfig
from huerta.training.evaluation.matches import play_game
from huerta.training.methods import cem
from huerta.training.methods.dispatch import train
from huerta.training.runs import TrainingInterrupted, read_eval

TINY = {"game": "alpujarras-solo", "cem_generations": 2, "cem_population": 3, "cem_elite": 2,
        "cem_deals": 2, "eval_games": 2, "progress": False}


def test_candidates_are_the_mean_and_mirrored_samples_within_range():
    mean = cem.start_units()
    spread = cem.start_spread() * 0.1  # small steps: no constant reaches its range's edge
    units = cem.candidates(mean, spread, 5, np.random.default_rng(0))
    assert len(units) == 5
    assert np.array_equal(units[0], mean)
    steps = [u - mean for u in units[1:]]
    # the pairs mirror each other (up to the 4 decimals a candidate is rounded to)
    assert np.allclose(steps[0], -steps[2], atol=1e-3) and np.allclose(steps[1], -steps[3],
                                                                        atol=1e-3)
    assert not np.allclose(steps[0], 0)
    wide = cem.candidates(mean, cem.start_spread() * 50, 9, np.random.default_rng(1))
    for u in wide:  # far steps are clipped to each constant's range
        for constant, value in cem.weights_of(u).items():
            c = next(c for c in cem.CONSTANTS if c.name == constant)
            assert c.low <= value <= c.high


def test_the_start_is_the_heuristics_own_constants():
    weights = cem.weights_of(cem.start_units())
    assert weights == {c.name: pytest.approx(getattr(SOLO, c.name)) for c in cem.CONSTANTS}
    assert np.allclose(cem.units_of(weights), cem.start_units())


def test_the_elite_make_the_next_mean_and_the_spread_keeps_a_floor():
    units = [np.array([0.0, 0.0]), np.array([2.0, 4.0]), np.array([4.0, 8.0]),
             np.array([9.0, 9.0])]
    scores = [0.1, 0.5, 0.5, 0.0]
    mean, spread = cem.select(units, scores, np.array([1.0, 1.0]), 2, np.array([0.1, 2.0]))
    assert mean.tolist() == [3.0, 6.0]  # the two best (a tie: both kept)
    assert spread[0] == pytest.approx(np.sqrt(0.5 * 1.0 + 0.5 * 1.0))  # var of 2 and 4: 1
    assert spread[1] == pytest.approx(max(2.0, np.sqrt(0.5 + 0.5 * 4.0)))
    mean, _ = cem.select(units, [0.0, 0.0, 0.0, 0.0], np.ones(2), 1, np.zeros(2))
    assert mean.tolist() == [0.0, 0.0]  # equal scores: the first (the mean) is kept


def test_training_and_evaluation_deals_never_meet_the_balance_deals():
    train_seeds = set(cem.train_deals(0, 1, 64)) | set(cem.train_deals(0, 8, 64))
    eval_seeds = set(cem.eval_deals(0, 100))
    assert not train_seeds & eval_seeds
    assert min(train_seeds | eval_seeds) >= 200  # the balance script plays seeds 0-199
    assert set(cem.train_deals(0, 1, 64)).isdisjoint(cem.train_deals(0, 2, 64))


def test_a_tiny_run_evaluates_every_generation_and_hands_back_constants_learned_plays(
        tmp_path, capsys):
    out = tmp_path / "run"
    run = train(TrainConfig(out=str(out), **TINY))
    printed = capsys.readouterr().out
    assert "eval of the heuristic's constants:" in printed
    assert "eval of generation 2 (12 games):" in printed and "training done: 12 games" in printed
    generations = cem.read_generations(run)
    assert [g.generation for g in generations] == [0, 1, 2]
    assert generations[0].weights == cem.weights_of(cem.start_units())
    assert [len(g.candidates) for g in generations] == [0, 3, 3]
    assert [r["steps"] for r in read_eval(run)] == [0, 6, 12]
    assert all(r["games"] == 2 for r in read_eval(run))
    for g in generations:  # each generation's constants are kept, as evaluated
        assert ValueWeights.load(cem.weights_path(run, g.games)).about["weights"] == g.weights
    best = ValueWeights.load(run / "best_policy.npz")
    kept = cem.best_generation(generations)
    assert best.about["weights"] == kept.weights
    trained = best.about["trained"]
    assert trained["method"] == "cem" and trained["command"].startswith(
        "huerta train alpujarras-solo --seed 0 --generations 2")
    assert trained["best_generation"] == kept.generation
    assert (run / "learning_curve.png").stat().st_size > 0
    from huerta.training.methods.export import export_policy

    exported = export_policy(run, tmp_path / "solo.npz")
    assert ValueWeights.load(exported).about["weights"] == kept.weights
    agent = make_agent(f"learned:{run}", game="alpujarras", seed=1)
    _, state = play_game("alpujarras", [agent], seed=3)  # an illegal action would raise
    assert state.is_terminal
    assert agent.network.about["weights"] == kept.weights


def test_the_candidates_play_the_same_deals_and_their_scores_say_so(tmp_path, monkeypatch):
    played: list[tuple[tuple, tuple]] = []
    real = cem.play_deals

    def spy(weights, seeds, options):
        played.append((tuple(sorted(weights.items())), tuple(seeds)))
        return real(weights, seeds, options)

    monkeypatch.setattr(cem, "play_deals", spy)
    monkeypatch.setattr(cem.os, "cpu_count", lambda: 1)  # in this process, where the spy is
    run = train(TrainConfig(out=str(tmp_path / "run"), **{**TINY, "cem_generations": 1}))
    deals = set(cem.train_deals(0, 1, 2))
    generation = cem.read_generations(run)[1]
    for weights in generation.candidates:
        seen = {s for w, seeds in played if w == tuple(sorted(weights.items())) for s in seeds}
        assert deals <= seen
    wins, duties = zip(*(real(w, sorted(deals), {}) for w in generation.candidates),
                       strict=True)
    assert generation.wins == list(wins)
    assert generation.scores == [round((w + cem.DUTY_SCORE * d) / 2, 4)
                                 for w, d in zip(wins, duties, strict=True)]


def test_a_stopped_run_keeps_its_generations_and_resumes_to_the_same_constants(tmp_path):
    whole = train(TrainConfig(out=str(tmp_path / "whole"), **TINY))
    out = tmp_path / "stopped"
    config = TrainConfig(out=str(out), **TINY).check()
    (out / "values").mkdir(parents=True)
    (out / "config.json").write_text(json.dumps(vars(config)))

    class StopDuringGeneration2:  # a signal once generation 1 is written
        @property
        def signum(self):
            return 2 if len(cem.read_generations(out)) >= 2 else None

    with pytest.raises(TrainingInterrupted, match=r"kept .*cem\.jsonl, 1 of 2 generations"):
        cem.train_cem(config, out, StopDuringGeneration2())
    assert [g.generation for g in cem.read_generations(out)] == [0, 1]
    assert not (out / "best_policy.npz").exists()
    from huerta.training.methods.export import export_policy

    with pytest.raises(InvalidConfigError, match=r"no best_policy\.npz yet \(the cem run"):
        export_policy(out)
    run = train(TrainConfig(out=str(out), progress=False, game="alpujarras-solo"), resume=True)
    assert [g.generation for g in cem.read_generations(run)] == [0, 1, 2]
    assert [g.weights for g in cem.read_generations(run)] == \
        [g.weights for g in cem.read_generations(whole)]
    assert [r["steps"] for r in read_eval(run)] == [0, 6, 12]
    # resumed with more generations, it goes on to them with the draws an unstopped run makes
    longer = train(TrainConfig(out=str(out), progress=False, game="alpujarras-solo",
                               cem_generations=3), resume=True)
    assert [g.generation for g in cem.read_generations(longer)] == [0, 1, 2, 3]
    assert json.loads((longer / "config.json").read_text())["cem_generations"] == 3
    assert "--generations 3" in ValueWeights.load(longer / "best_policy.npz").about["trained"][
        "command"]
    # a line cut short by a kill is played again, not read
    path = run / "cem.jsonl"
    path.write_text(path.read_text()[:-40])
    assert [g.generation for g in cem.read_generations(run)] == [0, 1, 2]


def test_a_solo_ppo_run_says_its_method_in_the_command_it_records(tmp_path):
    from huerta.training.methods.export import run_facts

    config = TrainConfig(game="alpujarras-solo", method="ppo", out=str(tmp_path)).check()
    (tmp_path / "config.json").write_text(json.dumps(vars(config)))
    assert run_facts(tmp_path)["command"].startswith(
        "huerta train alpujarras-solo --seed 0 --method ppo")
    config = TrainConfig(game="mi_tierra", out=str(tmp_path)).check()  # its default: no flag
    (tmp_path / "config.json").write_text(json.dumps(vars(config)))
    assert "--method" not in run_facts(tmp_path)["command"]


def test_cem_settings_are_checked_and_refused_elsewhere_by_name(tmp_path, capsys):
    assert TrainConfig(game="alpujarras-solo").check().method == "cem"  # the solo default
    assert TrainConfig(game="alpujarras").check().method == "afterstate"
    with pytest.raises(InvalidConfigError, match="method=cem learns the constants of the "
                                                 "Alpujarras solo value; finca"):
        TrainConfig(game="finca", method="cem").check()
    with pytest.raises(InvalidConfigError, match="cem_elite"):
        TrainConfig(game="alpujarras-solo", cem_elite=8).check()
    with pytest.raises(InvalidConfigError, match="cem_population"):
        TrainConfig(game="alpujarras-solo", cem_population=1).check()
    out = str(tmp_path / "r")
    assert cli_main(["train", "finca", "--generations", "3", "--out", out]) == 2
    assert "--generations is a setting of --method cem" in capsys.readouterr().err
    assert cli_main(["train", "alpujarras-solo", "--steps", "1000", "--out", out]) == 2
    assert "--steps: setting(s) of --method ppo; the solo game trains --method cem" in \
        capsys.readouterr().err
    assert cli_main(["train", "alpujarras-solo", "--value-games", "10", "--out", out]) == 2
    assert "--value-games is a setting of --method afterstate" in capsys.readouterr().err
    assert not Path(out).exists()


def test_value_weights_files_are_checked_by_name(tmp_path):
    model = ValueWeights({"window": 4.6, "hit": 0.7})
    path = tmp_path / "w.npz"
    model.save(path)
    again = ValueWeights.load(path)
    assert again.about["weights"] == {"window": 4.6, "hit": 0.7}
    solo = again.solo_weights()
    assert solo.window == 5 and solo.hit == 0.7 and solo.spread == SOLO.spread  # rest kept
    for weights, message in (({"windows": 4}, r"unknown weight\(s\) \['windows'\]"),
                             ({"hit": "high"}, "weight hit = 'high' is not a number"),
                             ({"hit": float("nan")}, "is not a number"),
                             ({"window": 0}, "window = 0 is out of range: it must be at "
                                             "least 1"),
                             ({"hit": 1.5}, "hit = 1.5 is out of range: it must be a chance "
                                            "above 0 and at most 1"),
                             ({"spread": 0.0}, "spread = 0.0 is out of range"),
                             ({"noria": -1}, "noria = -1 is out of range: it must be at "
                                             "least 0")):
        with pytest.raises(InvalidConfigError, match=message):
            ValueWeights(weights)
    with pytest.raises(InvalidConfigError, match="not a value-weights file"):
        ValueWeights.load(tmp_path / "missing.npz")
    with pytest.raises(InvalidConfigError, match="not a model of finca"):
        again.check_game("finca")
    with pytest.raises(InvalidConfigError, match="at 2 seat"):
        again.check_game("alpujarras", 2)
    again.check_game("alpujarras", 1)


def test_learned_constants_at_a_multiplayer_table_are_refused_by_name(tmp_path, capsys):
    path = tmp_path / "w.npz"
    ValueWeights({"window": 5}).save(path)
    agents = [make_agent(f"learned:{path}", game="alpujarras", seed=0),
              make_agent("random", game="alpujarras", seed=1)]
    with pytest.raises(InvalidConfigError, match="solo value, not a model of alpujarras at 2"):
        play_game("alpujarras", agents, seed=0)
    # where the table is known, before any game: the code check, the CLI and the web's
    from huerta.agents.registry import check_agent_code

    assert check_agent_code(f"learned:{path}", "alpujarras", 1) == "learned"
    for players in (2, 3):
        with pytest.raises(InvalidConfigError, match=f"not a model of alpujarras at {players}"):
            check_agent_code(f"learned:{path}", "alpujarras", players)
    for command in (["tournament", "alpujarras", "--games", "1", "--out", str(tmp_path / "t")],
                    ["play", "alpujarras"]):
        assert cli_main([*command, "--agents", f"learned:{path},heuristic"]) == 2
        assert "not a model of alpujarras at 2 seat(s)" in capsys.readouterr().err
    assert not (tmp_path / "t").exists()  # refused before the tournament made its folder


def test_the_hit_rate_is_a_constant_of_the_solo_value():
    from dataclasses import replace

    from huerta.agents.heuristics.alpujarras import solo_value
    from huerta.envs.alpujarras import new_game

    state = new_game(1, seed=4)
    assert SOLO.hit == 0.65
    # with nothing held yet every duty lacks items: a surer stop makes them likelier
    assert solo_value(state, replace(SOLO, hit=0.9)) > solo_value(state, SOLO) > \
        solo_value(state, replace(SOLO, hit=0.4))


def test_the_sums_do_not_depend_on_the_number_of_worker_processes():
    table = [cem.weights_of(cem.start_units()), {**cem.weights_of(cem.start_units()),
                                                 "window": 6.0}]
    seeds = cem.train_deals(0, 1, 6)  # two jobs of 4 and 2 games per candidate
    with cem.Player(1, lambda: False) as alone:
        one = alone.play(table, seeds, {})
    with cem.Player(2, lambda: False) as pair:
        two = pair.play(table, seeds, {})
    assert one == two
    assert one[0] == cem.play_deals(table[0], seeds, {})


def test_a_sigterm_to_the_whole_process_group_stops_a_run_at_once(tmp_path):
    """`kill -TERM -PGID` (a job scheduler's stop) reaches the worker processes too: they die
    with their jobs, and the run still stops within seconds, keeping generation 0."""
    import os
    import signal
    import subprocess
    import sys
    import time

    settings = tmp_path / "long.json"  # a generation of 3 x 64 deals: minutes of play
    settings.write_text(json.dumps({**TINY, "cem_deals": 64, "eval_games": 4}))
    out = tmp_path / "run"
    command = [sys.executable, "-m", "huerta.training.cli", "train", "alpujarras-solo",
               "--config", str(settings), "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while not (out / "cem.jsonl").exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no generation 0 within 180 s"
            time.sleep(0.05)
        time.sleep(2)  # generation 1 under way in the workers
        os.killpg(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)  # a blind wait on the dead workers never ends
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if "interrupted by SIGTERM" in line]
    assert len(lines) == 1 and "0 of 2 generations" in lines[0], err
    assert [g.generation for g in cem.read_generations(out)] == [0]
