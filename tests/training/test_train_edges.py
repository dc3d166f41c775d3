"""Training runs lose nothing: checkpoints on a signal and by wall time, atomic files, resume
from the newest intact checkpoint, no duplicate evaluation rows, occupied run folders and bad
settings refused naming what is wrong.

Every run here is tiny (1,024 Mi Tierra steps, one-game evaluations, opponents drawn from random
play only) and compared with one uninterrupted run of the same settings.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from huerta.envs.core.errors import InvalidConfigError
from huerta.training import runs
from huerta.training.cli import main as cli_main
from huerta.training.config import TrainConfig
from huerta.training.methods import ppo as train_module
from huerta.training.methods.dispatch import train
from huerta.training.runs import TrainingInterrupted, read_eval, resume_candidates
from huerta.training.selfplay import OpponentPool, PoolWeights

GAME = "mi_tierra"
STEPS = 1024
TINY = {
    "n_steps": 128, "batch_size": 64, "n_epochs": 1, "net_arch": [16], "eval_every": 256,
    "eval_games": 1, "snapshot_every": 512, "checkpoint_every": 512,
    # a wall-clock checkpoint at every update in between
    "checkpoint_minutes": 1e-6,
    "pool_weights": {"snapshot": 0.0, "heuristic": 0.0, "random": 1.0},
    "imitation_games": 0,
}


def _config(out: Path, **changes) -> TrainConfig:
    values = {"game": GAME, "steps": STEPS, "envs": 1, "seed": 3, "out": str(out),
              "progress": False, **TINY, **changes}
    return TrainConfig(**values)


def _steps_of(path: Path) -> int:
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(str(path), device="cpu").num_timesteps


def _eval_steps(run: Path) -> list[int]:
    return [row["steps"] for row in read_eval(run)]


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """One uninterrupted run: what every interrupted and resumed run must match."""
    return train(_config(tmp_path_factory.mktemp("reference") / "run"))


def _assert_matches_reference(run: Path, reference: Path) -> None:
    assert _steps_of(run / "checkpoints" / "latest.zip") == STEPS
    assert _steps_of(run / "final_model.zip") == STEPS
    steps = _eval_steps(run)
    assert len(steps) == len(set(steps)), steps  # no duplicate rows
    assert steps == _eval_steps(reference)  # none missing either
    assert (run / "eval.csv").read_text().count("\n") == len(steps) + 1


def test_uninterrupted_run_checkpoints_by_steps_and_by_wall_time(reference):
    folder = reference / "checkpoints"
    assert _eval_steps(reference) == list(range(0, STEPS + 1, 256))
    # model_<steps> at the first update after every checkpoint_every steps and at the end;
    # auto_<steps> at every other update (checkpoint_minutes is tiny), the newest two kept
    assert sorted(p.name for p in folder.glob("model_*.zip")) == [
        "model_000000512.zip", "model_000001024.zip"]
    assert sorted(p.name for p in folder.glob("auto_*.zip")) == [
        "auto_000000768.zip", "auto_000000896.zip"]
    assert (folder / "latest.zip").read_bytes() == (folder / "model_000001024.zip").read_bytes()
    assert not list(reference.rglob(".*.tmp"))  # no temporary file left behind
    saved = json.loads((reference / "config.json").read_text())
    assert saved["steps"] == STEPS and saved["checkpoint_minutes"] == 1e-6


@pytest.mark.parametrize("signum, envs, group", [
    (signal.SIGINT, 2, True),  # Ctrl-C in a terminal: the trainer and its env processes
    (signal.SIGTERM, 1, False),  # `kill PID`: the trainer alone
], ids=["SIGINT-to-the-group-2-envs", "SIGTERM-to-the-trainer-1-env"])
def test_signal_keeps_a_checkpoint_and_resume_matches_an_uninterrupted_run(
    signum, envs, group, reference, tmp_path
):
    settings = tmp_path / "tiny.json"
    settings.write_text(json.dumps(TINY))
    out = tmp_path / "run"
    command = [sys.executable, "-m", "huerta.training.cli", "train", GAME, "--steps",
               str(STEPS), "--envs", str(envs), "--seed", "3", "--config", str(settings),
               "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while not (out / "checkpoints" / "latest.zip").exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no checkpoint within 180 s"
            time.sleep(0.05)
        if group:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
        _, err = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    # one line saying what was kept (exit status 2 from today's CLI, or 128 + the signal)
    assert proc.returncode == 128 + signum, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if "interrupted by" in line]
    assert len(lines) == 1 and signal.Signals(signum).name in lines[0] and "kept" in lines[0]
    kept = _steps_of(out / "checkpoints" / "latest.zip")
    assert 0 < kept < STEPS and f"{kept:,} of {STEPS:,} steps" in lines[0]
    assert all(row <= STEPS for row in _eval_steps(out))

    # resumed without --steps: the run's own target, its own settings (envs included)
    run = train(TrainConfig(game=GAME, out=str(out), progress=False), resume=True)
    _assert_matches_reference(run, reference)
    assert json.loads((out / "config.json").read_text())["envs"] == envs


def test_signal_during_an_evaluation_abandons_it(reference, tmp_path, monkeypatch):
    real = train_module.evaluate
    calls = []

    def evaluate(*args, **kwargs):
        calls.append(args[3])
        if len(calls) == 3:  # at 256 steps (0 steps: random, heuristic; 256: random first)
            os.kill(os.getpid(), signal.SIGTERM)
        return real(*args, **kwargs)

    monkeypatch.setattr(train_module, "evaluate", evaluate)
    out = tmp_path / "run"
    with pytest.raises(TrainingInterrupted) as info:
        train(_config(out))
    assert info.value.signum == signal.SIGTERM
    assert info.value.steps == 128  # the last update before the evaluation at 256
    assert "SIGTERM" in str(info.value) and str(info.value.checkpoint) in str(info.value)
    assert _eval_steps(out) == [0]
    assert _steps_of(out / "checkpoints" / "latest.zip") == 128
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # handlers given back
    monkeypatch.undo()
    run = train(TrainConfig(game=GAME, out=str(out), progress=False), resume=True)
    _assert_matches_reference(run, reference)


def test_damaged_latest_falls_back_and_resume_keeps_the_target(reference, tmp_path, capsys):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    folder = out / "checkpoints"
    latest = folder / "latest.zip"
    latest.write_bytes(latest.read_bytes()[: latest.stat().st_size // 2])  # cut short
    (folder / "model_000001024.zip").write_bytes(b"not a zip")
    assert [p.name for p in resume_candidates(out)][:3] == [
        "latest.zip", "model_000001024.zip", "auto_000000896.zip"]

    run = train(TrainConfig(game=GAME, out=str(out), progress=False), resume=True)
    err = capsys.readouterr().err
    assert "latest.zip" in err and "model_000001024.zip" in err
    assert "resuming from" in err and "auto_000000896.zip (896 steps)" in err
    _assert_matches_reference(run, reference)  # the row at 1,024 made again, not doubled

    # --steps given: a new target, kept by the next resume that gives none
    train(TrainConfig(game=GAME, steps=STEPS + 256, out=str(out), progress=False),
          resume=True)
    assert _steps_of(latest) == STEPS + 256
    assert _eval_steps(out) == list(range(0, STEPS + 257, 256))
    train(TrainConfig(game=GAME, out=str(out), progress=False), resume=True)
    assert _steps_of(latest) == STEPS + 256
    assert json.loads((out / "config.json").read_text())["steps"] == STEPS + 256


def test_resume_without_a_readable_checkpoint_names_every_file(reference, tmp_path):
    out = tmp_path / "run"
    (out / "checkpoints").mkdir(parents=True)
    shutil.copy(reference / "config.json", out / "config.json")
    with pytest.raises(InvalidConfigError,
                       match=r"nothing to resume: no checkpoint in .*; start afresh with --force"):
        train(TrainConfig(game=GAME, out=str(out), progress=False), resume=True)
    (out / "checkpoints" / "latest.zip").write_bytes(b"")
    (out / "checkpoints" / "model_000000256.zip").write_bytes(b"PK")
    with pytest.raises(InvalidConfigError,
                       match=r"no readable checkpoint.*latest\.zip.*model_000000256\.zip.*; "
                             r"start afresh with --force"):
        train(TrainConfig(game=GAME, out=str(out), progress=False), resume=True)


class _Killed(BaseException):
    """The trainer killed at once (SIGKILL, a crash, a power cut): nothing on the way out saves
    anything, unlike SIGINT and SIGTERM."""


def _killed_at_step(monkeypatch, step: int) -> None:
    """Kill the run at its `step`-th env step (one game: one step per call of step_wait)."""
    from huerta.training.vector import SelfPlayVecEnv

    real = SelfPlayVecEnv.step_wait
    calls = []

    def step_wait(self):
        calls.append(step)
        if len(calls) == step:
            raise _Killed
        return real(self)

    monkeypatch.setattr(SelfPlayVecEnv, "step_wait", step_wait)


def test_a_run_killed_after_its_first_update_resumes_from_it(reference, tmp_path,
                                                             monkeypatch):
    """The first update is checkpointed whatever `checkpoint_every` and `checkpoint_minutes`
    say, so a run killed soon after (here at the next env step) resumes from it and ends as an
    uninterrupted run."""
    out = tmp_path / "run"
    _killed_at_step(monkeypatch, TINY["n_steps"] + 1)
    with pytest.raises(_Killed):  # no checkpoint due by steps or by wall time for long
        train(_config(out, checkpoint_every=100_000, checkpoint_minutes=60.0))
    monkeypatch.undo()
    assert [p.name for p in resume_candidates(out)] == ["latest.zip", "auto_000000128.zip"]
    assert _steps_of(out / "checkpoints" / "latest.zip") == TINY["n_steps"]
    run = train(TrainConfig(game=GAME, out=str(out), progress=False), resume=True)
    _assert_matches_reference(run, reference)


def test_a_run_killed_before_its_first_update_says_to_start_afresh(tmp_path, monkeypatch,
                                                                   capsys):
    """Killed before any update there is nothing to resume: --resume says so and names --force,
    which then starts the run afresh in the same folder."""
    out = tmp_path / "run"
    _killed_at_step(monkeypatch, 10)
    with pytest.raises(_Killed):
        train(_config(out, steps=256))
    monkeypatch.undo()
    assert resume_candidates(out) == []
    code = cli_main(["train", GAME, "--out", str(out), "--resume", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert (f"nothing to resume: no checkpoint in {out / 'checkpoints'}; start afresh with "
            "--force (in place of --resume)") in err
    run = train(_config(out, steps=256), force=True)
    assert _steps_of(run / "checkpoints" / "latest.zip") == 256
    assert _eval_steps(run) == [0, 256]


def test_rllib_nothing_to_resume_names_force(tmp_path):
    """The RLlib trainer's refusals to resume name --force too (refused before Ray starts)."""
    from dataclasses import asdict

    pytest.importorskip("ray.rllib")
    from huerta.training.rllib import RLlibTrainConfig

    out = tmp_path / "run"
    with pytest.raises(InvalidConfigError, match=r"nothing to resume: .*config\.json does not "
                                                 r"exist; start afresh with --force"):
        train(RLlibTrainConfig(game="finca", out=str(out)), resume=True)
    out.mkdir()
    config = RLlibTrainConfig(game="finca", out=str(out)).check()
    (out / "config.json").write_text(json.dumps(asdict(config)))
    with pytest.raises(InvalidConfigError, match=r"nothing to resume: no checkpoint in .*; "
                                                 r"start afresh with --force"):
        train(RLlibTrainConfig(game="finca", out=str(out)), resume=True)


