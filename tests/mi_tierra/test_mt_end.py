"""Scenario tests T-68, T-69, T-70, T-71, T-72: game end, final sale, exchange, tiebreaks (MIT-92,
MIT-93, MIT-94, MIT-95, MIT-96, MIT-97, MIT-98, MIT-99)."""

from __future__ import annotations

import numpy as np
from mt_helpers import pass_until

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import new_game
from huerta.envs.mi_tierra.actions import EST_SLOT0, PASS, Decision, Stage, sell
from huerta.envs.mi_tierra.scenario import scenario, space


def ended(n=2, **kw):
    """A game whose end was triggered, run through its last step."""
    s = scenario(n, perms_seen=3, start=Stage.LOWER_ROAD, **kw)
    assert s.is_terminal
    return s


def test_t68_final_goods():
    """T-68 (MIT-95): $20, 2 cakes and 1 cloth: $20 + 2 x $49 + $47 = $165."""
    s = ended(money=[20, 0], cake={0: 2}, cloth={0: 1})
    assert s.scores()[0] == 165
    assert C.CAKE_VALUE == 49 and C.CLOTH_VALUE == 47


def test_t69_three_for_one_rounding_down():
    """T-69 (MIT-96, G-66): 2 apples, 1 wine, 3 grapes, 1 cow and 1 sheep: 8 items give $2."""
    s = ended(money=[10, 0], goods={0: {"apple": 2, "wine": 1, "grape": 3}},
              barns={0: {0: (2, "cow", 1), 1: (2, "sheep", 1)}})
    assert s.scores()[0] == 12
    assert s.ranking_keys()[0] == (12, 2)


def test_t70_tiebreak_by_leftover():
    """T-70 (MIT-97, MIT-98, G-67): P1 $40 with 5 items -> $41, 2 left over; P2 $38 with 9 items
    -> $41, none left over: P1 wins."""
    s = ended(money=[40, 38], goods={0: {"meat": 5}, 1: {"wheat": 9}})
    assert s.scores() == [41, 41]
    assert s.winners() == [0]
    assert s.rewards() == [1.0, -1.0]


def test_t71_shared_victory():
    """T-71 (MIT-99, G-70): P1 and P2 tie on money and leftover, P3 is lower: both win; under
    the default win/loss reward the sharers get 0 and the loser -1."""
    s = ended(3, money=[30, 30, 10], goods={0: {"apple": 1}, 1: {"egg": 1}})
    assert s.winners() == [0, 1]
    assert s.rewards() == [0.0, 0.0, -1.0]
    assert s.rewards("rank") == [0.5, 0.5, -1.0]


def test_mit97_most_money_wins():
    """MIT-97: the player furthest along the money track wins."""
    s = ended(3, money=[12, 30, 29])
    assert s.winners() == [1] and s.rewards()[1] == 1.0


def test_t72_pile_exhaustion_ends_the_game_after_the_round():
    """T-72 (G-56): a deck without permanent events: a refill from an empty pile leaves the slot
    empty and the game ends after that round."""
    em = space("est_market", 0)
    s = scenario(2, board={em: 0}, est=["A01", "A03"], pile=[], goods={0: {"apple": 1}},
                 start=Stage.EST_MARKET)
    s.apply(EST_SLOT0)
    assert s.est[0] == -1 and s.pile_ran_out and not s.is_terminal
    pass_until(s)
    assert s.is_terminal and s.round == 1


def test_mit92_a_new_round_follows_unless_the_end_was_triggered():
    """MIT-92: after phase 4 the round counter grows and phase 1 starts again."""
    s = scenario(2, start=Stage.LOWER_ROAD, round=3)
    assert s.round == 4 and s.decision == Decision.PLACE


def test_mit94_game_end_after_the_last_black_market_worker():
    """MIT-94: with the end triggered, the game ends only after the Black Market workers went
    home."""
    s = scenario(2, perms_seen=3, bm_workers=[1], goods={1: {"meat": 2}},
                 start=Stage.BLACK_MARKET, money=[0, 0])
    assert not s.is_terminal and s.decision == Decision.BLACK_MARKET
    s.apply(sell(C.MEAT))
    s.apply(PASS)
    assert s.is_terminal and s.money[1] == 2 and s.hut[1] == 3


def test_g56_round_cap_ends_the_game():
    """G-56: however few cards were drawn, the game ends after round MAX_ROUNDS and is scored."""
    s = new_game(2, seed=0)
    rng = np.random.default_rng(0)
    while not s.is_terminal:
        actions = s.legal_actions()
        s.apply(actions[rng.integers(len(actions))])
    assert s.round <= C.MAX_ROUNDS
    assert s.round == C.MAX_ROUNDS or s.end_triggered or s.pile_ran_out
