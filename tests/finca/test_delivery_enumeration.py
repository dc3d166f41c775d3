"""T-51: the deliveries reachable through the masked sub-steps are exactly the legal ones.

A brute force lists every legal delivery (a set of communities, a wild type per wild tile and, for
One fruit less, one omitted fruit on one tile of size 2+), straight from the rulebook's conditions;
a depth-first search through the masks lists every delivery an agent can confirm.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from budgets import games

from huerta.envs.finca import components as C
from huerta.envs.finca import new_game
from huerta.envs.finca.actions import (
    COMM0,
    CONFIRM,
    DELIVER,
    FRUIT0,
    PLAY_LARGE,
    PLAY_ONELESS,
    Phase,
)

MODES = {DELIVER: (6, False), PLAY_LARGE: (10, False), PLAY_ONELESS: (6, True)}


def brute_force(state, cap, one_less):
    """Every legal delivery as a frozenset of (community, wild fruit, omitted fruit)."""
    fruits = state.fruits[state.current_player]
    tops = [(c, state.catalogue[s[-1]]) for c, s in enumerate(state.stacks) if s]
    found = set()
    for k in range(1, len(tops) + 1):
        for subset in itertools.combinations(tops, k):
            if sum(t.size for _, t in subset) - (1 if one_less else 0) > cap:
                continue
            wild_choices = [range(6) if t.wild else (-1,) for _, t in subset]
            for wilds in itertools.product(*wild_choices):
                reqs = []
                for (_, t), w in zip(subset, wilds, strict=True):
                    req = list(t.fixed)
                    if w >= 0:
                        req[w] += t.wild
                    reqs.append(req)
                omit_options = [(-1, -1)]
                if one_less:
                    omit_options = [
                        (i, f) for i, (_, t) in enumerate(subset) if t.size >= 2
                        for f in range(6) if reqs[i][f] >= 1
                    ]
                for i_omit, f_omit in omit_options:
                    total = [sum(r[f] for r in reqs) for f in range(6)]
                    if i_omit >= 0:
                        total[f_omit] -= 1
                    if sum(total) > cap or any(total[f] > fruits[f] for f in range(6)):
                        continue
                    found.add(frozenset(
                        (c, w, f_omit if i == i_omit else -1)
                        for i, ((c, _), w) in enumerate(zip(subset, wilds, strict=True))
                    ))
    return found


def reachable(state):
    """Every delivery the masks let an agent confirm, exploring all sub-step choices."""
    found, seen = set(), set()

    def explore(s):
        key = (frozenset(s.selected), s.phase, s.pending, s.pending_wild)
        if key in seen:
            return
        seen.add(key)
        mask = s.legal_mask()
        assert mask.any(), "an empty mask inside a delivery"
        for action in np.flatnonzero(mask):
            if action == CONFIRM:
                found.add(frozenset(s.selected))
                continue
            assert COMM0 <= action < FRUIT0 + 6, f"unexpected action {action} in a delivery"
            child = s.clone()
            child.apply(int(action))
            explore(child)

    explore(state)
    return found


def small_random_state(rng, seed):
    """A main-phase state with random holdings and random top tiles."""
    state = new_game(2, seed=seed)
    state.intro_left = 0
    state.phase = int(Phase.MAIN)
    state.farmers[0][0] = 5
    state.farmers[1][1] = 5
    state.blade_total[0] = state.blade_total[1] = 5
    for f in range(6):
        have = int(rng.integers(0, 5))
        state.fruits[0][f] = have
        state.supply[f] = C.FRUITS_PER_TYPE - have
    state.carts[0] = 1
    state.centre_carts -= 1
    # remove some tops so that several stack heights occur
    for c in rng.choice(10, size=int(rng.integers(0, 4)), replace=False):
        state.stacks[c] = state.stacks[c][:1]
    state.invalidate()
    return state


@pytest.mark.parametrize("mode", sorted(MODES))
def test_masked_substeps_reach_exactly_the_legal_deliveries(mode):
    """T-51 (FIN-25, FIN-26, FIN-27, FIN-29, FIN-33, FIN-34): brute force == masked search."""
    cap, one_less = MODES[mode]
    rng = np.random.default_rng(mode)
    checked = 0
    for seed in range(games(120, 600)):
        state = small_random_state(rng, seed)
        legal = brute_force(state, cap, one_less)
        mask = state.legal_mask()
        # the MAIN-phase id is unmasked exactly when some delivery exists
        assert bool(mask[mode]) == bool(legal), (mode, state.render_text())
        if not legal:
            continue
        state.apply(mode)
        assert reachable(state) == legal
        checked += 1
    assert checked > 20
