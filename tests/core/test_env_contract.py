"""The environment contract every game keeps, for every supported player count.

All games share one PettingZoo AEC class (envs/core/aec.py) and one Gymnasium single-agent
wrapper (envs/core/single_agent.py); these tests check, per game and player count (test ids such
as `[finca-2]`, `[alpujarras-1]` for the solo game), what a user of either API relies on:
PettingZoo's api_test and seed_test, pickling mid-game, configuration errors that name the valid
values, illegal actions that raise and change nothing, observation and mask dtypes and spaces,
final rewards and infos, truncation after max_steps, the text board, Gymnasium's and Stable
Baselines3's env checkers, and the single-agent env's illegal-action handling and masked play to
the end. What only one game has (its options' values, a named illegal action of its own, the solo
variants) stays in that game's test_*_env_api module.
"""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest
from contract_games import GAMES, cases, game_params
from pettingzoo.test import api_test, seed_test

from huerta.envs.core.errors import IllegalActionError, InvalidConfigError


def random_action(obs, rng) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


@pytest.mark.parametrize("game", game_params())
def test_the_documented_player_counts_and_sizes(game):
    """FIN-01, ALP-01: Finca and Mi Tierra take 2-4 players, Alpujarras 1-4 (1 = the solo game);
    the action counts are fixed (Finca 34, Alpujarras 111, Mi Tierra 64)."""
    spec = game.spec
    assert spec.name == game.name
    assert spec.player_counts == game.player_counts
    assert spec.num_actions == game.num_actions
    assert spec.observation_size == game.expected_observation_size()
    assert tuple(spec.options) == game.options


@pytest.mark.parametrize("game", game_params())
def test_the_gymnasium_ids_are_the_specs(game):
    """The game's Gymnasium ids (its own, and one per variant: the solo game's) are those its
    spec declares and `import huerta.envs` registers, each making an env of this game."""
    import gymnasium

    import huerta.envs  # noqa: F401  (registers the Gymnasium ids)

    spec = game.spec
    assert spec.gym_id == game.gym_id
    assert {v.players: v.gym_id for v in spec.variants.values()} == game.variant_gym_ids
    for env_id in (game.gym_id, *game.variant_gym_ids.values()):
        assert gymnasium.registry[env_id].kwargs["game"] == game.name
    assert spec.env_module and game.module.__name__ == spec.env_module


@pytest.mark.parametrize("case", cases())
def test_pettingzoo_api_test(case):
    """FIN-01, ALP-01: the AEC env passes PettingZoo's api_test for every supported player count
    (Alpujarras' solo game included)."""
    api_test(case.env(), num_cycles=300)


@pytest.mark.parametrize("case", cases())
def test_pettingzoo_seed_test(case):
    """The same reset seed gives the same observations, masks and rewards (PettingZoo's
    seed_test)."""
    seed_test(lambda: case.env(), num_cycles=300)


@pytest.mark.parametrize("case", cases())
def test_pickle_round_trip_mid_game(case):
    """A pickled env taken mid-game observes the same and, fed the same actions, plays on
    identically (dice and crop draws included) to the same game state."""
    env = case.env()
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(case.game.midgame_steps):
        env.step(case.policy(env.unwrapped.game, rng))
    assert not env.unwrapped.game.is_terminal, "the clone is meant to be taken mid-game"
    clone = pickle.loads(pickle.dumps(env))
    assert clone.agent_selection == env.agent_selection
    a, b = env.last()[0], clone.last()[0]
    np.testing.assert_array_equal(a["observation"], b["observation"])
    np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
    for _ in range(60):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        action = random_action(obs, rng)
        env.step(action)
        clone.step(action)
        np.testing.assert_array_equal(env.last()[0]["observation"], clone.last()[0]["observation"])
        assert clone.agent_selection == env.agent_selection
    assert env.unwrapped.game == clone.unwrapped.game


BAD_COUNTS = [0, 1, 5, "3", 2.0, None, True]


@pytest.mark.parametrize(
    "game, bad",
    [
        pytest.param(g, bad, id=f"{g.name}-{bad!r}")
        for g in GAMES.values()
        for bad in BAD_COUNTS
        if type(bad) is not int or bad not in g.player_counts
    ],
)
def test_bad_player_count_names_valid_values(game, bad):
    """FIN-01, ALP-01: a player count the game does not support (or not an int at all, bool
    included) is refused by the AEC env, the game's new_game and the Gymnasium env alike, with the
    valid values named."""
    import gymnasium

    import huerta.envs  # noqa: F401  (registers the Gymnasium ids)

    valid = "valid values: " + ", ".join(map(str, game.player_counts))
    with pytest.raises(InvalidConfigError, match=re.escape(valid)):
        game.env(bad)
    with pytest.raises(InvalidConfigError, match=re.escape(valid)):
        game.spec.new_game(bad, seed=0)
    with pytest.raises(InvalidConfigError, match=re.escape(valid)):
        gymnasium.make(game.gym_id, num_players=bad)


