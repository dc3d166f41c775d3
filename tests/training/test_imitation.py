"""The warm start by imitation (training/methods/imitation.py): recorded games that replay, returns
as self-play pays them, chunks that survive an interruption, and a fit that agrees with the
heuristic on games it never saw."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from huerta.agents.heuristics import make_heuristic
from huerta.envs.core.policies import policy_action
from huerta.envs.core.registry import get_game
from huerta.training import chunks
from huerta.training.chunks import chunk_seed
from huerta.training.config import TrainConfig
from huerta.training.methods import imitation
from huerta.training.methods.dispatch import train
from huerta.training.methods.imitation import agreement, fit, record
from huerta.training.methods.ppo import make_vec_env, new_model
from huerta.training.runs import TrainingInterrupted, read_eval, resume_candidates


def _same(a: imitation.Positions, b: imitation.Positions) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in imitation._POSITION_FIELDS)


@pytest.mark.parametrize("game, players", [("finca", 2), ("alpujarras", 1), ("mi_tierra", 3)])
def test_recorded_games_replay_with_the_heuristics_moves_and_self_play_returns(
    tmp_path, game, players
):
    shaping = 0.02
    positions = record(tmp_path, game, players, games=1, seed=5, explore=0.0, gamma=1.0,
                       shaping=shaping, workers=1)
    spec = get_game(game)
    # the first game of chunk 0, as record_chunk draws it: the deal, then each seat's heuristic
    rng = np.random.default_rng(chunk_seed(5, 0))
    state = spec.new_game(players, seed=int(rng.integers(2**63 - 1)))
    agents = [make_heuristic(game, seed=int(rng.integers(2**63 - 1))) for _ in range(players)]
    seats, potentials = [], []
    for k in range(len(positions)):
        seat = state.current_player
        observation, mask = state.observe(seat), state.legal_mask()
        assert np.array_equal(positions.observations[k], observation.astype(np.float16))
        assert np.array_equal(positions.masks[k], mask)
        chosen = policy_action(agents[seat], state, seat,
                               {"observation": observation, "action_mask": mask.astype(np.int8)})
        assert positions.actions[k] == chosen  # the label is the heuristic's own choice
        seats.append(seat)
        potentials.append(state.shaping_potential(seat))
        state.apply(chosen)
    assert state.is_terminal
    final = state.rewards("win_loss")
    # undiscounted, a seat's return is its final reward plus the shaping still to come
    expected = [final[s] + shaping * (state.shaping_potential(s) - p)
                for s, p in zip(seats, potentials, strict=True)]
    np.testing.assert_allclose(positions.returns, expected, rtol=1e-5, atol=1e-6)
    assert set(final) != {0.0}  # the game had a result to learn from


def test_discounting_counts_a_seats_own_decisions():
    positions = imitation.record_chunk("finca", 2, 0, 1, seed=1, explore=0.0, gamma=0.5,
                                       shaping=0.0, reward="win_loss", options={})
    spec = get_game("finca")
    rng = np.random.default_rng(chunk_seed(1, 0))
    state = spec.new_game(2, seed=int(rng.integers(2**63 - 1)))
    seats = []
    for action in positions.actions:
        seats.append(state.current_player)
        state.apply(int(action))
    final = state.rewards("win_loss")
    for seat in (0, 1):
        mine = [k for k, s in enumerate(seats) if s == seat]
        # the seat's last decision gets its reward, each earlier one half as much
        expected = [final[seat] * 0.5 ** (len(mine) - 1 - i) for i in range(len(mine))]
        np.testing.assert_allclose(positions.returns[mine], expected, rtol=1e-5)


def test_an_interrupted_recording_keeps_its_chunks_and_resumes_to_the_same_data(tmp_path):
    games = 2 * imitation.CHUNK_GAMES
    calls = []

    def stop_after_first() -> bool:
        calls.append(1)
        return len(calls) > 1

    assert record(tmp_path / "a", "finca", 2, games, seed=2, workers=1,
                  should_stop=stop_after_first) is None
    kept = sorted((tmp_path / "a").glob("chunk_*.npz"))
    assert [p.name for p in kept] == ["chunk_00000.npz"]
    stamp = kept[0].stat().st_mtime_ns
    resumed = record(tmp_path / "a", "finca", 2, games, seed=2, workers=1)
    assert kept[0].stat().st_mtime_ns == stamp  # the finished chunk was not played again
    fresh = record(tmp_path / "b", "finca", 2, games, seed=2, workers=2)
    assert _same(resumed, fresh)  # the same games, interrupted or not, in 1 process or 2
    assert set(np.unique(resumed.games)) == set(range(games))
    # a damaged chunk is played again, to the same positions
    kept[0].write_bytes(b"not a chunk")
    assert _same(record(tmp_path / "a", "finca", 2, games, seed=2, workers=1), fresh)


def test_imitation_agrees_with_the_heuristic_on_held_out_games(tmp_path):
    """The stated agreement of a small fit (120 games, 6 epochs): among the positions with a
    real choice in games it was not fitted on, the heuristic's choice is the network's likeliest
    legal action in at least 40% (measured 50%; a uniform choice agrees in 24%, the untrained
    network in 22%)."""
    positions = record(tmp_path / "games", "finca", 2, games=120, seed=0, explore=0.1,
                       shaping=0.02, workers=2)
    config = TrainConfig(game="finca", envs=1, out=str(tmp_path), progress=False).check()
    model = new_model(config, make_vec_env(config, tmp_path / "pool"), None)
    held = positions.select(np.flatnonzero(positions.games % imitation.HELD_OUT_EVERY
                                           == imitation.HELD_OUT_EVERY - 1))
    before = agreement(model.policy, held)
    uniform = float(np.mean(1.0 / imitation.choices(held).masks.sum(axis=1)))
    held_out, fitted, count = fit(model, positions, epochs=6, seed=0)
    assert count == len(imitation.choices(held)) > 500
    assert held_out >= 0.40, (before, held_out)
    print(f"agreement: uniform {uniform:.3f}, untrained {before:.3f}, fitted {held_out:.3f}")
    assert held_out > before + 0.15 and held_out > uniform + 0.15
    assert fitted >= held_out - 0.1  # fitted positions agree at least about as well


def test_a_run_interrupted_while_imitating_resumes_without_replaying(tmp_path, monkeypatch):
    out = tmp_path / "run"
    settings = {"game": "finca", "steps": 128, "envs": 1, "n_steps": 64, "batch_size": 64,
                "n_epochs": 1, "net_arch": [16], "eval_every": 128, "eval_games": 2,
                "progress": False, "imitation_games": 2 * imitation.CHUNK_GAMES, "method": "ppo",
                "imitation_epochs": 1}
    real_save = chunks.save_chunk
    saves = []

    def save_then_interrupt(path: Path, positions):  # Ctrl-C right after the first chunk
        real_save(path, positions)
        saves.append(path)
        if len(saves) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(chunks, "save_chunk", save_then_interrupt)
    monkeypatch.setattr(chunks.os, "cpu_count", lambda: 1)  # one process: a known order
    with pytest.raises(TrainingInterrupted, match="imitation") as caught:
        train(TrainConfig(out=str(out), **settings))
    assert caught.value.signum == signal.SIGINT and caught.value.steps == 0
    assert [p.name for p in (out / "imitation").glob("chunk_*.npz")] == ["chunk_00000.npz"]
    assert not resume_candidates(out)
    monkeypatch.setattr(chunks, "save_chunk", real_save)
    # --force is not needed: the run resumes from the recorded games
    run = train(TrainConfig(game="finca", out=str(out), progress=False), resume=True)
    report = (run / "imitation.json").read_text()
    assert '"games": 40' in report
    assert sorted(p.name for p in (run / "imitation").glob("chunk_*.npz")) == [
        "chunk_00000.npz", "chunk_00001.npz"]
    assert (run / "checkpoints" / "model_000000000.zip").exists()  # the imitation, at step 0
    assert read_eval(run)[0]["steps"] == 0 and read_eval(run)[-1]["steps"] >= 128
