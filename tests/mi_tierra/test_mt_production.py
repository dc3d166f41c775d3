"""Scenario tests T-21, T-22, T-23, T-24, T-25, T-26, T-27, T-28, T-29, T-30, T-31, T-32, T-33,
T-34, T-35, T-36, T-37, T-38, T-39, T-40, T-41, T-42, T-43: the production areas, activation steps
1-12 (MIT-26, MIT-27, MIT-28, MIT-29, MIT-30, MIT-31, MIT-32, MIT-33, MIT-34, MIT-35, MIT-36,
MIT-37, MIT-38, MIT-39, MIT-40, MIT-41, MIT-42, MIT-43, MIT-44, MIT-45, MIT-46, MIT-47, MIT-48,
MIT-49, MIT-50, MIT-51, MIT-52, MIT-53, MIT-54, MIT-55, MIT-56, MIT-57)."""

from __future__ import annotations

import numpy as np
import pytest
from mt_helpers import decision, legal, pass_until

from huerta.envs.core.errors import IllegalActionError
from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import new_game
from huerta.envs.mi_tierra.actions import (
    CHOICE0,
    PASS,
    Decision,
    Stage,
    cell,
    choice,
    place,
)
from huerta.envs.mi_tierra.market import draw
from huerta.envs.mi_tierra.scenario import CardPicker, scenario, space

FOREST = space("forest", 0)
SHEEP = space("sheep", 0)
CROPS = space("crops", 0)
COW = space("cow", 0)
HEN = space("henhouse", 0)
SQUARE = space("square", 0)
APF = space("animal_products", 0)
CLOCK = space("clock_tower", 0)
BAKERY = space("bakery", 0)
DEV_N, DEV_W, DEV_C, DEV_E, DEV_S = (space("developments", k) for k in range(5))
FLOUR_WINE = space("flour_wine", 0)
CLOTH = space("cloth", 0)


def past(s, stage: Stage) -> bool:
    """The round has moved beyond `stage` (possibly into the next round)."""
    return s.round > 1 or s.stage > stage


def test_t21_forest_roll():
    """T-21 (MIT-30, MIT-32, G-11): faces 1-3 give a capacity-2 barnyard, 4-6 capacity 3; the
    player puts it on an empty cell."""
    for face, tile in ((2, C.T_BARN2), (5, C.T_BARN3)):
        s = scenario(2, board={FOREST: 0}, start=Stage.FOREST)
        assert s.chance_pending and s.current_player == -1
        assert s.chance_outcomes() == [(f, 1 / 6) for f in range(1, 7)]
        s.apply_chance(face)
        assert decision(s) == Decision.TILE
        assert legal(s) == {cell(c) for c in range(12) if c != C.PRINTED_APPLE_CELL}
        s.apply(cell(0))
        assert s.tiles[0][0] == tile
        assert s.space_owner[FOREST] == -1 and s.hut[0] == 3  # MIT-28


def test_t22_forest_pair_chooses_without_a_die():
    """T-22 (MIT-31, G-14): a pair chooses capacity 2 or 3; no die is rolled."""
    s = scenario(2, board={FOREST: (0, True)}, start=Stage.FOREST)
    assert not s.chance_pending and decision(s) == Decision.FOREST_PAIR
    assert legal(s) == {choice(0), choice(1)}
    rng_state = s.rng.bit_generator.state
    s.apply(choice(1))
    s.apply(cell(4))
    assert s.tiles[0][4] == C.T_BARN3 and s.hut[0] == 3
    assert s.rng.bit_generator.state == rng_state


def test_t23_forest_before_sheep():
    """T-23 (MIT-26, G-04): the Forest acts before the Sheep Barnyard, so a new barnyard houses
    the sheep of the same round."""
    s = scenario(2, board={FOREST: 0, SHEEP: 0}, start=Stage.FOREST)
    s.apply_chance(6)
    s.apply(cell(0))
    assert s.stage == Stage.SHEEP
    s.apply_chance(5)
    assert s.goods[0][C.SHEEP] == 3 and s.goods[0][C.MEAT] == 0
    assert s.barn_count[0][0] == 3 and s.barn_kind[0][0] == C.SHEEP


