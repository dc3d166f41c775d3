"""Scenario tests T-44, T-45, T-46, T-47, T-48, T-49, T-50, T-51, T-52, T-53, T-54: personal farms
and development cards (MIT-58, MIT-59, MIT-60, MIT-61, MIT-62, MIT-63, MIT-64, MIT-65, MIT-66,
MIT-67, MIT-68, MIT-69, MIT-70, MIT-71, MIT-72, MIT-73, MIT-74, MIT-75, MIT-76, MIT-77)."""

from __future__ import annotations

import pytest
from mt_helpers import decision, legal

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import CHOICE0, PASS, Decision, Stage, cell, choice
from huerta.envs.mi_tierra.scenario import scenario, space


def farm(fields, workers, devs=(), goods=None, event=None, barns=None, n=2, **kw):
    """Player 0's farm activation (step 13) with the given fields and workers."""
    extra = {"est": ["A01", "A03"][:n], "pile": ["A05"], "event": event} if event else {}
    return scenario(n, fields={0: fields}, farm_workers={0: list(workers)},
                    devs={0: list(devs)}, goods={0: goods or {}}, barns={0: barns or {}},
                    start=Stage.FARMS, **extra, **kw)


def test_t44_single_field():
    """T-44 (MIT-59): a worker on the lone printed apple field harvests 1 apple."""
    s = farm({}, [5])
    assert s.goods[0][C.APPLE] == 1 and s.hut[0] == 3 and not any(s.farm_workers[0])


def test_t45_orthogonal_neighbour_doubles():
    """T-45 (MIT-60): apple fields at 5 and 6 share a side: the worker harvests 2."""
    s = farm({6: "apple"}, [5])
    assert s.goods[0][C.APPLE] == 2


def test_t46_diagonal_does_not_count():
    """T-46 (G-16): apple fields at 5 and 10 only touch at a corner: 1 apple."""
    s = farm({10: "apple"}, [5])
    assert s.goods[0][C.APPLE] == 1


def test_t46_other_crop_does_not_connect():
    """MIT-60: a wheat field next to the apple field does not double the apples."""
    s = farm({6: "wheat"}, [5])
    assert s.goods[0][C.APPLE] == 1


@pytest.mark.parametrize("fields, worker, tractor, harvest", [
    ({6: "apple", 7: "apple"}, 7, False, 2),
    ({6: "apple", 7: "apple"}, 7, True, 3),
    ({4: "apple", 6: "apple", 7: "apple"}, 4, True, 3),
    ({6: "apple"}, 6, True, 2),
])
def test_t47_cap_two_tractor_three(fields, worker, tractor, harvest):
    """T-47 (MIT-61, MIT-73, G-26, G-43): a worker harvests min(group, 2); with Tractor min(group,
    3)."""
    s = farm(fields, [worker], devs=[C.TRACTOR] if tractor else [])
    assert s.goods[0][C.APPLE] == harvest


def test_t48_workers_harvest_independently():
    """T-48 (G-26): wheat fields at 1 and 2, a worker on each: 2 + 2 wheat."""
    s = farm({1: "wheat", 2: "wheat"}, [1, 2])
    assert s.goods[0][C.WHEAT] == 4


def test_t49_fruit_fly():
    """T-49 (G-61, MIT-106, MIT-70): under Fruit Fly apple and grape fields yield nothing, wheat
    is normal; the owner of Insurance harvests normally."""
    s = farm({6: "grape", 1: "wheat"}, [5, 6, 1], event="fruit_fly")
    g = s.goods[0]
    assert (g[C.APPLE], g[C.GRAPE], g[C.WHEAT]) == (0, 0, 1)
    s = farm({6: "grape", 1: "wheat"}, [5, 6, 1], devs=[C.INSURANCE], event="fruit_fly")
    g = s.goods[0]
    assert (g[C.APPLE], g[C.GRAPE], g[C.WHEAT]) == (1, 1, 1)


def test_t50_product_cards():
    """T-50 (MIT-62, MIT-63, MIT-74, MIT-69, MIT-76, G-44): Shearer with 3 sheep gives a wool;
    Shearer Machine alone with 2 sheep gives nothing; both with 2 sheep give one wool (not two);
    Hen barnyard and Eggs Hens with 3 hens give one egg."""
    s = farm({}, [], devs=[C.SHEARER], barns={0: (3, "sheep", 3)})
    assert s.goods[0][C.WOOL] == 1 and s.goods[0][C.SHEEP] == 3
    s = farm({}, [], devs=[C.SHEARER_MACHINE], barns={0: (3, "sheep", 2)})
    assert s.goods[0][C.WOOL] == 0
    s = farm({}, [], devs=[C.SHEARER, C.SHEARER_MACHINE], barns={0: (3, "sheep", 2)})
    assert s.goods[0][C.WOOL] == 1
    s = farm({}, [], devs=[C.SHEARER], barns={0: (3, "sheep", 2)})
    assert s.goods[0][C.WOOL] == 0
    s = farm({}, [], devs=[C.HEN_BARNYARD, C.EGGS_HENS], goods={"hen": 3})
    assert s.goods[0][C.EGG] == 1 and s.goods[0][C.HEN] == 3
    s = farm({}, [], devs=[C.HEN_BARNYARD], goods={"hen": 3})
    assert s.goods[0][C.EGG] == 0


