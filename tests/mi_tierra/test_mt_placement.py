"""Scenario tests T-14, T-15, T-16, T-17, T-18, T-19, T-20: worker placement (MIT-20, MIT-21,
MIT-22, MIT-23, MIT-24, MIT-25, G-02, G-03, G-04, G-05, G-25, G-26, G-27, G-28, G-29)."""

from __future__ import annotations

import numpy as np
import pytest
from mt_helpers import decision, legal

from huerta.envs.core.errors import IllegalActionError
from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import new_game
from huerta.envs.mi_tierra.actions import (
    PASS,
    PLACE_PAIR_CROPS,
    PLACE_PAIR_FOREST,
    Decision,
    Stage,
    cell,
    place,
    place_dev,
)
from huerta.envs.mi_tierra.decisions import free_space
from huerta.envs.mi_tierra.scenario import scenario, space


def test_t14_round_robin_skips_players_without_workers():
    """T-14 (MIT-20): order P1, P2, P3 with 3, 4 and 3 workers: P1 P2 P3 P1 P2 P3 P1 P2 P3 P2."""
    s = scenario(3, owned={1: 4}, money=[20, 20, 20])
    seq = []
    while decision(s) == Decision.PLACE:
        seq.append(s.current_player)
        s.apply(min(a for a in legal(s) if a != PASS))
    assert seq == [0, 1, 2, 0, 1, 2, 0, 1, 2, 1]


def test_t15_two_player_blocked_spaces():
    """T-15 (MIT-22, G-03, G-37): with 2 players one space of every zone is blocked: Forest takes
    2 workers, Sheep 1, the Established market 3, the lower road 2 (one per player); the centre
    development spot is never offered."""
    s = scenario(2, owned={0: 5, 1: 5}, money=[30, 30])
    assert place_dev(2) not in legal(s)
    for zone, capacity in ((C.Z_FOREST, 2), (C.Z_SHEEP, 1), (C.Z_EST_MARKET, 3),
                           (C.Z_CROPS, 2), (C.Z_CLOCK, 1)):
        first = C.ZONE_FIRST_SPACE[zone]
        assert sum(1 for i in range(first, first + C.ZONES[zone].spaces)
                   if i not in C.BLOCKED_2P) == capacity
    placed = {C.Z_FOREST: 0, C.Z_SHEEP: 0, C.Z_EST_MARKET: 0}
    while decision(s) == Decision.PLACE:
        options = [z for z in placed if place(z) in legal(s)]
        if not options:
            s.apply(PASS)
            continue
        placed[options[0]] += 1
        s.apply(place(options[0]))
    assert placed == {C.Z_FOREST: 2, C.Z_SHEEP: 1, C.Z_EST_MARKET: 3}
    assert all(s.space_owner[i] < 0 for i in C.BLOCKED_2P)


def test_three_and_four_players_use_every_space():
    """G-02/G-03: with 3 or 4 players nothing is blocked; the centre development spot is open."""
    for n in (3, 4):
        s = new_game(n, seed=0)
        assert place_dev(2) in legal(s)
        assert free_space(s, C.Z_SHEEP) == space("sheep", 0)


def test_t16_pair_placement():
    """T-16 (MIT-24): a pair in the Forest takes two workers and one space in one turn; with a
    single worker in the hut pairs are masked; only Forest and Crops have pair actions."""
    s = scenario(2, money=[10, 10])
    assert {PLACE_PAIR_FOREST, PLACE_PAIR_CROPS} <= legal(s)
    s.apply(PLACE_PAIR_FOREST)
    forest = space("forest", 0)
    assert s.space_owner[forest] == 0 and s.space_pair[forest]
    assert s.hut[0] == 1 and s.space_owner[forest + 1] == -1
    s.apply(PASS)  # seat 1 retires
    assert s.current_player == 0
    assert PLACE_PAIR_FOREST not in legal(s) and PLACE_PAIR_CROPS not in legal(s)
    with pytest.raises(IllegalActionError, match="two workers together need two workers"):
        s.apply(PLACE_PAIR_CROPS)


