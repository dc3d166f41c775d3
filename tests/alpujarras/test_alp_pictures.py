"""Alpujarras's picture (render_mode="rgb_array") and replay animations."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from alp_helpers import short_move_policy, solo_duty_policy
from pettingzoo.test import render_test

from huerta.envs import alpujarras_v0
from huerta.envs.alpujarras import new_game
from huerta.envs.alpujarras.actions import END_TURN
from huerta.envs.alpujarras.picture import HEIGHT, WIDTH
from huerta.envs.core.records import GameRecord
from huerta.training.animation import save_gif, turn_frames


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_pettingzoo_render_test_all_modes(n):
    env = alpujarras_v0.env(num_players=n)
    assert env.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    render_test(lambda render_mode=None: alpujarras_v0.env(num_players=n,
                                                           render_mode=render_mode))


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_picture_has_the_documented_shape_and_changes_with_the_state(n):
    env = alpujarras_v0.env(num_players=n, render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    assert first.shape == (HEIGHT, WIDTH, 3) and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 20  # a real picture, not a blank
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))  # the mule moves
    second = env.render()
    assert second.shape == first.shape and not np.array_equal(first, second)


def test_the_picture_shows_holdings_and_the_board():
    """Changing one fact at a time changes the picture: fruit, a farmer, a channel, a token."""
    base = new_game(3, seed=2)
    reference = base.render_rgb()
    edits = [
        lambda s: s.fruit[1].__setitem__(3, 4),
        lambda s: s.farmers[2].__setitem__(4, 3),
        lambda s: s.channels.__setitem__(0, True),
        lambda s: s.tokens[0].append(s.towns[1].pop(0)),
        lambda s: s.goals_done[0].__setitem__(2, True),
    ]
    for edit in edits:
        state = base.clone()
        edit(state)
        assert not np.array_equal(state.render_rgb(), reference)


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_every_state_of_a_random_game_renders(n):
    state = new_game(n, seed=n)
    rng = np.random.default_rng(n)
    policy = solo_duty_policy if n == 1 else short_move_policy
    while not state.is_terminal:
        picture = state.render_rgb()
        assert picture.shape == (HEIGHT, WIDTH, 3)
        state.apply(policy(state, rng))
    assert state.render_rgb().shape == (HEIGHT, WIDTH, 3)


def _recorded_game(n: int, seed: int) -> GameRecord:
    """A game whose mules make short moves, so it has many turns (and consecutive ones)."""
    state = new_game(n, seed=seed)
    rng = np.random.default_rng(seed)
    record = GameRecord(game="alpujarras", num_players=n, seed=seed)
    while not state.is_terminal:
        action = short_move_policy(state, rng)
        state.apply(action)
        record.actions.append(action)
    return record


@pytest.mark.parametrize("n", (1, 2))
def test_replay_gif_has_one_frame_per_turn(tmp_path, n):
    """A turn always ends with END_TURN (the 2-player die's and Zara's turns are played inside
    it), so the frames are the END_TURN count plus the final position; a player's consecutive
    turns each get their frame."""
    from PIL import Image

    record = _recorded_game(n, seed=5)
    frames = turn_frames(record)
    turns = record.actions.count(END_TURN)
    assert len(frames) == turns + 1
    first = new_game(n, seed=5).current_player
    assert frames[0][1].startswith(f"player_{first}: move the mule")
    assert frames[-1][1].startswith("final scores")
    if n == 2:
        actors = [caption.split(":")[0] for _, caption in frames[:-1]]
        assert any(a == b for a, b in itertools.pairwise(actors))  # turns in a row
    path = tmp_path / "game.gif"
    count = save_gif(record, path, scale=0.5)
    with Image.open(path) as gif:
        assert gif.n_frames == count == len(frames)


def test_the_gymnasium_solo_env_renders_pictures():
    import gymnasium

    import huerta.envs  # noqa: F401  (registers the environments)

    env = gymnasium.make("huerta/AlpujarrasSolo-v0", render_mode="rgb_array")
    env.reset(seed=3)
    picture = env.render()
    assert picture.shape == (HEIGHT, WIDTH, 3) and picture.dtype == np.uint8
    env.close()
