"""The batched vector env (`gymnasium.make_vec(id, vectorization_mode="vector_entry_point")`):
every game of the batch plays what a `SingleAgentEnv` with its seed plays, autoreset is
Gymnasium's next-step mode, batching opponents decide a round in one call, and bad input is
refused with the batch unchanged."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv

import huerta.envs  # noqa: F401  (registers the ids)
from huerta.agents import make_agent
from huerta.envs.core.errors import CallOrderError, IllegalActionError, InvalidConfigError
from huerta.envs.core.registry import game_specs
from huerta.envs.core.single_agent import SingleAgentEnv
from huerta.envs.core.vector_env import BoardGameVectorEnv

IDS = [spec.gym_id for spec in game_specs()] + [
    v.gym_id for spec in game_specs() for v in spec.variants.values()]


@pytest.mark.parametrize("env_id", IDS)
def test_make_vec_gives_the_native_batched_env(env_id):
    env = gymnasium.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point")
    assert isinstance(env, VectorEnv) and isinstance(env.unwrapped, BoardGameVectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=1)
    assert obs.shape == (4, *env.single_observation_space.shape)
    masks = env.action_masks()
    assert masks.shape == (4, env.single_action_space.n) and masks.any(axis=1).all()
    assert list(info["learner_seat"]) == [env.unwrapped.games[i].learner for i in range(4)]


def first_legal_then_random(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("game, players, opponents, shaping", [
    ("finca", 2, "heuristic", 0.0),
    ("alpujarras", 3, "random", 0.5),
    ("mi_tierra", 2, ["heuristic"], 0.1),
    ("alpujarras", 1, "random", 0.0),
])
def test_each_game_plays_what_a_single_env_with_its_seed_plays(game, players, opponents,
                                                              shaping):
    """Eight games from seed 10 against eight SingleAgentEnvs reset with seeds 10..17, given the
    same actions, through at least one autoreset each: the same observations, rewards and
    flags at every step, and the same next games (a single env's next reset takes no seed)."""
    count = 8
    batch = BoardGameVectorEnv(game, num_envs=count, num_players=players, opponents=opponents,
                               shaping=shaping, agent_codes=make_agent)
    singles = [SingleAgentEnv(game, num_players=players, opponents=opponents, shaping=shaping,
                              agent_codes=make_agent)
               for _ in range(count)]
    obs, _ = batch.reset(seed=10)
    single_obs = [env.reset(seed=10 + i)[0] for i, env in enumerate(singles)]
    assert np.array_equal(obs, np.stack(single_obs))
    rngs = [np.random.default_rng(i) for i in range(count)]
    waiting = [False] * count  # a game that ended last step: the batch resets it now
    games_ended = np.zeros(count, dtype=int)
    while games_ended.min() < 2:
        masks = batch.action_masks()
        actions = np.array([first_legal_then_random(masks[i], rngs[i]) for i in range(count)])
        obs, rewards, terminated, truncated, _ = batch.step(actions)
        for i, env in enumerate(singles):
            if waiting[i]:
                expected, reward, term, trunc = env.reset()[0], 0.0, False, False
                waiting[i] = False
            else:
                assert np.array_equal(masks[i], env.action_masks())
                expected, reward, term, trunc, _ = env.step(int(actions[i]))
                waiting[i] = term or trunc
                games_ended[i] += waiting[i]
            assert np.array_equal(obs[i], expected)
            assert (rewards[i], terminated[i], truncated[i]) == pytest.approx(
                (reward, term, trunc))


class CountingNetwork:
    """A batching opponent: the lowest legal id of every row, and a record of its batch sizes."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.shape[0] == masks.shape[0]
        self.batches.append(len(masks))
        return masks.argmax(axis=1)


def test_a_batching_opponent_decides_every_waiting_game_in_one_call():
    network = CountingNetwork()
    env = BoardGameVectorEnv("mi_tierra", num_envs=16, opponents=network, learner_seat=0)
    env.reset(seed=0)
    for _ in range(5):
        env.step(env.action_masks().argmax(axis=1))
    assert network.batches and max(network.batches) == 16
    # the same as the lowest-legal policy asked game by game
    single = SingleAgentEnv("mi_tierra", opponents=lambda o: int(np.argmax(o["action_mask"])),
                            learner_seat=0)
    batch = BoardGameVectorEnv("mi_tierra", num_envs=1, opponents=CountingNetwork(),
                               learner_seat=0)
    one, _ = batch.reset(seed=3)
    assert np.array_equal(one[0], single.reset(seed=3)[0])
    for _ in range(30):
        action = int(batch.action_masks()[0].argmax())
        got = batch.step(np.array([action]))
        want = single.step(action)
        assert np.array_equal(got[0][0], want[0])
        if want[2] or want[3]:
            break


class Cheater(CountingNetwork):
    def act_batch(self, observations, masks):
        return np.where(masks, 0, 1).argmax(axis=1)  # the first illegal id of every row


def test_an_illegal_batched_action_is_refused_naming_the_opponent():
    env = BoardGameVectorEnv("finca", num_envs=2, opponents=Cheater(), learner_seat=0)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="batched opponent"):
        for _ in range(50):
            env.step(env.action_masks().argmax(axis=1))


def test_autoreset_is_next_step():
    env = BoardGameVectorEnv("alpujarras", num_envs=2, opponents="random", agent_codes=make_agent)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(500):
        masks = env.action_masks()
        _, _, terminated, truncated, info = env.step(
            np.array([first_legal_then_random(m, rng) for m in masks]))
        ended = np.flatnonzero(terminated | truncated)
        if len(ended):
            break
    i = int(ended[0])
    assert "scores" in info and info["_scores"][i]
    old_seed = info["game_seed"][i]
    assert env.action_masks()[i].all()  # its action is ignored
    obs, rewards, terminated, truncated, info = env.step(env.action_masks().argmax(axis=1))
    assert (rewards[i], terminated[i], truncated[i]) == (0.0, False, False)
    assert info["game_seed"][i] != old_seed
    game = env.games[i]
    assert np.array_equal(obs[i], game.state.observe(game.learner))


def test_bad_input_is_refused_and_the_batch_is_unchanged():
    with pytest.raises(InvalidConfigError, match="num_envs"):
        BoardGameVectorEnv("finca", num_envs=0)
    with pytest.raises(InvalidConfigError, match="opponents"):
        BoardGameVectorEnv("finca", num_players=3, opponents=["random"] * 3)
    env = BoardGameVectorEnv("finca", num_envs=3, agent_codes=make_agent)
    with pytest.raises(CallOrderError, match="reset"):
        env.step(np.zeros(3, dtype=int))
    with pytest.raises(InvalidConfigError, match="2 seeds given for 3 games"):
        env.reset(seed=[1, 2])
    obs, _ = env.reset(seed=[1, 2, 3])
    before = [g.state.to_dict() for g in env.games]
    with pytest.raises(InvalidConfigError, match=r"shape \(2,\)"):
        env.step(np.zeros(2, dtype=int))
    assert [g.state.to_dict() for g in env.games] == before
    # one masked action in the last game: refused naming it, and no game of the batch moved
    actions = env.action_masks().argmax(axis=1)
    actions[2] = int(np.flatnonzero(~env.action_masks()[2])[0])
    with pytest.raises(IllegalActionError, match=f"illegal action {actions[2]}: game 2 of"):
        env.step(actions)
    assert [g.state.to_dict() for g in env.games] == before