def test_t24_sheep_overflow_becomes_meat():
    """T-24 (MIT-33, MIT-34, G-12, G-23): a capacity-2 barnyard with 1 sheep; 3 more sheep: 1
    fits, 2 become meat."""
    s = scenario(2, barns={0: {0: (2, "sheep", 1)}}, board={SHEEP: 0}, start=Stage.SHEEP)
    s.apply_chance(5)
    assert s.goods[0][C.SHEEP] == 2 and s.goods[0][C.MEAT] == 2


def test_t25_one_kind_per_barnyard():
    """T-25 (MIT-35, MIT-41): the only barnyard holds a sheep, so 2 cows become 2 meat."""
    s = scenario(2, barns={0: {0: (3, "sheep", 1)}}, board={COW: 0}, start=Stage.COW)
    s.apply_chance(4)
    assert s.goods[0][C.COW] == 0 and s.goods[0][C.MEAT] == 2
    assert s.barn_kind[0][0] == C.SHEEP


def test_t26_housing_algorithm():
    """T-26 (G-22): 2 sheep go to the smallest empty barnyard that holds them (cell 0, capacity
    2); then 3 cows go to the capacity-3 barnyard."""
    s = scenario(2, barns={0: {0: (2, None, 0), 1: (3, None, 0)}},
                 board={SHEEP: 0, COW: 0}, start=Stage.SHEEP)
    s.apply_chance(3)
    assert s.barn_count[0][:2] == [2, 0] and s.barn_kind[0][0] == C.SHEEP
    s.apply_chance(6)
    assert s.barn_count[0][:2] == [2, 3] and s.barn_kind[0][1] == C.COW
    assert s.goods[0][C.MEAT] == 0


def test_g22_largest_barnyard_when_none_holds_all():
    """G-22: 3 sheep and only capacity-2 barnyards: fill one, then the next."""
    s = scenario(2, barns={0: {0: (2, None, 0), 1: (2, None, 0)}}, board={SHEEP: 0},
                 start=Stage.SHEEP)
    s.apply_chance(6)
    assert s.barn_count[0][:2] == [2, 1] and s.goods[0][C.SHEEP] == 3


def test_t27_henhouse_and_hens():
    """T-27 (MIT-42, G-19): henhouse 5/6, the white die shows 6 (4 hens): 6/6 and 3 meat."""
    s = scenario(2, goods={0: {"hen": 5}}, board={HEN: 0}, start=Stage.HENHOUSE)
    s.apply_chance(6)
    assert s.goods[0][C.HEN] == 6 and s.goods[0][C.MEAT] == 3


@pytest.mark.parametrize("face, sheep, cows, hens", [
    (1, 1, 1, 1), (2, 1, 1, 1), (3, 2, 1, 2), (4, 2, 2, 2), (5, 3, 2, 3), (6, 3, 3, 4),
])
def test_g12_animal_tables(face, sheep, cows, hens):
    """G-12: the sheep, cow and (white-die) hen tables, read with plenty of room."""
    s = scenario(2, barns={0: {0: (3, None, 0), 1: (3, None, 0)}},
                 board={SHEEP: 0, COW: 0, HEN: 0}, start=Stage.SHEEP)
    s.apply_chance(face)
    s.apply_chance(face)
    s.apply_chance(face)
    assert (s.goods[0][C.SHEEP], s.goods[0][C.COW], s.goods[0][C.HEN]) == (sheep, cows, hens)


def test_t28_hire_a_worker():
    """T-28 (MIT-36, G-27): a worker at the Square hires one more: 4 owned, both in the hut;
    the new worker pays upkeep ($2) at the next Phase 2."""
    s = scenario(2, board={SQUARE: 0}, money=[10, 10], start=Stage.SQUARE)
    assert s.owned[0] == 4 and s.hut[0] == 4
    pass_until(s, Stage.UPKEEP, Decision.UPKEEP)
    s.apply(PASS)
    assert s.money[0] == 8 and s.owned[0] == 4


@pytest.mark.parametrize("face, tile", [
    (1, C.T_APPLE), (4, C.T_APPLE), (2, C.T_WHEAT), (5, C.T_WHEAT), (3, C.T_GRAPE),
    (6, C.T_GRAPE),
])
def test_t29_crop_faces(face, tile):
    """T-29 (MIT-38, G-13): 1/4 apples, 2/5 wheat, 3/6 grapes."""
    s = scenario(2, board={CROPS: 0}, start=Stage.CROPS)
    s.apply_chance(face)
    s.apply(cell(7))
    assert s.tiles[0][7] == tile


