"""The Mi Tierra heuristic: legal complete games, strength, hidden information, its plan."""

from __future__ import annotations

import numpy as np
import pytest

from huerta.agents import make_agent
from huerta.agents.heuristics import HEURISTICS
from huerta.agents.heuristics.mi_tierra import (
    MiTierraHeuristic,
    position_value,
    rounds_left,
)
from huerta.envs.core.view import PlayerView
from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import new_game
from huerta.envs.mi_tierra.actions import (
    MOVE_TO_BLACK_MARKET,
    PASS,
    Decision,
    Stage,
    choice,
    place,
    sell,
)
from huerta.envs.mi_tierra.rules import score
from huerta.envs.mi_tierra.scenario import scenario, space
from huerta.training.evaluation.matches import play_batch, play_game


def decide(agent: MiTierraHeuristic, state) -> int:
    """The agent's action for the acting player of `state`."""
    p = state.current_player
    obs = {"observation": state.observe(p), "action_mask": state.legal_mask().astype(np.int8)}
    return agent.act(obs, PlayerView(state, p))


def test_registered_as_the_games_heuristic():
    assert "mi_tierra" in HEURISTICS
    agent = make_agent("heuristic", game="mi_tierra", seed=1)
    assert isinstance(agent, MiTierraHeuristic) and agent.needs_view


@pytest.mark.parametrize("n", (2, 3, 4))
def test_plays_complete_games_legally(n):
    """apply() raises on an illegal action, so a finished game is the check; seats mix the
    heuristic and random players, and one heuristic instance plays every seat of a second game
    (as in MCTS rollouts), which its plan must survive."""
    agents = [make_agent("heuristic" if seat % 2 == 0 else "random", game="mi_tierra",
                         seed=seat) for seat in range(n)]
    _, state = play_game("mi_tierra", agents, seed=11 + n)
    assert state.is_terminal and not state.check_consistency()
    one = MiTierraHeuristic(seed=n)
    _, state = play_game("mi_tierra", [one] * n, seed=21 + n)
    assert state.is_terminal and not state.check_consistency()


def test_beats_random_two_players():
    """A safe lower bound on a fixed-seed sample (400 seat-rotated games: 100%)."""
    summary = play_batch("mi_tierra", 2, ["heuristic", "random"], games=40, seed=900)
    assert summary.wins[0] / summary.games >= 0.85
    assert np.mean(summary.scores[0]) > 3 * np.mean(summary.scores[1])


def test_decisions_ignore_hidden_information():
    """Two states that differ only in what the acting player cannot know lead to the same
    decision for the same seed (the agent sees the game only through `view.determinize`)."""
    differed = 0
    rng = np.random.default_rng(3)
    for seed in range(6):
        state = new_game(3, seed=seed)
        for _ in range(40 + 15 * seed):
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        player = state.current_player
        other = state.determinize(player, np.random.default_rng(seed + 50))
        differed += other.to_dict() != state.to_dict()
        assert decide(MiTierraHeuristic(seed=7), state) == decide(MiTierraHeuristic(seed=7), other)
    assert differed


def test_value_of_a_finished_game_is_the_score():
    state = new_game(2, seed=4)
    agent = MiTierraHeuristic(seed=0)
    while not state.is_terminal:
        state.apply(decide(agent, state))
    assert [position_value(state, p) for p in range(2)] == [score(state, p) for p in range(2)]


def test_rounds_left_shrinks_and_is_zero_in_the_last_round():
    state = new_game(2, seed=0)
    first = rounds_left(state)
    assert 8 < first < C.MAX_ROUNDS
    assert rounds_left(scenario(3, perms_seen=2, round=5, explicit_chance=False)) < first
    assert rounds_left(scenario(2, perms_seen=3, round=5, explicit_chance=False)) == 0


# --- the strategy in small scenes ---------------------------------------------------------

def _placed(**kwargs) -> set[int]:
    """The zones where the heuristic (player 0) puts its workers in a round of a 2-player scene
    whose other player places nothing (the development display shows only minor cards)."""
    kwargs.setdefault("display", [C.STUDIES, C.POLICE, C.INSURANCE, C.TRACTOR])
    state = scenario(2, round=3, explicit_chance=False, **kwargs)
    agent = MiTierraHeuristic(seed=0)
    zones = set()
    while state.stage == Stage.PLACEMENT:
        if state.current_player == 1:
            state.apply(PASS)
            continue
        owners = list(state.space_owner)
        state.apply(decide(agent, state))
        zones |= {C.SPACE_ZONE[i] for i, p in enumerate(state.space_owner) if p != owners[i]}
    return zones


