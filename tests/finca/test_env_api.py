"""PettingZoo and Gymnasium contract tests for Finca (2, 3 and 4 players)."""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import huerta.envs  # noqa: F401  (registers the Gymnasium ids)
from huerta.envs import finca_v0
from huerta.envs.core.errors import IllegalActionError, InvalidConfigError

PLAYER_COUNTS = (2, 3, 4)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_api_test(n):
    """FIN-01: the AEC env passes PettingZoo's api_test for every supported player count."""
    api_test(finca_v0.env(num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_seed_test(n):
    seed_test(lambda: finca_v0.env(num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pickle_round_trip_mid_game(n):
    env = finca_v0.env(num_players=n)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    clone = pickle.loads(pickle.dumps(env))
    assert clone.agent_selection == env.agent_selection
    a, b = env.last()[0], clone.last()[0]
    np.testing.assert_array_equal(a["observation"], b["observation"])
    np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
    # both continue identically
    for _ in range(30):
        obs, *_ = env.last()
        if not obs["action_mask"].any():
            break
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        clone.step(action)
        np.testing.assert_array_equal(env.last()[0]["observation"], clone.last()[0]["observation"])


@pytest.mark.parametrize("bad", [0, 1, 5, "3", 2.0, None])
def test_bad_player_count_names_valid_values(bad):
    """FIN-01: anything but 2, 3 or 4 players is refused with the valid values named."""
    with pytest.raises(InvalidConfigError, match=r"valid values: 2, 3, 4"):
        finca_v0.env(num_players=bad)


def test_bad_options_name_the_valid_ones():
    with pytest.raises(InvalidConfigError, match="win_loss"):
        finca_v0.env(reward="points")
    with pytest.raises(InvalidConfigError, match="cart_shortage"):
        finca_v0.env(colour="red")
    with pytest.raises(InvalidConfigError, match="ansi"):
        finca_v0.env(render_mode="window")
    env = finca_v0.env(cart_shortage="sideways")
    with pytest.raises(InvalidConfigError, match="reset_then_take, take_then_reset"):
        env.reset(seed=0)


def test_illegal_action_raises_and_changes_nothing():
    env = finca_v0.env(num_players=2)
    env.reset(seed=3)
    for _ in range(10):  # the introduction
        env.step(0)
    before = env.unwrapped.game.to_dict()
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"illegal action {illegal}"):
        env.step(illegal)
    assert env.unwrapped.game.to_dict() == before
    with pytest.raises(IllegalActionError, match="CONFIRM"):
        env.step(33)
    with pytest.raises(IllegalActionError, match="valid action ids are 0-33"):
        env.step(99)
    assert env.unwrapped.game.to_dict() == before


def test_observation_and_mask_dtypes_and_spaces():
    env = finca_v0.env(num_players=3)
    env.reset(seed=0)
    obs, reward, term, trunc, info = env.last()
    space = env.observation_space("player_0")
    assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (599,)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (34,)
    assert space.contains(obs)
    assert env.action_space("player_2").n == 34
    other = env.observe("player_1")
    assert not other["action_mask"].any()


def test_final_rewards_and_infos():
    env = finca_v0.env(num_players=2)
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
    rewards = game.rewards()
    assert [total[a] for a in env.possible_agents] == rewards
    assert sorted(rewards) in ([-1.0, 1.0], [0.0, 0.0])
    assert info["scores"] == game.scores()


def test_truncation_after_max_steps():
    env = finca_v0.env(num_players=2, max_steps=15)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.unwrapped.game.steps == 15


def test_ansi_render_shows_the_board():
    env = finca_v0.env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "Windmill" in text and "Communities" in text and "P1" in text


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_gymnasium_check_env(n):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("huerta/Finca-v0", num_players=n, illegal_action_penalty=-1.0)
    check_env(env.unwrapped, skip_render_check=True)


def test_sb3_check_env():
    from stable_baselines3.common.env_checker import check_env

    env = gymnasium.make("huerta/Finca-v0", num_players=2, illegal_action_penalty=-1.0)
    check_env(env.unwrapped, warn=True)


def test_single_agent_illegal_action_raises_by_default_and_can_end_the_episode():
    env = gymnasium.make("huerta/Finca-v0", num_players=2, learner_seat=0)
    env.reset(seed=0)
    before = env.unwrapped.game.to_dict()
    with pytest.raises(IllegalActionError, match="illegal action 33"):
        env.step(33)
    assert env.unwrapped.game.to_dict() == before
    penal = gymnasium.make(
        "huerta/Finca-v0", num_players=2, learner_seat=0, illegal_action_penalty=-5.0
    )
    penal.reset(seed=0)
    _, reward, terminated, truncated, info = penal.step(33)
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert "CONFIRM" in info["illegal_action"]
    assert not penal.unwrapped.action_masks().any()


def test_gymnasium_env_plays_to_the_end_with_masks():
    env = gymnasium.make("huerta/Finca-v0", num_players=3, opponents="random")
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    steps = 0
    while not done:
        mask = env.unwrapped.action_masks()
        assert mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = terminated or truncated
        steps += 1
    assert terminated and reward in (-1.0, 0.0, 1.0)
    assert reward == env.unwrapped.game.rewards()[info["learner_seat"]]
    assert not env.unwrapped.action_masks().any()