def test_t17_same_zone_twice_in_placement_order():
    """T-17 (MIT-23, MIT-29): two workers in the Sheep Barnyard roll separately, in placement
    order: faces 1 then 6 give 1 sheep, then 3 more."""
    s = scenario(3, barns={0: {0: (3, None, 0), 1: (3, None, 0)}}, money=[9, 9, 9])
    s.apply(place(C.Z_SHEEP))
    s.apply(PASS)
    s.apply(PASS)
    s.apply(place(C.Z_SHEEP))
    s.apply(PASS)
    assert s.stage == Stage.SHEEP and s.chance_pending
    s.apply_chance(1)
    assert s.goods[0][C.SHEEP] == 1
    s.apply_chance(6)
    assert s.goods[0][C.SHEEP] == 4 and s.goods[0][C.MEAT] == 0


def test_t18_farm_placement_targets():
    """T-18 (MIT-21, G-25): own crop fields without a worker are targets; empty cells and
    barnyards are not; a worked field is masked."""
    s = scenario(2, fields={0: {6: "wheat"}}, barns={0: {0: (2, None, 0)}})
    cells = {a for a in legal(s) if cell(0) <= a <= cell(11)}
    assert cells == {cell(5), cell(6)}
    s.apply(cell(5))
    assert s.farm_workers[0][5]
    s.apply(PASS)
    assert cell(5) not in legal(s) and cell(6) in legal(s)
    with pytest.raises(IllegalActionError, match="already has a worker"):
        s.apply(cell(5))
    with pytest.raises(IllegalActionError, match="holds no crop field"):
        s.apply(cell(0))


def test_t19_square_limit():
    """T-19 (MIT-37, G-27): with 5 workers the Square is masked; with 4 and one worker already
    in the Square it is masked too."""
    s = scenario(3, owned={0: 5}, money=[20, 20, 20], start=Stage.PLACEMENT)
    assert place(C.Z_SQUARE) not in legal(s)
    with pytest.raises(IllegalActionError, match="at most 5 workers"):
        s.apply(place(C.Z_SQUARE))
    s = scenario(3, owned={0: 4}, money=[20, 20, 20], start=Stage.PLACEMENT)
    s.apply(place(C.Z_SQUARE))
    s.apply(PASS)
    s.apply(PASS)
    assert place(C.Z_SQUARE) not in legal(s)


def test_t20_pass_retires_the_remaining_workers():
    """T-20 (G-29): a player who passes with 2 workers in the hut places no more this round."""
    s = scenario(2)
    s.apply(place(C.Z_SHEEP))
    s.apply(place(C.Z_COW))
    s.apply(PASS)  # seat 0 retires with 2 workers at home
    seq = []
    while decision(s) == Decision.PLACE:
        seq.append(s.current_player)
        s.apply(min(a for a in legal(s) if a != PASS))
    assert seq == [1, 1] and s.hut[0] == 2


def test_mit21_legal_targets_are_free_spaces_and_own_fields():
    """MIT-21: every zone with a free space is offered (before Strike or limits bite)."""
    s = new_game(4, seed=1)
    expected = {place(z) for z in range(len(C.ZONES)) if z != C.Z_DEV}
    expected |= {place_dev(k) for k in range(5)} | {PLACE_PAIR_FOREST, PLACE_PAIR_CROPS}
    expected |= {cell(C.PRINTED_APPLE_CELL), PASS}
    assert legal(s) == expected


def test_mit25_development_cards_come_only_from_the_development_spots():
    """MIT-25: over random games, a player's development cards change only while the
    Developments step (step 10) resolves a worker on a development spot."""
    for seed in range(15):
        s = new_game(2 + seed % 3, seed=seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            before = [sum(d) for d in s.devs]
            stage_before = s.stage
            actions = s.legal_actions()
            s.apply(actions[rng.integers(len(actions))])
            if [sum(d) for d in s.devs] != before:
                assert stage_before == Stage.DEVELOPMENTS


def test_pass_is_always_legal_in_placement():
    """G-29: PASS is always offered, so a player is never forced to place; four passes end the
    placement and, with nobody on the board, the next round's placement follows."""
    s = scenario(4, money=[0, 0, 0, 0])
    for _ in range(4):
        assert decision(s) == Decision.PLACE and PASS in legal(s)
        s.apply(PASS)
    assert s.round == 2 and decision(s) == Decision.PLACE