def test_t30_crops_pair_chooses():
    """T-30 (MIT-39): a Crops pair chooses a grape field; no die is rolled."""
    s = scenario(2, board={CROPS: (0, True)}, start=Stage.CROPS)
    assert decision(s) == Decision.CROPS_PAIR and not s.chance_pending
    assert legal(s) == {choice(0), choice(1), choice(2)}
    s.apply(choice(2))
    s.apply(cell(6))
    assert s.tiles[0][6] == C.T_GRAPE and s.hut[0] == 3


def test_t31_tile_targets_and_replacement():
    """T-31 (MIT-40, MIT-56, G-20): with one empty cell the tile goes there or replaces a
    non-printed tile without a worker; discarding is not allowed. With a full grid discarding
    is allowed; cell 5 and a worked field are never offered."""
    full = {c: "wheat" for c in range(12) if c not in (5, 11)}
    s = scenario(2, fields={0: full}, board={CROPS: 0}, farm_workers={0: [0]},
                 start=Stage.CROPS)
    s.apply_chance(1)
    assert legal(s) == {cell(c) for c in range(1, 12) if c != 5}
    with pytest.raises(IllegalActionError, match="must go on a farm cell"):
        s.apply(PASS)
    with pytest.raises(IllegalActionError, match="printed apple field is never replaced"):
        s.apply(cell(5))
    s.apply(cell(3))  # replace a wheat field by an apple field
    assert s.tiles[0][3] == C.T_APPLE
    full[11] = "grape"
    s = scenario(2, fields={0: full}, board={CROPS: 0}, farm_workers={0: [0]},
                 start=Stage.CROPS)
    s.apply_chance(3)
    assert legal(s) == {PASS} | {cell(c) for c in range(1, 12) if c != 5}
    before = list(s.tiles[0])
    s.apply(PASS)
    assert s.tiles[0] == before


def test_t32_replacing_a_stocked_barnyard():
    """T-32 (G-21): a wheat field replaces a barnyard with 2 cows: one cow moves to the other
    barnyard (1 -> 2), the other becomes meat."""
    s = scenario(2, barns={0: {0: (3, "cow", 2), 1: (2, "cow", 1)}}, board={CROPS: 0},
                 start=Stage.CROPS)
    s.apply_chance(2)
    s.apply(cell(0))
    assert s.tiles[0][0] == C.T_WHEAT and s.barn_count[0][1] == 2
    assert s.goods[0][C.COW] == 2 and s.goods[0][C.MEAT] == 1


def test_t33_animal_products_factory():
    """T-33 (MIT-43, MIT-44, G-31): 3 sheep, 2 cows, 3 hens and $7: pay $5 for wool and milk (no
    egg: that needs 4 hens); the animals stay."""
    s = scenario(2, barns={0: {0: (3, "sheep", 3), 1: (2, "cow", 2)}}, goods={0: {"hen": 3}},
                 money=[7, 7], board={APF: 0}, start=Stage.ANIMAL_PRODUCTS)
    assert decision(s) == Decision.ANIMAL_PRODUCTS and legal(s) == {PASS, CHOICE0}
    s.apply(CHOICE0)
    g = s.goods[0]
    assert s.money[0] == 2 and (g[C.WOOL], g[C.MILK], g[C.EGG]) == (1, 1, 0)
    assert (g[C.SHEEP], g[C.COW], g[C.HEN]) == (3, 2, 3)


def test_t34_animal_products_impossible_is_skipped():
    """T-34 (G-30): nothing qualifies, or only $4: the worker does nothing and goes home."""
    for money, sheep in ((10, 2), (4, 3)):
        s = scenario(2, barns={0: {0: (3, "sheep", sheep)}}, money=[money, 5],
                     board={APF: 0}, start=Stage.ANIMAL_PRODUCTS)
        assert past(s, Stage.ANIMAL_PRODUCTS) and s.money[0] == money
        assert s.goods[0][C.WOOL] == 0 and s.hut[0] == 3