@pytest.mark.parametrize("game", game_params())
def test_bad_shared_options_name_the_valid_ones(game):
    """The options every game takes (reward, render_mode, max_steps) and an unknown option are
    refused when the env is made, naming the valid values (the game's own options included)."""
    import gymnasium

    import huerta.envs  # noqa: F401  (registers the Gymnasium ids)

    with pytest.raises(InvalidConfigError, match="valid modes: win_loss, score_margin, rank"):
        game.module.env(reward="points")
    with pytest.raises(InvalidConfigError, match=r"render_mode='window'; valid values: .*'ansi'"):
        game.module.env(render_mode="window")
    with pytest.raises(InvalidConfigError, match="max_steps must be at least 1"):
        game.module.env(max_steps=0)
    own = ", ".join(game.options) or "(none)"
    with pytest.raises(
        InvalidConfigError,
        match=re.escape(f"unknown option(s) ['colour']; valid options: reward, max_steps, "
                        f"render_mode, {own}"),
    ):
        game.module.env(colour="red")
    with pytest.raises(
        InvalidConfigError,
        match=re.escape(f"unknown option(s) ['colour']; valid game options: {own}"),
    ):
        gymnasium.make(game.gym_id, colour="red")
    with pytest.raises(InvalidConfigError, match="valid modes: win_loss"):
        gymnasium.make(game.gym_id, reward="points")


def _refused(env, action, match):
    """Step `action`, expect IllegalActionError matching `match`, and check nothing changed."""
    game = env.unwrapped.game
    before = game.to_dict()
    actions = list(env.unwrapped.record.actions)
    agent = env.agent_selection
    obs = env.last()[0]
    with pytest.raises(IllegalActionError, match=match):
        env.step(action)
    assert game.to_dict() == before
    assert env.unwrapped.record.actions == actions
    assert env.agent_selection == agent
    np.testing.assert_array_equal(env.last()[0]["observation"], obs["observation"])
    np.testing.assert_array_equal(env.last()[0]["action_mask"], obs["action_mask"])


@pytest.mark.parametrize("case", cases())
def test_illegal_action_raises_and_changes_nothing(case):
    """A masked action, an id out of range and a non-integer raise IllegalActionError naming the
    action and the reason, and change neither the game, the record nor whose turn it is; checked
    at the start and mid-game."""
    env = case.env()
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    last = case.spec.num_actions - 1
    for moment in ("start", "mid-game"):
        if moment == "mid-game":
            for _ in range(case.game.midgame_steps):
                env.step(case.policy(env.unwrapped.game, rng))
            assert not env.unwrapped.game.is_terminal
        game = env.unwrapped.game
        masked = np.flatnonzero(env.last()[0]["action_mask"] == 0)
        for illegal in {int(masked[0]), int(masked[-1])}:
            name = re.escape(game.describe(illegal))
            _refused(env, illegal, rf"illegal action {illegal} \(.*{name}.*\): \S")
        _refused(env, 999, rf"illegal action 999 .*valid action ids are 0-{last}$")
        _refused(env, -1, rf"valid action ids are 0-{last}")
        _refused(env, "north", rf"actions are integer ids 0-{last}")


@pytest.mark.parametrize("case", cases())
def test_observation_and_mask_dtypes_and_spaces(case):
    """Observations are float32 vectors and masks int8 vectors of the spec's sizes, inside the
    declared spaces; only the acting agent has legal actions."""
    env = case.env()
    env.reset(seed=0)
    size, actions = case.game.expected_observation_size(), case.game.num_actions
    for agent in env.possible_agents:
        assert env.action_space(agent).n == actions
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (size,)
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (actions,)
        assert env.observation_space(agent).contains(obs)
        assert obs["action_mask"].any() == (agent == env.agent_selection)


