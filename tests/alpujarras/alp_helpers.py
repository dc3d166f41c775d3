"""Shared helpers of the Alpujarras tests (not a test module)."""

from __future__ import annotations

import numpy as np

from huerta.envs.alpujarras.actions import (
    DELIVER0,
    DO_HARVEST,
    DO_PLACE,
    END_TURN,
    N_ACTIONS,
)
from huerta.envs.alpujarras.scenario import arrive, scenario

# Spaces of the scenario layout (go, MA, HA, MB, HB, MC, HC, MD, HD, end), 1-3 player side.
MARKETS = (5, 13, 21, 29)
HARVESTS = (9, 17, 25, 33)
END_SPACES = (34, 35, 36)  # ratios 5, 4, 3
P_ANY = 0  # "P"
IRRIGATE = 1  # "I"
D2 = 4  # "P+D2"
MOVE_ICON = 8  # "P+M"
P_GREEN = 10  # "P:green+F"
P2 = 18  # "P2+F"
NORIA = 20  # "P+N"


def legal(state) -> set[int]:
    """The legal action ids of `state` as a set."""
    return set(np.flatnonzero(state.legal_mask()).tolist())


def play(state, *actions: int):
    """Apply `actions` in order and check the invariants after each; return the state."""
    for a in actions:
        state.apply(a)
        assert state.check_consistency() == [], state.check_consistency()
    return state


def at(num_players: int, space: int, player: int = 0, **kw):
    """A scenario with `player` arrived on `space` (ACTION phase)."""
    s = scenario(num_players, **kw)
    return arrive(s, space, player)


def short_move_policy(state, rng) -> int:
    """A random legal action that favours short mule moves and acting over ending the turn, so
    random games visit many spaces (uniform play jumps straight to the end track)."""
    ids = np.flatnonzero(state.legal_mask())
    moves = ids[ids < DO_PLACE]
    if len(moves) and rng.random() < 0.9:
        return int(moves[min(len(moves) - 1, int(rng.integers(3)))])
    others = ids[ids != END_TURN]
    if len(others) and rng.random() < 0.85:
        return int(others[rng.integers(len(others))])
    return int(ids[rng.integers(len(ids))])


def solo_duty_policy(state, rng) -> int:
    """Short moves; meet the solo duties (deliver, harvest, pay) most of the time."""
    ids = np.flatnonzero(state.legal_mask())
    duty = [a for a in ids if DELIVER0 <= a < N_ACTIONS or a == DO_HARVEST]
    if duty and rng.random() < 0.8:
        return int(duty[rng.integers(len(duty))])
    return short_move_policy(state, rng)
