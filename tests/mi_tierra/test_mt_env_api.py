"""PettingZoo and Gymnasium contract tests for Mi Tierra (2, 3 and 4 players)."""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import huerta.envs  # noqa: F401  (registers the Gymnasium ids)
from huerta.envs import mi_tierra_v0
from huerta.envs.core.errors import IllegalActionError, InvalidConfigError
from huerta.envs.mi_tierra import N_ACTIONS, OBS_SIZE, new_game
from huerta.envs.mi_tierra.actions import PASS, cell

PLAYER_COUNTS = (2, 3, 4)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_api_test(n):
    api_test(mi_tierra_v0.env(num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_seed_test(n):
    seed_test(lambda: mi_tierra_v0.env(num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pickle_round_trip_mid_game(n):
    env = mi_tierra_v0.env(num_players=n)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(60):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    clone = pickle.loads(pickle.dumps(env))
    assert clone.agent_selection == env.agent_selection
    a, b = env.last()[0], clone.last()[0]
    np.testing.assert_array_equal(a["observation"], b["observation"])
    np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
    for _ in range(60):  # both continue identically, dice included
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        clone.step(action)
        np.testing.assert_array_equal(env.last()[0]["observation"], clone.last()[0]["observation"])
    assert env.unwrapped.game == clone.unwrapped.game


@pytest.mark.parametrize("bad", [0, 1, 5, "3", 2.0, None, True])
def test_bad_player_count_names_valid_values(bad):
    with pytest.raises(InvalidConfigError, match=r"valid values: 2, 3, 4"):
        mi_tierra_v0.env(num_players=bad)
    with pytest.raises(InvalidConfigError, match=r"valid values: 2, 3, 4"):
        new_game(bad, seed=0)


def test_bad_options_name_the_valid_ones():
    with pytest.raises(InvalidConfigError, match="win_loss"):
        mi_tierra_v0.env(reward="money")
    with pytest.raises(InvalidConfigError, match="unknown option"):
        mi_tierra_v0.env(colour="red")
    with pytest.raises(InvalidConfigError, match="ansi"):
        mi_tierra_v0.env(render_mode="window")
    with pytest.raises(InvalidConfigError, match="max_steps"):
        mi_tierra_v0.env(max_steps=0)
    with pytest.raises(InvalidConfigError, match="unknown option"):
        gymnasium.make("huerta/MiTierra-v0", explicit_chance=True)


def test_illegal_action_raises_and_changes_nothing():
    env = mi_tierra_v0.env(num_players=2)
    env.reset(seed=3)
    before = env.unwrapped.game.to_dict()
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"illegal action {illegal}"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match=r"CELL_0: .*farm cell 0 holds no crop field"):
        env.step(cell(0))
    with pytest.raises(IllegalActionError, match="valid action ids are 0-63"):
        env.step(99)
    with pytest.raises(IllegalActionError, match="integer ids"):
        env.step("sheep")
    assert env.unwrapped.game.to_dict() == before
    assert env.unwrapped.record.actions == []


def test_observation_and_mask_dtypes_and_spaces():
    env = mi_tierra_v0.env(num_players=3)
    env.reset(seed=0)
    obs, reward, term, trunc, info = env.last()
    space = env.observation_space("player_0")
    assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (OBS_SIZE,)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (N_ACTIONS,)
    assert space.contains(obs)
    assert env.action_space("player_2").n == N_ACTIONS == 64
    other = env.observe("player_1")
    assert not other["action_mask"].any()


def test_final_rewards_and_infos():
    env = mi_tierra_v0.env(num_players=3)
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.unwrapped.game
    assert game.is_terminal
    assert [total[a] for a in env.possible_agents] == game.rewards()
    assert info["scores"] == game.scores()


def test_truncation_after_max_steps():
    env = mi_tierra_v0.env(num_players=2, max_steps=15)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert env.unwrapped.game.steps == 15


def test_ansi_render_shows_the_public_state():
    env = mi_tierra_v0.env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "Established" in text and "Development display" in text and "P1" in text
    assert "market pile" in text


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_gymnasium_check_env(n):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("huerta/MiTierra-v0", num_players=n, illegal_action_penalty=-1.0)
    check_env(env.unwrapped, skip_render_check=True)


def test_sb3_check_env():
    from stable_baselines3.common.env_checker import check_env

    env = gymnasium.make("huerta/MiTierra-v0", num_players=2, illegal_action_penalty=-1.0)
    check_env(env.unwrapped, warn=True)


def test_single_agent_illegal_action_raises_by_default_and_can_end_the_episode():
    env = gymnasium.make("huerta/MiTierra-v0", num_players=2, learner_seat=0)
    env.reset(seed=0)
    before = env.unwrapped.game.to_dict()
    with pytest.raises(IllegalActionError, match="illegal action 21"):
        env.step(cell(0))
    assert env.unwrapped.game.to_dict() == before
    penal = gymnasium.make(
        "huerta/MiTierra-v0", num_players=2, learner_seat=0, illegal_action_penalty=-5.0
    )
    penal.reset(seed=0)
    _, reward, terminated, truncated, info = penal.step(cell(0))
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert "CELL_0" in info["illegal_action"]
    assert not penal.unwrapped.action_masks().any()


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_gymnasium_env_plays_to_the_end_with_masks(n):
    env = gymnasium.make("huerta/MiTierra-v0", num_players=n, opponents="random")
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        mask = env.unwrapped.action_masks()
        assert mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = terminated or truncated
    assert terminated and reward in (-1.0, 0.0, 1.0)
    assert reward == env.unwrapped.game.rewards()[info["learner_seat"]]
    assert not env.unwrapped.action_masks().any()


def test_pass_is_id_zero():
    assert PASS == 0