def _clock_state(board, pile_codes):
    """The Clock Tower step; a Bakery worker of seat 1 stops the run right after it, before
    the next round draws from the pile."""
    return scenario(2, board={**board, BAKERY: 1}, pile=pile_codes, est=["A01", "A03"],
                    goods={1: {"milk": 1, "egg": 2}}, money=[10, 10], start=Stage.CLOCK_TOWER)


def test_t35_clock_tower_alone_reorders():
    """T-35 (MIT-46, G-35): P1 alone (both spaces) sees the top 4 and puts them back as c3, c1,
    c4, c2; the next draws follow that order; P1 knows it, P2 knows nothing."""
    codes = ["A05", "A07", "A09", "A10", "A11"]
    s = _clock_state({CLOCK: 0, CLOCK + 1: 0}, codes)
    pick = CardPicker()
    c1, c2, c3, c4, c5 = (pick(code) for code in codes)
    assert decision(s) == Decision.CLOCK_ORDER and s.current_player == 0
    assert s.known[0] == [c1, c2, c3, c4] and s.known[1] == []
    s.apply(choice(2))  # c3 on top
    s.apply(choice(0))  # then c1
    s.apply(choice(1))  # then c4 (c2 last, placed by itself)
    assert decision(s) != Decision.CLOCK_ORDER
    assert s.known[0] == [c3, c1, c4, c2] and s.known[1] == []
    assert [draw(s) for _ in range(5)] == [c3, c1, c4, c2, c5]


def test_t36_clock_tower_shared_no_reorder():
    """T-36 (MIT-45, MIT-46): P1 and P2 one worker each: both see the same 4 cards, nobody
    reorders, the pile is unchanged."""
    codes = ["A05", "A07", "A09", "A10", "A11"]
    s = _clock_state({CLOCK: 0, CLOCK + 1: 1}, codes)
    pick = CardPicker()
    ids = [pick(code) for code in codes]
    assert decision(s) == Decision.BAKERY
    assert s.known[0] == s.known[1] == ids[:4]
    assert s.pile[::-1] == ids


def test_t37_short_pile_peek():
    """T-37 (G-35): a pile of 2 cards shows 2."""
    s = _clock_state({CLOCK: 0, CLOCK + 1: 1}, ["A05", "A07"])
    assert len(s.known[0]) == 2 and len(s.known[1]) == 2


def test_g35_reorder_erases_others_order_knowledge():
    """G-35: a player who peeked earlier keeps only the set of the cards once a sole peeker
    could have rearranged them (it cannot see whether they were)."""
    codes = ["A05", "A07", "A09", "A10", "A11"]
    s = _clock_state({CLOCK: 0}, codes)
    pick = CardPicker()
    ids = [pick(code) for code in codes]
    s2 = s.clone()
    s2.known[1] = ids[:3]  # P2 had peeked in an earlier round (3 of them left)
    s2.apply(PASS)  # P1 keeps the order
    assert s2.known[1] == [] and sorted(s2.known_set[1]) == sorted(ids[:3])
    assert s2.known_depth[1] == 4


def test_t38_bakery():
    """T-38 (MIT-47): 2 milk, 4 eggs, $20, one worker: one cake, $12, 1 milk and 2 eggs left."""
    s = scenario(2, goods={0: {"milk": 2, "egg": 4}}, money=[20, 5], board={BAKERY: 0},
                 start=Stage.BAKERY)
    s.apply(CHOICE0)
    assert s.cake[0] == 1 and s.money[0] == 12
    assert (s.goods[0][C.MILK], s.goods[0][C.EGG]) == (1, 2)
    assert past(s, Stage.BAKERY)  # at most one cake per worker


