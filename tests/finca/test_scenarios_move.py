"""Scenario tests T-05, T-06, T-07, T-08, T-09, T-10, T-11, T-12, T-13, T-14, T-15 of seeds/finca.md
(Scenario tests): moving a farmer, harvesting, carts and the fruit / cart resets (FIN-16, FIN-17,
FIN-18, FIN-19, FIN-20, FIN-21, FIN-22, FIN-23, FIN-47, FIN-48)."""

from __future__ import annotations

import pytest
from finca_helpers import BLADES, legal

from huerta.envs.core.errors import IllegalActionError
from huerta.envs.finca.actions import Phase, blade
from huerta.envs.finca.components import FIG, GRAPE, LEMON, OLIVE, ORANGE
from huerta.envs.finca.scenario import scenario


def make(n=2, **kw):
    s = scenario(n, seed=4, blades=BLADES, **kw)
    assert s.check_consistency() == []
    return s


def test_t05_lone_farmer_moves_one_and_harvests_two():
    """T-05 (FIN-18, FIN-19, FIN-20, FIN-16): P0 alone on B2 moves 1 to B3 (grape, one P1 farmer)
    -> P0 +2 grapes, no cart, and the turn passes to P1."""
    s = make(farmers={0: {2: 1}, 1: {3: 1}})
    s.apply(blade(2))
    assert s.farmers[0][2] == 0 and s.farmers[0][3] == 1 and s.farmers[1][3] == 1
    assert s.fruits[0][GRAPE] == 2 and sum(s.fruits[0]) == 2 and s.supply[GRAPE] == 16
    assert s.carts == [0, 0] and s.centre_carts == 4
    assert s.current_player == 1 and s.phase == Phase.MAIN
    assert s.check_consistency() == []


def test_t06_shared_blade_moves_three_and_harvests_four():
    """T-06 (FIN-18, FIN-19, FIN-20, FIN-21): B4 holds P0 + 2 others -> the farmer moves exactly 3
    to B7 (lemon, 3 farmers) -> P0 +4 lemons; the path enters B6, so line B pays one cart."""
    s = make(farmers={0: {4: 1, 11: 4}, 1: {4: 2, 7: 3}})
    s.apply(blade(4))
    assert s.farmers[0][4] == 0 and s.farmers[0][7] == 1
    assert s.blade_total[7] == 4 and s.blade_total[4] == 2
    assert s.fruits[0][LEMON] == 4 and sum(s.fruits[0]) == 4
    assert s.carts[0] == 1 and s.centre_carts == 3
    assert s.check_consistency() == []


def test_t07_crossing_line_a_earns_a_cart():
    """T-07 (FIN-21, FIN-19, G-03): P0 on B10 with one P1 farmer moves 2, wrapping past B11 onto
    B0 (fig) -> crosses line A: +1 cart (centre 4->3) and +1 fig."""
    s = make(farmers={0: {10: 1}, 1: {10: 1}})
    s.apply(blade(10))
    assert s.farmers[0][0] == 1 and s.farmers[0][10] == 0
    assert s.fruits[0][FIG] == 1 and sum(s.fruits[0]) == 1
    assert s.carts == [1, 0] and s.centre_carts == 3
    assert s.check_consistency() == []


@pytest.mark.parametrize(
    ("source", "carts"), [(0, 0), (4, 0), (5, 1), (11, 1), (3, 0)]
)
def test_t08_lines_are_crossed_by_entering_blade_0_or_6(source, carts):
    """T-08 (G-03, FIN-21): a lone farmer moving one blade: B0->B1 and B4->B5 pay nothing (leaving
    the blade after a line is no crossing), B5->B6 and B11->B0 pay one cart."""
    s = make(farmers={0: {source: 1}, 1: {9 if source != 9 else 8: 1}})
    s.apply(blade(source))
    dest = (source + 1) % 12
    assert s.farmers[0][dest] == 1
    assert s.carts[0] == carts and s.centre_carts == 4 - carts
    assert s.fruits[0][BLADES[dest]] == 1