def test_resume_refuses_contradictions(reference, tmp_path):
    with pytest.raises(InvalidConfigError, match="resume and force contradict"):
        train(TrainConfig(game=GAME, out=str(reference)), resume=True, force=True)
    with pytest.raises(InvalidConfigError, match="holds a mi_tierra run, not finca"):
        train(TrainConfig(game="finca", out=str(reference)), resume=True)


def test_occupied_folder_needs_resume_or_force(tmp_path):
    out = tmp_path / "run"
    (out / "pool").mkdir(parents=True)
    (out / "pool" / "snapshot_000000999.zip").write_bytes(b"an old run's snapshot")
    (out / "notes.txt").write_text("mine")
    with pytest.raises(InvalidConfigError, match=r"already holds a run.*--resume.*--force"):
        train(_config(out, steps=128))
    (out / "pool" / "snapshot_000000999.zip").unlink()
    (out / "eval.csv").write_text("steps,win_rate_vs_random,time\n999,1.0,0\n")
    with pytest.raises(InvalidConfigError, match=r"already holds a run \(eval\.csv\)"):
        train(_config(out, steps=128))
    (out / "pool" / "snapshot_000000999.zip").write_bytes(b"an old run's snapshot")

    train(_config(out, steps=128), force=True)
    assert (out / "notes.txt").read_text() == "mine"  # only the run's own files go
    assert not (out / "pool" / "snapshot_000000999.zip").exists()
    assert _eval_steps(out) == [0, 128]  # the old run's row gone; the run ends evaluated
    assert _steps_of(out / "checkpoints" / "latest.zip") == 128


