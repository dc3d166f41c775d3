"""Scenario tests T-01, T-02, T-03, T-04, T-05 of the analysis: setup and the turn order (MIT-01,
MIT-02, MIT-03, MIT-04, MIT-05, MIT-06, MIT-07, MIT-08, MIT-09, MIT-10, MIT-11, MIT-12, MIT-13)."""

from __future__ import annotations

import numpy as np
import pytest
from mt_helpers import decision, legal, pass_until

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import new_game
from huerta.envs.mi_tierra.actions import PASS, Decision, Stage, place
from huerta.envs.mi_tierra.flow import turn_order
from huerta.envs.mi_tierra.ledger import gain, pay
from huerta.envs.mi_tierra.scenario import scenario, space


@pytest.mark.parametrize("n", [2, 3, 4])
def test_t01_setup(n):
    """T-01 (MIT-01, MIT-02, MIT-04, MIT-06, G-17, G-47): money by seat, 3 workers each with 2
    in the supply, deck A minus 7 unseen cards on deck B, 4 development cards displayed, a farm
    with only the printed apple field, and after the first Phase 2 one market per player."""
    s = new_game(n, seed=11)
    assert s.money == list(C.START_MONEY[:n])  # MIT-06
    assert s.owned == [3] * n and s.hut == [3] * n  # MIT-01
    assert [C.MAX_WORKERS - o for o in s.owned] == [2] * n  # the supply holds 2 per colour
    assert len(s.removed) == 7 and all(not C.IS_DECK_B[c] for c in s.removed)  # MIT-02
    assert not any(s.revealed[c] for c in s.removed)
    assert not set(s.removed) & set(s.pile)
    drawn = [c for c in range(C.NUM_MARKET_CARDS) if s.revealed[c]]
    assert len(s.pile) + len(drawn) == 23 + 26
    assert all(c >= 0 and not C.IS_EVENT[c] for c in s.est) and len(s.est) == n  # MIT-19
    assert len(set(s.display)) == 4 and all(d >= 0 for d in s.display)  # MIT-04
    assert len(s.dev_deck) == 11
    for p in range(n):
        assert s.tiles[p].count(C.EMPTY) == 11 and s.tiles[p][C.PRINTED_APPLE_CELL] == C.T_APPLE
        assert sum(s.goods[p]) == 0
    assert s.stage == Stage.PLACEMENT and s.round == 1


def test_mit02_mit03_deck_a_lies_on_deck_b():
    """MIT-02, MIT-03, G-55: the pile is deck A's 23 remaining cards on top of deck B's 26, so
    no B card is drawn while an A card remains in the pile; the removed 7 are A cards."""
    for seed in range(20):
        s = new_game(2, seed=seed)
        whole = s.pile + [c for c in range(C.NUM_MARKET_CARDS) if s.revealed[c]]
        assert sorted(whole + s.removed) == list(range(C.NUM_MARKET_CARDS))
        top_first = s.pile[::-1]
        letters = [C.IS_DECK_B[c] for c in top_first]
        first_b = letters.index(True)
        assert all(letters[first_b:]) and not any(letters[:first_b])
        assert sum(C.IS_DECK_B[c] for c in s.pile) == 26


def test_different_seeds_shuffle_the_decks():
    a, b = new_game(3, seed=1), new_game(3, seed=2)
    assert (a.pile, a.removed, a.display) != (b.pile, b.removed, b.display)
    assert new_game(3, seed=1) == new_game(3, seed=1)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_t02_round_one_order_is_seating(n):
    """T-02 (MIT-05, MIT-10): money 5 < 6 < 7 < 8, so round 1 runs in seat order from the start
    player; the start player (seat 0) places first."""
    s = new_game(n, seed=3)
    assert s.order == list(range(n))
    assert s.current_player == 0 and decision(s) == Decision.PLACE


def test_mit09_order_is_a_permutation_of_the_seats():
    """MIT-09: turn-order positions 1..n only; every round's order is a permutation of the
    seats."""
    rng = np.random.default_rng(0)
    s = new_game(3, seed=4)
    seen = 0
    while not s.is_terminal:
        assert sorted(s.order) == [0, 1, 2]
        legal_now = s.legal_actions()
        s.apply(legal_now[rng.integers(len(legal_now))])
        seen += 1
    assert seen > 50


def test_t03_least_money_first():
    """T-03 (MIT-10): money P1 12, P2 4, P3 9 -> order P2, P3, P1 (seats 1, 2, 0)."""
    s = scenario(3, money=[12, 4, 9], stamps=[1, 2, 3], start=Stage.TURN_ORDER, round=2)
    assert s.order == [1, 2, 0]
    assert s.current_player == 1


def test_t04_tie_goes_to_the_later_arrival():
    """T-04 (MIT-11, G-08): equal money: the player whose marker moved last goes first; any
    money change (a gain or a payment) counts."""
    s = scenario(2, money=[10, 10], stamps=[1, 2], start=Stage.TURN_ORDER, round=2)
    assert s.order == [1, 0]
    gain(s, 0, 1)
    pay(s, 0, 1)
    assert s.money == [10, 10]
    assert turn_order(s) == [0, 1]


def test_t05_lower_road_goes_first_and_comes_home():
    """T-05 (MIT-12, MIT-13, MIT-93, G-07): P4 and P2 (seats 3 and 1) on the lower road go first
    in their order on the track (P2 before P4), then the rest by money; both workers are back in
    their huts before Phase 2; a second lower-road worker of the same player is masked."""
    lower = space("lower_road", 0)
    s = scenario(
        4, money=[3, 20, 4, 1], stamps=[1, 2, 3, 4], order=[0, 1, 2, 3],
        board={lower: 3, lower + 1: 1}, start=Stage.TURN_ORDER, round=2,
    )
    assert s.order == [1, 3, 0, 2]
    assert s.hut == s.owned == [3, 3, 3, 3]
    assert all(s.space_owner[i] < 0 for i in range(lower, lower + 4))
    # placement: seat 1 puts a worker on the lower road; its next turn cannot add a second
    s.apply(place(C.Z_LOWER_ROAD))
    pass_until(s, target_decision=Decision.PLACE)
    while s.current_player != 1:
        s.apply(PASS)
    assert place(C.Z_LOWER_ROAD) not in legal(s)
    # and it still acts first next round, ahead of richer or poorer players
    s.apply(PASS)
    pass_until(s, Stage.PLACEMENT, Decision.PLACE)
    assert s.order[0] == 1


def test_mit12_lower_road_keeps_relative_order_not_money():
    """MIT-12: two lower-road players keep the relative order they had, whatever their money."""
    lower = space("lower_road", 0)
    s = scenario(
        3, money=[1, 30, 2], stamps=[1, 2, 3], order=[1, 2, 0],
        board={lower: 0, lower + 1: 1}, start=Stage.TURN_ORDER, round=3,
    )
    assert s.order == [1, 0, 2]


def test_mit08_round_runs_the_four_phases_in_order():
    """MIT-08: within a round the stage only moves forward (phase 1, 2, 3, then the activation
    steps); the next round starts again at phase 1."""
    rng = np.random.default_rng(5)
    s = new_game(2, seed=5)
    last = (s.round, s.stage)
    rounds_seen = {s.round}
    while not s.is_terminal:
        actions = s.legal_actions()
        s.apply(actions[rng.integers(len(actions))])
        now = (s.round, s.stage)
        assert now >= last, (last, now)
        last = now
        rounds_seen.add(s.round)
    assert len(rounds_seen) > 1
    assert rounds_seen == set(range(1, s.round + 1))
