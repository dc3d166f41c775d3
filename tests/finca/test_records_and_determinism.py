"""Determinism, record replay, the golden playthroughs, corrupt records and hidden information."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from huerta.envs import finca_v0
from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import GameRecord, replay
from huerta.envs.core.transcript import random_record, transcript
from huerta.envs.finca import FincaState, new_game

ROOT = Path(__file__).resolve().parents[2]


def play_env(n, seed, action_seed):
    env = finca_v0.env(num_players=n)
    env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    observations = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        observations.append(obs["observation"].copy())
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env.unwrapped.record, observations


@pytest.mark.parametrize("n", (2, 3, 4))
def test_same_seed_and_actions_give_the_identical_game(n):
    rec_a, obs_a = play_env(n, 42, 1)
    rec_b, obs_b = play_env(n, 42, 1)
    assert rec_a.to_json() == rec_b.to_json()
    assert len(obs_a) == len(obs_b)
    assert all(np.array_equal(x, y) for x, y in zip(obs_a, obs_b, strict=True))


def test_different_seeds_give_different_games():
    """FIN-03, FIN-04, FIN-05: blades, stacks and finca tiles are shuffled per seed."""
    a, b = new_game(2, seed=1), new_game(2, seed=2)
    assert (a.blades, a.stacks, a.finca_tile) != (b.blades, b.stacks, b.finca_tile)
    assert new_game(2, seed=1) == new_game(2, seed=1)


@pytest.mark.parametrize("n", (2, 3, 4))
def test_saved_record_replays_to_the_same_final_state(n, tmp_path):
    record, _ = play_env(n, 7, 3)
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    final = replay(loaded)
    assert final.is_terminal
    assert final.scores() == record.final_scores
    # replaying up to a point gives the state at that point
    partial = replay(loaded, upto=20)
    assert partial.steps == 20


def test_state_round_trips_through_json():
    state = new_game(3, seed=5)
    rng = np.random.default_rng(0)
    for _ in range(100):
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    data = json.loads(json.dumps(state.to_dict()))
    back = FincaState.from_dict(data)
    assert back == state
    np.testing.assert_array_equal(back.observe(1), state.observe(1))
    np.testing.assert_array_equal(back.legal_mask(), state.legal_mask())


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.pop("seed"), "missing field 'seed'"),
        (lambda d: d.update(actions="oops"), "field 'actions' must be list"),
        (lambda d: d["actions"].__setitem__(3, "x"), r"actions\[3\] is 'x'"),
        (lambda d: d.update(game="chess"), "unknown game 'chess'; valid games: finca"),
        (lambda d: d.update(num_players=7), "num_players=7 is not supported"),
        (lambda d: d["actions"].__setitem__(12, 33), r"actions\[12\] cannot be replayed"),
        (lambda d: d["actions"].append(0), r"comes after the end of the game"),
        (lambda d: d.update(final_scores=[0, 0]), "differ from the replayed"),
        (lambda d: d.update(version=99), "version 99 is not supported"),
        (lambda d: d.update(colour="red"), "unknown field"),
    ],
)
def test_corrupt_record_says_where(mutate, message):
    data = random_record("finca", 2, seed=3).to_dict()
    mutate(data)
    with pytest.raises(CorruptRecordError, match=message):
        replay(GameRecord.from_dict(data))


def test_corrupt_json_and_state_say_where():
    with pytest.raises(CorruptRecordError, match="line 1, column"):
        GameRecord.from_json("{not json")
    data = new_game(2, seed=0).to_dict()
    data["supply"][2] = 17
    with pytest.raises(CorruptRecordError, match="olive: supply"):
        FincaState.from_dict(data)
    del data["stacks"]
    with pytest.raises(CorruptRecordError, match="missing field 'stacks'"):
        FincaState.from_dict(data)


GOLDEN = sorted(p.name for p in (ROOT / "tests" / "golden").glob("finca_*"))


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_playthrough_is_unchanged(name):
    """The checked-in transcript (scripts/golden_playthroughs.py regenerates it) still replays
    line for line."""
    stem = name.removesuffix(".txt")
    game, players, seed = stem.split("_")
    record = random_record(game, int(players.removesuffix("p")), int(seed.removeprefix("seed")))
    expected = (ROOT / "tests" / "golden" / name).read_text()
    assert transcript(record) == expected


def test_no_leak_of_face_down_tiles():
    """T-50: two states that differ only in the order of face-down tiles (and which tiles are
    boxed) give every player identical observations."""
    rng = np.random.default_rng(0)
    for seed in range(20):
        state = new_game(3, seed=seed)
        for _ in range(int(rng.integers(0, 150))):
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        other = state.determinize(0, np.random.default_rng(seed + 100))
        hidden = lambda s: ([st[:-1] for st in s.stacks], sorted(s.boxed))  # noqa: E731
        assert [st[-1:] for st in other.stacks] == [st[-1:] for st in state.stacks]
        if any(len(st) > 1 for st in state.stacks):
            assert hidden(other) != hidden(state) or len(state.boxed) == 0
        for p in range(3):
            np.testing.assert_array_equal(state.observe(p), other.observe(p))
        np.testing.assert_array_equal(state.legal_mask(), other.legal_mask())
        assert state.render_text() == other.render_text()
