"""The learned search (agents/learned_search.py): the search agent driven by an afterstate value.
It plays legal games, never starts a simulation past its budget (a fake clock), is the search
agent move for move when given the hand-written base and leaves, scores cut-off simulations by
the network's win chance, and `learned` plays it exactly when the value file's `about` says so.
Its strength is a measurement in docs/learned-search.md, not a test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from search_budget import assert_no_simulation_after_the_budget

from huerta.agents import make_agent
from huerta.agents.afterstate import HEURISTIC_TERMS, KIND, AfterstateAgent, Judge, ValueNetwork
from huerta.agents.heuristics import make_heuristic
from huerta.agents.learned import LearnedAgent
from huerta.agents.learned_search import LearnedSearchAgent, SearchConfig
from huerta.agents.search import MAX_SECONDS, SearchAgent, search_settings
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import get_game
from huerta.envs.core.view import PlayerView
from huerta.training.evaluation.matches import play_game

GAMES = ("finca", "alpujarras", "mi_tierra")  # the games with an afterstate agent


def network(game: str, seed: int = 0, search: dict | None = None) -> ValueNetwork:
    """A small random value network of `game` (a correction the margin does not make)."""
    rng = np.random.default_rng(seed)
    width = get_game(game).observation_size + HEURISTIC_TERMS
    layers = [(rng.normal(0, 0.05, (width, 8)), rng.normal(0, 0.05, 8)),
              (rng.normal(0, 0.5, (8, 1)), np.zeros(1))]
    about = {"kind": KIND, "game": game, "players": 2,
             "observation_size": get_game(game).observation_size}
    if search is not None:
        about["search"] = search
    return ValueNetwork(layers, about)


@pytest.mark.parametrize("game", GAMES)
def test_it_plays_legal_complete_games_and_replays_with_its_seed(game):
    value = network(game)
    config = SearchConfig(simulations=6, horizon=1, width=3, seconds=60.0)

    def actions() -> list[int]:
        agents = [LearnedSearchAgent(seed=1, network=value, config=config),
                  make_heuristic(game, seed=2)]
        record, state = play_game(game, agents, seed=3)  # refuses any masked action
        assert state.is_terminal
        return record.actions

    first = actions()
    assert len(first) > 20
    assert actions() == first


@pytest.mark.parametrize("game", GAMES)
def test_no_simulation_starts_after_the_time_budget(game, monkeypatch):
    """As the search agent's test: a fake clock that moves only while a simulation (or the
    afterstate agent's turn search, the default) runs; no simulation begins after the
    deadline, however many were asked for."""
    seconds, cost = 0.03, 0.004
    config = SearchConfig(simulations=100_000, horizon=1, width=4, seconds=seconds)
    agent = LearnedSearchAgent(seed=1, network=network(game), config=config)
    # the default's turn search spends budget too
    assert_no_simulation_after_the_budget(game, agent, seconds, cost, monkeypatch,
                                          costed=((agent.afterstate, "plan_turn"),))


@pytest.mark.parametrize("game", GAMES)
def test_with_the_hand_written_base_and_leaves_it_is_the_search_agent(game):
    """The learned search changes the search agent only where its settings say: with the
    heuristic as default and the margin at the leaves it plays the search agent's game."""
    config = SearchConfig(simulations=8, horizon=1, width=4, base="heuristic",
                          leaves="margin", seconds=60.0)
    learned = LearnedSearchAgent(seed=7, network=network(game), config=config)
    search = SearchAgent(seed=7, game=game, simulations=8, horizon=1, width=4, seconds=60.0)
    one = play_game(game, [learned, make_heuristic(game, seed=8)], seed=9,
                    agent_seeds=[7, 8])[0].actions
    two = play_game(game, [search, make_heuristic(game, seed=8)], seed=9,
                    agent_seeds=[7, 8])[0].actions
    assert one == two


