"""Random-play properties of Finca: invariants after every step, exact masks, games that end.

By default a quick subset runs; `.ci/run` sets HUERTA_FULL=1 for 500 games
(budgets.FULL_RANDOM_GAMES) per player count.
"""

from __future__ import annotations

import numpy as np
import pytest
from budgets import FULL_RANDOM_GAMES, games

from huerta.envs import finca_v0
from huerta.envs.core.errors import IllegalActionError
from huerta.envs.finca import components as C
from huerta.envs.finca import new_game
from huerta.envs.finca.actions import N_ACTIONS

PLAYER_COUNTS = (2, 3, 4)


def recomputed_score(state, p):
    """FIN-43 from the raw display, independent of the engine's tallies."""
    tiles = sum(state.catalogue[t].value for t in state.displays[p])
    return tiles + 5 * len(state.fincas_won[p]) + 2 * sum(state.unused[p]) + sum(state.bonuses[p])


def check_invariants(state):
    """FIN-51 conservation and the derived tallies, plus scores recomputed from scratch."""
    problems = state.check_consistency()
    assert not problems, problems
    n = state.num_players
    setup = C.SETUP[n]
    assert state.carts_in_play == setup.carts
    assert sum(len(w) for w in state.fincas_won) + len(state.fincas_removed) + sum(
        1 for f in state.finca_tile if f >= 0
    ) == C.NUM_FINCA_TILES
    assert state.scores() == [recomputed_score(state, p) for p in range(n)]
    assert len(state.bonus_stack) + sum(len(b) for b in state.bonuses) == 4


def play_random_game(n, seed, check_masked=False):
    state = new_game(n, seed=seed)
    rng = np.random.default_rng(seed)
    all_ids = np.arange(N_ACTIONS)
    while not state.is_terminal:
        mask = state.legal_mask().copy()
        legal = np.flatnonzero(mask)
        # FIN-52: a live agent always has a legal action
        assert len(legal) > 0, state.render_text()
        # every unmasked action is accepted
        for action in legal:
            clone = state.clone()
            clone.apply(int(action))
        if check_masked:
            before = state.to_dict()
            for action in all_ids[~mask]:
                with pytest.raises(IllegalActionError):
                    state.apply(int(action))
            assert state.to_dict() == before
        state.apply(int(legal[rng.integers(len(legal))]))
        check_invariants(state)
        assert state.steps < 2000, "a random game did not end within 2,000 steps"
    assert not state.legal_mask().any()
    return state


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_random_games_keep_invariants_and_end(n):
    """FIN-51, FIN-52 (T-48, T-49): conservation after every step, a non-empty mask for the
    acting player, every unmasked action accepted, every game ends."""
    count = games(60, FULL_RANDOM_GAMES)
    lengths = []
    for seed in range(count):
        state = play_random_game(n, seed, check_masked=seed < games(10, 100))
        lengths.append(state.steps)
        assert state.is_terminal
        # FIN-42: the game ended because the last wooden finca was placed
        assert state.wooden_reserve == 0
    assert max(lengths) < 2000


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_aec_masks_zero_for_waiting_agents(n):
    """FIN-16, FIN-52: through env(), the acting agent's mask is never empty and everybody
    else's is all zero; reported scores equal scores recomputed from the final state."""
    env = finca_v0.env(num_players=n)
    for seed in range(games(5, 50)):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].any()
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        state = env.unwrapped.game
        assert info["scores"] == [recomputed_score(state, p) for p in range(n)]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_cached_observations_equal_a_fresh_computation(n):
    """The observation caches (per board, per move, per seat) never go stale: after every step
    every seat's observation equals the one computed from a cache-free copy of the state, and
    the mask equals the freshly computed mask."""
    from huerta.envs.finca import FincaState

    for seed in range(games(8, 60)):
        state = new_game(n, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal:
            fresh = FincaState.from_dict(state.to_dict())
            for p in range(n):
                np.testing.assert_array_equal(state.observe(p), fresh.observe(p))
            np.testing.assert_array_equal(state.legal_mask(), fresh.legal_mask())
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_fast_observation_equals_the_declared_reference(n):
    """The fast observation (board copy, farmer rows from a table, player rows rescaled only
    where a value changed, per-decision values on top) equals the declaration's plain build,
    `SPEC.reference`, value for value, for every observer after every step, clones included."""
    from huerta.envs.finca.observation_spec import SPEC

    for seed in range(games(6, 40)):
        state = new_game(n, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal:
            observers = range(n) if rng.random() < 0.5 else [state.current_player]
            for p in observers:
                np.testing.assert_array_equal(state.observe(p), SPEC.reference(state, p))
            if rng.random() < 0.05:  # a clone shares the cached rows and plays on alone
                clone = state.clone()
                legal = clone.legal_actions()
                clone.apply(legal[rng.integers(len(legal))])
                for p in range(n):
                    np.testing.assert_array_equal(clone.observe(p), SPEC.reference(clone, p))
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        for p in range(n):  # the final position too (no phase, nobody acting)
            np.testing.assert_array_equal(state.observe(p), SPEC.reference(state, p))
