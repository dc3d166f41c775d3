"""The search rung (agents/search.py): legal, reproducible, within its time budget, and the
heuristic itself whenever no alternative is measurably better. Its strength against the
heuristic is a benchmark claim in the README, not a test."""

from __future__ import annotations

import numpy as np
import pytest
from search_budget import assert_no_simulation_after_the_budget

from huerta.agents import heuristics, make_agent
from huerta.agents.heuristics import make_heuristic
from huerta.agents.search import SearchAgent
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_names, get_game
from huerta.training.evaluation.matches import play_game

GAMES = tuple(game_names())  # every registered game has a search agent


@pytest.mark.parametrize("game", GAMES)
def test_search_plays_legal_complete_games(game):
    agents = [SearchAgent(seed=1, game=game, simulations=6), make_heuristic(game, seed=2)]
    record, state = play_game(game, agents, seed=3)  # play_game refuses any illegal action
    assert state.is_terminal
    assert len(record.actions) == state.steps > 20


def test_search_plays_three_players_and_the_solo_game():
    agents = [SearchAgent(seed=1, game="finca", simulations=4) for _ in range(3)]
    _, state = play_game("finca", agents, seed=4)
    assert state.is_terminal and state.num_players == 3
    _, solo = play_game("alpujarras", [SearchAgent(seed=5, game="alpujarras", simulations=4)],
                        seed=6)
    assert solo.is_terminal and solo.num_players == 1


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_game(game):
    """With the simulation count binding (a generous time cap), a game replays exactly."""

    def actions() -> list[int]:
        agents = [SearchAgent(seed=7, game=game, simulations=8, seconds=60.0),
                  make_heuristic(game, seed=8)]
        return play_game(game, agents, seed=9)[0].actions

    assert actions() == actions()


@pytest.mark.parametrize("game", GAMES)
def test_without_a_measurable_gain_it_is_the_heuristic(game):
    """An infinite significance margin never leaves the default: the game is the heuristic's,
    move for move (the rest of each turn follows the heuristic's plan)."""
    searcher = SearchAgent(seed=11, game=game, simulations=4, margin=float("inf"))
    with_search = play_game(game, [searcher, make_heuristic(game, seed=12)], seed=13,
                            agent_seeds=[11, 12])[0].actions
    plain = play_game(game, [make_heuristic(game, seed=11), make_heuristic(game, seed=12)],
                      seed=13, agent_seeds=[11, 12])[0].actions
    assert with_search == plain


@pytest.mark.parametrize("game", GAMES)
def test_it_does_leave_the_heuristic_when_a_simulation_says_so(game):
    """The same game with the default margin deviates somewhere (else the search is idle)."""
    searcher = SearchAgent(seed=11, game=game, simulations=12)
    with_search = play_game(game, [searcher, make_heuristic(game, seed=12)], seed=13,
                            agent_seeds=[11, 12])[0].actions
    plain = play_game(game, [make_heuristic(game, seed=11), make_heuristic(game, seed=12)],
                      seed=13, agent_seeds=[11, 12])[0].actions
    assert with_search != plain


@pytest.mark.parametrize("game", ["finca", "mi_tierra"])
def test_no_simulation_starts_after_the_time_budget(game, monkeypatch):
    """The budget is checked before every simulation: none begins after the deadline, however
    many simulations were asked for (the last one may end a little after it). The clock is a
    fake one that moves only while a simulation runs, so the check is exact on any machine."""
    seconds, cost = 0.03, 0.004  # each simulation "takes" 4 ms of the 30 ms budget
    agent = SearchAgent(seed=1, game=game, simulations=100_000, seconds=seconds)
    assert_no_simulation_after_the_budget(game, agent, seconds, cost, monkeypatch)


def test_candidates_are_the_default_and_the_heuristics_best_alternatives():
    agent = SearchAgent(seed=1, game="finca", width=3)
    agent.base.first_values = {4: 1.0, 5: 9.0, 6: 3.0, 7: 8.0}
    assert agent._candidates([4, 5, 6, 7], default=5) == [5, 7, 6]
    agent.base.first_values = {}  # no values: every legal action, the default first
    assert agent._candidates([4, 5, 6], default=6)[0] == 6