def test_mit69_hen_barnyard_four_hens():
    """MIT-69: Hen barnyard with 4 hens gives one egg; the hens stay."""
    s = farm({}, [], devs=[C.HEN_BARNYARD], goods={"hen": 4})
    assert s.goods[0][C.EGG] == 1 and s.goods[0][C.HEN] == 4


def test_mit64_milk_factory():
    """MIT-64: Milk factory with 2 cows gives a milk; cows stay; 1 cow gives nothing."""
    s = farm({}, [], devs=[C.MILK_FACTORY], barns={0: (2, "cow", 2)})
    assert s.goods[0][C.MILK] == 1 and s.goods[0][C.COW] == 2
    s = farm({}, [], devs=[C.MILK_FACTORY], barns={0: (2, "cow", 1)})
    assert s.goods[0][C.MILK] == 0


def test_t51_breeding_overflow_becomes_meat():
    """T-51 (MIT-67, G-46): Sheep Breeding with 3 sheep filling the only barnyard: +1 meat."""
    s = farm({}, [], devs=[C.SHEEP_BREEDING], barns={0: (3, "sheep", 3)})
    assert s.goods[0][C.SHEEP] == 3 and s.goods[0][C.MEAT] == 1


def test_mit67_sheep_breeding_with_room():
    """MIT-67: Sheep Breeding with 3 sheep and room adds a sheep; 2 sheep add nothing."""
    s = farm({}, [], devs=[C.SHEEP_BREEDING], barns={0: (3, "sheep", 3), 1: (2, None, 0)})
    assert s.goods[0][C.SHEEP] == 4
    s = farm({}, [], devs=[C.SHEEP_BREEDING], barns={0: (3, "sheep", 2)})
    assert s.goods[0][C.SHEEP] == 2


def test_mit68_cow_breeding():
    """MIT-68: Cow Breeding with 2 cows adds a cow."""
    s = farm({}, [], devs=[C.COW_BREEDING], barns={0: (3, "cow", 2)})
    assert s.goods[0][C.COW] == 3


def test_mit75_chicken_breeding():
    """MIT-75: Chicken Breeding with 4 hens adds a hen; with 3 nothing."""
    s = farm({}, [], devs=[C.CHICKEN_BREEDING], goods={"hen": 4})
    assert s.goods[0][C.HEN] == 5
    s = farm({}, [], devs=[C.CHICKEN_BREEDING], goods={"hen": 3})
    assert s.goods[0][C.HEN] == 3


def test_t52_mill_and_wine_cellar():
    """T-52 (MIT-65, MIT-66, G-45): 5 wheat: the Mill offers 2->1 and 5->2; taking 5->2 leaves 0
    wheat and 2 flour, once per round; the Wine Cellar turns 1 grape into 1 wine."""
    s = farm({}, [], devs=[C.MILL, C.WINE_CELLAR], goods={"wheat": 5, "grape": 2})
    assert decision(s) == Decision.MILL and legal(s) == {PASS, choice(0), choice(1)}
    s.apply(choice(1))
    assert (s.goods[0][C.WHEAT], s.goods[0][C.FLOUR]) == (0, 2)
    assert decision(s) == Decision.WINE_CELLAR and legal(s) == {PASS, CHOICE0}
    s.apply(CHOICE0)
    assert (s.goods[0][C.GRAPE], s.goods[0][C.WINE]) == (1, 1)
    assert s.stage != Stage.FARMS or s.current_player != 0  # each card once per round


def test_mit65_mill_small_batch():
    """MIT-65: with 3 wheat only the 2 -> 1 option exists."""
    s = farm({}, [], devs=[C.MILL], goods={"wheat": 3})
    assert legal(s) == {PASS, choice(0)}
    s.apply(choice(0))
    assert (s.goods[0][C.WHEAT], s.goods[0][C.FLOUR]) == (1, 1)


def test_t53_bank_pays_in_the_same_round():
    """T-53 (MIT-77, G-41): Bank taken at step 10 pays $3 at step 13 of the same round, without
    any farm worker."""
    s = scenario(2, board={space("developments", 0): 0}, money=[10, 10],
                 display=[C.BANK, 1, 2, 3], start=Stage.DEVELOPMENTS)
    s.apply(choice(0))
    assert s.money[0] == 10 - 2 + 3
    assert s.devs[0][C.BANK]


