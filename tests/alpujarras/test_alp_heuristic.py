"""The Alpujarras heuristic (agents/heuristics/alpujarras.py): legal complete games at every
player count, strength against random (multiplayer and solo), the turns it plays in clear
positions, and its search and value function."""

from __future__ import annotations

import numpy as np
import pytest
from alp_helpers import HARVESTS, MARKETS, at

from huerta.agents import make_agent
from huerta.agents.heuristics import HEURISTICS
from huerta.agents.heuristics.alpujarras import (
    AlpujarrasHeuristic,
    complete_turns,
    position_value,
    solo_value,
)
from huerta.agents.heuristics.alpujarras.value import TurnFacts
from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras import new_game
from huerta.envs.alpujarras.actions import END_TURN, deliver
from huerta.envs.alpujarras.components import APPLE, CHERRY, GREEN, LEMON, RED
from huerta.envs.core.view import PlayerView
from huerta.training.evaluation.matches import play_batch, play_game


def finish_turn(state, agent) -> list[int]:
    """Let `agent` play the acting player's turn to its end; the actions it chose."""
    player, turn = state.current_player, state.turns
    actions = []
    while not state.is_terminal and state.turns == turn:
        obs = {"observation": state.observe(player),
               "action_mask": state.legal_mask().astype(np.int8)}
        action = agent.act(obs, PlayerView(state, player))
        state.apply(action)  # raises on an illegal action
        actions.append(action)
    return actions


def duties_met(state) -> int:
    """Solo: zakats paid plus fruit kinds delivered (ten are needed to win)."""
    return sum(state.zakat_paid) + len({C.token_fruit(t) for t in state.tokens[0]})


def test_registered_for_every_player_count_and_the_solo_game():
    agent = make_agent("heuristic", game="alpujarras", seed=0)
    assert isinstance(agent, AlpujarrasHeuristic) and agent.needs_view
    assert "alpujarras" in HEURISTICS


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_plays_complete_games_at_every_player_count(n):
    """Self-play with one agent object for every seat (as MCTS rollouts use it): the plan is
    keyed by (player, step), so seats never continue each other's plans; apply() raises on any
    illegal action, so finishing the game is the check."""
    agent = AlpujarrasHeuristic(seed=n)
    record, state = play_game("alpujarras", [agent] * n, seed=40 + n)
    assert state.is_terminal and record.actions
    assert state.check_consistency() == []


def test_games_are_reproducible_from_the_seeds():
    first, _ = play_game("alpujarras", [AlpujarrasHeuristic(), AlpujarrasHeuristic()], seed=9)
    again, _ = play_game("alpujarras", [AlpujarrasHeuristic(), AlpujarrasHeuristic()], seed=9)
    assert first.actions == again.actions


def test_beats_random_two_players():
    """A safe lower bound on a fixed-seed sample (the README quotes 400 games: 100%)."""
    summary = play_batch("alpujarras", 2, ["heuristic", "random"], games=40, seed=900)
    assert summary.wins[0] / summary.games >= 0.85
    assert np.mean(summary.scores[0]) > 3 * np.mean(summary.scores[1])


def test_beats_random_four_players():
    summary = play_batch("alpujarras", 4, ["heuristic", "random", "random", "random"], games=8,
                         seed=910)
    assert summary.wins[0] / summary.games >= 0.75


def test_solo_beats_zara_sometimes_and_random_never():
    """ZARA-20 at the default variant: a win needs all ten duties (five zakats, five different
    deliveries) and more dirhems than Zara. On 30 fixed deals the heuristic wins some games (the
    balance script measures 16% over 200 deals, seeds/alpujarras.md ZG-09; these deals give 2,
    and one is the floor) and meets most duties (8.1 of 10 on average); random play never stops
    in a market ready to deliver."""
    heuristic = random = 0
    wins = [0, 0]
    games = 30
    for g in range(games):
        _, state = play_game("alpujarras", [make_agent("heuristic", "alpujarras", seed=g)],
                             seed=700 + g)
        heuristic += duties_met(state)
        wins[0] += bool(state.winners())
        _, state = play_game("alpujarras", [make_agent("random", "alpujarras", seed=g)],
                             seed=700 + g)
        random += duties_met(state)
        wins[1] += bool(state.winners())
    assert wins[0] >= 1 and wins[1] == 0
    assert heuristic / games >= 6.5
    assert random / games <= 0.5


