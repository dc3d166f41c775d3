"""The batched self-play vector (training/vector.py) and the batched opponent network
(training/selfplay.py's BatchedPolicy): same actions as one observation at a time, legal and
reproducible games, honest episode ends; and the training benchmark (training/train_bench.py)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from game_cases import middle_count

from huerta.envs.core.registry import game_choices, get_game, resolve_game
from huerta.training.config import TrainConfig
from huerta.training.methods.ppo import new_model, save_model
from huerta.training.selfplay import BatchedPolicy, PoolWeights, SnapshotAgent
from huerta.training.vector import SelfPlayVecEnv

RANDOM_ONLY = PoolWeights(snapshot=0.0, heuristic=0.0, random=1.0)


@pytest.fixture(scope="module")
def finca_model():
    torch.manual_seed(0)
    env = SelfPlayVecEnv("finca", 2, n_envs=2, weights=RANDOM_ONLY, seed=0)
    return new_model(TrainConfig(game="finca", envs=2, n_steps=8, batch_size=16), env, None)


def _positions(game: str, count: int, seed: int = 0):
    """Observations and masks of `count` positions of random games."""
    spec = get_game(game)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    state = spec.new_game(2, seed=seed)
    while len(obs) < count:
        if state.is_terminal:
            state = spec.new_game(2, seed=int(rng.integers(1000)))
        obs.append(state.observe(state.current_player))
        masks.append(state.action_mask())
        state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
    return np.stack(obs), np.stack(masks)


def test_the_batched_opponent_plays_what_the_unbatched_one_plays(finca_model):
    obs, masks = _positions("finca", 40)
    batched = BatchedPolicy(finca_model)
    probs = batched.probabilities(obs, masks)
    one_by_one = np.stack([batched.probabilities(o[None], m[None])[0]
                           for o, m in zip(obs, masks, strict=True)])
    np.testing.assert_allclose(probs, one_by_one, rtol=1e-5, atol=1e-7)
    assert np.all(probs[masks == 0] == 0)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-6)
    # deterministic: the policy's own masked argmax (what MaskablePPO.predict plays)
    greedy = [SnapshotAgent(finca_model, deterministic=True).act(
        {"observation": o, "action_mask": m}) for o, m in zip(obs, masks, strict=True)]
    predicted = [int(finca_model.predict(o, action_masks=m.astype(bool), deterministic=True)[0])
                 for o, m in zip(obs, masks, strict=True)]
    assert greedy == predicted == batched.greedy(obs, masks).tolist()
    # sampled: the batch draws exactly what one observation at a time draws from the same stream
    rng = np.random.default_rng(7)
    sampled = batched.sample(obs, masks, rng)
    agent = SnapshotAgent(finca_model, seed=7)
    assert sampled.tolist() == [agent.act({"observation": o, "action_mask": m})
                                for o, m in zip(obs, masks, strict=True)]
    assert all(masks[i, a] for i, a in enumerate(sampled))


# every game (3 players of 2-4) and every variant (the solo game: alpujarras with 1 player)
@pytest.mark.parametrize("game, players", [(resolve_game(name)[0].name, middle_count(name))
                                           for name in game_choices()])
def test_vector_games_are_legal_reproducible_and_end_honestly(game, players):
    def run(seed: int):
        env = SelfPlayVecEnv(game, players, n_envs=4, weights=RANDOM_ONLY, seed=seed)
        rng = np.random.default_rng(seed)
        trace, ends = [env.reset()], []
        for _ in range(400):
            masks = env.action_masks()
            assert masks.shape == (4, get_game(game).num_actions)
            assert masks.any(axis=1).all()  # a learner is never left without a move
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rewards, dones, infos = env.step(actions)
            trace.append(obs)
            for i in np.flatnonzero(dones):
                ends.append((rewards[i], infos[i]))
        return trace, ends

    trace, ends = run(3)
    again, _ = run(3)
    assert all(np.array_equal(a, b) for a, b in zip(trace, again, strict=True))
    assert ends, "no game finished"
    for reward, info in ends:
        assert info["episode"]["l"] >= 1
        assert info["terminal_observation"].shape == (get_game(game).observation_size,)
        if not info["TimeLimit.truncated"]:
            # win_loss without shaping: +1 for a sole win, -1 for a loss
            assert reward == (1.0 if info["is_winner"] else -1.0) or reward == 0.0
            assert info["episode"]["r"] == reward


def test_snapshot_opponents_are_batched_and_legal(tmp_path, finca_model):
    save_model(finca_model, tmp_path / "snapshot_000000000.zip")
    env = SelfPlayVecEnv("finca", 2, n_envs=8, pool_dir=tmp_path,
                         weights=PoolWeights(snapshot=1.0, heuristic=0.0, random=0.0), seed=1)
    env.reset()
    rng = np.random.default_rng(1)
    done = 0
    for _ in range(300):
        masks = env.action_masks()
        _, _, dones, infos = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        done += int(dones.sum())
        for i in np.flatnonzero(dones):
            assert infos[i]["opponents"] == ["snapshot:snapshot_000000000"]
    assert done > 0
    assert env.timing["opponents"] > 0
    # one network, read once and shared by every game's snapshot opponent: one batch per round
    assert len(env.pool._loaded) == 1
    networks = {id(o.network) for g in env.games for o in g.policies
                if isinstance(o, SnapshotAgent)}
    assert len(networks) == 1


def test_the_training_benchmark_splits_the_loop_into_its_parts():
    from huerta.training.train_bench import format_train_row, measure_training

    row = measure_training("finca", 2, seconds=0.5)
    config = TrainConfig()
    assert row.steps >= config.envs * config.n_steps  # at least one whole update
    parts = (row.env, row.opponents, row.rollout_net, row.update)
    assert all(0 <= p <= 1 for p in parts) and 0.5 < sum(parts) <= 1.05
    assert row.update > 0 and row.random_play > 0
    assert format_train_row(row).startswith("finca")


def test_bench_train_prints_a_row_per_game(capsys):
    from huerta.training.cli import main

    assert main(["bench", "--train", "--game", "alpujarras-solo", "--seconds", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "train steps/s" in out and "\nalpujarras-solo        1 " in out
    assert "random play:" in out  # the legend


def test_the_pool_reads_each_snapshot_once_and_keeps_only_its_policy(tmp_path, finca_model,
                                                                     monkeypatch):
    """A long run's pool outgrew the old cache of four models: evicted snapshots were read
    again and again, and their torch policies piled up (a 1.2M-step run reached 14.8 GB)."""
    from sb3_contrib import MaskablePPO

    from huerta.training.selfplay import OpponentPool

    for k in range(6):
        save_model(finca_model, tmp_path / f"snapshot_{k:09d}.zip")
    reads = []
    real_load = MaskablePPO.load
    monkeypatch.setattr(MaskablePPO, "load",
                        lambda path, **kw: reads.append(path) or real_load(path, **kw))
    pool = OpponentPool("finca", tmp_path, PoolWeights(snapshot=1.0, heuristic=0.0, random=0.0))
    rng = np.random.default_rng(0)
    drawn = {pool.draw(rng)[0] for _ in range(200)}
    assert len(drawn) == 6 and len(reads) == 6  # every snapshot drawn, each read once
    for player in pool._loaded.values():
        assert not any(isinstance(v, torch.nn.Module) for v in vars(player.network).values())
        assert all(isinstance(w, np.ndarray) for w in player.network.weights)


def test_numpy_blas_runs_on_one_thread_inside_training_and_is_restored():
    from threadpoolctl import threadpool_info

    from huerta.training.threads import one_blas_thread

    def blas_threads() -> list[int]:
        return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]

    before = blas_threads()
    assert before  # numpy's BLAS is there to limit
    with one_blas_thread():
        assert blas_threads() == [1] * len(before)
    assert blas_threads() == before