@pytest.mark.parametrize("name, value, message", [
    ("steps", "600000", r"steps='600000' \(str\): expected an integer >= 1"),
    ("steps", 0, r"steps=0 .*>= 1"),
    ("steps", 2.5, r"steps=2\.5 \(float\): expected an integer"),
    ("envs", 0, r"envs=0 .*>= 1 and <= 4096"),
    ("seed", -1, r"seed=-1 .*>= 0 and <= 4294967295"),
    ("players", "2", r"players='2' \(str\)"),
    ("players", 7, r"num_players=7 is not supported"),
    ("batch_size", True, r"batch_size=True \(bool\): expected an integer >= 2"),
    ("n_steps", 1, r"n_steps=1 .*>= 2"),
    ("eval_games", 0, r"eval_games=0 .*>= 1"),
    ("learning_rate", "3e-4", r"learning_rate='3e-4' \(str\): expected a number > 0"),
    ("learning_rate", 0, r"learning_rate=0 .*> 0"),
    ("gamma", 1.5, r"gamma=1\.5 .*>= 0 and <= 1"),
    ("shaping", -0.1, r"shaping=-0\.1 .*>= 0"),
    ("checkpoint_minutes", 0, r"checkpoint_minutes=0 .*> 0"),
    ("checkpoint_minutes", float("nan"), r"checkpoint_minutes=nan"),
    ("pool_weights", {"random": -0.2}, r"pool_weights\.random=-0\.2 .*>= 0"),
    ("pool_weights", {"random": "1"}, r"pool_weights\.random='1' \(str\)"),
    ("pool_weights", {"snapshot": 0, "heuristic": 0, "random": 0}, r"every weight is 0"),
    ("pool_weights", {"randon": 1}, r"unknown kind\(s\) \['randon'\]; valid: snapshot"),
    ("pool_weights", [0.5, 0.3, 0.2], r"pool_weights=\[0\.5, 0\.3, 0\.2\] \(list\)"),
    ("net_arch", [64, "64"], r"net_arch=\[64, '64'\] \(list\): expected a non-empty list"),
    ("net_arch", [], r"net_arch=\[\]"),
    ("reward", "wins", r"reward='wins' \(str\): expected one of win_loss"),
    ("progress", "yes", r"progress='yes' \(str\): expected true or false"),
    ("out", 3, r"out=3 \(int\): expected a folder path"),
    ("game_options", {"double_turns": 3}, r"game_options: .*solo game only"),
    ("game_options", {"doubles": 3}, r"game_options: .*unknown option"),
])
def test_bad_settings_are_refused_naming_the_field(name, value, message):
    config = TrainConfig(game="alpujarras", **{name: value})
    with pytest.raises(InvalidConfigError, match=message):
        config.check()


