"""The OpenSpiel games (`huerta.envs.openspiel`, the `openspiel` extra): OpenSpiel's own
`random_sim_test` on every game and player count, its Python ISMCTS bot through whole games, and
the OpenSpiel state held step for step equal to the huerta engine it wraps."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (make setup installs it)")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from huerta.agents import make_agent  # noqa: E402
from huerta.envs.core.registry import game_specs, get_game  # noqa: E402
from huerta.envs.openspiel import GAMES, short_name  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TABLES = [(spec.name, n) for spec in game_specs() for n in spec.player_counts]
SIMS = 6 if os.environ.get("HUERTA_FULL") else 3


def load(game: str, players: int, seed: int = 7):
    return pyspiel.load_game(short_name(game), {"players": players, "rng_seed": seed})


def play_randomly(state, rng: np.random.Generator, moves: int | None = None) -> list[int]:
    """Random legal moves until the end (or `moves` of them); the actions played."""
    played = []
    while not state.is_terminal() and (moves is None or len(played) < moves):
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        played.append(action)
    return played


def test_every_game_is_registered_under_its_short_name():
    assert [f"python_huerta_{spec.name}" for spec in game_specs()] == GAMES
    assert set(GAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("game, players", TABLES)
def test_openspiel_random_sim_test(game, players):
    """OpenSpiel's own API-consistency test (serialisation is tested below: a sampled-stochastic
    Python game cannot hand OpenSpiel its generator's state, which that check would need)."""
    pyspiel.random_sim_test(load(game, players), num_sims=SIMS, serialize=False, verbose=False)


@pytest.mark.parametrize("game, players", TABLES)
def test_declared_game_facts(game, players):
    spec = get_game(game)
    loaded = load(game, players)
    kind = loaded.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    zero_sum = pyspiel.GameType.Utility.ZERO_SUM
    assert (kind.utility == zero_sum) == (players == 2)
    assert loaded.num_players() == players
    assert loaded.num_distinct_actions() == spec.num_actions
    assert loaded.observation_tensor_shape() == [spec.observation_size]
    assert loaded.information_state_tensor_shape() == [spec.observation_size]
    assert loaded.max_game_length() == spec.default_max_steps


@pytest.mark.parametrize("game, players", TABLES)
def test_state_equals_the_engine_step_for_step(game, players):
    """The OpenSpiel state and `new_game(seed=state.game_seed)` given the same random actions:
    the same seat to act, legal actions, every seat's observation tensor, and returns."""
    spec = get_game(game)
    state = load(game, players).new_initial_state()
    rng = np.random.default_rng(players)
    state.legal_actions()  # the first use deals the game
    options = state.get_game().options
    engine = spec.new_game(players, seed=state.game_seed, **options)
    while not state.is_terminal():
        assert state.current_player() == engine.current_player
        assert state.legal_actions() == engine.legal_actions()
        for seat in range(players):
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32),
                                  engine.observe(seat))
        action = int(rng.choice(engine.legal_actions()))
        state.apply_action(action)
        engine.apply(action)
    assert engine.is_terminal
    assert state.returns() == engine.rewards("win_loss")
    assert len(state.history()) == engine.steps  # OpenSpiel's history: every decision


@pytest.mark.parametrize("game", [spec.name for spec in game_specs()])
def test_the_rng_seed_parameter_decides_the_deals(game):
    loaded = load(game, 2, seed=5)
    seeds = [loaded.new_initial_state() for _ in range(2)]
    again = load(game, 2, seed=5).new_initial_state()
    other = load(game, 2, seed=6).new_initial_state()
    for state in (*seeds, again, other):
        state.legal_actions()
    assert seeds[0].game_seed == again.game_seed != other.game_seed
    assert seeds[0].game_seed != seeds[1].game_seed  # each new state a new deal


