"""Random-play properties of Mi Tierra: invariants after every step, exact masks, games that end.

By default a quick subset runs; HUERTA_FULL=1 plays 1,000 games per player count (T-73 … T-75).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import games

from huerta.envs import mi_tierra_v0
from huerta.envs.core.errors import IllegalActionError
from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import new_game
from huerta.envs.mi_tierra.actions import N_ACTIONS
from huerta.envs.mi_tierra.game import DEFAULT_MAX_STEPS
from huerta.envs.mi_tierra.state import MiTierraState

PLAYER_COUNTS = (2, 3, 4)


def recomputed_score(state, p):
    """MIT-95/96 from the raw holdings, independent of the engine's scoring code."""
    items = sum(state.goods[p])
    return state.money[p] + 49 * state.cake[p] + 47 * state.cloth[p] + items // 3


def check_invariants(state):
    """T-73: nothing negative, workers conserved and within 3-5, barnyards single-kind and
    within capacity, henhouse within 6, every card in one place, knowledge aligned."""
    problems = state.check_consistency()
    assert not problems, problems
    for p in range(state.num_players):
        assert state.money[p] >= 0 and min(state.goods[p]) >= 0
        assert 3 <= state.owned[p] <= 5
        assert 0 <= state.goods[p][C.HEN] <= C.HENHOUSE_CAPACITY
    assert state.scores() == [recomputed_score(state, p) for p in range(state.num_players)]


def play_random_game(n, seed, check_legal=False, check_masked=False):
    state = new_game(n, seed=seed)
    rng = np.random.default_rng(seed)
    all_ids = np.arange(N_ACTIONS)
    check_invariants(state)
    while not state.is_terminal:
        mask = state.legal_mask().copy()
        legal = np.flatnonzero(mask)
        assert len(legal) >= 2, "a decision with one option should have been resolved (G-71)"
        if check_legal:  # T-74: every unmasked action is accepted
            for action in legal:
                clone = state.clone()
                clone.apply(int(action))
                assert not clone.check_consistency()
        if check_masked:  # every masked action raises and changes nothing
            before = state.to_dict()
            for action in all_ids[~mask]:
                with pytest.raises(IllegalActionError):
                    state.apply(int(action))
            assert state.to_dict() == before
        state.apply(int(legal[rng.integers(len(legal))]))
        check_invariants(state)
        assert state.steps < DEFAULT_MAX_STEPS, "a random game did not end"
    assert not state.legal_mask().any()
    return state


CHUNKS = 4  # the games of one player count are split so that xdist workers share them


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_random_games_keep_invariants_and_end(n, chunk):
    """T-73, T-74, T-75 (MIT-15, MIT-35, MIT-37, MIT-42): invariants after every step, a real
    choice for the acting player, every unmasked action accepted, every game ends."""
    count = games(40, 1000)
    rounds = []
    for seed in range(chunk, count, CHUNKS):
        state = play_random_game(
            n, seed, check_legal=seed < games(8, 150), check_masked=seed < games(4, 40)
        )
        assert state.is_terminal
        rounds.append(state.round)
        assert state.end_triggered or state.pile_ran_out or state.round == C.MAX_ROUNDS
        assert sum(state.rewards()) <= 0  # zero-sum win/loss, shared victories give 0
    assert max(rounds) <= C.MAX_ROUNDS


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_aec_masks_zero_for_waiting_agents(n):
    """Through env(): the acting agent's mask is never empty, everybody else's is all zero;
    reported scores equal scores recomputed from the final state."""
    env = mi_tierra_v0.env(num_players=n)
    for seed in range(games(4, 30)):
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
    """The observation caches (public part, per-seat rows, per-observer vector) and the mask
    cache never go stale: after every step every seat's observation equals the one computed
    from a cache-free copy of the state."""
    for seed in range(games(3, 25)):
        state = new_game(n, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal:
            fresh = MiTierraState.from_dict(state.to_dict())
            for p in range(n):
                obs = state.observe(p)
                np.testing.assert_array_equal(obs, fresh.observe(p))
                assert obs.min() >= 0.0 and obs.max() <= 1.0
            np.testing.assert_array_equal(state.legal_mask(), fresh.legal_mask())
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])


def test_explicit_chance_mode_plays_whole_games():
    """With explicit chance the game stops at every roll (current_player -1, all-zero mask,
    six equally likely faces) and plays to the end like the sampled mode."""
    rng = np.random.default_rng(0)
    for seed in range(games(3, 20)):
        state = new_game(3, seed=seed, explicit_chance=True)
        rolls = 0
        while not state.is_terminal:
            if state.chance_pending:
                assert state.current_player == -1 and not state.legal_mask().any()
                outcomes = state.chance_outcomes()
                assert [f for f, _ in outcomes] == [1, 2, 3, 4, 5, 6]
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
                state.apply_chance(int(rng.integers(1, 7)))
                rolls += 1
                continue
            assert state.chance_outcomes() == []
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
            assert not state.check_consistency()
        assert rolls > 0
