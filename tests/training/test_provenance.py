"""Where a run's models came from (training/runs/provenance.py): the source commit, dirty or
not, None without git or outside huerta's checkout (never a failure); the libraries' versions;
one entry per session in the run folder, read back into the models; the `threads` setting
checked and kept on resume."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from huerta.envs.core.errors import InvalidConfigError
from huerta.training.cli import main as cli_main
from huerta.training.config import TrainConfig
from huerta.training.methods.dispatch import train
from huerta.training.runs import (
    library_versions,
    provenance,
    read_sessions,
    record_session,
    run_provenance,
    source_commit,
)
from huerta.training.runs.layout import PROVENANCE_FILE
from huerta.training.threads import fit_threads, update_threads


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A git repository with one commit of one tracked file."""
    root = tmp_path / "src"
    root.mkdir()
    _git(root, "init", "-q")
    (root / "code.py").write_text("x = 1\n")
    _git(root, "add", "code.py")
    _git(root, "commit", "-qm", "first")
    return root


def test_the_commit_of_a_checkout_and_whether_its_tracked_files_changed(checkout):
    head = _git(checkout, "rev-parse", "HEAD")
    assert source_commit(checkout) == {"commit": head, "dirty": False}
    (checkout / "notes.txt").write_text("untracked files do not count\n")
    assert source_commit(checkout) == {"commit": head, "dirty": False}
    (checkout / "code.py").write_text("x = 2\n")
    assert source_commit(checkout) == {"commit": head, "dirty": True}


def test_no_git_or_no_checkout_of_its_own_gives_no_commit(checkout, tmp_path, monkeypatch):
    nothing = {"commit": None, "dirty": None}
    (checkout / "inner").mkdir()
    # a folder inside someone else's repository (an installed huerta in a venv in a checkout)
    assert source_commit(checkout / "inner") == nothing
    assert source_commit(tmp_path / "bare") == nothing  # not a repository at all
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))
    assert source_commit(checkout) == nothing


def test_this_checkouts_commit_and_the_libraries_installed(monkeypatch):
    found = source_commit()
    assert found["commit"] is None or re.fullmatch(r"[0-9a-f]{40}", found["commit"])
    versions = library_versions()
    assert {"python", "numpy", "torch", "stable-baselines3", "gymnasium"} <= set(versions)
    assert versions["numpy"] == np.__version__
    monkeypatch.setattr(provenance, "LIBRARIES", ("numpy", "no-such-distribution"))
    assert set(library_versions()) == {"python", "numpy"}  # one not installed is left out


def test_sessions_are_recorded_per_run_and_read_back_into_the_models(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    assert run_provenance(run) == {"commit": None, "dirty": None, "libraries": "unknown",
                                   "platform": "unknown"}  # a run from before the file
    first = record_session(run, resumed=False)
    assert read_sessions(run) == [first] and first["resumed"] is False
    facts = run_provenance(run)
    assert facts["commit"] == first["commit"] and facts["libraries"] == library_versions()
    assert "sessions" not in facts
    second = record_session(run, resumed=True)
    assert read_sessions(run) == [first, second]
    assert [s["started"] for s in run_provenance(run)["sessions"]] == [first["started"],
                                                                       second["started"]]
    record_session(run, resumed=False)  # a new run in the folder starts the list afresh
    assert len(read_sessions(run)) == 1
    (run / PROVENANCE_FILE).write_text("{damaged")
    assert read_sessions(run) == [] and run_provenance(run)["libraries"] == "unknown"


def test_threads_are_checked_defaulted_and_kept_or_changed_on_resume(tmp_path, capsys):
    assert update_threads(None) == 1 and update_threads(3) == 3
    assert 1 <= fit_threads(None) <= 4 and fit_threads(6) == 6
    with pytest.raises(InvalidConfigError, match=r"threads"):
        TrainConfig(threads=0).check()
    with pytest.raises(SystemExit):
        cli_main(["train", "finca", "--threads", "0"])
    assert "argument --threads: 0 is out of range" in capsys.readouterr().err
    tiny = {"game": "finca", "method": "ppo", "imitation_games": 0, "n_steps": 64,
            "batch_size": 64, "n_epochs": 1, "net_arch": [8], "eval_every": 10_000,
            "eval_games": 1, "envs": 1, "progress": False}
    out = tmp_path / "run"
    train(TrainConfig(steps=64, out=str(out), threads=1, **tiny))
    train(TrainConfig(steps=128, out=str(out), **tiny), resume=True)  # its own: 1
    assert json.loads((out / "config.json").read_text())["threads"] == 1
    train(TrainConfig(steps=192, out=str(out), threads=2, **tiny), resume=True)
    assert json.loads((out / "config.json").read_text())["threads"] == 2
    with np.load(out / "best_policy.npz", allow_pickle=False) as data:
        trained = json.loads(str(data["about"]))["trained"]
    assert trained["threads"] == 2 and "--threads 2" in trained["command"]
    assert [s["resumed"] for s in read_sessions(out)] == [False, True, True]
    assert len(trained["sessions"]) == 3
