"""Scenario tests T-01, T-02, T-03, T-04 and T-50 of seeds/finca.md (Scenario tests): setup,
introduction phase, and the public observation (rule clauses FIN-01, FIN-02, FIN-03, FIN-04, FIN-05,
FIN-06, FIN-07, FIN-08, FIN-09, FIN-10, FIN-11, FIN-12, FIN-13, FIN-14, FIN-15)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from finca_helpers import bonus_flags, community_rows, legal

from huerta.envs import finca_v0
from huerta.envs.core.errors import IllegalActionError, InvalidConfigError
from huerta.envs.finca import components as C
from huerta.envs.finca import new_game
from huerta.envs.finca.actions import (
    CONFIRM,
    DELIVER,
    PLAY_DOUBLE,
    PLAY_GUST,
    PLAY_LARGE,
    PLAY_ONELESS,
    Phase,
    blade,
)
from huerta.envs.finca.observation import SLICES

SETUP_TABLE = {  # players: (farmers each, carts in play, wooden fincas)
    2: (5, 4, 4),
    3: (4, 6, 5),
    4: (3, 8, 6),
}


def can_pay(tile: C.FruitTile, fruits: list[int], cap: int) -> bool:
    """Independent exact-payment check (no reduction): fixed symbols plus all wilds of one type."""
    if tile.size > cap or any(tile.fixed[f] > fruits[f] for f in range(6)):
        return False
    if not tile.wild:
        return True
    return any(fruits[f] - tile.fixed[f] >= tile.wild for f in range(6))


# --- FIN-01 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 5, 6])
def test_fin01_bad_player_counts_are_refused(n):
    """FIN-01: only 2 to 4 players; other counts raise, for the env and the engine."""
    with pytest.raises(InvalidConfigError):
        finca_v0.env(num_players=n)
    with pytest.raises(ValueError):
        new_game(n, seed=0)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_fin01_good_player_counts_reset(n):
    """FIN-01: 2, 3 and 4 players reset fine and give one agent per seat."""
    e = finca_v0.env(num_players=n)
    e.reset(seed=3)
    assert e.agents == [f"player_{i}" for i in range(n)]
    assert e.agent_selection == "player_0"
    assert e.observe("player_0")["action_mask"].sum() == 12


# --- T-01 / T-02: setup -------------------------------------------------------------------------


def test_fin02_component_totals():
    """FIN-02: 12 blades, 42 fruit tiles, 10 finca tiles, 4 action tiles per player (16 in the
    box), bonus tiles 4/5/6/7, 8 carts, 6 wooden fincas, 18 of each of 6 fruits, 5 farmers max."""
    assert C.NUM_BLADES == 12 and len(C.BLADE_FRUITS) == 12
    assert len(C.FRUIT_TILES) == 42 and len({t.tile_id for t in C.FRUIT_TILES}) == 42
    assert len(C.FINCA_TILES) == 10
    assert len(C.ACTION_TILES) == 4 and 4 * len(C.ACTION_TILES) == 16
    assert sorted(C.BONUS_VALUES_TOP_FIRST) == [4, 5, 6, 7]
    assert C.TOTAL_CARTS == 8 and C.TOTAL_WOODEN_FINCAS == 6
    assert C.FRUITS_PER_TYPE * C.NUM_FRUITS == 108
    assert C.MAX_FARMERS_PER_COLOUR == 5
    # the largest player count uses every cart and wooden finca, never more than exist
    s = new_game(4, seed=1)
    assert s.centre_carts == C.TOTAL_CARTS and s.wooden_reserve == C.TOTAL_WOODEN_FINCAS
    assert sum(len(u) for u in s.unused) == 16
    for farmers, carts, wooden in SETUP_TABLE.values():
        assert farmers <= C.MAX_FARMERS_PER_COLOUR and carts <= 8 and wooden <= 6


@pytest.mark.parametrize("seed", [0, 1, 2, 17])
def test_t01_reset_two_players(seed):
    """T-01 (FIN-02, FIN-03, FIN-04, FIN-05, FIN-06, FIN-07, FIN-08, FIN-09, FIN-10, FIN-11,
    G-01): a fresh 2-player game is in INTRO with P0 to act and every pool at its setup count."""
    e = finca_v0.env(num_players=2)
    e.reset(seed=seed)
    s = e.unwrapped.game
    assert s.phase == Phase.INTRO and s.current_player == 0
    assert e.agent_selection == "player_0"
    mask = e.observe("player_0")["action_mask"]
    assert set(np.flatnonzero(mask).tolist()) == set(range(12))  # exactly the 12 BLADE ids
    assert not e.observe("player_1")["action_mask"].any()
    # FIN-09: 5 farmers each, none on the windmill yet
    assert s.farmer_counts == [5, 5] and s.intro_left == 10
    assert all(sum(f) == 0 for f in s.farmers)
    # FIN-07: all 108 fruits in the supply, holdings empty; FIN-11: 4 carts in the centre
    assert s.supply == [18] * 6 and sum(s.supply) == 108
    assert s.fruits == [[0] * 6, [0] * 6]
    assert s.carts == [0, 0] and s.centre_carts == 4
    # FIN-06: 4 wooden fincas in reserve, none on the board
    assert s.wooden_reserve == 4 and not any(s.wooden)
    # FIN-08: four unused action tiles per player
    assert s.unused == [[True] * 4, [True] * 4]
    assert s.scores() == [8, 8]
    # FIN-10: bonus stack 7 on top, then 6, 5, 4 (stack top is last)
    assert list(reversed(s.bonus_stack)) == [7, 6, 5, 4]
    obs = e.observe("player_0")["observation"]
    sup = obs[SLICES["supply"]]
    assert np.allclose(sup[:6], 1.0) and sup[6] == pytest.approx(4 / 8)
    assert bonus_flags(obs) == [1.0] * 4
    # FIN-04: 10 stacks of 4 (one face-up each), 2 boxed, 42 distinct ids
    assert [len(st) for st in s.stacks] == [4] * 10 and len(s.boxed) == 2
    ids = [t for st in s.stacks for t in st] + s.boxed
    assert sorted(ids) == list(range(42))
    rows = community_rows(obs)
    for c, st in enumerate(s.stacks):
        top = C.FRUIT_TILES[st[-1]]
        assert rows[c, 0] == 1.0  # a visible top
        assert np.allclose(rows[c, 1:7], np.array(top.fixed) / 6)
        assert rows[c, 7] == pytest.approx(top.wild / 6)
        assert rows[c, 14] == pytest.approx(1.0)  # 3 hidden beneath (/3)
    unseen = obs[SLICES["unseen_tiles"]] * np.array(C.KIND_COPIES)  # copies unseen per kind
    assert unseen.sum() == pytest.approx(32)  # 30 hidden in stacks + 2 boxed
    hidden = [t for st in s.stacks for t in st[:-1]] + s.boxed
    expected = np.bincount([C.TILE_KIND[t] for t in hidden], minlength=len(C.FRUIT_TILE_KINDS))
    assert np.allclose(unseen, expected)
    # FIN-05: the finca tiles are a permutation over the communities, visible in obs
    assert sorted(s.finca_tile) == list(range(10))
    for c, fid in enumerate(s.finca_tile):
        finca = C.FINCA_TILES[fid]
        assert rows[c, 15:21].tolist() == [1.0 if f in finca.fruits else 0.0 for f in range(6)]
        assert rows[c, 21] == (1.0 if finca.universal else 0.0)
    # FIN-03 / G-01: each fruit on exactly two blades, visible in the observation
    assert Counter(s.blades) == {f: 2 for f in range(6)}
    blade_obs = obs[SLICES["blade_fruit"]].reshape(12, 6)
    assert blade_obs.argmax(axis=1).tolist() == s.blades
    assert check_clean(s)


def check_clean(s) -> bool:
    problems = s.check_consistency()
    assert problems == []
    return True


def test_fin03_blades_visible_to_everyone_and_vary_with_seed():
    """FIN-03: the blade layout is in every agent's observation and differs across seeds."""
    layouts = set()
    for seed in range(8):
        s = new_game(3, seed=seed)
        layouts.add(tuple(s.blades))
        for p in range(3):
            obs = s.observe(p)
            assert obs[SLICES["blade_fruit"]].reshape(12, 6).argmax(axis=1).tolist() == s.blades
    assert len(layouts) > 1