def test_t54_studies_reroll_is_final_once_per_round():
    """T-54 (MIT-57, MIT-72, G-15): Studies: Sheep rolls 1 (1 sheep), re-roll, 1 again stands;
    the owner's Cow roll that round offers no re-roll. Next round, Forest rolls 6 (capacity 3),
    re-roll gives 1: capacity 2 stands (a worse result is binding)."""
    barns = {0: {0: (3, None, 0), 1: (3, None, 0)}}
    s = scenario(2, devs={0: [C.STUDIES]}, barns=barns,
                 board={space("sheep", 0): 0, space("cow", 0): 0}, start=Stage.SHEEP)
    s.apply_chance(1)
    assert decision(s) == Decision.REROLL and legal(s) == {PASS, CHOICE0}
    s.apply(CHOICE0)
    assert s.chance_pending
    s.apply_chance(1)
    assert s.goods[0][C.SHEEP] == 1
    assert s.stage == Stage.COW and s.chance_pending
    s.apply_chance(6)
    assert s.goods[0][C.COW] == 3  # no re-roll offered
    s = scenario(2, devs={0: [C.STUDIES]}, board={space("forest", 0): 0}, start=Stage.FOREST,
                 round=2)
    s.apply_chance(6)
    s.apply(CHOICE0)
    s.apply_chance(1)
    s.apply(cell(0))
    assert s.tiles[0][0] == C.T_BARN2


def test_mit72_keeping_the_roll_keeps_studies():
    """MIT-72: declining the re-roll does not use Studies up; it is offered at the next roll."""
    s = scenario(2, devs={0: [C.STUDIES]}, barns={0: {0: (3, None, 0), 1: (3, None, 0)}},
                 board={space("sheep", 0): 0, space("cow", 0): 0}, start=Stage.SHEEP)
    s.apply_chance(2)
    s.apply(PASS)
    s.apply_chance(1)
    assert decision(s) == Decision.REROLL


def test_mit58_farms_after_the_factories_in_turn_order():
    """MIT-58: farm workers harvest after step 12 (the Flour and Wine worker cannot use this
    round's wheat), and players activate their farms in turn order (the Mill decisions come in
    turn order)."""
    s = scenario(2, fields={1: {1: "wheat", 2: "wheat"}}, farm_workers={1: [1]},
                 goods={1: {"wheat": 1}, 0: {"wheat": 2}}, money=[10, 10], order=[1, 0],
                 devs={0: [C.MILL], 1: [C.WINE_CELLAR]},
                 board={space("flour_wine", 0): 1}, start=Stage.FLOUR_WINE)
    assert s.goods[1][C.FLOUR] == 0
    assert s.stage == Stage.FARMS and decision(s) == Decision.MILL and s.current_player == 0
    assert s.goods[1][C.WHEAT] == 3  # seat 1 (first in order) already harvested


def test_mit62_dev_benefits_without_farm_workers():
    """MIT-62, G-41: development cards give their benefit at step 13 whether or not the owner
    has farm workers."""
    s = farm({}, [], devs=[C.BANK, C.MILK_FACTORY], barns={0: (2, "cow", 2)}, money=[4, 4])
    assert s.money[0] == 7 and s.goods[0][C.MILK] == 1


def test_mit70_insurance_against_frost():
    """MIT-70, MIT-106, G-62: Frost halves each crop resource of players without Insurance."""
    s = scenario(2, devs={1: [C.INSURANCE]}, est=[None, "A03"], pile=["EA2", "A01"],
                 goods={0: {"apple": 4, "grape": 1}, 1: {"apple": 4, "wheat": 7}},
                 start=Stage.MARKET_MAINTENANCE)
    assert (s.goods[0][C.APPLE], s.goods[0][C.GRAPE]) == (2, 1)
    assert (s.goods[1][C.APPLE], s.goods[1][C.WHEAT]) == (4, 7)


def test_mit71_police_against_thieves():
    """MIT-71, MIT-103, G-63: Animal Thieves take half of each kind (rounded down) from players
    without Police."""
    s = scenario(2, devs={1: [C.POLICE]}, est=[None, "A03"], pile=["EA1", "A01"],
                 barns={0: {0: (3, "sheep", 3), 1: (2, "cow", 1)},
                        1: {0: (3, "sheep", 3)}},
                 goods={0: {"hen": 5}}, start=Stage.MARKET_MAINTENANCE)
    g = s.goods[0]
    assert (g[C.SHEEP], g[C.COW], g[C.HEN]) == (2, 1, 3)
    assert s.goods[1][C.SHEEP] == 3