def test_t09_crossing_both_lines_earns_two_carts():
    """T-09 (FIN-21, FIN-19): B5 holds 4 P0 + 3 P1 farmers; P0 moves 7 to B0, entering B6 and B0
    -> +2 carts and +1 fig (B0 was empty)."""
    s = make(farmers={0: {5: 4, 2: 1}, 1: {5: 3, 3: 2}})
    s.apply(blade(5))
    assert s.farmers[0][0] == 1 and s.farmers[0][5] == 3
    assert s.carts == [2, 0] and s.centre_carts == 2
    assert s.fruits[0][FIG] == 1 and sum(s.fruits[0]) == 1
    assert s.check_consistency() == []


def test_t10_twelve_step_move_returns_to_its_blade():
    """T-10 (G-03, FIN-18, FIN-19, FIN-20, FIN-21): 3 players, all 12 farmers on B8 (orange) -> P0
    moves 12, lands on B8 again, crosses both lines (+2 carts) and harvests 12 oranges."""
    s = make(3, farmers={0: {8: 4}, 1: {8: 4}, 2: {8: 4}})
    s.apply(blade(8))
    assert s.farmers[0][8] == 4 and s.blade_total[8] == 12
    assert s.carts == [2, 0, 0] and s.centre_carts == 4
    assert s.fruits[0][ORANGE] == 12 and s.supply[ORANGE] == 6
    assert s.current_player == 1
    assert s.check_consistency() == []


def test_t11_fruit_reset_includes_the_movers_own_fruit():
    """T-11 (FIN-22, FIN-47): supply lemons 2, P0 holds 1, P1 holds 15; P0 is owed 4 -> everybody
    returns every lemon, then P0 takes 4: P0 4, P1 0, supply 14 (not 1 + 4)."""
    s = make(
        farmers={0: {6: 1, 7: 1, 1: 1}, 1: {7: 2, 11: 1}},
        fruits={0: {LEMON: 1, FIG: 2}, 1: {LEMON: 15, FIG: 3}},
    )
    assert s.supply[LEMON] == 2
    s.apply(blade(6))
    assert s.blade_total[7] == 4
    assert s.fruits[0][LEMON] == 4 and s.fruits[1][LEMON] == 0 and s.supply[LEMON] == 14
    # other fruit types are untouched by the reset
    assert s.fruits[0][FIG] == 2 and s.fruits[1][FIG] == 3 and s.supply[FIG] == 13
    assert s.check_consistency() == []


def test_fruit_reset_three_players_mover_loses_a_large_stock():
    """Rulebook fruit reset (FIN-22, FIN-47, G-32): 3 players; supply olives 1, P0 (the mover) holds
    12, P1 3, P2 2; P0 is owed 2 olives -> ALL players return ALL olives, then P0 takes 2: the
    harvest is mandatory even though it costs the mover 10 olives."""
    s = make(
        3,
        farmers={0: {8: 1}, 1: {9: 1}, 2: {0: 1}},
        fruits={0: {OLIVE: 12}, 1: {OLIVE: 3}, 2: {OLIVE: 2}},
    )
    assert s.supply[OLIVE] == 1
    s.apply(blade(8))  # B8 -> B9 (olive), B9 now holds 2 farmers
    assert [s.fruits[p][OLIVE] for p in range(3)] == [2, 0, 0]
    assert s.supply[OLIVE] == 16
    assert s.check_consistency() == []


def test_t12_supply_equal_to_harvest_is_no_shortage():
    """T-12 (G-24, FIN-22): supply grapes 3, P1 holds 5, P0 owed 3 -> P0 takes the last 3, supply
    0, nobody returns anything."""
    s = make(
        farmers={0: {2: 1, 3: 1}, 1: {3: 1, 9: 1}},
        fruits={0: {GRAPE: 10}, 1: {GRAPE: 5}},
    )
    assert s.supply[GRAPE] == 3
    s.apply(blade(2))
    assert s.fruits[0][GRAPE] == 13 and s.fruits[1][GRAPE] == 5 and s.supply[GRAPE] == 0
    assert s.check_consistency() == []


