"""Same seed, same weights: every training method run twice on a tiny budget with one seed and
one thread gives identical weights, parameter by parameter (the second run in a fresh process
through the command line, with another hash seed, so nothing of the first run's process state
and no set order can make them agree by chance); another seed gives other weights. Each run's
model records how to rebuild it: method, command, seed, threads, commit and libraries."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from huerta.training.config import TrainConfig
from huerta.training.methods import afterstate
from huerta.training.methods.dispatch import train

# (game, settings) of each method's tiny run: seconds each on a loaded 2-core machine
# (one evaluation game: no worker processes)
TINY_PPO = {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16, 16],
            "eval_every": 128, "eval_games": 1, "snapshot_every": 64, "checkpoint_every": 256,
            "envs": 2, "steps": 256, "imitation_epochs": 1}
METHODS = {
    "ppo": ("finca", {**TINY_PPO, "method": "ppo", "imitation_games": 0}),
    "imitation+ppo": ("mi_tierra", {**TINY_PPO, "method": "ppo", "imitation_games": 4}),
    "afterstate": ("finca", {"value_games": 4, "value_epochs": 2, "eval_games": 1}),
    "cem": ("alpujarras-solo", {"cem_generations": 2, "cem_population": 3, "cem_elite": 2,
                                "cem_deals": 2, "eval_games": 1}),
}


def _train_here(method: str, seed: int, out: Path) -> Path:
    game, settings = METHODS[method]
    return train(TrainConfig(game=game, seed=seed, threads=1, out=str(out), progress=False,
                             **settings))


def _train_elsewhere(method: str, seed: int, out: Path) -> Path:
    """The same run through `huerta train` in a fresh process with another hash seed."""
    game, settings = METHODS[method]
    config = out.parent / f"{out.name}.json"
    config.write_text(json.dumps(settings))
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-m", "huerta.training.cli", "train", game, "--seed",
                           str(seed), "--threads", "1", "--config", str(config), "--out",
                           str(out), "--no-progress"], capture_output=True, text=True, env=env,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def _weights(run: Path) -> dict[str, np.ndarray]:
    """Every parameter a run saved, by name: the best model's arrays, a PPO run's whole final
    network at full precision, every value file's arrays, a cem run's constants."""
    found: dict[str, np.ndarray] = {}
    for path in [run / "best_policy.npz", *sorted((run / "values").glob("*.npz"))]:
        with np.load(path, allow_pickle=False) as data:
            for key in data.files:
                if key != "about":
                    found[f"{path.name}:{key}"] = data[key]
            constants = json.loads(str(data["about"])).get("weights")
        for name, value in (constants or {}).items():
            found[f"{path.name}:{name}"] = np.array(value)
    if (run / "final_model.zip").is_file():
        from sb3_contrib import MaskablePPO

        policy = MaskablePPO.load(str(run / "final_model.zip"), device="cpu").policy
        for name, tensor in policy.state_dict().items():
            found[f"final_model.zip:{name}"] = tensor.numpy().copy()
    assert found, f"{run} saved no weights"
    return found


@pytest.fixture(scope="module", params=list(METHODS))
def runs(request, tmp_path_factory) -> tuple[str, Path, Path, Path]:
    """(method, a run of seed 1, the same run in another process, a run of seed 2)."""
    method = request.param
    folder = tmp_path_factory.mktemp(method.replace("+", "-"))
    first = _train_here(method, 1, folder / "first")
    again = _train_elsewhere(method, 1, folder / "again")
    other = _train_here(method, 2, folder / "other")
    return method, first, again, other


def test_the_same_seed_gives_identical_weights(runs):
    method, first, again, _ = runs
    a, b = _weights(first), _weights(again)
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name].dtype == b[name].dtype and a[name].shape == b[name].shape, name
        assert np.array_equal(a[name], b[name]), f"{method}: {name} differs"


def test_another_seed_gives_other_weights(runs):
    method, first, _, other = runs
    a, c = _weights(first), _weights(other)
    assert any(not np.array_equal(a[name], c[name]) for name in a if name in c), method


def test_the_model_records_how_to_rebuild_it(runs):
    method, first, again, _ = runs
    for run in (first, again):
        with np.load(run / "best_policy.npz", allow_pickle=False) as data:
            trained = json.loads(str(data["about"]))["trained"]
        assert trained["method"] == ("ppo" if "ppo" in method else method)
        assert trained["seed"] == 1 and trained["threads"] == 1
        assert trained["command"].startswith(f"huerta train {METHODS[method][0]} --seed 1")
        assert "--threads 1" in trained["command"] and f"--out {run}" in trained["command"]
        assert trained["commit"] is None or re.fullmatch(r"[0-9a-f]{40}", trained["commit"])
        assert trained["dirty"] in (None, True, False)
        assert {"python", "numpy", "torch"} <= set(trained["libraries"])
        if method == "imitation+ppo":
            assert trained["imitation_threads"] == 1
        assert "sessions" not in trained  # one session each


def test_the_afterstate_fit_gives_identical_float32_layers_for_a_seed(tmp_path):
    """The saved values are float16; the fit itself repeats at full precision."""
    data = afterstate.record(tmp_path / "games", "finca", 2, 4, seed=5)
    fits = [afterstate.fit(data, 6, 2, seed=seed, threads=1) for seed in (7, 7, 8)]
    (same, also, other) = ([layer for pair in fit[0] for layer in pair] for fit in fits)
    assert all(a.dtype == np.float32 and np.array_equal(a, b)
               for a, b in zip(same, also, strict=True))
    assert any(not np.array_equal(a, c) for a, c in zip(same, other, strict=True))
