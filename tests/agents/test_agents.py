"""Every agent plays every game legally; MCTS sees no hidden information; the heuristic is good."""

from __future__ import annotations

import numpy as np
import pytest

from huerta.agents import agent_codes, make_agent
from huerta.agents.heuristics import HEURISTICS
from huerta.agents.mcts import MCTSAgent
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_names, get_game
from huerta.envs.core.view import PlayerView
from huerta.training.evaluation.matches import play_batch, play_game

GAME_COUNTS = [(g, n) for g in game_names() for n in get_game(g).player_counts]


def codes_for(game, n):
    """Every agent family at every count, but MCTS with the heuristic's rollouts at the smallest
    count only: each of its simulations plays the heuristic to the end of the game (a Mi Tierra
    game took 19-36 s), and its tree (`mcts:8`'s) and its rollouts (`heuristic`) are each played at
    every count."""
    codes = ["random", "mcts:8"]
    if game in HEURISTICS:
        codes.append("heuristic")
        if n == min(get_game(game).player_counts):
            codes.append("mcts:3:heuristic")
    return codes


@pytest.mark.parametrize("game, n", GAME_COUNTS)
def test_every_agent_plays_complete_games_legally(game, n):
    """apply() raises on any illegal action, so finishing the game is the check."""
    for code in codes_for(game, n):
        agents = [make_agent(code if seat == 0 else "random", game=game, seed=seat)
                  for seat in range(n)]
        _, state = play_game(game, agents, seed=3)
        assert state.is_terminal, (code, state.steps)


def test_unknown_codes_name_the_valid_ones():
    with pytest.raises(InvalidConfigError, match="valid codes: random, heuristic, mcts"):
        make_agent("alphazero", game="finca")
    with pytest.raises(InvalidConfigError, match=r"mcts:1\.5s"):
        make_agent("mcts:lots", game="finca")
    with pytest.raises(InvalidConfigError, match="model path"):
        make_agent("ppo", game="finca")
    assert {"random", "heuristic", "mcts", "ppo", "human"} <= set(agent_codes())


def midgame_state(game, n, seed, steps):
    spec = get_game(game)
    rng = np.random.default_rng(seed)
    # a random number of random moves, then on to a decision with a real choice; if the game
    # ends first, start again with fewer moves (uniform random Alpujarras games are short)
    while True:
        state = spec.new_game(n, seed=seed)
        for _ in range(steps):
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        while not state.is_terminal and len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        if not state.is_terminal:
            return state
        steps //= 2


@pytest.mark.parametrize("game", game_names())
def test_mcts_decisions_ignore_hidden_information(game):
    """Two states that differ only in what the acting player cannot know (determinize gives
    the other one) lead to the same decision and the same search tree for the same seed."""
    n = get_game(game).player_counts[-1]
    differed = 0
    for seed in range(4):
        state = midgame_state(game, n, seed, 60 + 10 * seed)
        player = state.current_player
        other = state.determinize(player, np.random.default_rng(seed + 99))
        differed += other.to_dict() != state.to_dict()
        obs = {"observation": state.observe(player),
               "action_mask": state.legal_mask().astype(np.int8)}
        a, b = MCTSAgent(seed=7, iterations=30), MCTSAgent(seed=7, iterations=30)
        action_a = a.act(obs, PlayerView(state, player))
        action_b = b.act(obs, PlayerView(other, player))
        assert action_a == action_b
        stats = lambda root: {k: (c.visits, round(c.value, 9)) for k, c in root.children.items()}  # noqa: E731
        assert stats(a.last_root) == stats(b.last_root)
    assert differed, "the states never differed in hidden information"


def test_mcts_time_budget_and_options():
    state = midgame_state("finca", 2, 1, 40)
    obs = {"observation": state.observe(state.current_player),
           "action_mask": state.legal_mask().astype(np.int8)}
    agent = make_agent("mcts:0.05s", game="finca", seed=1)
    action = agent.act(obs, PlayerView(state, state.current_player))
    assert state.legal_mask()[action]
    assert sum(c.visits for c in agent.last_root.children.values()) >= 1
    with pytest.raises(InvalidConfigError, match="random, heuristic"):
        MCTSAgent(rollout="smart")


@pytest.mark.parametrize("game", sorted(HEURISTICS))
def test_heuristic_beats_random_two_players(game):
    """A safe lower bound on a fixed-seed sample (the README quotes 400 games)."""
    summary = play_batch(game, 2, ["heuristic", "random"], games=40, seed=500)
    assert summary.wins[0] / summary.games >= 0.85
