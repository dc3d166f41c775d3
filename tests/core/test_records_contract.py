"""Determinism, game records and replay, state round trips, corrupt input and the golden
playthroughs: the same contract for every game and player count (ids such as `[mi_tierra-3]`).

Every game's states and records go through the shared code of envs/core (records.py,
transcript.py, the AEC env), so each game must give: the identical game for the same seed and
actions, records that save, load and replay to the recorded end, states that survive JSON, pickle
and clone and then play on identically (dice and draws included), errors on corrupt records and
states that say where, and an unchanged golden transcript. What is hidden from whom, a game's own
state-consistency checks and option errors stay in the game's own records test module.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
import re
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from contract_games import CASES, GAMES, TWO_PLAYER, cases, game_params

from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import GameRecord, replay
from huerta.envs.core.registry import game_names
from huerta.envs.core.transcript import random_record, transcript

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"
GOLDEN_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "golden_playthroughs.py"


def play_env(case, seed, action_seed, **options):
    """A whole game through the AEC env with the game's random policy; its record and every
    observation the env handed out."""
    env = case.env(**options)
    env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    observations = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        observations.append(obs["observation"].copy())
        if term or trunc:
            env.step(None)
            continue
        env.step(case.policy(env.unwrapped.game, rng))
    return env.unwrapped.record, observations


@pytest.mark.parametrize("case", cases())
def test_same_seed_and_actions_give_the_identical_game(case):
    """The same reset seed and the same actions give the same record and the same observations."""
    rec_a, obs_a = play_env(case, 42, 1)
    rec_b, obs_b = play_env(case, 42, 1)
    assert rec_a.to_json() == rec_b.to_json()
    assert len(obs_a) == len(obs_b)
    assert all(np.array_equal(x, y) for x, y in zip(obs_a, obs_b, strict=True))


@pytest.mark.parametrize("case", cases())
def test_same_seed_same_setup_and_different_seeds_differ(case):
    """new_game is a function of the seed: equal states for the same seed, different setups for
    different seeds (what differs is checked per game, with the rule ids of the setup)."""
    assert case.new_game(1) == case.new_game(1)
    assert case.new_game(1) != case.new_game(2)


@pytest.mark.parametrize("case", cases())
def test_saved_record_replays_to_the_same_final_state(case, tmp_path):
    """A record saved to JSON loads back equal (options included) and replays to a finished game
    with the recorded final scores; replaying up to step k gives the state after k decisions."""
    options = case.game.record_options.get(case.n, {})
    record, _ = play_env(case, 7, 3, **options)
    assert record.options == options
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    assert GameRecord.from_json(record.to_json()) == record
    final = replay(loaded)
    assert final.is_terminal and final.scores() == record.final_scores
    for upto in sorted({5, 20, len(record.actions) // 2}):
        if upto < len(record.actions):
            partial = replay(loaded, upto=upto)
            assert partial.steps == upto and not partial.is_terminal


@pytest.mark.parametrize("case", cases())
def test_state_round_trips_through_json_pickle_and_clone(case):
    """Mid-game, a state's JSON round trip (state_from_dict of to_dict), its pickle and its clone
    equal it, observe the same for every seat and have the same mask; all four then play on
    identically to the end: dice and crop draws come from the state's generator, whose state is
    part of the state (to_dict included)."""
    rng = np.random.default_rng(0)
    state = case.midgame(5, rng)
    assert not state.is_terminal
    back = case.spec.state_from_dict(json.loads(json.dumps(state.to_dict())))
    copies = [back, pickle.loads(pickle.dumps(state)), state.clone()]
    for other in copies:
        assert other == state
        for p in range(case.n):
            np.testing.assert_array_equal(other.observe(p), state.observe(p))
        np.testing.assert_array_equal(other.legal_mask(), state.legal_mask())
    while not state.is_terminal:
        action = case.policy(state, rng)
        for s in (state, *copies):
            s.apply(action)
    assert all(other == state for other in copies)


def _illegal_at(data, k):
    """Put an action that is illegal at step k into the record data."""
    mask = replay(GameRecord.from_dict(data), upto=k).legal_mask()
    data["actions"][k] = int(np.flatnonzero(mask == 0)[0])


def _wrong_scores(data):
    data["final_scores"] = [s + 1 for s in data["final_scores"]]


# name -> (how to spoil the record's data, the message expected; {end} is the number of actions)
CORRUPTIONS = {
    "missing-seed": (lambda d: d.pop("seed"), "missing field 'seed'"),
    "actions-not-a-list": (lambda d: d.update(actions="oops"), "field 'actions' must be list"),
    "action-not-an-id": (lambda d: d["actions"].__setitem__(3, "x"), r"actions\[3\] is 'x'"),
    "unknown-game": (
        lambda d: d.update(game="chess"),
        re.escape(f"unknown game 'chess'; valid games: {', '.join(game_names())}"),
    ),
    "bad-player-count": (lambda d: d.update(num_players=7), "num_players=7 is not supported"),
    "illegal-first-action": (lambda d: _illegal_at(d, 0), r"actions\[0\] cannot be replayed"),
    "illegal-action-12": (lambda d: _illegal_at(d, 12), r"actions\[12\] cannot be replayed"),
    "action-after-the-end": (
        lambda d: d["actions"].append(0),
        r"actions\[{end}\] = 0 comes after the end of the game",
    ),
    "wrong-final-scores": (_wrong_scores, "differ from the replayed"),
    "unknown-version": (lambda d: d.update(version=99), "version 99 is not supported"),
    "unknown-field": (lambda d: d.update(colour="red"), r"unknown field\(s\) \['colour'\]"),
}


@pytest.mark.parametrize(
    "game, corruption",
    [pytest.param(g, c, id=f"{g.name}-{c}") for g in GAMES.values() for c in CORRUPTIONS],
)
def test_corrupt_record_says_where(game, corruption):
    """A record with a missing or mistyped field, an unknown game, version or field, an
    unsupported player count, an illegal or surplus action or wrong final scores is refused with
    CorruptRecordError naming the field or the step (a game's own bad options: per game)."""
    data = random_record(game.name, 2, seed=3).to_dict()
    end = len(data["actions"])
    assert end > 12
    mutate, message = CORRUPTIONS[corruption]
    mutate(data)
    with pytest.raises(CorruptRecordError, match=message.format(end=end)):
        replay(GameRecord.from_dict(data))


def test_corrupt_json_says_where():
    """A record file that is not JSON is refused with the line and column of the error."""
    with pytest.raises(CorruptRecordError, match="line 1, column"):
        GameRecord.from_json("{not json")
    with pytest.raises(CorruptRecordError):
        GameRecord.from_dict([1, 2])


@pytest.mark.parametrize("game", game_params())
def test_corrupt_state_names_the_missing_field(game):
    """state_from_dict refuses a non-dict, and a dict missing any field of to_dict names that field
    (the game's name and its options may be left out); a game's own consistency checks on the
    values are tested per game."""
    with pytest.raises(CorruptRecordError, match=f"{game.name} state must be a dict"):
        game.spec.state_from_dict([1, 2])
    data = game.spec.new_game(2, seed=0).to_dict()
    optional = {"game", *game.options}
    for key in data.keys() - optional:
        partial = {k: v for k, v in data.items() if k != key}
        with pytest.raises(CorruptRecordError, match=f"missing field '{key}'"):
            game.spec.state_from_dict(partial)
    assert game.spec.state_from_dict(data) == game.spec.new_game(2, seed=0)


def _golden_script() -> ModuleType:
    """scripts/golden_playthroughs.py, loaded from its file (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("golden_playthroughs", GOLDEN_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def golden_file(case) -> Path:
    """The golden transcript of `case`: the one file of its game and count, played from the seed
    scripts/golden_playthroughs.py gives its player count (`golden_seed`) and plays."""
    found = sorted(GOLDEN_DIR.glob(f"{case.game.name}_{case.n}p_seed*.txt"))
    assert len(found) == 1, f"{case.id}: golden files {found}"
    seed = _golden_script().golden_seed(case.n)
    assert found[0].name == f"{case.game.name}_{case.n}p_seed{seed}.txt", (
        f"{case.id}: {found[0].name} is not the script's golden seed {seed}"
    )
    return found[0]


def test_golden_files_cover_every_game_and_player_count():
    """tests/golden holds exactly one transcript per game and player count, and nothing else."""
    assert sorted(p.name for p in GOLDEN_DIR.iterdir()) == sorted(
        golden_file(c).name for c in CASES
    )


@pytest.mark.parametrize("case", cases())
def test_golden_playthrough_is_unchanged(case):
    """The checked-in transcript (scripts/golden_playthroughs.py regenerates it) still replays
    line for line."""
    path = golden_file(case)
    seed = int(path.stem.rsplit("_seed", 1)[1])
    record = random_record(case.game.name, case.n, seed)
    assert transcript(record) == path.read_text()


@pytest.mark.parametrize("case", cases(TWO_PLAYER))
def test_determinize_depends_only_on_public_facts(case):
    """Two states that differ only in what seat 0 cannot know determinize, for seat 1 and the same
    generator, to the same state: a search agent's choices cannot depend on the hidden order."""
    state = case.new_game(4)
    other = state.determinize(0, np.random.default_rng(99))
    a = state.determinize(1, np.random.default_rng(5))
    b = other.determinize(1, np.random.default_rng(5))
    assert a == b
