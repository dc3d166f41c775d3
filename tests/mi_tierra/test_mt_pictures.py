"""Mi Tierra's picture (render_mode="rgb_array") and replay animations."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import render_test

from huerta.envs import mi_tierra_v0
from huerta.envs.core.transcript import random_record
from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import new_game
from huerta.envs.mi_tierra.actions import Stage
from huerta.envs.mi_tierra.picture import HEIGHT, WIDTH
from huerta.envs.mi_tierra.scenario import scenario
from huerta.training.animation import save_gif, turn_frames


@pytest.mark.parametrize("n", (2, 3, 4))
def test_pettingzoo_render_test_all_modes(n):
    env = mi_tierra_v0.env(num_players=n)
    assert env.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    render_test(lambda render_mode=None: mi_tierra_v0.env(num_players=n,
                                                          render_mode=render_mode))


def test_picture_has_the_documented_shape_and_changes_with_the_state():
    env = mi_tierra_v0.env(num_players=3, render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    assert first.shape == (HEIGHT, WIDTH, 3) and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 20  # a real picture, not a blank
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask)[1]))  # a first placement
    second = env.render()
    assert second.shape == first.shape and not np.array_equal(first, second)


def test_the_picture_shows_no_private_information():
    """A Clock Tower peek (and a reordering in progress) is private: two states that differ only
    there draw the same picture; the pile's hidden order never shows either."""
    s = scenario(3, round=4, explicit_chance=False, pile=["A01", "A03", "A05", "A07", "A09"],
                 est=["A02", "A04", "A06"], start=Stage.PLACEMENT)
    peeked = s.clone()
    peeked.known[1] = [peeked.pile[-1 - i] for i in range(4)]
    peeked.invalidate()
    assert np.array_equal(s.render_rgb(), peeked.render_rgb())
    reordered = s.clone()
    top = reordered.pile[-4:]
    reordered.pile[-4:] = [top[1], top[0], top[3], top[2]]  # same card backs (all deck A)
    reordered.invalidate()
    assert np.array_equal(s.render_rgb(), reordered.render_rgb())


def test_a_busy_scene_renders():
    """Pairs, farm workers, a Black Market queue, Strike and Inflation, a full farm."""
    s = scenario(4, round=9, explicit_chance=False, money=[12, 40, 3, 0],
                 goods={0: {g: 2 for g in C.GOODS if g not in ("sheep", "cow")}},
                 fields={0: {4: "apple", 6: "wheat", 7: "wheat", 10: "grape"}},
                 barns={0: {0: (3, "cow", 3), 3: (2, "sheep", 2), 8: (3, None, 0)}},
                 farm_workers={0: [6, 5]}, devs={0: list(range(C.NUM_DEV_CARDS))},
                 board={0: (1, True), 7: 2, 3: 3, 29: 0, 30: 2}, owned={1: 5, 2: 5},
                 bm_workers=[1, 3], event="strike", cake={1: 2}, cloth={0: 1})
    picture = s.render_rgb()
    assert picture.shape == (HEIGHT, WIDTH, 3)
    s.event_card = next(c.card_id for c in C.MARKET_CARDS if c.event == C.INFLATION)
    s.invalidate()
    assert not np.array_equal(picture, s.render_rgb())


@pytest.mark.parametrize("n", (2, 4))
def test_every_state_of_a_random_game_renders(n):
    """Every fourth state of a random game (they are long) and the final one."""
    state = new_game(n, seed=n)
    rng = np.random.default_rng(n)
    while not state.is_terminal:
        if state.steps % 4 == 0:
            assert state.render_rgb().shape == (HEIGHT, WIDTH, 3)
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    assert state.render_rgb().shape == (HEIGHT, WIDTH, 3)


def test_replay_gif_has_one_frame_per_turn(tmp_path):
    """Mi Tierra states have no turn counter, so a turn ends when the acting player changes:
    the frames are the runs of consecutive decisions by one player, then the final position."""
    from PIL import Image

    record = random_record("mi_tierra", 2, seed=5)
    record.actions = record.actions[:40]  # the game's start is enough (a frame takes ~0.1 s)
    state = new_game(2, seed=5)
    turns, actor = 0, state.current_player
    for action in record.actions:
        state.apply(action)
        if state.is_terminal or state.current_player != actor:
            turns += 1
            actor = state.current_player
    frames = turn_frames(record)
    assert len(frames) == turns + 1  # every turn, then the final position
    assert frames[0][1].startswith("player_0: place")
    assert frames[-1][1].startswith("final scores")
    path = tmp_path / "game.gif"
    count = save_gif(record, path, scale=0.5)
    with Image.open(path) as gif:
        assert gif.n_frames == count == len(frames)
