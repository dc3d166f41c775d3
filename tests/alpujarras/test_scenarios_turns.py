"""Scenario tests TS-01, TS-02, TS-03, TS-04, TS-05, TS-06, TS-07 and TS-49, TS-50, TS-51 of
seeds/alpujarras.md: turn order, movement on the track, special spaces, the end track and the
2-player die (ALP-14, ALP-15, ALP-16, ALP-17, ALP-18, ALP-19, ALP-20, ALP-21, ALP-22, ALP-68,
ALP-69)."""

from __future__ import annotations

import pytest
from alp_helpers import END_SPACES, HARVESTS, MARKETS, legal, play

from huerta.envs.alpujarras import turns
from huerta.envs.alpujarras.actions import DO_PLACE, END_TURN, Phase, move_to
from huerta.envs.alpujarras.scenario import scenario


def test_ts01_rearmost_mule_acts_and_may_act_again():
    """TS-01 (ALP-14, ALP-15): A on 3, B on 10, C on 12: A acts; after a short move to 4 A is still
    rearmost and acts again; after moving to 11, B (on 10) acts."""
    s = scenario(3, positions={0: 3, 1: 10, 2: 12})
    assert s.current_player == 0 and s.phase == Phase.MOVE
    play(s, move_to(4))
    assert s.phase == Phase.ACTION and s.current_player == 0
    play(s, END_TURN)
    assert s.current_player == 0 and s.phase == Phase.MOVE
    play(s, move_to(11), END_TURN)
    assert s.current_player == 1


def test_ts02_market_spots_fill_left_to_right_and_leftmost_leaves_first():
    """TS-02 (ALP-18, ALP-19): red, blue, yellow enter market 5 in that order and take spots 0, 1,
    2; then red (leftmost) acts, then blue, then yellow."""
    s = scenario(3, positions={0: 2, 1: 3, 2: 4})
    for p in (0, 1, 2):
        assert s.current_player == p
        play(s, move_to(MARKETS[0]), END_TURN)
    assert [s.spot[p] for p in range(3)] == [0, 1, 2]
    assert all(s.pos[p] == MARKETS[0] for p in range(3))
    order = []
    for _ in range(3):
        order.append(s.current_player)
        play(s, move_to(6 + s.current_player), END_TURN)
    assert order == [0, 1, 2]


def test_ts03_a_mule_behind_a_market_acts_before_those_in_it():
    """TS-03 (ALP-19): red in market 5 spot 0, blue on 2, yellow on 8: blue acts first; once blue
    joins the market (spot 1) red acts."""
    s = scenario(3, positions={0: (5, 0), 1: 2, 2: 8})
    assert s.current_player == 1
    play(s, move_to(5), END_TURN)
    assert s.spot[1] == 1 and s.current_player == 0


def test_ts04_occupied_standard_space_is_masked_but_can_be_passed():
    """TS-04 (ALP-17): B on 7 and C in harvest 9; A on 4: 7 masked, 6 and 8 legal, the occupied
    harvest space 9 legal."""
    s = scenario(3, positions={0: 4, 1: 7, 2: (9, 0)})
    mask = legal(s)
    assert move_to(7) not in mask
    assert {move_to(6), move_to(8), move_to(9)} <= mask


def test_ts05_a_mule_in_a_special_space_must_leave_it():
    """TS-05 (ALP-16, ALP-20): A begins its turn in market 5: only spaces after 5 are targets."""
    s = scenario(2, positions={0: (5, 0), 1: (5, 1), 2: 8})
    assert s.current_player == 0
    mask = legal(s)
    assert all(a > 5 for a in mask) and move_to(5) not in mask
    assert all(a < DO_PLACE for a in mask)


def test_ts06_passing_a_market_grants_nothing():
    """TS-06 (ALP-21): A on 4 can deliver, passes market 5 and stops on 6: no delivery is offered
    and A's market count is unchanged."""
    s = scenario(2, positions={0: 4, 1: 20}, farmers={0: {1: 1}}, fruit={0: {1: 5}},
                 towns={1: [(1, 2), (1, 3), (2, 3), (3, 4)]})
    play(s, move_to(6))
    assert not any(81 <= a <= 105 for a in legal(s))
    assert s.markets_used[0] == 0