@pytest.mark.parametrize("n", [3, 4])
def test_t02_three_and_four_players(n):
    """T-02 (FIN-06, FIN-09, FIN-11, G-35): farmers 4/3, centre 6/8, reserve 5/6; carts not in
    play never appear in any pool, even through random play with cart resets."""
    farmers, carts, wooden = SETUP_TABLE[n]
    s = new_game(n, seed=5)
    assert s.farmer_counts == [farmers] * n and s.intro_left == farmers * n == 12
    assert s.centre_carts == carts and s.carts == [0] * n
    assert s.wooden_reserve == wooden
    assert s.check_consistency() == []
    rng = np.random.default_rng(n)
    for _ in range(400):
        if s.is_terminal:
            break
        s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
        assert s.centre_carts + sum(s.carts) == carts
        assert 0 <= s.centre_carts <= carts


# --- T-03 / T-04: introduction -------------------------------------------------------------------


def test_t03_intro_placement_gives_one_fruit():
    """T-03 (FIN-13, FIN-14): P0 places on an empty olive blade -> +1 olive, no cart, P1 to act;
    P1 places on the same blade (now 2 farmers) and still gets exactly 1 olive."""
    s = new_game(2, seed=11)
    b = s.blades.index(C.OLIVE)
    s.apply(blade(b))
    assert s.fruits[0][C.OLIVE] == 1 and sum(s.fruits[0]) == 1
    assert s.supply[C.OLIVE] == 17
    assert s.carts == [0, 0] and s.centre_carts == 4
    assert s.current_player == 1 and s.phase == Phase.INTRO
    # FIN-13: every blade is legal, including the occupied one
    assert legal(s) == set(range(12))
    s.apply(blade(b))
    assert s.blade_total[b] == 2
    assert s.fruits[1][C.OLIVE] == 1 and sum(s.fruits[1]) == 1
    assert s.supply[C.OLIVE] == 16
    assert s.carts == [0, 0]
    assert s.check_consistency() == []


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 9])
def test_t04_intro_order_and_main_phase_start(n, seed):
    """T-04 (FIN-12, FIN-13, FIN-14, FIN-15): placements go P0, P1, … for players × farmers turns,
    each +1 fruit of the blade and no cart; then MAIN starts with P0, whose mask allows own
    blades, PLAY_DOUBLE and PLAY_GUST, not DELIVER/PLAY_ONELESS (no cart), and PLAY_LARGE iff a
    top tile can be paid from the fruits received while placing."""
    farmers, carts, _ = SETUP_TABLE[n]
    e = finca_v0.env(num_players=n)
    e.reset(seed=seed)
    s = e.unwrapped.game
    rng = np.random.default_rng(seed + 100)
    order = []
    for k in range(n * farmers):
        agent = e.agent_selection
        p = int(agent.split("_")[1])
        order.append(p)
        assert s.phase == Phase.INTRO
        mask = e.observe(agent)["action_mask"]
        assert set(np.flatnonzero(mask).tolist()) == set(range(12))
        b = int(rng.integers(12))
        before = list(s.fruits[p])
        e.step(blade(b))
        gained = [s.fruits[p][f] - before[f] for f in range(6)]
        expected = [0] * 6
        expected[s.blades[b]] = 1
        assert gained == expected  # FIN-14
        assert s.carts == [0] * n and s.centre_carts == carts
        if k < n * farmers - 1:
            assert s.phase == Phase.INTRO
    assert order == [k % n for k in range(n * farmers)]
    assert s.phase == Phase.MAIN
    assert e.agent_selection == "player_0" and s.current_player == 0
    assert [sum(f) for f in s.fruits] == [farmers] * n
    mask = legal(s)
    own = {b for b in range(12) if s.farmers[0][b] > 0}
    assert {a for a in mask if a < 12} == own
    assert PLAY_DOUBLE in mask and PLAY_GUST in mask
    assert DELIVER not in mask and PLAY_ONELESS not in mask and CONFIRM not in mask
    payable = any(
        can_pay(s.catalogue[st[-1]], s.fruits[0], C.LARGE_DELIVERY_CAP) for st in s.stacks if st
    )
    assert (PLAY_LARGE in mask) == payable
    with pytest.raises(IllegalActionError):
        s.apply(DELIVER)
    assert s.check_consistency() == []


# --- T-50: hidden information --------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 4])
def test_t50_face_down_order_is_not_observed(n):
    """T-50 (FIN-04, Hidden information and chance): two states that differ only in the order of
    face-down tiles and in which tiles are boxed give identical observations to every agent."""
    a = new_game(n, seed=21)
    b = a.clone()
    # permute the face-down tiles of every stack and swap a hidden tile with a boxed one
    for c in range(10):
        hidden = b.stacks[c][:-1]
        b.stacks[c][:-1] = hidden[::-1]
    b.stacks[0][0], b.boxed[0] = b.boxed[0], b.stacks[0][0]
    b.stacks[5][1], b.boxed[1] = b.boxed[1], b.stacks[5][1]
    b.invalidate()
    assert b.stacks != a.stacks and b.check_consistency() == []
    for p in range(n):
        assert np.array_equal(a.observe(p), b.observe(p))
    # also after the same intro placements
    for k in range(a.intro_left):
        a.apply(blade(k % 12))
        b.apply(blade(k % 12))
    for p in range(n):
        assert np.array_equal(a.observe(p), b.observe(p))