def test_good_settings_are_normalised(tmp_path):
    config = TrainConfig(game="alpujarras-solo", steps=1e5, out=tmp_path, learning_rate=1,
                         net_arch=(8, 8), game_options={"double_turns": 2},
                         pool_weights={"random": 0}).check()
    assert (config.game, config.players, config.steps) == ("alpujarras", 1, 100_000)
    assert type(config.steps) is int and config.out == str(tmp_path)
    assert config.learning_rate == 1.0 and config.net_arch == [8, 8]
    assert TrainConfig().check().steps == 600_000  # the default target of a new run


def test_bad_settings_file_fails_the_command_naming_the_field(tmp_path, capsys):
    settings = tmp_path / "bad.json"
    settings.write_text('{"steps": "1000", "eval_games": 1}')
    code = cli_main(["train", "finca", "--config", str(settings), "--out", str(tmp_path / "r")])
    assert code == 2
    assert "steps='1000' (str): expected an integer >= 1" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()  # refused before anything was written


def test_eval_rows_are_unique_and_trimmed(tmp_path):
    runs.append_eval(tmp_path, 0, {"random": 0.5})
    runs.append_eval(tmp_path, 256, {"random": 0.25})
    runs.append_eval(tmp_path, 256, {"random": 0.75})  # made again: replaces
    runs.append_eval(tmp_path, 512, {"random": 1.0})
    assert [(r["steps"], r["vs_random"]) for r in read_eval(tmp_path)] == [
        (0, 0.5), (256, 0.75), (512, 1.0)]
    runs.trim_eval(tmp_path, 300)
    assert _eval_steps(tmp_path) == [0, 256]
    assert not list(tmp_path.glob(".*.tmp"))