def test_delivers_the_token_its_fruit_pays_for():
    """On a market with four cherries and a farmer in red, it takes the red town's cherry-4
    (3 dirhems plus the green award) rather than keep the fruit."""
    state = at(2, MARKETS[1], farmers={0: {RED: 1}}, fruit={0: {CHERRY: 4}},
               towns={RED: [(CHERRY, 2), (CHERRY, 4), (APPLE, 3), (LEMON, 5)]})
    actions = finish_turn(state, AlpujarrasHeuristic(seed=1))
    assert deliver(RED, 2) in actions  # the sorted slots: A3 C2 C4 L5
    assert C.token(CHERRY, 4) in state.tokens[0] and state.dirhems[0] == 2


def test_completes_a_goal_it_meets_on_a_harvest():
    """Card 2 on side B asks for 3 farmers in one farmland (3 dirhems)."""
    state = at(3, HARVESTS[0], farmers={0: {GREEN: 3}}, goal_sides=[0, 0, 1, 0, 0])
    finish_turn(state, AlpujarrasHeuristic(seed=2))
    assert state.goals_done[0][2] and state.card_farmers[0] == 1


def test_solo_swaps_a_fruit_to_make_the_due_delivery():
    """Solo, on a market with one cherry, one apple, one noria and a farmer in red: only a noria
    swap (apple for cherry) makes the red town's cherry-2 deliverable; ending the turn without
    it would lose the game at once."""
    state = at(1, MARKETS[0], farmers={0: {RED: 1}}, fruit={0: {CHERRY: 1, APPLE: 1}},
               norias={0: 1}, towns={RED: [(CHERRY, 2), (APPLE, 3), (LEMON, 5)]})
    finish_turn(state, AlpujarrasHeuristic(seed=3))
    assert not state.lost and C.token(CHERRY, 2) in state.tokens[0]


def test_a_delivery_made_is_worth_more_than_the_fruit_for_it():
    state = at(2, MARKETS[1], farmers={0: {RED: 1}}, fruit={0: {CHERRY: 4}},
               towns={RED: [(CHERRY, 2), (CHERRY, 4), (APPLE, 3), (LEMON, 5)]})
    before = position_value(state, 0)
    state.apply(deliver(RED, 2))
    assert position_value(state, 0) > before


def test_solo_value_ranks_a_loss_below_any_live_position():
    live = new_game(1, seed=3)
    lost = live.clone()
    lost.terminal, lost.lost = True, "delivery"
    assert solo_value(lost) < solo_value(live) - 100


def test_complete_turns_ends_every_turn_and_respects_its_node_limit():
    state = new_game(2, seed=4)
    me = state.current_player
    turns = list(complete_turns(state.clone(), me))
    assert turns and all(actions[-1] == END_TURN for actions, _ in turns)
    assert all(result.turns == state.turns + 1 or result.terminal for _, result in turns)
    assert len({tuple(actions) for actions, _ in turns}) == len(turns)
    assert len(list(complete_turns(state.clone(), me, limit=5))) < len(turns)


@pytest.mark.parametrize("n", (2, 4))
def test_the_values_kept_for_a_turn_match_a_fresh_value(n):
    """`TurnFacts` (worked out once per decision, with the holdings part kept per fruit and
    farmers) gives every position the turn reaches, deliveries included, the value worked out
    from scratch."""
    state = new_game(n, seed=60 + n)
    rng = np.random.default_rng(n)
    agent = AlpujarrasHeuristic(seed=n)
    checked = 0
    while not state.is_terminal and state.turns < 40:
        me = state.current_player
        if state.turns % 3 == 0 and state.phase == 0:
            turn = TurnFacts(state, me)
            for _, result in complete_turns(state.clone(), me, before_end=True):
                assert position_value(result, me, turn=turn) == pytest.approx(
                    position_value(result, me), abs=1e-9)
                checked += 1
        obs = {"action_mask": state.legal_mask().astype(np.int8)}
        state.apply(agent.act(obs, PlayerView(state, me)) if rng.random() < 0.8
                    else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 100
