"""Shared helpers of the Mi Tierra tests: legal sets, driving placements, names of actions."""

from __future__ import annotations

import numpy as np

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import PASS, Decision, Stage
from huerta.envs.mi_tierra.scenario import space


def legal(state) -> set[int]:
    return set(np.flatnonzero(state.legal_mask()).tolist())


def decision(state) -> Decision:
    return Decision(state.decision)


def stage(state) -> Stage:
    return Stage(state.stage)


def pass_until(state, target_stage: Stage | None = None, target_decision: Decision | None = None):
    """PASS every decision (the first legal action when PASS is not legal) until the state reaches
    `target_stage` / `target_decision` (or the end)."""
    for _ in range(10_000):
        if state.is_terminal:
            return state
        if target_stage is not None and state.stage == target_stage and (
            target_decision is None or state.decision == target_decision
        ):
            return state
        if target_stage is None and target_decision is not None and \
                state.decision == target_decision:
            return state
        if state.chance_pending:
            state.apply_chance(1)
            continue
        actions = state.legal_actions()
        state.apply(PASS if PASS in actions else actions[0])
    raise AssertionError("target never reached")


def totals(state, p: int) -> dict[str, int]:
    return {name: state.goods[p][g] for g, name in enumerate(C.GOODS)}


RICH = dict(  # every factory, the Clock Tower, developments, markets and most cards in play
    money=[60, 60, 60],
    goods={0: {"milk": 3, "egg": 6, "wool": 6, "wheat": 8, "grape": 6, "apple": 3, "hen": 4},
           1: {"milk": 2, "egg": 4, "wool": 3, "wheat": 5, "grape": 4, "meat": 2},
           2: {"wheat": 3, "grape": 3, "apple": 4, "hen": 6}},
    barns={0: {0: (3, "sheep", 3), 3: (2, "cow", 2)}, 1: {0: (3, "cow", 2)},
           2: {2: (3, "sheep", 3)}},
    fields={0: {1: "wheat", 2: "grape"}, 1: {4: "wheat"}, 2: {6: "grape", 7: "grape"}},
    devs={0: [C.MILL, C.WINE_CELLAR, C.STUDIES, C.BANK, C.SHEEP_BREEDING],
          1: [C.MILK_FACTORY, C.COW_BREEDING, C.TRACTOR], 2: [C.HEN_BARNYARD, C.SHEARER]},
    owned={0: 5, 1: 4, 2: 5},
    board={space("forest", 0): 0, space("animal_products", 0): 0, space("bakery", 0): 0,
           space("flour_wine", 0): 0,
           space("clock_tower", 0): 1, space("cloth", 0): 1, space("square", 0): 1,
           space("lower_road", 0): 1,
           space("crops", 0): (2, True), space("henhouse", 0): 2, space("est_market", 0): 2,
           space("developments", 2): 2},
    farm_workers={0: [1]},
    est=["A01", "A08", "B16"], closing=["A20", "B21"],
    pile=["A03", "EB1", "B10", "A05", "B05", "EA2", "B17", "A10", "B02"],
    start=Stage.FOREST,
)
