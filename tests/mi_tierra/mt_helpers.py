"""Shared helpers of the Mi Tierra tests: legal sets, driving placements, names of actions."""

from __future__ import annotations

import numpy as np

from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.actions import PASS, Decision, Stage


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
