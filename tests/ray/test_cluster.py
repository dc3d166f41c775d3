"""End to end on a real local Ray cluster (tests/ray/conftest.py starts and stops it).

A tiny RLlib self-play run through the command line, with two env runners on the cluster:
train, checkpoint, resume, evaluate (the evaluation is replayed here and must match eval.csv),
play the trained policy as an agent; then tournaments whose games the cluster plays, whose
tables and games must equal the local runner's for the same seeds.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from huerta.training.cli import main as huerta

# small enough for a few seconds per iteration on two cores
TINY = {"n_steps": 64, "envs": 2, "batch_size": 64, "n_epochs": 1, "net_arch": [16],
        "eval_every": 150, "eval_games": 2, "snapshot_every": 150, "checkpoint_every": 150,
        "seed": 3}
FIRST_STEPS, RESUMED_STEPS = 300, 500


@pytest.fixture(scope="session")
def trained_run(ray_cluster, tmp_path_factory):
    """A run trained to FIRST_STEPS, then resumed to RESUMED_STEPS; (run folder, outputs). The
    run folder is given relative to the working folder (`--out run`), as users give it: Ray's
    checkpoint URIs refused a relative path once."""
    folder = tmp_path_factory.mktemp("rllib")
    config = folder / "tiny.json"
    config.write_text(json.dumps(TINY))
    run = folder / "run"
    common = ["train", "finca", "--backend", "rllib", "--ray-address", ray_cluster.address,
              "--env-runners", "2", "--config", str(config), "--out", "run", "--no-progress"]
    outputs = []
    for extra in (["--steps", str(FIRST_STEPS)], ["--steps", str(RESUMED_STEPS), "--resume"]):
        with pytest.MonkeyPatch.context() as patch:  # a session fixture has no monkeypatch
            patch.chdir(folder)
            code = huerta([*common, *extra])
        outputs.append(code)
        assert code == 0, f"huerta {' '.join(common + extra)} failed"
        checkpoints = sorted((run / "checkpoints").glob("step_*"))
        outputs.append([json.loads((p / "league.json").read_text()) for p in checkpoints])
        outputs.append((run / "eval.csv").read_text())
    return run, outputs


def test_rllib_self_play_trains_checkpoints_resumes_and_evaluates(trained_run, capsys):
    run, (code1, leagues1, eval1, code2, leagues2, eval2) = trained_run
    # the first run: checkpoints with their league; a snapshot joined the initial one
    assert leagues1[-1]["steps"] >= FIRST_STEPS
    assert len(leagues1[-1]["snapshots"]) >= 2
    assert leagues1[-1]["snapshots"][0] == "snapshot_000000000"
    # the resumed run continued from the newest checkpoint's step count
    assert leagues2[-1]["steps"] >= RESUMED_STEPS > leagues1[-1]["steps"]
    assert leagues2[-1]["snapshots"][: len(leagues1[-1]["snapshots"])] == \
        leagues1[-1]["snapshots"]
    # eval.csv: the SB3 path's columns, one row per evaluated step count, none repeated, the
    # first run's rows kept
    rows = list(csv.DictReader(eval2.splitlines()))
    assert list(rows[0]) == ["steps", "win_rate_vs_random", "win_rate_vs_heuristic", "games",
                             "time"]
    assert {r["games"] for r in rows} == {str(TINY["eval_games"])}
    steps = [int(r["steps"]) for r in rows]
    assert steps[0] == 0 and steps == sorted(set(steps)) and len(steps) >= 3
    assert eval2.startswith(eval1.rstrip("\n").rsplit("\n", 1)[0])
    # every run ends evaluated, the first one included
    assert steps[-1] == leagues2[-1]["steps"]
    assert f"\n{leagues1[-1]['steps']}," in eval1
    # metrics: every iteration with its learner steps, env steps/s and the two env runners
    metrics = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    assert [m["steps"] for m in metrics] == sorted(m["steps"] for m in metrics)
    assert all(m["env_runners"] == 2 and m["time/env_steps_per_s"] > 0 for m in metrics)
    assert any("rollout/win_rate" in m for m in metrics)
    assert list((run / "tb").glob("events.out.tfevents.*"))
    assert (run / "learning_curve.png").stat().st_size > 0
    for name in ("best_policy", "final_policy"):
        info = json.loads((run / name / "huerta_policy.json").read_text())
        assert (info["game"], info["observation_size"], info["num_actions"]) == ("finca", 591, 34)
    assert json.loads((run / "final_policy" / "huerta_policy.json").read_text())["steps"] == \
        leagues2[-1]["steps"]


def test_the_best_policys_evaluation_replays_exactly(trained_run):
    from huerta.agents import make_agent
    from huerta.training.rllib import evaluate_agent
    from huerta.training.runs import read_eval

    run, _ = trained_run
    best_steps = json.loads((run / "best_policy" / "huerta_policy.json").read_text())["steps"]
    row = next(r for r in read_eval(run) if r["steps"] == best_steps)
    agent = make_agent(f"rllib:{run}", game="finca", seed=0)
    assert agent.path == run / "best_policy"
    for opponent in ("random", "heuristic"):
        rate = evaluate_agent(agent, "finca", 2, opponent, TINY["eval_games"],
                              10_000 + TINY["seed"])
        assert rate == pytest.approx(row[f"vs_{opponent}"], abs=1e-4)


def test_the_policies_record_how_they_were_trained(trained_run):
    run, _ = trained_run
    for folder in ("best_policy", "final_policy"):
        trained = json.loads((run / folder / "huerta_policy.json").read_text())["trained"]
        assert trained["method"] == "rllib" and trained["seed"] == TINY["seed"]
        assert trained["threads"] == 1  # the learner's torch threads (no --threads: one)
        assert trained["command"].startswith("huerta train finca --backend rllib --seed 3 --steps ")
        # the command as it was typed, the run folder relative to where it ran
        assert trained["command"].endswith("--env-runners 2 --out run")
        assert trained["commit"] is None or re.fullmatch(r"[0-9a-f]{40}", trained["commit"])
        assert {"python", "numpy", "torch"} <= set(trained["libraries"])
    final = json.loads((run / "final_policy" / "huerta_policy.json").read_text())["trained"]
    assert [s["commit"] for s in final["sessions"]] == [final["commit"]] * 2  # and resumed


def test_the_trained_policy_plays_as_an_agent(trained_run, capsys):
    run, _ = trained_run
    assert huerta(["play", "finca", "--agents", f"rllib:{run},random", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"player_0 \(rllib:.*\): ", out)
    assert "final scores: [" in out
    # another game's policy is refused before anything is played
    assert huerta(["play", "mi_tierra", "--agents", f"rllib:{run},random"]) == 2
    assert "a policy of another game" in capsys.readouterr().err


def test_the_trained_policy_loads_by_a_relative_path(trained_run, capsys, monkeypatch):
    """`rllib:runs/x` as the docs write it: Ray refused a relative checkpoint path once."""
    run, _ = trained_run
    monkeypatch.chdir(run.parent)
    assert huerta(["play", "finca", "--agents", f"rllib:{run.name},random", "--seed", "4"]) == 0
    assert "final scores: [" in capsys.readouterr().out


def _tournament(folder: Path, argv: list[str], capsys) -> str:
    assert huerta([*argv, "--out", str(folder), "--quiet"]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["tournament", "finca", "--agents", "random,heuristic,rllib:RUN", "--games", "4"],
    ["tournament", "alpujarras-solo", "--agents", "heuristic,random", "--games", "6"],
], ids=["finca-with-the-rllib-agent", "alpujarras-solo"])
def test_a_ray_tournament_gives_the_local_runners_results(argv, trained_run, ray_cluster,
                                                          tmp_path, capsys):
    run, _ = trained_run
    argv = [a.replace("RUN", str(run)) for a in argv]
    local, remote = tmp_path / "local", tmp_path / "ray"
    _tournament(local, argv, capsys)
    printed = _tournament(
        remote, [*argv, "--backend", "ray", "--ray-address", ray_cluster.address], capsys)
    assert "ray: 2 CPUs in the cluster, up to 2 games at once" in printed
    assert (remote / "table.txt").read_text() in printed
    assert (remote / "table.txt").read_text() == (local / "table.txt").read_text()
    assert (remote / "summary.json").read_text() == (local / "summary.json").read_text()
    assert (remote / "games.jsonl").read_bytes() == (local / "games.jsonl").read_bytes()
    assert len((remote / "games.jsonl").read_text().splitlines()) == 12