def test_damaged_pool_snapshot_is_named_and_left_out(reference, tmp_path):
    pool = tmp_path / "pool"
    pool.mkdir()
    (pool / "snapshot_000000001.zip").write_bytes(b"cut short by a crash")
    shutil.copy(reference / "pool" / "snapshot_000000000.zip", pool)
    opponents = OpponentPool(GAME, pool, PoolWeights(snapshot=1.0, heuristic=0.0, random=0.0))
    rng = np.random.default_rng(0)
    with pytest.warns(RuntimeWarning, match=r"cannot load .*snapshot_000000001\.zip"):
        kinds = {opponents.draw(rng)[0] for _ in range(20)}
    assert kinds == {"snapshot:snapshot_000000000"}
    assert [p.name for p in opponents.snapshots()] == ["snapshot_000000000.zip"]


def test_pool_weights_default_to_the_games_own():
    """A run's opponent weights: PoolWeights' defaults, with the game's (training/games.py)
    over them, and the kinds a config names over both; config.json keeps the full table."""
    from dataclasses import asdict

    from huerta.training.games import training_facts
    from huerta.training.selfplay import PoolWeights

    library = asdict(PoolWeights())
    assert TrainConfig(game="finca").check().pool_weights == library
    alpujarras = training_facts("alpujarras").pool
    assert alpujarras and set(alpujarras) <= set(library)
    assert TrainConfig(game="alpujarras").check().pool_weights == {**library, **alpujarras}
    named = TrainConfig(game="alpujarras", pool_weights={"heuristic": 0.5}).check()
    assert named.pool_weights == {**library, **alpujarras, "heuristic": 0.5}
    assert TrainConfig(**asdict(named)).check().pool_weights == named.pool_weights  # resume
