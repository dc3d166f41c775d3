"""Scenario tests T-24, T-25, T-26, T-27, T-28, T-29, T-30, T-31, T-32 of seeds/finca.md (Scenario
tests): the four action tiles (FIN-30, FIN-31, FIN-32, FIN-33, FIN-34, FIN-49, FIN-50)."""

from __future__ import annotations

import numpy as np
import pytest
from finca_helpers import legal
from finca_helpers import make as _make

from huerta.envs.core.errors import IllegalActionError
from huerta.envs.finca import components as C
from huerta.envs.finca.actions import (
    CONFIRM,
    DELIVER,
    PLAY_DOUBLE,
    PLAY_GUST,
    PLAY_LARGE,
    PLAY_ONELESS,
    Phase,
    blade,
    comm,
    fruit,
)
from huerta.envs.finca.components import ALMOND, FIG, GRAPE, LEMON, OLIVE, ORANGE
from huerta.envs.finca.observation import SLICES

PLAY_IDS = {DELIVER, PLAY_DOUBLE, PLAY_GUST, PLAY_LARGE, PLAY_ONELESS}


def make(n=2, stacks=None, pad=True, **kw):
    return _make(n, seed=6, stacks=stacks, pad=pad, **kw)





# --- One fruit less ------------------------------------------------------------------------------


def test_t24_one_fruit_less_takes_three_lemon_tile_with_two():
    """T-24 (FIN-34, G-17, FIN-30): P0 with 1 cart and 2 lemons plays One fruit less on 3L [3]:
    phase OMIT offers only lemon; afterwards P0 has 0 lemons, 0 carts, the tile (+3) and the
    One-fruit-less tile is used (its 2 points gone, PLAY_ONELESS masked later)."""
    s = make(stacks={6: ["3L"]}, fruits={0: {LEMON: 2}}, carts={0: 1})
    assert s.scores()[0] == 8
    s.apply(PLAY_ONELESS)
    assert s.phase == Phase.DELIVER_SELECT and legal(s) == {comm(6)}
    s.apply(comm(6))
    assert s.phase == Phase.DELIVER_OMIT
    assert legal(s) == {fruit(LEMON)}
    s.apply(fruit(LEMON))
    s.apply(CONFIRM)
    assert s.fruits[0][LEMON] == 0 and s.supply[LEMON] == 18
    assert s.carts[0] == 0 and s.centre_carts == 4
    assert s.tile_points[0] == 3 and s.scores()[0] == 3 + 3 * 2
    assert s.unused[0] == [True, True, True, False]
    assert s.current_player == 1
    s.apply(blade(1))  # P1's turn
    assert PLAY_ONELESS not in legal(s)
    assert s.check_consistency() == []


def test_t25_one_fruit_tile_is_never_the_reduced_tile():
    """T-25 (FIN-50, FIN-34, G-17): P0 with FIG 1, OLV 1, ALM 0; C0 = 1F [1], C1 = 1A+1O [2].
    PLAY_ONELESS is legal (C1 can be reduced); as first tile COMM(0) is masked, COMM(1) legal;
    after COMM(1), FRUIT(ALM) the 1-fig tile is legal again and paid in full."""
    s = make(
        stacks={0: ["1F"], 1: ["1A+1O"]}, fruits={0: {FIG: 1, OLIVE: 1}}, carts={0: 1}
    )
    assert PLAY_ONELESS in legal(s)
    s.apply(PLAY_ONELESS)
    assert legal(s) == {comm(1)}
    with pytest.raises(IllegalActionError):
        s.apply(comm(0))
    s.apply(comm(1))
    assert s.phase == Phase.DELIVER_OMIT and legal(s) == {fruit(ALMOND)}
    s.apply(fruit(ALMOND))
    assert legal(s) == {comm(0), CONFIRM}
    s.apply(comm(0))
    s.apply(CONFIRM)
    assert s.fruits[0] == [0] * 6
    assert s.supply[FIG] == 18 and s.supply[OLIVE] == 18
    assert sorted(s.catalogue[t].value for t in s.displays[0]) == [1, 2]
    assert s.check_consistency() == []