def test_paired_pick_needs_a_gain_beyond_the_noise():
    agent = SearchAgent(seed=1, game="finca")
    steady = {0: [0.5, 0.5, 0.5, 0.5], 1: [0.6, 0.6, 0.6, 0.6]}
    assert agent._pick(steady, default=0) == 1
    noisy = {0: [0.5, 0.5, 0.5, 0.5], 1: [1.0, 0.0, 1.0, 0.1]}  # mean 0.525, spread 0.5
    assert agent._pick(noisy, default=0) == 0


@pytest.mark.parametrize("game", ["finca", "alpujarras"])
def test_the_heuristics_first_values_rank_its_own_choice_first(game):
    """The search reads the heuristic's value of every first action; its choice is their best."""
    heuristic = make_heuristic(game, seed=3)
    act = heuristic.act
    seen = 0

    def checked_act(observation, view=None):
        nonlocal seen
        before = heuristic.first_values
        action = act(observation, view)
        if heuristic.first_values is not before:  # a fresh decision, not a plan continued
            values = heuristic.first_values
            assert values[action] == max(values.values())
            seen += 1
        return action

    heuristic.act = checked_act
    play_game(game, [heuristic, make_heuristic(game, seed=4)], seed=8)
    assert seen > 5


@pytest.mark.parametrize(
    "options, message",
    [({"simulations": 0}, "simulations"), ({"seconds": 0.0}, "seconds"),
     ({"horizon": -1}, "horizon"), ({"width": 1}, "width")],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(InvalidConfigError, match=message):
        SearchAgent(game="finca", **options)


def test_codes_and_defaults():
    assert make_agent("search:12", game="mi_tierra").simulations == 12
    timed = make_agent("search:0.25s", game="finca")
    assert timed.seconds == 0.25 and timed.simulations > 1000
    for game in GAMES:  # the defaults are those declared beside the game's heuristic (SEARCH)
        settings = heuristics.heuristic_module(game).SEARCH
        agent = SearchAgent(game=game)
        assert (agent.simulations, agent.horizon, agent.width, agent.scale) == (
            settings.simulations, settings.horizon, settings.width, settings.margin_scale)
    with pytest.raises(InvalidConfigError, match="no search agent for game 'chess'; games with "
                       f"one: {', '.join(GAMES)}"):
        SearchAgent(game="chess")
    assert np.isfinite(SearchAgent(game="alpujarras").scale)


def test_a_game_without_search_settings_has_no_search_agent(monkeypatch):
    """A heuristic package with `SEARCH = None` has no search agent; the refusal names the
    games that have one."""
    monkeypatch.setattr(heuristics.heuristic_module("finca"), "SEARCH", None)
    others = ", ".join(g for g in GAMES if g != "finca")
    with pytest.raises(InvalidConfigError, match=f"no search agent for game 'finca'; games "
                       f"with one: {others}$"):
        make_agent("search", game="finca")


def test_a_budget_spent_by_the_heuristic_leaves_its_choice(monkeypatch):
    """When the heuristic's own decision already used the whole budget, no simulation starts
    and the agent plays the heuristic's choice."""
    agent = SearchAgent(seed=1, game="finca", simulations=100, seconds=1e-9)
    monkeypatch.setattr(agent, "_simulate", lambda *args: pytest.fail("a simulation started"))
    plain = make_heuristic("finca", seed=1)
    record = play_game("finca", [agent, plain], seed=5, max_steps=60)[0]
    assert record.actions, "the game was played"
    assert agent.last_stats["simulations"] == 0


def test_the_solo_game_is_judged_by_the_heuristic_modules_solo_value():
    """A solo simulation scores its position by the game's heuristic module's `solo_value` (a
    log win chance), not by a game named in the search agent; without one it is refused."""
    from huerta.agents import heuristics

    agent = SearchAgent(seed=1, game="alpujarras", simulations=4)
    state = get_game("alpujarras").new_game(1, seed=2)
    assert agent._win_chance(state, 0) == pytest.approx(
        np.exp(min(0.0, heuristics.heuristic_module("alpujarras").solo_value(state))))
    agent.solo_value = lambda s: np.log(0.25)
    assert agent._win_chance(state, 0) == pytest.approx(0.25)
    agent.solo_value = None
    with pytest.raises(InvalidConfigError, match="solo_value"):
        agent._win_chance(state, 0)