def _first_placement(**kwargs) -> int:
    kwargs.setdefault("display", [C.STUDIES, C.POLICE, C.INSURANCE, C.TRACTOR])
    state = scenario(2, round=3, explicit_chance=False, **kwargs)
    assert state.decision == Decision.PLACE and state.current_player == 0
    return decide(MiTierraHeuristic(seed=0), state)


def test_bakes_a_cake_when_the_kit_is_at_hand():
    assert C.Z_BAKERY in _placed(money=[12, 6], goods={0: {"milk": 1, "egg": 2}})
    assert C.Z_BAKERY not in _placed(money=[12, 6], goods={0: {"milk": 1, "egg": 1}})


def test_weaves_cloth_when_the_wool_is_at_hand():
    assert C.Z_CLOTH in _placed(money=[10, 6], goods={0: {"wool": 3}})
    assert C.Z_CLOTH not in _placed(money=[6, 6], goods={0: {"wool": 3}})  # $7 needed


def test_uses_the_factory_when_the_animals_qualify():
    barns = {0: {0: (3, "cow", 2), 1: (3, "sheep", 3)}}
    assert C.Z_APF in _placed(money=[9, 6], goods={0: {"hen": 4}}, barns=barns)
    assert C.Z_APF not in _placed(money=[9, 6])


def test_goes_to_the_forest_before_it_has_barnyards():
    """With no barnyard, sheep and cows would all become meat: barnyards come first."""
    action = _first_placement(money=[9, 6])
    assert action in (place(C.Z_FOREST), place(C.Z_SQUARE), place(C.Z_HENHOUSE))
    assert action not in (place(C.Z_SHEEP), place(C.Z_COW))


def test_takes_the_bank_early():
    state = scenario(2, round=2, explicit_chance=False, money=[8, 6],
                     board={space("developments", 0): 0},  # spot N touches TL and TR
                     display=[C.BANK, C.INSURANCE, -1, -1], start=Stage.DEVELOPMENTS)
    assert state.decision == Decision.DEVELOPMENT
    assert decide(MiTierraHeuristic(seed=0), state) == choice(0)


def test_keeps_a_cake_kit_but_sells_surplus_at_the_black_market_in_the_last_round():
    state = scenario(2, round=6, explicit_chance=False, perms_seen=3, bm_workers=[0],
                     goods={0: {"apple": 2, "milk": 1}}, start=Stage.BLACK_MARKET)
    assert state.decision == Decision.BLACK_MARKET
    assert decide(MiTierraHeuristic(seed=0), state) in (sell(C.APPLE), sell(C.MILK))
    mid_game = scenario(2, round=3, explicit_chance=False, bm_workers=[0],
                        goods={0: {"milk": 1, "egg": 2}}, start=Stage.BLACK_MARKET)
    assert decide(MiTierraHeuristic(seed=0), mid_game) == PASS  # the kit is worth a cake


def test_sells_at_a_good_market_and_not_to_a_bad_one():
    em = space("est_market", 0)
    state = scenario(2, round=3, explicit_chance=False, board={em: 0},
                     est=["B05", "A21"], pile=["A01", "A03", "A05", "B01"],
                     barns={0: {0: (3, "cow", 3), 1: (3, "cow", 3)}}, start=Stage.EST_MARKET)
    assert state.decision == Decision.MARKET_TURN
    action = decide(MiTierraHeuristic(seed=0), state)
    assert action == 37  # EST_SLOT_0: cows at $7, not the generic market's $4
    last = scenario(2, round=3, explicit_chance=False, board={em: 0}, perms_seen=3,
                    est=["A01", "A03"], pile=["A05"], goods={0: {"meat": 5}},
                    start=Stage.EST_MARKET)
    assert decide(MiTierraHeuristic(seed=0), last) == MOVE_TO_BLACK_MARKET  # meat: $2 > 1/3