def test_fin50_one_fruit_less_never_gives_a_one_fruit_tile_for_free():
    """FIN-50 (FIN-34): with only 1-fruit tops (one of them payable), PLAY_ONELESS is masked: a
    1-fruit requirement cannot be reduced to zero. DELIVER stays legal."""
    s = make(stacks={0: ["1F"], 3: ["1L"]}, fruits={0: {FIG: 1}}, carts={0: 1})
    mask = legal(s)
    assert PLAY_ONELESS not in mask and DELIVER in mask
    with pytest.raises(IllegalActionError):
        s.apply(PLAY_ONELESS)
    # nothing in hand: the 1-lemon tile is not free either
    s = make(stacks={0: ["1F"], 3: ["1L"]}, fruits={0: {GRAPE: 2}}, carts={0: 1})
    assert not (PLAY_IDS - {PLAY_DOUBLE, PLAY_GUST}) & legal(s)


def test_t26_omitted_symbol_and_cap_counts_paid_fruit():
    """T-26 (G-16, G-18, FIN-34, FIN-26): 3F+2A+1O [6] with FIG 4, ALM 2, ORA 1, OLV 0: only the
    olive can be omitted; 5 fruits are then committed; 1R [1] still fits (6); 1F [1] no longer
    (7 > 6) although a fig is uncommitted; CONFIRM gives 7 points for 6 fruits."""
    s = make(
        stacks={2: ["3F+2A+1O"], 3: ["1R"], 4: ["1F"]},
        fruits={0: {FIG: 4, ALMOND: 2, ORANGE: 1}},
        carts={0: 1},
    )
    s.apply(PLAY_ONELESS)
    assert legal(s) == {comm(2)}  # the 1-fruit tiles cannot be the reduced first tile
    s.apply(comm(2))
    assert s.phase == Phase.DELIVER_OMIT and legal(s) == {fruit(OLIVE)}
    s.apply(fruit(OLIVE))
    d = s.observe(0)[SLICES["delivery"]]
    assert d[2] == 1.0  # one-fruit-less mode
    assert d[3] == pytest.approx(1 / 10)  # cap left 1
    assert np.allclose(d[4:10], np.array([3, 2, 0, 0, 0, 0]) / 10)  # 5 committed
    assert d[20] == 1.0  # reduction applied
    assert legal(s) == {comm(3), comm(4), CONFIRM}
    s.apply(comm(3))
    assert comm(4) not in legal(s) and legal(s) == {CONFIRM}
    s.apply(CONFIRM)
    assert s.fruits[0][FIG] == 1 and s.fruits[0][ALMOND] == 0 and s.fruits[0][ORANGE] == 0
    assert sum(s.supply) == 108 - 1
    assert s.tile_points[0] == 7
    assert s.check_consistency() == []


# --- Large donkey cart ---------------------------------------------------------------------------


def test_t27_large_cart_ten_fruits_three_tiles_no_cart():
    """T-27 (FIN-33, G-19, FIN-25): P0 with 0 carts and exactly 10 fruits matching 2F+2O [4], 3A
    [3], 3L [3] plays Large cart and takes all three: 10 fruits to the supply, carts unchanged."""
    s = make(
        stacks={0: ["2F+2O"], 1: ["3A"], 2: ["3L"]},
        fruits={0: {FIG: 2, OLIVE: 2, ALMOND: 3, LEMON: 3}},
        carts={0: 0},
    )
    assert s.centre_carts == 4
    s.apply(PLAY_LARGE)
    for c in (0, 1, 2):
        s.apply(comm(c))
    s.apply(CONFIRM)
    assert s.fruits[0] == [0] * 6 and s.supply == [18] * 6
    assert len(s.displays[0]) == 3 and s.tile_points[0] == 10
    assert s.carts[0] == 0 and s.centre_carts == 4
    assert s.unused[0][C.LARGE_CART] is False
    assert s.current_player == 1
    assert s.check_consistency() == []


