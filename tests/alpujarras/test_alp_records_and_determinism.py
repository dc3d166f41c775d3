"""Alpujarras' own record and hidden-information checks: what the seed shuffles, solo options in a
multiplayer record, the state's own consistency checks on load, and that the crop bag's draw order
and the die rolls to come never leak (determinize resamples them). Determinism, record save and
replay (solo variants included), state round trips, corrupt records, the golden playthroughs and
that determinize depends only on public facts are tested for every game and player count in
tests/core/test_records_contract.py."""

from __future__ import annotations

import numpy as np
import pytest
from alp_helpers import IRRIGATE, at, play, short_move_policy

from huerta.envs.alpujarras import AlpujarrasState, new_game, zara
from huerta.envs.alpujarras.actions import channel
from huerta.envs.alpujarras.scenario import scenario
from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import GameRecord, replay
from huerta.envs.core.transcript import random_record


def test_different_seeds_give_different_games():
    """ALP-04, ALP-06, ALP-08, ALP-12: layout, towns, goal sides and start order vary by seed; the
    solo variants set up the same game for the same seed."""
    a, b = new_game(3, seed=1), new_game(3, seed=2)
    assert (a.layout, a.towns, a.goal_sides, a.spot, a.bag) != (
        b.layout, b.towns, b.goal_sides, b.spot, b.bag
    )
    assert new_game(1, seed=1, star_sides=3) == new_game(1, seed=1, star_sides=3)


def test_solo_options_in_a_multiplayer_record_say_so():
    """A 2-player record carrying a solo variant cannot set its game up, and says why."""
    data = random_record("alpujarras", 2, seed=3).to_dict()
    data["options"] = {"double_turns": 3}
    with pytest.raises(CorruptRecordError, match="solo game only"):
        replay(GameRecord.from_dict(data))


def test_corrupt_state_says_where():
    """A loaded state whose fruit, farmers or delivery tokens do not add up, or whose field has
    the wrong type, is refused naming what is wrong."""
    data = new_game(2, seed=0).to_dict()
    data["fruit"][0][1] = 3
    with pytest.raises(CorruptRecordError, match="cherry: supply"):
        AlpujarrasState.from_dict(data)
    data = new_game(2, seed=0).to_dict()
    data["supply"][1] = 14
    with pytest.raises(CorruptRecordError, match="player 1: farmers add up to 14"):
        AlpujarrasState.from_dict(data)
    data = new_game(2, seed=0).to_dict()
    data["towns"][0].pop()
    with pytest.raises(CorruptRecordError, match="delivery tokens"):
        AlpujarrasState.from_dict(data)
    data = new_game(2, seed=0).to_dict()
    data["phase"] = "move"
    with pytest.raises(CorruptRecordError, match="field 'phase': expected an int"):
        AlpujarrasState.from_dict(data)


def test_no_leak_of_the_bag_order_or_future_rolls():
    """G-28: two states that differ only in the crop bag's draw order and the die rolls to come
    give every player identical observations, masks and text."""
    rng = np.random.default_rng(0)
    for seed in range(20):
        n = 1 + seed % 4
        state = new_game(n, seed=seed)
        for _ in range(int(rng.integers(0, 80))):
            if state.is_terminal:
                break
            state.apply(short_move_policy(state, rng))
        other = state.determinize(0, np.random.default_rng(seed + 100))
        assert sorted(other.bag) == sorted(state.bag) and len(other.rolls) == len(state.rolls)
        if len(set(state.bag)) > 1:
            assert other.bag != state.bag or other.rolls != state.rolls
        for p in range(n):
            np.testing.assert_array_equal(state.observe(p), other.observe(p))
        np.testing.assert_array_equal(state.legal_mask(), other.legal_mask())
        assert state.render_text() == other.render_text()


def test_determinize_resamples_the_crop_draw():
    """The next crop draw differs between determinizations, and each follows the bag's
    composition (crop_outcomes)."""
    s = at(2, IRRIGATE, channels=[0])
    outcomes = dict(s.crop_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1.0) and set(outcomes) == set(range(5))
    assert s.chance_outcomes() == []
    drawn = set()
    for k in range(30):
        d = s.determinize(0, np.random.default_rng(k))
        play(d, channel(1))
        drawn.add(d.fields[0][0])
    assert len(drawn) >= 3


def test_determinize_resamples_the_die():
    """Zara's roll after a determinization is drawn afresh."""
    s = scenario(1, positions={0: 20, 1: 10})
    positions = set()
    for k in range(30):
        d = s.determinize(0, np.random.default_rng(k))
        zara.take_turn(d)
        positions.add(d.pos[1])
    assert len(positions) >= 3
