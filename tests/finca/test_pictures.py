"""Finca's picture (render_mode="rgb_array") and replay animations."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import render_test

from huerta.envs import finca_v0
from huerta.envs.core.transcript import random_record
from huerta.envs.finca import new_game
from huerta.envs.finca.picture import HEIGHT, WIDTH
from huerta.training.animation import save_gif, turn_frames


def test_pettingzoo_render_test_all_modes():
    env = finca_v0.env(num_players=3)
    assert env.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    render_test(lambda render_mode=None: finca_v0.env(num_players=3, render_mode=render_mode))


def test_picture_has_the_documented_shape_and_changes_with_the_state():
    env = finca_v0.env(num_players=2, render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    assert first.shape == (HEIGHT, WIDTH, 3) and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 20  # a real picture, not a blank
    env.step(3)
    second = env.render()
    assert second.shape == first.shape and not np.array_equal(first, second)


@pytest.mark.parametrize("n", (2, 4))
def test_every_state_of_a_random_game_renders(n):
    state = new_game(n, seed=n)
    rng = np.random.default_rng(n)
    while not state.is_terminal:
        picture = state.render_rgb()
        assert picture.shape == (HEIGHT, WIDTH, 3)
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    assert state.render_rgb().shape == (HEIGHT, WIDTH, 3)


def test_replay_gif_has_one_frame_per_turn(tmp_path):
    from PIL import Image

    record = random_record("finca", 2, seed=5)
    frames = turn_frames(record)
    final = record.actions and new_game(2, seed=5)
    for action in record.actions:
        final.apply(action)
    assert len(frames) == final.turns + 1  # every turn, then the final position
    assert frames[0][1].startswith("player_0: place a farmer")
    assert frames[-1][1].startswith("final scores")
    path = tmp_path / "game.gif"
    count = save_gif(record, path)
    with Image.open(path) as gif:
        assert gif.n_frames == count == len(frames)