def test_t13_cart_reset_when_centre_is_empty():
    """T-13 (FIN-23, FIN-48): 2 players, centre 0, P0 holds 1 cart, P1 3; P0 crosses one line ->
    all carts return, P0 takes 1: P0 1, P1 0, centre 3."""
    s = make(farmers={0: {5: 1}, 1: {9: 1}}, carts={0: 1, 1: 3})
    assert s.centre_carts == 0
    s.apply(blade(5))
    assert s.carts == [1, 0] and s.centre_carts == 3
    assert s.check_consistency() == []


def test_t14_cart_shortage_with_two_owed():
    """T-14 (G-23, FIN-23, FIN-48): centre 1, P0 0 carts, P1 3; P0 crosses both lines (owed 2) ->
    reset, then take 2: P0 2, P1 0, centre 2. With the sequential switch: P0 1, centre 3."""
    kw = dict(farmers={0: {5: 4, 2: 1}, 1: {5: 3, 3: 2}}, carts={0: 0, 1: 3})
    s = make(**kw)
    assert s.centre_carts == 1
    s.apply(blade(5))
    assert s.carts == [2, 0] and s.centre_carts == 2
    assert s.check_consistency() == []

    alt = make(**kw)
    alt.cart_shortage = "take_then_reset"
    alt.apply(blade(5))
    assert alt.carts == [1, 0] and alt.centre_carts == 3
    assert alt.check_consistency() == []


def test_cart_reset_three_players_mover_returns_own_carts_too():
    """Rulebook cart reset (FIN-48, FIN-23): 3 players, centre 0; P0 holds 2, P1 3, P2 1; P0 owed 1
    -> everybody (P0 included) returns every cart, then P0 takes 1: P0 1, others 0, centre 5."""
    s = make(3, farmers={0: {11: 1}, 1: {4: 1}, 2: {3: 1}}, carts={0: 2, 1: 3, 2: 1})
    assert s.centre_carts == 0
    s.apply(blade(11))
    assert s.carts == [1, 0, 0] and s.centre_carts == 5
    assert s.check_consistency() == []


def test_t15_only_blades_with_own_farmers_are_move_sources():
    """T-15 (G-33, FIN-17): P0 has 2 farmers on B1 and 1 on B9 -> exactly BLADE(1) and BLADE(9)
    are legal among the blade ids; moving from a blade with only P1's farmers raises."""
    s = make(farmers={0: {1: 2, 9: 1}, 1: {4: 2, 10: 1}})
    assert {a for a in legal(s) if a < 12} == {1, 9}
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply(blade(4))
    with pytest.raises(IllegalActionError):
        s.apply(blade(0))
    assert s.to_dict() == before
    # the move from B1 uses 2 steps (both own farmers count) and lands on B3
    s.apply(blade(1))
    assert s.farmers[0][1] == 1 and s.farmers[0][3] == 1 and s.fruits[0][GRAPE] == 1


def test_fin16_one_option_per_turn_and_clockwise_order():
    """FIN-16: in the main phase each move is a whole turn; the turn passes clockwise
    P0 -> P1 -> P2 -> P0, and the next player's mask is a fresh MAIN mask."""
    s = make(3, farmers={0: {0: 1}, 1: {3: 1}, 2: {7: 1}})
    for expected_next, src in ((1, 0), (2, 3), (0, 7)):
        s.apply(blade(src))
        assert s.current_player == expected_next and s.phase == Phase.MAIN
    # P0's farmer is now on B1; only own farmers move
    assert {a for a in legal(s) if a < 12} == {1}
    assert s.check_consistency() == []