@pytest.mark.parametrize("game, players", [(g, n) for g, n in TABLES if n in (1, 3)])
def test_serialisation_round_trip_plays_on_identically(game, players):
    loaded = load(game, players)
    state = loaded.new_initial_state()
    play_randomly(state, np.random.default_rng(1), moves=10)
    copy = loaded.deserialize_state(state.serialize())
    assert copy.history() == state.history()
    assert copy.engine.to_dict() == state.engine.to_dict()
    rng = np.random.default_rng(2)
    while not state.is_terminal():
        assert copy.legal_actions() == state.legal_actions()
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        copy.apply_action(action)
    assert copy.returns() == state.returns()


@pytest.mark.parametrize("game, players", [(g, n) for g, n in TABLES if n == 2])
def test_clones_and_resamples_keep_hidden_information_hidden(game, players):
    """A clone is the same game, seen identically by every seat; a resample is a game the acting
    seat cannot tell apart (same observation, information state and legal actions) whose hidden
    orders differ."""
    state = load(game, players).new_initial_state()
    play_randomly(state, np.random.default_rng(3), moves=6)
    if state.is_terminal():
        pytest.fail(f"{game}: a random game ended within 6 moves; pick another seed")
    clone = state.clone()
    assert clone.engine.to_dict() == state.engine.to_dict()
    for seat in range(players):
        assert clone.observation_tensor(seat) == state.observation_tensor(seat)
        assert clone.information_state_string(seat) == state.information_state_string(seat)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(seat, sampler) for _ in range(5)]
    for sample in samples:
        assert sample.observation_tensor(seat) == state.observation_tensor(seat)
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.legal_actions() == state.legal_actions()
    assert any(s.engine.to_dict() != state.engine.to_dict() for s in samples)
    assert state.engine.to_dict() == clone.engine.to_dict()  # resampling left the original


def test_information_state_strings_have_perfect_recall():
    """Two seats' information states differ, and a move changes the mover's information state."""
    state = load("finca", 2).new_initial_state()
    before = state.information_state_string(0)
    assert before != state.information_state_string(1)
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0) != before


@pytest.mark.parametrize("game, players", [(g, n) for g, n in TABLES if n <= 2])
def test_openspiel_ismcts_bot_plays_whole_games_against_huerta_random(game, players):
    """OpenSpiel's own Python ISMCTS (random-rollout evaluator) in seat 0, huerta's random agent
    in the others, to the end of the game: every move legal, returns as the engine scores them."""
    loaded = load(game, players, seed=11)
    random_state = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(loaded, mcts.RandomRolloutEvaluator(1, random_state), uct_c=2.0,
                           max_simulations=4, random_state=random_state)
    opponent = make_agent("random", game=game, seed=1)
    state = loaded.new_initial_state()
    bot_moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == 0:
            action = int(bot.step(state))
            bot_moves += 1
        else:
            action = int(opponent.act({"observation": state.engine.observe(seat),
                                       "action_mask": state.engine.action_mask()}))
        assert action in state.legal_actions()
        state.apply_action(action)
    assert bot_moves > 0
    assert state.engine.is_terminal
    assert state.returns() == state.engine.rewards("win_loss")


def test_bad_parameters_are_refused_naming_them():
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_huerta_finca", {"players": 5})
    with pytest.raises(Exception, match="cart_shortage"):
        pyspiel.load_game("python_huerta_finca", {"cart_shortage": "sometimes"})
    with pytest.raises(Exception, match="double_turns"):
        pyspiel.load_game("python_huerta_alpujarras", {"players": 2, "double_turns": 4})
    solo = pyspiel.load_game("python_huerta_alpujarras", {"players": 1, "double_turns": 5})
    assert solo.new_initial_state().engine.to_dict() is not None


def test_the_docs_page_example_runs(capsys):
    """docs/openspiel.md's example, run as the page shows it."""
    page = (ROOT / "docs" / "openspiel.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    assert blocks, "docs/openspiel.md has no python example"
    for block in blocks:
        exec(compile(block, "docs/openspiel.md", "exec"), {})
    returns = capsys.readouterr().out.strip().splitlines()[-1]
    assert returns in ("[1.0, -1.0]", "[-1.0, 1.0]", "[0.0, 0.0]")
