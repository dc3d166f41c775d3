"""Random-play properties of Mi Tierra: invariants after every step, exact masks, games that end.

By default a quick subset runs; HUERTA_FULL=1 plays 500 games (budgets.FULL_RANDOM_GAMES) per player
count (T-73, T-74, T-75).
"""

from __future__ import annotations

import numpy as np
import pytest
from budgets import FULL_RANDOM_GAMES, games
from mt_helpers import RICH

from huerta.envs import mi_tierra_v0
from huerta.envs.core.errors import IllegalActionError
from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra import new_game
from huerta.envs.mi_tierra.actions import N_ACTIONS, Decision
from huerta.envs.mi_tierra.decisions import placement_actions_reference
from huerta.envs.mi_tierra.game import DEFAULT_MAX_STEPS
from huerta.envs.mi_tierra.observation_spec import SPEC as OBSERVATION
from huerta.envs.mi_tierra.scenario import scenario
from huerta.envs.mi_tierra.state import MiTierraState

PLAYER_COUNTS = (2, 3, 4)


def recomputed_score(state, p):
    """MIT-95, MIT-96 from the raw holdings, independent of the engine's scoring code."""
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
    count = games(40, FULL_RANDOM_GAMES)
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


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_fast_observation_equals_the_declared_reference(n):
    """The fast observation (every observer's public part updated in place, the player rows
    rewritten field by field from the rules' flags, the knowledge and the per-decision values
    on top) equals the declaration's plain build, `SPEC.reference`, value for value, for every
    observer after every step, clones included, and in the final position."""
    for seed in range(games(4, 30)):
        state = new_game(n, seed=100 + seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal:
            observers = range(n) if rng.random() < 0.5 else [state.current_player]
            for p in observers:
                np.testing.assert_array_equal(state.observe(p), OBSERVATION.reference(state, p))
            if rng.random() < 0.05:  # a clone builds its own views and plays on alone
                clone = state.clone()
                legal = clone.legal_actions()
                clone.apply(legal[rng.integers(len(legal))])
                for p in range(n):
                    np.testing.assert_array_equal(clone.observe(p),
                                                  OBSERVATION.reference(clone, p))
            legal = state.legal_actions()
            # mostly the last listed action (take the option rather than pass)
            state.apply(legal[-1] if rng.random() < 0.5 else legal[rng.integers(len(legal))])
        for p in range(n):  # the final position too (no stage, no decision, nobody acting)
            np.testing.assert_array_equal(state.observe(p), OBSERVATION.reference(state, p))


def assert_like_fresh(state, seats):
    """`seats`' observations, the mask and the PLACE ids equal those of a cache-free copy, and
    the observations equal the declaration's plain build (`SPEC.reference`)."""
    fresh = MiTierraState.from_dict(state.to_dict())
    for p in seats:
        np.testing.assert_array_equal(state.observe(p), fresh.observe(p))
        # the rows kept up to date field by field, against the declaration's plain build
        np.testing.assert_array_equal(state.observe(p), OBSERVATION.reference(state, p))
    mask = state.legal_mask()
    assert not mask.flags.writeable  # masks are shared between states
    np.testing.assert_array_equal(mask, fresh.legal_mask())
    if state.decision == Decision.PLACE:
        assert state.legal_list() == placement_actions_reference(state, state.current_player)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_observations_of_stale_observers_equal_a_fresh_computation(n):
    """As the AEC env uses the caches: mostly only the acting seat observes, so the others'
    views go stale for several steps (placements, whole activation phases), now and then
    another seat looks, and clones (search) build their own views and play on. Every
    observation taken, the mask and the placement ids equal fresh computations."""
    for seed in range(games(4, 40)):
        state = new_game(n, seed=seed)
        rng = np.random.default_rng(seed)
        # some games are observed only every 97 steps, some only at the end (long stretches of
        # unseen changes)
        every = (1, 97, 10**6)[seed % 3]
        while not state.is_terminal:
            seats = {state.current_player}
            if rng.random() < 0.15:
                seats.add(int(rng.integers(n)))
            if state.steps % every == 0:
                assert_like_fresh(state, seats)
            if rng.random() < 0.03:  # a clone observed and played on, the original untouched
                clone = state.clone()
                for _ in range(3):
                    if clone.is_terminal:
                        break
                    assert_like_fresh(clone, range(n))
                    legal = clone.legal_actions()
                    clone.apply(legal[rng.integers(len(legal))])
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        assert_like_fresh(state, range(n))


@pytest.mark.parametrize("seed", range(4))
def test_observations_through_every_kind_of_change_equal_a_fresh_computation(seed):
    """A round in which every kind of change happens (rolls and tiles, animals, factories,
    the Clock Tower, developments, farms and their cards, markets, the Black Market, events,
    the next turn order and upkeep): after every step and roll, stale or not, each observation
    equals a fresh computation."""
    state = scenario(3, seed=seed, **RICH)
    rng = np.random.default_rng(seed)
    for _ in range(400):
        if state.is_terminal or state.round > 2:
            break
        if state.chance_pending:
            state.apply_chance(int(rng.integers(1, 7)))
            continue
        seats = range(3) if rng.random() < 0.3 else [state.current_player]
        assert_like_fresh(state, seats)
        legal = state.legal_actions()
        # mostly the last listed action: take the option rather than pass
        action = legal[-1] if rng.random() < 0.7 else legal[rng.integers(len(legal))]
        state.apply(action)
        assert not state.check_consistency()
    assert state.round > 1


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


def field_slices(block: str, fields: tuple) -> dict[str, slice]:
    """Where each field of an observation block lies in the vector (from OBS_LAYOUT)."""
    from huerta.envs.mi_tierra.observation import SLICES

    offset = SLICES[block].start
    at = {}
    for name, size, _ in fields:
        at[name] = slice(offset, offset + size)
        offset += size
    return at


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_game_block_reads_the_public_game_facts(n):
    """The observation's `game` block, decoded field by field from OBS_LAYOUT, states the round,
    the end flags, the permanents seen, the event in force, the pile's A and B counts, the deck
    letters of its top positions and the development deck, for every observer, all game long."""
    from huerta.envs.mi_tierra.observation import GAME_FIELDS

    at = field_slices("game", GAME_FIELDS)
    events = {-1: 0, C.INFLATION: 1, C.STRIKE: 2, C.FRUIT_FLY: 3}
    rng = np.random.default_rng(n)
    for seed in range(6):
        state = new_game(n, seed=50 + seed)
        while not state.is_terminal:
            _check_game_block(state, n, at, events)
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        _check_game_block(state, n, at, events)


def _check_game_block(state, n, at, events):
    """Every observer's game block against the facts, recomputed plainly."""
    pile = state.pile
    letters = [int(C.IS_DECK_B[card]) for card in reversed(pile[-4:])]  # top first
    b_cards = sum(C.IS_DECK_B[card] for card in pile)
    event = -1 if state.event_card < 0 else C.MARKET_CARDS[state.event_card].event
    expected = {
        "player_count": np.eye(3)[n - 2],
        "round": [min(state.round / C.MAX_ROUNDS, 1.0)],
        "end_triggered": [state.end_triggered], "pile_ran_out": [state.pile_ran_out],
        "permanents_seen": np.eye(4)[min(state.perms_seen, 3)],
        "event_in_force": np.eye(4)[events[event]],
        "pile_a_cards": [min((len(pile) - b_cards) / 23.0, 1.0)],
        "pile_b_cards": [b_cards / 26.0],
        "top_position_exists": [1.0] * len(letters) + [0.0] * (4 - len(letters)),
        "top_position_is_b": letters + [0] * (4 - len(letters)),
        "dev_deck_cards": [len(state.dev_deck) / 15.0],
    }
    for p in range(n):
        obs = state.observe(p)
        for name, values in expected.items():
            np.testing.assert_allclose(obs[at[name]], np.asarray(values, np.float32),
                                       err_msg=f"{name}, round {state.round}")


def test_observe_into_a_given_vector():
    """`observe(player, out)` writes the same values into a float32 vector the caller owns
    (contiguous or strided) and refuses any other dtype or size, naming what it expects."""
    state = new_game(3, seed=1)
    for _ in range(40):
        legal = state.legal_actions()
        state.apply(legal[len(legal) // 2])
    for p in range(3):
        expected = state.observe(p)
        out = np.full(expected.shape, 7.0, dtype=np.float32)
        assert state.observe(p, out) is out
        np.testing.assert_array_equal(out, expected)
        strided = np.full(2 * expected.size, 7.0, dtype=np.float32)[::2]
        state.observe(p, strided)
        np.testing.assert_array_equal(strided, expected)
    for bad in (np.zeros(expected.size), np.zeros(expected.size - 1, dtype=np.float32)):
        with pytest.raises(ValueError, match=f"float32 vector of {expected.size} values"):
            state.observe(0, bad)


def _expected_context(state, observer):
    """The `context` block recomputed plainly from the decision facts (seeds/mi_tierra.md)."""
    from huerta.envs.mi_tierra.observation import CONTEXT_FIELDS

    values = {name: np.zeros(size, np.float32) for name, size, _ in CONTEXT_FIELDS}
    if state.is_terminal:
        return values
    d = state.decision
    if state.die_face:
        values["die_face"][state.die_face - 1] = 1
    if state.pending_tile > 0:
        values["pending_tile"][state.pending_tile - 1] = 1
    if d in (Decision.MARKET_TURN, Decision.MARKET_SALE):
        values["market_space"][state.qpos] = 1
    if d == Decision.MARKET_SALE:
        values["sale_slot"][state.sale_slot] = 1
        values["sale_units"][:] = np.minimum(np.array(state.sale_units) / 5.0, 1.0)
    if d == Decision.BLACK_MARKET:
        values["black_market_buys"][0] = state.bm_buys / 3.0
    if d == Decision.CLOCK_ORDER:
        values["reorder_placed"][0] = len(state.reorder_done) / 4.0
        values["reorder_left"][0] = len(state.reorder_left) / 4.0
        if observer == state.current_player:
            known = state.known[observer]
            for k, card in enumerate(state.reorder_done):
                values["reorder_placed_private"][4 * k + known.index(card)] = 1
            for k, card in enumerate(state.reorder_left):
                values["reorder_left_private"][4 * k + known.index(card)] = 1
    if d == Decision.DEVELOPMENT:
        spot = state.queue[state.qpos] - C.ZONE_FIRST_SPACE[C.Z_DEV]
        values["dev_touched_slots"][list(C.DEV_SPOT_TOUCHES[spot])] = 1
        values["dev_cost"][0] = state.dev_cost / 4.0
    if d == Decision.UPKEEP:
        values["upkeep_due"][0] = max(0, state.owned[state.current_player] - 3) * 2 / 4.0
    return values


def test_context_block_reads_the_decision_facts():
    """The observation's `context` block, decoded field by field from OBS_LAYOUT, states the die,
    the pending tile, the market space, the sale in progress, the Black Market buys, the Clock
    Tower reordering (its private part for the reordering player only), the development spot's
    slots and cost and the upkeep due, for every observer, in random games and in games from the
    rich position (where every decision with a context comes up)."""
    from huerta.envs.mi_tierra.observation import CONTEXT_FIELDS

    at = field_slices("context", CONTEXT_FIELDS)
    starts = [new_game(n, seed=70 + n) for n in PLAYER_COUNTS]
    starts += [scenario(3, seed=seed, explicit_chance=False, **RICH) for seed in range(4)]
    seen = set()
    for k, state in enumerate(starts):
        rng = np.random.default_rng(k)
        while True:
            for p in range(state.num_players):
                obs = state.observe(p)
                for name, values in _expected_context(state, p).items():
                    np.testing.assert_array_equal(obs[at[name]], values, err_msg=name)
            if state.is_terminal:
                break
            seen.add(Decision(state.decision))
            legal = state.legal_actions()
            state.apply(legal[-1] if rng.random() < 0.5 else legal[rng.integers(len(legal))])
    assert {Decision.MARKET_TURN, Decision.MARKET_SALE, Decision.BLACK_MARKET,
            Decision.CLOCK_ORDER, Decision.DEVELOPMENT, Decision.UPKEEP} <= seen