def test_t39_development_cost_by_touching():
    """T-39 (MIT-48, MIT-49, MIT-50, MIT-51, G-36): order P1, P2; P1 on C (placed later), P2 on N.
    P1 acts first (turn order), pays $4 for 4 touched cards and takes TL; P2 on N now touches
    only TR and pays $1. With P2 first: P2 pays $2 (N), P1 $3 (C)."""
    s = scenario(3, board={DEV_N: 1, DEV_C: 0}, money=[10, 10, 10], order=[0, 1, 2],
                 display=[0, 1, 2, 3], start=Stage.DEVELOPMENTS)
    assert s.current_player == 0 and s.dev_cost == 4
    assert legal(s) == {PASS} | {choice(k) for k in range(4)}
    s.apply(choice(0))
    assert s.money[0] == 6 and s.devs[0][0] and s.display[0] == -1
    assert s.current_player == 1 and s.dev_cost == 1 and legal(s) == {PASS, choice(1)}
    s.apply(choice(1))
    assert s.money[1] == 9 and s.devs[1][1]
    s = scenario(3, board={DEV_N: 1, DEV_C: 0}, money=[10, 10, 10], order=[1, 0, 2],
                 display=[0, 1, 2, 3], start=Stage.DEVELOPMENTS)
    assert s.current_player == 1 and s.dev_cost == 2
    s.apply(choice(0))
    assert s.current_player == 0 and s.dev_cost == 3
    s.apply(choice(3))
    assert (s.money[1], s.money[0]) == (8, 7)


def test_t40_development_empty_unaffordable_decline():
    """T-40 (MIT-52, G-38): a spot touching no card does nothing; $1 at the centre of a full
    display leaves only declining (done at once); declining with money costs nothing."""
    s = scenario(2, board={DEV_N: 0}, money=[10, 10], display=[-1, -1, 2, 3],
                 start=Stage.DEVELOPMENTS)
    assert past(s, Stage.DEVELOPMENTS) and s.money[0] == 10
    s = scenario(3, board={DEV_C: 0}, money=[1, 10, 10], display=[0, 1, 2, 3],
                 start=Stage.DEVELOPMENTS)
    assert past(s, Stage.DEVELOPMENTS) and s.money[0] == 1 and not any(s.devs[0])
    s = scenario(2, board={DEV_S: 0}, money=[10, 10], display=[0, 1, 2, 3],
                 start=Stage.DEVELOPMENTS)
    assert legal(s) == {PASS, choice(2), choice(3)}
    s.apply(PASS)
    assert s.money[0] == 10 and not any(s.devs[0]) and s.display == [0, 1, 2, 3]


def test_t41_flour_and_wine_for_one_payment():
    """T-41 (MIT-53, MIT-54): 6 wheat, 3 grapes, $5: both for $5; never 2 flour per worker."""
    s = scenario(2, goods={0: {"wheat": 6, "grape": 3}}, money=[5, 5], board={FLOUR_WINE: 0},
                 start=Stage.FLOUR_WINE)
    assert legal(s) == {PASS, choice(0), choice(1), choice(2)}
    s.apply(choice(2))
    g = s.goods[0]
    assert (g[C.WHEAT], g[C.GRAPE], g[C.FLOUR], g[C.WINE], s.money[0]) == (3, 0, 1, 1, 0)
    assert past(s, Stage.FLOUR_WINE)


def test_mit53_flour_only():
    """MIT-53: 3 wheat and $5 make one flour; wine needs 3 grapes (masked with 2)."""
    s = scenario(2, goods={0: {"wheat": 3, "grape": 2}}, money=[9, 5], board={FLOUR_WINE: 0},
                 start=Stage.FLOUR_WINE)
    assert legal(s) == {PASS, choice(0)}
    s.apply(choice(0))
    assert s.goods[0][C.FLOUR] == 1 and s.goods[0][C.WHEAT] == 0 and s.money[0] == 4


def test_t42_cloth():
    """T-42 (MIT-55): 3 wool and $7 make one cloth; with 2 wool the worker does nothing."""
    s = scenario(2, goods={0: {"wool": 3}}, money=[7, 5], board={CLOTH: 0}, start=Stage.CLOTH)
    s.apply(CHOICE0)
    assert s.cloth[0] == 1 and s.money[0] == 0 and s.goods[0][C.WOOL] == 0
    s = scenario(2, goods={0: {"wool": 2}}, money=[7, 5], board={CLOTH: 0}, start=Stage.CLOTH)
    assert past(s, Stage.CLOTH) and s.cloth[0] == 0


