"""scripts/reproduce_models.py and what it rebuilds from, without retraining (an hour): the shipped
models record their provenance and the docs name the commit of each; the script's dry run
prints each model's recorded command with one thread and its own folder, its argument errors
are refused, its comparison says `equal` or how far the weights moved; `make reproduce-models`
builds its environment from the lock file, torch first."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "agents" / "models"
NAMES = ["alpujarras-solo", "alpujarras", "finca", "mi_tierra"]


def _script():
    path = ROOT / "scripts" / "reproduce_models.py"
    spec = importlib.util.spec_from_file_location("reproduce_models", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _trained(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as data:
        return json.loads(str(data["about"]))["trained"]


@pytest.mark.parametrize("name", NAMES)
def test_each_shipped_model_records_where_it_came_from_and_the_docs_say_it(name):
    trained = _trained(MODELS / f"{name}.npz")
    assert trained["method"] in ("afterstate", "cem", "ppo")
    assert trained["command"].startswith("huerta train ") and trained["seed"] == 0
    assert re.fullmatch(r"[0-9a-f]{40}", trained["commit"])
    assert trained["threads"] == 1 or str(trained["threads"]).startswith("unknown")
    if "provenance_note" in trained:  # trained before runs recorded their provenance: said so
        assert re.fullmatch(r"[0-9a-f]{40}", trained["shipped_in"])
        assert trained["libraries"] == "unknown"
    else:  # recorded by the run itself, on a clean checkout
        assert trained["dirty"] is False
        assert {"numpy", "torch"} <= set(trained["libraries"])
    # the training page names the commit that trained each shipped model
    section = (ROOT / "docs" / "training.md").read_text().split("## Rebuilding")[1]
    assert re.search(rf"{name}\b.*`{trained['commit'][:7]}`", section), name


def test_the_dry_run_prints_each_recorded_command_on_one_thread(tmp_path, capsys):
    before = {p.name: p.read_bytes() for p in MODELS.glob("*.npz")}
    script = _script()
    out = tmp_path / "again"
    assert script.main(["--dry-run", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 * len(NAMES)
    for name in NAMES:
        recorded = _trained(MODELS / f"{name}.npz")["command"].split(" --out ")[0]
        recorded = re.sub(r" --threads \d+", "", recorded)  # the script sets one thread
        assert f"{recorded} --threads 1 --out {out / name} --force" in lines
        assert f"huerta export {out / name} --out {out / name}.npz" in lines
    assert not out.exists()  # nothing trained, nothing written
    assert {p.name: p.read_bytes() for p in MODELS.glob("*.npz")} == before
    assert script.main(["--dry-run", "--game", "finca", "--out", str(out)]) == 0
    assert [line.split()[:3] for line in capsys.readouterr().out.splitlines()] == [
        ["huerta", "train", "finca"], ["huerta", "export", str(out / "finca")]]


def test_a_resumed_reproduction_goes_on_only_where_a_run_is(tmp_path, capsys):
    (tmp_path / "finca").mkdir()
    (tmp_path / "finca" / "config.json").write_text("{}")
    assert _script().main(["--dry-run", "--resume", "--game", "finca", "mi_tierra",
                           "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("--resume") and lines[2].endswith("--force")


@pytest.mark.parametrize("argv, message", [
    (["--game", "chess"], "invalid choice: 'chess'"),
    (["--dry-run", "--install"], "--install needs retrained models"),
    (["--out", "FILE"], "is a file; give a folder"),
    (["--threads", "2"], "unrecognized arguments: --threads 2"),
])
def test_argument_errors_are_refused_in_one_line(argv, message, tmp_path, capsys):
    (tmp_path / "FILE").write_text("")
    argv = [str(tmp_path / a) if a == "FILE" else a for a in argv]
    with pytest.raises(SystemExit) as exit_:
        _script().main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_the_train_command_keeps_the_recorded_settings_and_replaces_the_run_folder():
    command = _script().train_command(
        "huerta train finca --seed 3 --value-games 8 --threads 4 --out runs/old --force",
        Path("new"))
    assert command == ["huerta", "train", "finca", "--seed", "3", "--value-games", "8",
                       "--threads", "1", "--out", "new", "--force"]
    with pytest.raises(ValueError, match="not a huerta train command"):
        _script().train_command("python train.py", Path("new"))


def test_the_comparison_says_equal_or_how_far_the_weights_moved(tmp_path):
    script = _script()
    out = tmp_path / "out"
    out.mkdir()
    shipped = {name: MODELS / f"{name}.npz" for name in NAMES}
    shutil.copyfile(shipped["finca"], out / "finca.npz")
    # a retrained Finca whose first weight moved by 0.5, solo constants of which one moved
    with np.load(shipped["finca"], allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["weight_0"] = arrays["weight_0"].copy()
    arrays["weight_0"][0, 0] += np.float16(0.5)
    np.savez_compressed(out / "moved.npz", **arrays)
    assert script.weight_difference(shipped["finca"], out / "finca.npz") == "equal"
    assert script.weight_difference(shipped["finca"], out / "moved.npz") == \
        "max abs diff 0.5"
    assert script.weight_difference(shipped["finca"], shipped["alpujarras"]) == "other shapes"
    with np.load(shipped["alpujarras-solo"], allow_pickle=False) as data:
        about = json.loads(str(data["about"]))
    about["weights"]["window"] += 0.25
    np.savez_compressed(out / "alpujarras-solo.npz", about=np.array(json.dumps(about)))
    assert script.weight_difference(shipped["alpujarras-solo"],
                                    out / "alpujarras-solo.npz") == "max abs diff 0.25"
    rows = script.comparison_rows(["finca", "alpujarras-solo", "mi_tierra"], out, shipped)
    finca = _trained(shipped["finca"])
    assert rows[0][:4] == ["finca", finca["commit"][:7], finca["commit"][:7], "equal"]
    assert rows[0][4] == rows[0][5] == "heuristic 0.66, random 1"
    assert rows[1][3] == "max abs diff 0.25" and rows[2][3] == "not retrained"
    text = script.table(rows)
    assert text.splitlines()[0].split() == ["model", "shipped", "from", "retrained", "on",
                                            "weights", "retrained", "eval", "shipped", "eval"]
    assert len(text.splitlines()) == 4


def test_make_reproduce_models_builds_the_locked_environment_torch_first():
    lock = (ROOT / "requirements" / "lock.txt").read_text().splitlines()
    pins = [line for line in lock if line and not line.startswith("#")]
    assert pins[0] == "torch==2.13.0"
    assert all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[0-9][^ ]*", pin) for pin in pins), pins
    names = {pin.split("==")[0].lower().replace("_", "-") for pin in pins}
    assert {"numpy", "stable-baselines3", "sb3-contrib", "gymnasium", "pettingzoo",
            "tensorboard", "matplotlib", "threadpoolctl"} <= names
    assert "huerta" not in names  # installed from the checkout, without dependencies
    shown = subprocess.run(["make", "-n", "reproduce-models", "ARGS=--game finca"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    steps = [next(i for i, line in enumerate(shown) if text in line) for text in (
        "python3 -m venv .venv-reproduce", 'pip install --quiet "torch==2.13.0"',
        "pip install --quiet -r requirements/lock.txt", "pip install --quiet --no-deps -e .",
        "scripts/reproduce_models.py --game finca")]
    assert steps == sorted(steps)


def test_install_keeps_the_learned_search_settings_the_shipped_file_declares(tmp_path):
    """A retrained value (a run writes no `search` settings) installed over a shipped file that
    plays as the learned search keeps playing so: its weights, the shipped settings."""
    from huerta.agents.afterstate import ValueNetwork

    shipped, retrained = tmp_path / "finca.npz", tmp_path / "retrained.npz"
    original = ValueNetwork.load(MODELS / "finca.npz")
    original.save(shipped)
    about = {k: v for k, v in original.about.items() if k != "search"}
    layers = [(w * 0.5, b) for w, b in zip(original.weights, original.biases, strict=True)]
    ValueNetwork(layers, about).save(retrained)
    _script().install(retrained, shipped)
    installed = ValueNetwork.load(shipped)
    assert installed.about.get("search") == original.about.get("search")
    np.testing.assert_array_equal(installed.weights[0], ValueNetwork.load(retrained).weights[0])
