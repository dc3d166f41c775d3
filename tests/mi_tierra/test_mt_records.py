"""Determinism, record replay, golden playthroughs, corrupt input, hidden information."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from huerta.envs import mi_tierra_v0
from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import GameRecord, replay
from huerta.envs.core.transcript import random_record, transcript
from huerta.envs.mi_tierra import MiTierraState, new_game
from huerta.envs.mi_tierra.actions import PASS, Decision, Stage, choice
from huerta.envs.mi_tierra.observation import SLICES
from huerta.envs.mi_tierra.scenario import CardPicker, scenario, space

ROOT = Path(__file__).resolve().parents[2]


def play_env(n, seed, action_seed):
    env = mi_tierra_v0.env(num_players=n)
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


def random_midgame(n, seed, steps):
    state = new_game(n, seed=seed)
    rng = np.random.default_rng(seed)
    while state.steps < steps and not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    return state


@pytest.mark.parametrize("n", (2, 3, 4))
def test_same_seed_and_actions_give_the_identical_game(n):
    rec_a, obs_a = play_env(n, 42, 1)
    rec_b, obs_b = play_env(n, 42, 1)
    assert rec_a.to_json() == rec_b.to_json()
    assert len(obs_a) == len(obs_b)
    assert all(np.array_equal(x, y) for x, y in zip(obs_a, obs_b, strict=True))


@pytest.mark.parametrize("n", (2, 3, 4))
def test_saved_record_replays_to_the_same_final_state(n, tmp_path):
    record, _ = play_env(n, 7, 3)
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    final = replay(loaded)
    assert final.is_terminal and final.scores() == record.final_scores
    partial = replay(loaded, upto=20)
    assert partial.steps == 20


def test_clone_and_json_round_trip_roll_the_same_dice():
    """Dice come from the state's generator, whose state is part of to_dict: a clone and a JSON
    round trip continue with the same rolls."""
    state = random_midgame(3, 5, 80)
    data = json.loads(json.dumps(state.to_dict()))
    back = MiTierraState.from_dict(data)
    clone = state.clone()
    assert back == state == clone
    np.testing.assert_array_equal(back.observe(1), state.observe(1))
    np.testing.assert_array_equal(back.legal_mask(), state.legal_mask())
    rng = np.random.default_rng(0)
    while not state.is_terminal:
        legal = state.legal_actions()
        action = legal[rng.integers(len(legal))]
        for s in (state, back, clone):
            s.apply(action)
    assert back == state == clone


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.pop("seed"), "missing field 'seed'"),
        (lambda d: d.update(actions="oops"), "field 'actions' must be list"),
        (lambda d: d.update(num_players=5), "num_players=5 is not supported"),
        (lambda d: d["actions"].__setitem__(0, 45), r"actions\[0\] cannot be replayed"),
        (lambda d: d["actions"].append(0), r"comes after the end of the game"),
        (lambda d: d.update(final_scores=[0, 0]), "differ from the replayed"),
        (lambda d: d.update(options={"colour": "red"}), "cannot set the game up"),
    ],
)
def test_corrupt_record_says_where(mutate, message):
    data = random_record("mi_tierra", 2, seed=3).to_dict()
    mutate(data)
    with pytest.raises(CorruptRecordError, match=message):
        replay(GameRecord.from_dict(data))


def test_corrupt_state_says_where():
    data = new_game(2, seed=0).to_dict()
    data["money"][1] = -3
    with pytest.raises(CorruptRecordError, match="player 1: negative money"):
        MiTierraState.from_dict(data)
    data = new_game(2, seed=0).to_dict()
    data["pile"].append(data["pile"][0])
    with pytest.raises(CorruptRecordError, match="market cards"):
        MiTierraState.from_dict(data)
    data = new_game(2, seed=0).to_dict()
    del data["goods"]
    with pytest.raises(CorruptRecordError, match="missing field 'goods'"):
        MiTierraState.from_dict(data)
    data = new_game(2, seed=0).to_dict()
    data["round"] = "one"
    with pytest.raises(CorruptRecordError, match="field 'round'"):
        MiTierraState.from_dict(data)
    with pytest.raises(CorruptRecordError, match="must be a dict"):
        MiTierraState.from_dict([1, 2])


GOLDEN = sorted(p.name for p in (ROOT / "tests" / "golden").glob("mi_tierra_*"))


def test_golden_files_exist():
    assert GOLDEN == ["mi_tierra_2p_seed7.txt", "mi_tierra_3p_seed8.txt",
                      "mi_tierra_4p_seed9.txt"]


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_playthrough_is_unchanged(name):
    """The checked-in transcript (scripts/golden_playthroughs.py regenerates it) still replays
    line for line."""
    stem = name.removesuffix(".txt").removeprefix("mi_tierra_")
    players, seed = stem.split("_")
    record = random_record("mi_tierra", int(players.removesuffix("p")),
                           int(seed.removeprefix("seed")))
    expected = (ROOT / "tests" / "golden" / name).read_text()
    assert transcript(record) == expected


# --- hidden information --------------------------------------------------------------------------

def test_no_leak_of_the_pile_order_or_the_removed_cards():
    """T-76, MIT-02, G-68: two states that differ only in what a player cannot know (the order of
    unpeeked pile cards, which A cards were removed, the development deck order, future dice)
    give that player identical observations, masks and renders."""
    for seed in range(30):
        state = random_midgame(2 + seed % 3, seed, int(np.random.default_rng(seed).integers(0,
                                                                                             300)))
        for p in range(state.num_players):
            other = state.determinize(p, np.random.default_rng(seed + 100))
            assert not other.check_consistency()
            np.testing.assert_array_equal(state.observe(p), other.observe(p))
            np.testing.assert_array_equal(state.legal_mask(), other.legal_mask())
            assert state.render_text() == other.render_text()
            assert other.known[p] == state.known[p]
            assert sorted(other.known_set[p]) == sorted(state.known_set[p])
            for k, card in enumerate(state.known[p]):
                assert other.pile[-1 - k] == card


def test_determinize_resamples_the_unknown():
    """determinize changes hidden things for a player who peeked nothing."""
    state = random_midgame(3, 1, 30)
    assert not state.known[0] and not state.known_set[0]
    piles = {tuple(state.determinize(0, np.random.default_rng(s)).pile) for s in range(10)}
    removed = {tuple(sorted(state.determinize(0, np.random.default_rng(s)).removed))
               for s in range(10)}
    assert len(piles) > 1 and len(removed) > 1


def _peek_state():
    """P1 (seat 0) alone in the Clock Tower, reordering the top four cards."""
    codes = ["A05", "A07", "A09", "A10", "A11", "A12"]
    s = scenario(2, board={space("clock_tower", 0): 0, space("bakery", 0): 1}, pile=codes,
                 est=["A01", "A03"], goods={1: {"milk": 1, "egg": 2}}, money=[10, 10],
                 start=Stage.CLOCK_TOWER)  # seat 1's baker stops the run after the reorder
    pick = CardPicker()
    return s, [pick(c) for c in codes]


def knowledge_cards(obs):
    block = obs[SLICES["knowledge"]]
    positions = block[: 4 * 56].reshape(4, 56)
    return [int(np.flatnonzero(row)[0]) if row.any() else -1 for row in positions]


def test_the_peeker_sees_exactly_what_it_peeked_and_nobody_else_does():
    """T-35, T-76, MIT-45, MIT-46, G-35: the peeker's observation shows the top cards it saw (and,
    while reordering, its choices); the other player's observation shows none of it, and does
    not change when the peeked cards are shuffled."""
    s, ids = _peek_state()
    assert s.decision == Decision.CLOCK_ORDER
    assert knowledge_cards(s.observe(0)) == ids[:4]
    assert knowledge_cards(s.observe(1)) == [-1, -1, -1, -1]
    before_p1 = s.observe(1)
    s.apply(choice(2))
    assert not np.array_equal(s.observe(0)[SLICES["context"]], before_p1[SLICES["context"]])
    alt = s.clone()
    alt.pile[-1], alt.pile[-2] = alt.pile[-2], alt.pile[-1]
    alt.known[0] = [alt.pile[-1 - k] for k in range(4)]
    alt.reorder_left = [c for c in alt.known[0] if c not in alt.reorder_done]
    alt.invalidate()
    s.invalidate()
    np.testing.assert_array_equal(s.observe(1), alt.observe(1))
    assert not np.array_equal(s.observe(0), alt.observe(0))
    s.apply(PASS)
    assert knowledge_cards(s.observe(0)) == [ids[2], ids[0], ids[1], ids[3]]
    assert knowledge_cards(s.observe(1)) == [-1, -1, -1, -1]


def test_removed_cards_never_appear_in_any_observation():
    """MIT-02: the 7 removed A cards are never flagged revealed nor known by anyone."""
    for seed in range(10):
        state = new_game(3, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal:
            for p in range(3):
                obs = state.observe(p)
                revealed = obs[SLICES["revealed"]]
                knowledge = obs[SLICES["knowledge"]][: 5 * 56].reshape(5, 56)
                for c in state.removed:
                    assert revealed[c] == 0.0 and not knowledge[:, c].any()
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])


def test_determinize_during_another_players_reordering_stays_consistent():
    """G-35: the opponent of a reordering peeker gets a state in which the peeker's pending
    choices follow the cards now at the same pile positions, and the game plays on soundly."""
    s, ids = _peek_state()
    s.apply(choice(1))  # the peeker has put one card back already
    for seed in range(5):
        other = s.determinize(1, np.random.default_rng(seed))
        assert not other.check_consistency()
        np.testing.assert_array_equal(other.observe(1), s.observe(1))
        rng = np.random.default_rng(seed)
        while not other.is_terminal:
            if other.chance_pending:  # scenarios roll their dice explicitly
                other.apply_chance(int(rng.integers(1, 7)))
                continue
            legal = other.legal_actions()
            other.apply(legal[rng.integers(len(legal))])
            assert not other.check_consistency()