def test_t43_strike_closes_the_factories():
    """T-43 (MIT-105, G-33, G-65): with Strike in force the four factories are masked in
    placement; the Mill still converts at step 13."""
    s = scenario(2, est=["A01", "A03"], pile=["A05"], event="strike",
                 devs={0: [C.MILL]}, goods={0: {"wheat": 2}}, fields={0: {6: "wheat"}})
    for zone in C.FACTORY_ZONES:
        assert place(zone) not in legal(s)
        with pytest.raises(IllegalActionError, match="Strike"):
            s.apply(place(zone))
    assert place(C.Z_SHEEP) in legal(s)
    s.apply(PASS)
    s.apply(PASS)
    assert decision(s) == Decision.MILL
    s.apply(choice(0))
    assert s.goods[0][C.FLOUR] == 1 and s.goods[0][C.WHEAT] == 0


def test_mit26_activation_follows_the_numbered_steps():
    """MIT-26, G-04: decisions come up step by step in the fixed order (Forest … Cloth, farms,
    markets), never going back within a round."""
    board = {FOREST: 0, APF: 0, BAKERY: 1, DEV_N: 0, FLOUR_WINE: 1, CLOTH: 0,
             space("est_market", 0): 1}
    s = scenario(3, board=board, money=[30, 30, 30], barns={0: {0: (3, "sheep", 3)}},
                 goods={0: {"wool": 3}, 1: {"milk": 1, "egg": 2, "wheat": 3, "apple": 1}},
                 est=["A01", "A03", "A05"], pile=["A07", "A09"], start=Stage.FOREST)
    stages = []
    while s.round == 1:
        if s.chance_pending:
            s.apply_chance(1)
            continue
        stages.append((Stage(s.stage), Decision(s.decision)))
        actions = s.legal_actions()
        s.apply(actions[-1] if actions[-1] != PASS else PASS)
    order = [st for st, _ in stages]
    assert order == sorted(order)
    seen = [st for st, _ in stages]
    for expected in (Stage.FOREST, Stage.ANIMAL_PRODUCTS, Stage.BAKERY, Stage.DEVELOPMENTS,
                     Stage.FLOUR_WINE, Stage.CLOTH, Stage.EST_MARKET):
        assert expected in seen


def test_mit27_decorations_have_no_function():
    """MIT-27: the water mill, the rodeo and the animal exhibition market are no zone, space or
    action."""
    names = " ".join(z.name.lower() for z in C.ZONES) + " ".join(C.ZONE_KEYS)
    for decoration in C.DECORATIONS:
        assert decoration not in names
    assert C.NUM_SPACES == sum(z.spaces for z in C.ZONES) == 37


def test_mit32_mit40_tiles_never_move():
    """MIT-32, MIT-40, MIT-56: over random games a farm cell changes only when a new tile is put
    on it (Forest or Crops step), and then to that tile; no tile ever changes cell."""
    for seed in range(12):
        s = new_game(2 + seed % 3, seed=seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            before = [list(t) for t in s.tiles]
            stage_before, dec, pending = s.stage, s.decision, s.pending_tile
            actions = s.legal_actions()
            action = actions[rng.integers(len(actions))]
            s.apply(action)
            changed = [(p, c) for p in range(s.num_players) for c in range(12)
                       if s.tiles[p][c] != before[p][c]]
            if changed:
                assert dec == Decision.TILE and stage_before in (Stage.FOREST, Stage.CROPS)
                assert len(changed) == 1 and changed[0][1] == action - cell(0)
                p, c = changed[0]
                assert s.tiles[p][c] == pending


def test_dice_are_fair_d6_from_the_games_generator():
    """G-10: every roll is a fair d6 drawn from the game's own generator: faces 1-6 only, each
    about a sixth of 60,000 rolls (within 4 standard deviations), and the same generator state
    gives the same rolls."""
    from huerta.envs.mi_tierra.flow import roll_die

    rng = np.random.default_rng(12)
    rolls = [roll_die(rng) for _ in range(60_000)]
    counts = np.bincount(rolls, minlength=7)
    assert counts[0] == 0 and counts.sum() == 60_000 and max(rolls) == 6
    sd = (60_000 * (1 / 6) * (5 / 6)) ** 0.5
    assert np.all(np.abs(counts[1:] - 10_000) < 4 * sd), counts
    again = np.random.default_rng(12)
    assert [roll_die(again) for _ in range(100)] == rolls[:100]