@pytest.mark.parametrize("game", GAMES)
def test_cut_off_simulations_are_scored_by_the_networks_win_chance(game):
    value = network(game)
    agent = LearnedSearchAgent(seed=1, network=value)
    search = SearchAgent(seed=1, game=game)
    judge = Judge(value, game, np.random.default_rng(0))
    state = _mid_game(game, 4, 12)  # an open position some way into the game
    assert not state.is_terminal
    for seat in (0, 1):
        logit = judge.values([state], seat)[0]
        chance = agent._win_chance(state, seat)
        assert chance == pytest.approx(1 / (1 + math.exp(-logit)))
        assert chance != pytest.approx(search._win_chance(state, seat))  # not the margin's


@pytest.mark.parametrize("game", GAMES)
def test_the_default_is_the_afterstate_agents_and_candidates_the_heuristics(game):
    """With the afterstate base, the search's default is the action the afterstate agent
    plays (the same seed, the same choice) and the others are ranked by the heuristic's
    first values at the same decision."""
    value = network(game)
    searcher = LearnedSearchAgent(seed=3, network=value)
    base = searcher.base
    twin = AfterstateAgent(seed=3, network=value)
    heuristic = make_heuristic(game, seed=3)
    checked = 0
    for seed in range(8):
        state = _mid_game(game, seed, 4 + seed)
        if state.is_terminal:
            continue
        seat = state.current_player
        obs = {"observation": state.observe(seat), "action_mask": state.legal_mask()}
        base.reset(seed)
        twin.reset(seed)
        heuristic.reset(seed)
        action = base.decide(obs, PlayerView(state, seat))
        assert action == twin.decide(obs, PlayerView(state, seat))
        heuristic.decide(obs, PlayerView(state, seat))
        assert base.first_values == heuristic.first_values
        legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
        if len(legal) > 2:
            candidates = searcher._candidates(legal, action)
            assert candidates[0] == action and len(set(candidates)) == len(candidates)
            checked += 1
    assert checked >= 3


def _mid_game(game: str, seed: int, moves: int):
    state = get_game(game).new_game(2, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
    return state


def test_learned_plays_the_search_only_where_the_value_file_says_so(tmp_path):
    plain, searching = tmp_path / "plain.npz", tmp_path / "search.npz"
    network("finca").save(plain)
    network("finca", search={"simulations": 4, "width": 3}).save(searching)
    agent = LearnedAgent(seed=0, game="finca", path=str(searching), players=2)
    assert isinstance(agent.searcher, LearnedSearchAgent)
    assert agent.searcher.simulations == 4 and agent.searcher.width == 3
    assert agent.searcher.horizon == search_settings("finca").horizon  # the search's default
    assert agent.searcher.seconds == MAX_SECONDS
    other = LearnedAgent(seed=0, game="finca", path=str(plain), players=2)
    assert type(other.searcher) is AfterstateAgent
    agents = [make_agent(f"learned:{searching}", game="finca", seed=1),
              make_agent("search:4", game="finca", seed=2)]
    _, state = play_game("finca", agents, seed=3)
    assert state.is_terminal


def test_bad_search_settings_are_refused_by_name():
    with pytest.raises(InvalidConfigError, match="unknown learned search settings depth"):
        SearchConfig.of("finca", {"search": {"depth": 3}})
    with pytest.raises(InvalidConfigError, match="base is one of afterstate, heuristic"):
        SearchConfig.of("finca", {"search": {"base": "policy"}})
    with pytest.raises(InvalidConfigError, match=r"at most 0\.9"):
        SearchConfig.of("finca", {"search": {"seconds": 2.0}})
    assert SearchConfig.of("finca", {}) is None
    config = SearchConfig.of("alpujarras", {"search": {}})
    assert config is not None and config.width == search_settings("alpujarras").width
    assert SearchConfig.of("alpujarras", {"search": config.to_about()}) == config