@pytest.mark.parametrize("case", cases())
def test_final_rewards_and_infos(case):
    """At the end the accumulated rewards are the game's win_loss rewards (a sole winner +1, the
    others -1; sharing winners 0), and every agent's infos carry the scores, its own score, the
    winners and whether the victory is shared. A one-player game (Alpujarras' solo) is won or
    lost: +1 or -1, with is_winner == game.won()."""
    env = case.env()
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    total = {a: 0.0 for a in env.possible_agents}
    infos = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            assert term and not trunc
            infos[agent] = info
            env.step(None)
            continue
        env.step(case.policy(env.unwrapped.game, rng))
    game = env.unwrapped.game
    assert game.is_terminal
    rewards = game.rewards()
    assert [total[a] for a in env.possible_agents] == rewards
    assert env.unwrapped.record.final_scores == list(game.scores())
    assert set(infos) == set(env.possible_agents)
    for seat, agent in enumerate(env.possible_agents):
        info = infos[agent]
        assert info["scores"] == game.scores() and info["score"] == game.scores()[seat]
    info = infos["player_0"]
    if case.n == 1:
        assert rewards[0] in (-1.0, 1.0)
        assert info["is_winner"] == game.won() == (rewards[0] == 1.0)
        return
    winners = game.winners()
    assert winners and info["winners"] == [f"player_{w}" for w in winners]
    assert info["shared_victory"] == (len(winners) > 1)
    win = 1.0 if len(winners) == 1 else 0.0
    assert rewards == [win if p in winners else -1.0 for p in range(case.n)]
    for seat, agent in enumerate(env.possible_agents):
        assert infos[agent]["is_winner"] == (seat in winners)


@pytest.mark.parametrize("case", cases())
def test_truncation_after_max_steps(case):
    """max_steps=15 truncates every agent after the 15th decision with reward 0 (never a
    termination), whichever legal actions were played (the first of the mask, and the last where
    that does not end the game sooner)."""
    for pick in case.game.truncation_picks:
        env = case.env(max_steps=15)
        env.reset(seed=0)
        truncated = set()
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                assert trunc and not term and reward == 0.0
                truncated.add(agent)
                env.step(None)
                continue
            env.step(int(np.flatnonzero(obs["action_mask"])[pick]))
        assert truncated == set(env.possible_agents)
        assert env.unwrapped.game.steps == 15 and not env.unwrapped.game.is_terminal
        assert len(env.unwrapped.record.actions) == 15


@pytest.mark.parametrize("case", cases())
def test_ansi_render_shows_the_board(case):
    """render_mode="ansi" returns the text board: the game's own headings and every seat (P0 ..)."""
    env = case.env(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    for word in (*case.game.board_words, *(f"P{p}" for p in range(case.n))):
        assert word in text, word


@pytest.mark.parametrize("case", cases())
def test_gymnasium_check_env(case):
    """The single-agent env passes Gymnasium's env checker."""
    from gymnasium.utils.env_checker import check_env

    env = case.gym_make(illegal_action_penalty=-1.0)
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("case", cases())
def test_sb3_check_env(case):
    """The single-agent env passes Stable Baselines3's env checker."""
    from stable_baselines3.common.env_checker import check_env

    env = case.gym_make(illegal_action_penalty=-1.0)
    check_env(env.unwrapped, warn=True)


@pytest.mark.parametrize("case", cases())
def test_single_agent_illegal_action_raises_by_default_and_can_end_the_episode(case):
    """By default a masked action raises IllegalActionError (naming the action) and changes
    nothing; with illegal_action_penalty it ends the episode with that reward, terminated (not
    truncated), the error in info["illegal_action"] and no legal action left."""
    env = case.gym_make(learner_seat=0)
    env.reset(seed=0)
    game = env.unwrapped.game
    before = game.to_dict()
    illegal = int(np.flatnonzero(env.unwrapped.action_masks() == 0)[0])
    name = game.describe(illegal)
    with pytest.raises(IllegalActionError, match=rf"illegal action {illegal} ") as raised:
        env.step(illegal)
    assert name in str(raised.value)
    assert game.to_dict() == before
    penal = case.gym_make(learner_seat=0, illegal_action_penalty=-5.0)
    penal.reset(seed=0)
    assert penal.unwrapped.game.to_dict() == before
    _, reward, terminated, truncated, info = penal.step(illegal)
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert info["illegal_action"] == str(raised.value)
    assert not penal.unwrapped.action_masks().any()


@pytest.mark.parametrize("case", cases())
def test_gymnasium_env_plays_to_the_end_with_masks(case):
    """Playing the mask's actions against random opponents ends the episode by termination with the
    learner's win_loss reward (±1, or 0 in a shared victory); no action is legal afterwards."""
    env = case.gym_make(opponents="random")
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        mask = env.unwrapped.action_masks()
        assert mask.any()
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = terminated or truncated
    assert terminated and not truncated and reward in (-1.0, 0.0, 1.0)
    assert reward == env.unwrapped.game.rewards()[info["learner_seat"]]
    assert not env.unwrapped.action_masks().any()