def test_t28_no_second_action_tile_inside_a_large_delivery():
    """T-28 (FIN-30, FIN-49, G-20): during a Large-cart delivery ids 28-32 (DELIVER and every PLAY)
    are masked at every sub-step, so Large cart and One fruit less can never be combined; after
    CONFIRM the next player acts."""
    s = make(
        stacks={0: ["2?"], 1: ["3L"]}, fruits={0: {LEMON: 3, GRAPE: 2}}, carts={0: 1}
    )
    s.apply(PLAY_LARGE)
    assert not PLAY_IDS & legal(s)
    s.apply(comm(0))
    assert s.phase == Phase.DELIVER_WILD and not PLAY_IDS & legal(s)
    with pytest.raises(IllegalActionError):
        s.apply(PLAY_ONELESS)
    s.apply(fruit(GRAPE))
    assert not PLAY_IDS & legal(s)
    s.apply(comm(1))
    assert not PLAY_IDS & legal(s)
    s.apply(CONFIRM)
    assert s.current_player == 1 and s.phase == Phase.MAIN
    assert s.unused[0] == [True, True, False, True]
    assert s.carts[0] == 1


def test_fin49_no_other_tile_inside_one_fruit_less():
    """FIN-49 (FIN-30, G-20): during a One-fruit-less delivery the Large cart (and every other
    PLAY id) is masked at every sub-step."""
    s = make(stacks={0: ["3L"], 1: ["1G"]}, fruits={0: {LEMON: 2, GRAPE: 1}}, carts={0: 1})
    s.apply(PLAY_ONELESS)
    assert not PLAY_IDS & legal(s)
    s.apply(comm(0))
    assert s.phase == Phase.DELIVER_OMIT and not PLAY_IDS & legal(s)
    with pytest.raises(IllegalActionError):
        s.apply(PLAY_LARGE)
    s.apply(fruit(LEMON))
    assert not PLAY_IDS & legal(s)
    s.apply(comm(1))
    s.apply(CONFIRM)
    assert s.unused[0] == [True, True, True, False]


# --- Double move ---------------------------------------------------------------------------------


def test_t29_double_move_two_full_moves_in_one_turn():
    """T-29 (FIN-31, G-21, FIN-30): PLAY_DOUBLE -> DM_MOVE_1 (own blades only); the first move
    resolves fully (B5->B6: +1 fig, +1 cart); DM_MOVE_2 for the same player from the new positions
    (B6 now legal); the second move B11->B0 gives +1 fig, +1 cart; then P1 acts with 2 carts kept
    by P0."""
    s = make(farmers={0: {5: 1, 11: 1}, 1: {3: 1, 9: 1}})
    s.apply(PLAY_DOUBLE)
    assert s.phase == Phase.DM_MOVE_1 and s.current_player == 0
    assert legal(s) == {blade(5), blade(11)}
    s.apply(blade(5))
    assert s.phase == Phase.DM_MOVE_2 and s.current_player == 0
    assert s.fruits[0][FIG] == 1 and s.carts[0] == 1 and s.centre_carts == 3
    assert legal(s) == {blade(6), blade(11)}
    s.apply(blade(11))
    assert s.fruits[0][FIG] == 2 and s.carts[0] == 2 and s.centre_carts == 2
    assert s.current_player == 1 and s.phase == Phase.MAIN
    assert s.unused[0][C.DOUBLE_MOVE] is False
    assert s.check_consistency() == []


def test_fin31_double_move_may_reuse_the_same_farmer_and_sees_new_counts():
    """FIN-31 (G-21): the second move may use the farmer just moved, with the step count of its new
    blade: B10 (with a P1 farmer) -> B0 (2 steps, line A, +1 fig) -> B1 (1 step, +1 almond)."""
    s = make(farmers={0: {10: 1}, 1: {10: 1}})
    s.apply(PLAY_DOUBLE)
    s.apply(blade(10))
    assert s.farmers[0][0] == 1 and s.carts[0] == 1 and s.fruits[0][FIG] == 1
    assert legal(s) == {blade(0)}
    s.apply(blade(0))
    assert s.farmers[0][1] == 1 and s.fruits[0][ALMOND] == 1
    assert s.carts[0] == 1 and s.current_player == 1


