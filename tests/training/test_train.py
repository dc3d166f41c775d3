"""Tiny self-play training runs end to end: files, checkpoints, resume, loading as an agent."""

from __future__ import annotations

import json

import numpy as np
import pytest

from huerta.agents import make_agent
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_names, get_game
from huerta.training.config import TRAIN_ALIASES, TrainConfig
from huerta.training.methods.dispatch import train
from huerta.training.runs import read_eval

TINY = {
    "n_steps": 128, "batch_size": 64, "n_epochs": 1, "net_arch": [32, 32],
    "eval_every": 256, "eval_games": 2, "snapshot_every": 256, "checkpoint_every": 256,
    "progress": False, "envs": 1, "imitation_games": 2, "imitation_epochs": 1, "method": "ppo",
}
TARGETS = [(g, get_game(g).player_counts[0] if get_game(g).player_counts[0] > 1 else 2)
           for g in game_names()] + [(alias, None) for alias in TRAIN_ALIASES]


def _saved_steps(path) -> int:
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(str(path)).num_timesteps


@pytest.mark.parametrize("game, players", TARGETS)
def test_tiny_run_saves_evaluates_resumes_and_plays(game, players, tmp_path):
    out = tmp_path / "run"
    config = TrainConfig(game=game, steps=300, out=str(out), seed=1, **TINY)
    if players is not None:
        config.players = players
    run = train(config)
    for name in ("config.json", "best_model.zip", "final_model.zip", "eval.csv",
                 "checkpoints/latest.zip", "learning_curve.png"):
        assert (run / name).exists(), name
    assert list((run / "pool").glob("snapshot_*.zip"))
    assert list((run / "tb").rglob("events.out.tfevents.*"))
    saved = json.loads((run / "config.json").read_text())
    assert saved["seed"] == 1 and saved["game"] == get_game(saved["game"]).name
    rows = read_eval(run)
    expected = "vs_zara" if saved["players"] == 1 else "vs_random"
    assert rows and all(0.0 <= r[expected] <= 1.0 for r in rows)
    assert all(r["games"] == TINY["eval_games"] for r in rows)  # the curve's bands need it
    first_steps = _saved_steps(run / "final_model.zip")
    assert rows[0]["steps"] == 0 and rows[-1]["steps"] == first_steps  # ends evaluated

    from sb3_contrib import MaskablePPO

    first = MaskablePPO.load(str(run / "checkpoints" / "latest.zip"))
    assert first.num_timesteps == 300  # the target, not the end of the rollout under way
    # resume: continues from the saved step count up to the new total
    again = train(TrainConfig(game=game, steps=700, out=str(out), **TINY), resume=True)
    resumed = MaskablePPO.load(str(again / "checkpoints" / "latest.zip"))
    assert resumed.num_timesteps == 700

    # the finished run plays as an agent
    agent = make_agent(f"ppo:{run}", game=saved["game"])
    spec = get_game(saved["game"])
    state = spec.new_game(saved["players"], seed=0)
    obs = {"observation": state.observe(state.current_player),
           "action_mask": state.legal_mask().astype(np.int8)}
    assert state.legal_mask()[agent.act(obs)]


def test_existing_run_needs_resume_and_bad_settings_are_named(tmp_path):
    config = TrainConfig(game="finca", steps=128, out=str(tmp_path), **TINY)
    train(config)
    with pytest.raises(InvalidConfigError, match=r"--resume"):
        train(TrainConfig(game="finca", steps=128, out=str(tmp_path), **TINY))
    bad = tmp_path / "bad.json"
    bad.write_text('{"learning_rat": 0.1}')
    with pytest.raises(InvalidConfigError, match=r"unknown setting.*learning_rate"):
        TrainConfig.from_file(bad)
    with pytest.raises(InvalidConfigError, match=r"nothing to resume: .*config\.json does not "
                                                 r"exist; start afresh with --force"):
        train(TrainConfig(game="finca", out=str(tmp_path / "none"), **TINY), resume=True)
    with pytest.raises(InvalidConfigError, match="valid games"):
        TrainConfig(game="chess").check()


@pytest.mark.parametrize("imitation_games", [0, 2])
def test_the_untrained_policy_is_never_the_best_model(tmp_path, monkeypatch, imitation_games):
    import huerta.training.methods.ppo as train_module

    # step 0 scores best of all, the trained policy worse: best_model is the trained one when
    # step 0 is untrained, the imitation of the heuristic when there was one
    rates = iter([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    monkeypatch.setattr(train_module, "evaluate", lambda *a, **k: next(rates))
    run = train(TrainConfig(game="finca", steps=256, out=str(tmp_path / "run"),
                            **{**TINY, "eval_every": 10_000,
                               "imitation_games": imitation_games}))
    rows = read_eval(run)
    assert rows[0]["steps"] == 0 and rows[-1]["steps"] > 0
    assert rows[0]["vs_random"] == 1.0 and rows[-1]["vs_random"] == 0.0
    from sb3_contrib import MaskablePPO

    best = MaskablePPO.load(str(run / "best_model.zip"))
    assert best.num_timesteps == (rows[-1]["steps"] if imitation_games == 0 else 0)


def test_the_shared_trunk_is_a_setting_checked_by_name(tmp_path):
    from huerta.training.methods.dispatch import resumed
    from huerta.training.networks import policy_kwargs

    assert TrainConfig().check().shared_layers == 1
    with pytest.raises(InvalidConfigError, match="shared_layers"):
        TrainConfig(net_arch=[64, 64], shared_layers=3).check()
    assert policy_kwargs([64, 32], 0) == {"net_arch": [64, 32]}
    shared = policy_kwargs([64, 32], 1)
    assert shared["features_extractor_kwargs"] == {"layers": [64]}
    assert shared["net_arch"] == {"pi": [32], "vf": [32]}
    # one shared layer: the policy and the value read the same first layer
    run = train(TrainConfig(game="finca", steps=128, out=str(tmp_path / "run"),
                            **{**TINY, "shared_layers": 1}))
    from sb3_contrib import MaskablePPO

    policy = MaskablePPO.load(str(run / "final_model.zip")).policy
    assert policy.share_features_extractor
    assert policy.features_extractor.trunk[0].weight.shape == (32, get_game("finca")
                                                               .observation_size)
    # a run saved before the setting existed resumes as what it was: two networks
    saved = json.loads((run / "config.json").read_text())
    del saved["shared_layers"]
    (run / "config.json").write_text(json.dumps(saved))
    assert resumed(TrainConfig(game="finca", out=str(run)), run).shared_layers == 0
    # RLlib's modules keep two networks: its runs refuse a shared layer, naming the setting
    from huerta.training.rllib import RLlibTrainConfig

    assert RLlibTrainConfig().check().shared_layers == 0
    with pytest.raises(InvalidConfigError, match=r"shared_layers.*RLlib"):
        RLlibTrainConfig(shared_layers=1).check()