def test_ts07_end_spaces_free_only_and_arrived_mules_never_act():
    """TS-07 (ALP-16, ALP-22, ALP-63): 4 players; A on 40, B on end 45: 41-44 are legal, 45 is
    masked; once A is on the end track it is never selected again."""
    s = scenario(4, positions={0: 40, 1: 45, 2: (41, 0), 3: (41, 1)})
    assert s.current_player == 0
    assert legal(s) == {move_to(x) for x in (41, 42, 43, 44)}
    play(s, move_to(42), END_TURN)
    seen = []
    while not s.is_terminal:
        seen.append(s.current_player)
        targets = sorted(legal(s))
        play(s, targets[-1] if s.phase == Phase.MOVE else END_TURN)
    assert 0 not in seen and 1 not in seen and set(seen) == {2, 3}


def test_alp22_end_track_arrival_is_final():
    """ALP-22, ALP-65: a mule on the end track never moves again; the game ends with the last."""
    s = scenario(2, positions={0: 33, 1: 35, 2: 36})
    play(s, move_to(34), END_TURN)
    assert s.is_terminal and s.phase == Phase.GAME_OVER
    assert not s.legal_mask().any()


def test_ts49_die_counts_free_standard_spaces_only():
    """TS-49 (ALP-68): die on 6, mules on 7 and 8; harvest 9 and market 13 are skipped. Roll 1 ->
    10; roll 3 -> 12; roll 4 -> 14 (past market 13). No agent decision is asked for."""
    for roll, target in ((1, 10), (3, 12), (4, 14)):
        s = scenario(2, positions={0: 7, 1: 8, 2: 6}, rolls=[roll], resolve=True)
        assert s.pos[2] == target, roll
        assert s.current_player == 0 and s.phase == Phase.MOVE


def test_ts50_the_die_blocks_its_space():
    """TS-50 (ALP-69, ALP-17): a mule may not stop where the die stands."""
    s = scenario(2, positions={0: 7, 1: 8, 2: 11})
    assert move_to(11) not in legal(s) and move_to(12) in legal(s)


def test_alp69_the_die_has_no_farmers_for_harvests():
    """ALP-69: the die never counts in majorities (it has no farmers at all)."""
    s = scenario(2, positions={0: 8, 1: 10, 2: 7}, farmers={0: {0: 1}, 1: {1: 1}})
    play(s, move_to(HARVESTS[0]))
    play(s, 49)  # DO_HARVEST
    assert s.fruit[0][0] == 1


def test_ts51_die_short_of_spaces_enters_the_furthest_free_end_space():
    """TS-51 (G-24): die on 31, both mules in harvest 33; roll 3: step to 32, 33 skipped, no
    standard space left -> end space 36 (3:1). The mules may then not take 36."""
    s = scenario(2, positions={0: (33, 0), 1: (33, 1), 2: 31}, rolls=[3], resolve=True)
    assert s.pos[2] == 36
    assert s.current_player == 0
    assert legal(s) == {move_to(34), move_to(35)}


@pytest.mark.parametrize("n", (2, 3, 4))
def test_alp14_first_turn_goes_to_the_rearmost_start_spot(n):
    """ALP-12, ALP-14, G-09: the mule on the rearmost start spot moves first; the die (2 players)
    stands on the front start spot."""
    for seed in range(10):
        s = scenario(n, seed=seed)
        first = min(range(n), key=lambda p: s.spot[p])
        assert s.current_player == first
        if n == 2:
            assert s.spot[2] == 2 and s.pos[2] == -1
        assert turns.rearmost(s) == first


def test_alp16_targets_are_forward_only():
    """ALP-16: every legal target lies ahead of the mule, end spaces included."""
    s = scenario(3, positions={0: 20, 1: 25, 2: 30})
    targets = sorted(legal(s))
    assert targets[0] == 21 and targets[-1] == END_SPACES[-1]
