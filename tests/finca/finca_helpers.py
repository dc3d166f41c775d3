"""Shared builders and probes for Finca's scenario tests."""

from __future__ import annotations

import numpy as np

from huerta.envs.finca import components as C
from huerta.envs.finca.actions import CONFIRM, DELIVER, Phase, comm, fruit
from huerta.envs.finca.components import ALMOND, FIG, GRAPE, LEMON, OLIVE, ORANGE
from huerta.envs.finca.observation import COMMUNITY_BLOCK, SLICES
from huerta.envs.finca.scenario import scenario

# Blade fruits used by the scenarios (two blades per fruit, G-01); lines enter B0 and B6.
BLADES = [FIG, ALMOND, OLIVE, GRAPE, ORANGE, LEMON, FIG, LEMON, ORANGE, OLIVE, GRAPE, ALMOND]
# A face-up tile nobody can ever pay (12 fruits > the Large cart's cap of 10, and 11 > 6 with
# One fruit less): it keeps communities a scenario does not care about out of every mask.
BLOCKER = ("6F+6A", 6)


def board(named: dict, pad: bool = True) -> dict:
    """All ten stacks: the named ones (padded with blockers beneath to 4 tiles, so that a delivery
    does not empty them unless `pad` is False) and blocker stacks elsewhere."""
    out = {}
    for c in range(C.NUM_COMMUNITIES):
        tiles = list(named.get(c, [BLOCKER] * 4))
        if pad and tiles:
            tiles = [BLOCKER] * (4 - len(tiles)) + tiles
        out[c] = tiles
    return out


def make(n=2, seed=0, stacks=None, pad=True, blades=BLADES, **kw):
    """A consistent scenario state: one farmer per player on blade p unless `farmers` is given,
    the named stacks (see `board`) and blocker stacks elsewhere."""
    kw.setdefault("farmers", {p: {p: 1} for p in range(n)})
    s = scenario(n, seed=seed, blades=blades, stacks=board(stacks or {}, pad), **kw)
    assert s.check_consistency() == []
    return s


def legal(state) -> set[int]:
    """The unmasked action ids."""
    return set(np.flatnonzero(state.legal_mask()).tolist())


def deliver(state, *comms, wild=None):
    """A normal delivery of the named communities (wild symbols paid with `wild`)."""
    state.apply(DELIVER)
    for c in comms:
        state.apply(comm(c))
        if state.phase == Phase.DELIVER_WILD:
            state.apply(fruit(wild))
    state.apply(CONFIRM)


def bonus_flags(obs: np.ndarray) -> list[float]:
    """The observation's bonus-stack flags for 7, 6, 5, 4."""
    return obs[SLICES["bonus_stack"]].tolist()


def community_rows(obs: np.ndarray) -> np.ndarray:
    """The observation's community block as a (10, COMMUNITY_BLOCK) array."""
    return obs[SLICES["communities"]].reshape(C.NUM_COMMUNITIES, COMMUNITY_BLOCK)
