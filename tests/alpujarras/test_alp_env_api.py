"""Alpujarras' own environment checks: the solo game's options and variants, END_TURN before the
mule has moved, Zara on the text board. The contract every game keeps (PettingZoo and Gymnasium
APIs, pickling, configuration and illegal-action errors, rewards, truncation, rendering, the env
checkers, the solo game's win or loss reward) is tested for 1-4 players in
tests/core/test_env_contract.py."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import huerta.envs  # noqa: F401  (registers the Gymnasium ids)
from huerta.envs import alpujarras_v0
from huerta.envs.alpujarras.actions import END_TURN
from huerta.envs.core.errors import IllegalActionError, InvalidConfigError

PLAYER_COUNTS = (1, 2, 3, 4)


def test_bad_solo_options_name_the_valid_ones():
    """double_turns and star_sides are checked when the game is set up, naming their values; they
    belong to the solo game only; the solo Gymnasium id names them for an unknown option."""
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


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_end_turn_before_the_mule_moves_is_refused_by_name(n):
    """At the start of a turn END_TURN raises saying the mule must move first, and changes
    nothing, in the AEC env and (solo) in the single-agent env."""
    env = alpujarras_v0.env(num_players=n)
    env.reset(seed=3)
    before = env.unwrapped.game.to_dict()
    message = r"illegal action 55 \(END_TURN.*\): the mule must move first"
    with pytest.raises(IllegalActionError, match=message):
        env.step(END_TURN)
    assert env.unwrapped.game.to_dict() == before
    if n == 1:
        solo = gymnasium.make("huerta/AlpujarrasSolo-v0")
        solo.reset(seed=0)
        before = solo.unwrapped.game.to_dict()
        with pytest.raises(IllegalActionError, match=message):
            solo.step(END_TURN)
        assert solo.unwrapped.game.to_dict() == before


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_ansi_render_shows_zara_in_the_solo_game_only(n):
    """The text board has a Zara line exactly when she plays (the solo game)."""
    env = alpujarras_v0.env(num_players=n, render_mode="ansi")
    env.reset(seed=0)
    assert ("Zara" in env.render()) == (n == 1)


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
