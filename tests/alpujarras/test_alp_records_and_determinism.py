"""Determinism, record replay, the golden playthroughs, corrupt input and hidden information
(the crop bag's draw order and the die rolls to come never leak)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from alp_helpers import IRRIGATE, at, play, short_move_policy

from huerta.envs import alpujarras_v0
from huerta.envs.alpujarras import AlpujarrasState, new_game, zara
from huerta.envs.alpujarras.actions import channel
from huerta.envs.alpujarras.scenario import scenario
from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import GameRecord, replay
from huerta.envs.core.transcript import random_record, transcript

ROOT = Path(__file__).resolve().parents[2]


def play_env(n, seed, action_seed, **options):
    env = alpujarras_v0.env(num_players=n, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    observations = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        observations.append(obs["observation"].copy())
        if term or trunc:
            env.step(None)
            continue
        env.step(short_move_policy(env.unwrapped.game, rng))
    return env.unwrapped.record, observations


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_same_seed_and_actions_give_the_identical_game(n):
    rec_a, obs_a = play_env(n, 42, 1)
    rec_b, obs_b = play_env(n, 42, 1)
    assert rec_a.to_json() == rec_b.to_json()
    assert len(obs_a) == len(obs_b)
    assert all(np.array_equal(x, y) for x, y in zip(obs_a, obs_b, strict=True))


def test_different_seeds_give_different_games():
    """ALP-04, ALP-06, ALP-08, ALP-12: layout, towns, goal sides and start order vary by seed."""
    a, b = new_game(3, seed=1), new_game(3, seed=2)
    assert (a.layout, a.towns, a.goal_sides, a.spot, a.bag) != (
        b.layout, b.towns, b.goal_sides, b.spot, b.bag
    )
    assert new_game(3, seed=1) == new_game(3, seed=1)
    assert new_game(1, seed=1, star_sides=3) == new_game(1, seed=1, star_sides=3)


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_saved_record_replays_to_the_same_final_state(n, tmp_path):
    record, _ = play_env(n, 7, 3, **({"double_turns": 5} if n == 1 else {}))
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    final = replay(loaded)
    assert final.is_terminal and final.scores() == record.final_scores
    partial = replay(loaded, upto=5)
    assert partial.steps == 5


def test_state_round_trips_through_json_and_pickle():
    import pickle

    for n in (1, 2, 3, 4):
        state = new_game(n, seed=5)
        rng = np.random.default_rng(0)
        for _ in range(60):
            if state.is_terminal:
                break
            state.apply(short_move_policy(state, rng))
        back = AlpujarrasState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert back == state
        np.testing.assert_array_equal(back.observe(0), state.observe(0))
        np.testing.assert_array_equal(back.legal_mask(), state.legal_mask())
        assert pickle.loads(pickle.dumps(state)) == state
        # the clone and the original continue identically (the chance sequences travel along)
        clone = state.clone()
        while not state.is_terminal:
            action = short_move_policy(state, rng)
            state.apply(action)
            clone.apply(action)
        assert clone == state


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.pop("seed"), "missing field 'seed'"),
        (lambda d: d.update(game="chess"), "valid games: finca, alpujarras"),
        (lambda d: d.update(num_players=7), "num_players=7 is not supported"),
        (lambda d: d["actions"].__setitem__(0, 55), r"actions\[0\] cannot be replayed"),
        (lambda d: d["actions"].append(0), r"comes after the end of the game"),
        (lambda d: d.update(final_scores=[99, 99]), "differ from the replayed"),
        (lambda d: d.update(options={"double_turns": 3}), "solo game only"),
    ],
)
def test_corrupt_record_says_where(mutate, message):
    data = random_record("alpujarras", 2, seed=3).to_dict()
    mutate(data)
    with pytest.raises(CorruptRecordError, match=message):
        replay(GameRecord.from_dict(data))


def test_corrupt_state_says_where():
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
    data = new_game(2, seed=0).to_dict()
    del data["bag"]
    with pytest.raises(CorruptRecordError, match="missing field 'bag'"):
        AlpujarrasState.from_dict(data)
    with pytest.raises(CorruptRecordError, match="must be a dict"):
        AlpujarrasState.from_dict([1, 2])


GOLDEN = sorted(p.name for p in (ROOT / "tests" / "golden").glob("alpujarras_*"))


def test_golden_files_exist_for_every_player_count():
    assert GOLDEN == [
        "alpujarras_1p_seed10.txt", "alpujarras_2p_seed7.txt", "alpujarras_3p_seed8.txt",
        "alpujarras_4p_seed9.txt",
    ]


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_playthrough_is_unchanged(name):
    """The checked-in transcript (scripts/golden_playthroughs.py regenerates it) still replays
    line for line."""
    stem = name.removesuffix(".txt")
    game, players, seed = stem.split("_")
    record = random_record(game, int(players.removesuffix("p")), int(seed.removeprefix("seed")))
    expected = (ROOT / "tests" / "golden" / name).read_text()
    assert transcript(record) == expected


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


def test_determinize_depends_only_on_public_facts():
    """Two states that differ only in the bag's order and the rolls to come determinize to the
    same state for the same generator (a search agent's choices cannot depend on hidden order)."""
    state = new_game(2, seed=4)
    other = state.determinize(0, np.random.default_rng(99))
    a = state.determinize(1, np.random.default_rng(5))
    b = other.determinize(1, np.random.default_rng(5))
    assert a == b


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
