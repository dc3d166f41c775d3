"""PettingZoo and Gymnasium contract tests for Alpujarras (2, 3, 4 players and the solo game)."""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import huerta.envs  # noqa: F401  (registers the Gymnasium ids)
from huerta.envs import alpujarras_v0
from huerta.envs.alpujarras import N_ACTIONS, OBS_SIZE
from huerta.envs.alpujarras.actions import END_TURN
from huerta.envs.core.errors import IllegalActionError, InvalidConfigError

PLAYER_COUNTS = (1, 2, 3, 4)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_api_test(n):
    """ALP-01: the AEC env passes PettingZoo's api_test for every player count and the solo game."""
    api_test(alpujarras_v0.env(num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_seed_test(n):
    seed_test(lambda: alpujarras_v0.env(num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pickle_round_trip_mid_game(n):
    env = alpujarras_v0.env(num_players=n)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(6):
        obs, *_ = env.last()
        if not obs["action_mask"].any():
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    clone = pickle.loads(pickle.dumps(env))
    assert clone.agent_selection == env.agent_selection
    a, b = env.last()[0], clone.last()[0]
    np.testing.assert_array_equal(a["observation"], b["observation"])
    np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
    for _ in range(30):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        clone.step(action)
        np.testing.assert_array_equal(env.last()[0]["observation"], clone.last()[0]["observation"])
    assert env.unwrapped.game == clone.unwrapped.game


@pytest.mark.parametrize("bad", [0, 5, "3", 2.0, None])
def test_bad_player_count_names_valid_values(bad):
    """ALP-01: anything but 1-4 players is refused with the valid values named."""
    with pytest.raises(InvalidConfigError, match=r"valid values: 1, 2, 3, 4"):
        alpujarras_v0.env(num_players=bad)


def test_bad_options_name_the_valid_ones():
    with pytest.raises(InvalidConfigError, match="win_loss"):
        alpujarras_v0.env(reward="points")
    with pytest.raises(InvalidConfigError, match="double_turns, star_sides"):
        alpujarras_v0.env(colour="red")
    with pytest.raises(InvalidConfigError, match="ansi"):
        alpujarras_v0.env(render_mode="video")
    env = alpujarras_v0.env(num_players=1, double_turns=9)
    with pytest.raises(InvalidConfigError, match="double_turns=9; valid values: 0, 1, 2, 3, 4, 5"):
        env.reset(seed=0)
    env = alpujarras_v0.env(num_players=1, star_sides=-1)
    with pytest.raises(InvalidConfigError, match="star_sides=-1; valid values: 0, 1"):
        env.reset(seed=0)
    env = alpujarras_v0.env(num_players=3, double_turns=2)
    with pytest.raises(InvalidConfigError, match="solo game only"):
        env.reset(seed=0)
    with pytest.raises(InvalidConfigError, match="double_turns, star_sides"):
        gymnasium.make("huerta/AlpujarrasSolo-v0", difficulty="hard")


def test_illegal_action_raises_and_changes_nothing():
    env = alpujarras_v0.env(num_players=3)
    env.reset(seed=3)
    before = env.unwrapped.game.to_dict()
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
    with pytest.raises(IllegalActionError, match=f"illegal action {illegal}"):
        env.step(illegal)
    assert env.unwrapped.game.to_dict() == before
    with pytest.raises(IllegalActionError, match=r"END_TURN.*the mule must move first"):
        env.step(END_TURN)
    with pytest.raises(IllegalActionError, match="valid action ids are 0-110"):
        env.step(999)
    with pytest.raises(IllegalActionError, match="integer ids"):
        env.step("north")
    assert env.unwrapped.game.to_dict() == before


def test_observation_and_mask_dtypes_and_spaces():
    env = alpujarras_v0.env(num_players=3)
    env.reset(seed=0)
    obs, reward, term, trunc, info = env.last()
    space = env.observation_space("player_0")
    assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (OBS_SIZE,)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (N_ACTIONS,)
    assert space.contains(obs)
    assert env.action_space("player_2").n == N_ACTIONS == 111
    others = [a for a in env.agents if a != env.agent_selection]
    assert not any(env.observe(a)["action_mask"].any() for a in others)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_final_rewards_and_infos(n):
    env = alpujarras_v0.env(num_players=n)
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
    if n == 1:
        assert total["player_0"] in (-1.0, 1.0)
        assert info["is_winner"] == game.won()
    else:
        assert sorted(game.rewards()) == [-1.0] * (n - 1) + [1.0]


def test_truncation_after_max_steps():
    env = alpujarras_v0.env(num_players=2, max_steps=15)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.unwrapped.game.steps == 15


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_ansi_render_shows_the_board(n):
    env = alpujarras_v0.env(num_players=n, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "Track" in text and "Farmlands" in text and "Towns" in text and "P0" in text
    assert ("Zara" in text) == (n == 1)


@pytest.mark.parametrize("n", (2, 3, 4))
def test_gymnasium_check_env(n):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("huerta/Alpujarras-v0", num_players=n, illegal_action_penalty=-1.0)
    check_env(env.unwrapped, skip_render_check=True)


def test_gymnasium_check_env_solo():
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("huerta/AlpujarrasSolo-v0", illegal_action_penalty=-1.0)
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("env_id", ["huerta/Alpujarras-v0", "huerta/AlpujarrasSolo-v0"])
def test_sb3_check_env(env_id):
    from stable_baselines3.common.env_checker import check_env

    env = gymnasium.make(env_id, illegal_action_penalty=-1.0)
    check_env(env.unwrapped, warn=True)


def test_solo_gymnasium_env_with_variants_plays_to_the_end():
    """ZARA-22: the solo env takes the variants as options; the reward is +-1 at the end, or the
    documented margin with reward="score_margin"."""
    for reward in ("win_loss", "score_margin"):
        env = gymnasium.make("huerta/AlpujarrasSolo-v0", double_turns=5, star_sides=2,
                             reward=reward)
        obs, info = env.reset(seed=4)
        game = env.unwrapped.game
        assert game.solo and game.double_turns == 5 and sum(game.zakat_star) == 2
        rng = np.random.default_rng(4)
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            assert mask.any()
            obs, r, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = terminated or truncated
        assert terminated and r == game.rewards(reward)[0]
        if reward == "win_loss":
            assert r in (-1.0, 1.0)
        assert info["is_winner"] == game.won()


def test_multiplayer_gymnasium_env_plays_to_the_end_with_masks():
    env = gymnasium.make("huerta/Alpujarras-v0", num_players=3, opponents="random")
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        mask = env.unwrapped.action_masks()
        assert mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = terminated or truncated
    assert terminated and reward in (-1.0, 1.0)
    assert reward == env.unwrapped.game.rewards()[info["learner_seat"]]
    assert not env.unwrapped.action_masks().any()


def test_single_agent_illegal_action_raises_by_default_and_can_end_the_episode():
    env = gymnasium.make("huerta/AlpujarrasSolo-v0")
    env.reset(seed=0)
    before = env.unwrapped.game.to_dict()
    with pytest.raises(IllegalActionError, match="illegal action 55"):
        env.step(END_TURN)
    assert env.unwrapped.game.to_dict() == before
    penal = gymnasium.make("huerta/AlpujarrasSolo-v0", illegal_action_penalty=-5.0)
    penal.reset(seed=0)
    _, reward, terminated, truncated, info = penal.step(END_TURN)
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert "END_TURN" in info["illegal_action"]
    assert not penal.unwrapped.action_masks().any()