def test_t30_cart_reset_during_the_second_move():
    """T-30 (G-21, FIN-23, FIN-31): centre holds 1 cart; the first Double-move step crosses a line
    (centre 0); the second also crosses one -> reset during it: P0 ends with exactly 1 cart, P1
    with 0."""
    s = make(farmers={0: {5: 1, 11: 1}, 1: {3: 1, 9: 1}}, carts={0: 0, 1: 3})
    assert s.centre_carts == 1
    s.apply(PLAY_DOUBLE)
    s.apply(blade(5))
    assert s.carts == [1, 3] and s.centre_carts == 0
    s.apply(blade(11))
    assert s.carts == [1, 0] and s.centre_carts == 3
    assert s.check_consistency() == []


def test_fin31_no_other_play_id_inside_a_double_move():
    """FIN-31 (FIN-30, FIN-49): inside Double move and Gust of wind only BLADE ids are legal."""
    s = make(farmers={0: {5: 1, 11: 1}, 1: {3: 1, 9: 1}}, fruits={0: {LEMON: 3}}, carts={0: 1})
    for play in (PLAY_DOUBLE, PLAY_GUST):
        st = s.clone()
        st.apply(play)
        assert legal(st) <= set(range(12)) and legal(st)
        st.apply(blade(5))
        assert legal(st) <= set(range(12)) and legal(st)


# --- Gust of wind --------------------------------------------------------------------------------


def test_t31_gust_of_wind_relocates_without_carts():
    """T-31 (FIN-32, G-22): PLAY_GUST -> GUST_SOURCE offers own blades only; BLADE(1) ->
    GUST_TARGET offers every blade except B1; BLADE(9) (olive, 2 P1 farmers) -> P0 +3 olives and
    no cart although B1 -> B9 passes line B."""
    s = make(farmers={0: {1: 1, 3: 1}, 1: {9: 2}})
    s.apply(PLAY_GUST)
    assert s.phase == Phase.GUST_SOURCE and legal(s) == {blade(1), blade(3)}
    s.apply(blade(1))
    assert s.phase == Phase.GUST_TARGET and legal(s) == set(range(12)) - {blade(1)}
    assert s.observe(0)[SLICES["move_ctx"]][1] == 1.0
    with pytest.raises(IllegalActionError):
        s.apply(blade(1))
    s.apply(blade(9))
    assert s.farmers[0][9] == 1 and s.farmers[0][1] == 0 and s.blade_total[9] == 3
    assert s.fruits[0][OLIVE] == 3 and sum(s.fruits[0]) == 3
    assert s.carts == [0, 0] and s.centre_carts == 4
    assert s.current_player == 1
    assert s.check_consistency() == []


def test_t32_used_gust_stays_masked_and_unused_tiles_score_two_each():
    """T-32 (FIN-30, FIN-43, FIN-32): after T-31's gust, PLAY_GUST is masked for P0 for the rest of
    the game; P0 then ends the game with a delivery and scores 2 for each of the 3 unused tiles
    (6) + the tile (1) + the olive finca tile (5)."""
    s = make(
        stacks={0: ["1O"], 2: [], 3: [], 4: []},
        farmers={0: {1: 1, 3: 1}, 1: {9: 2}},
        finca_tiles={0: OLIVE},
        carts={0: 1},
        pad=False,
    )
    assert s.wooden_reserve == 1
    s.apply(PLAY_GUST)
    s.apply(blade(1))
    s.apply(blade(9))  # +3 olives
    assert s.wooden_reserve == 1 and not s.is_terminal
    s.apply(blade(9))  # P1 moves a farmer: 3 steps to B0
    assert s.current_player == 0
    mask = legal(s)
    assert PLAY_GUST not in mask and PLAY_DOUBLE in mask
    with pytest.raises(IllegalActionError):
        s.apply(PLAY_GUST)
    s.apply(DELIVER)
    assert PLAY_GUST not in legal(s)
    s.apply(comm(0))
    s.apply(CONFIRM)
    assert s.is_terminal
    assert s.unused[0] == [True, False, True, True]
    assert s.fincas_won[0] == [OLIVE]
    assert s.scores() == [1 + 5 + 3 * 2, 4 * 2]
    assert s.winners() == [0] and s.rewards() == [1.0, -1.0]
    assert s.check_consistency() == []
