"""Random-play properties of Alpujarras: invariants after every step, exact masks (checked against
an independent reference for the track, delivery, channel and noria rules), games that end, zero
masks for waiting agents, caches that never go stale.

By default a quick subset runs; HUERTA_FULL=1 (CI) plays 500 games (budgets.FULL_RANDOM_GAMES)
per player count and per solo variant.
"""

from __future__ import annotations

import numpy as np
import pytest
from alp_helpers import short_move_policy, solo_duty_policy
from budgets import FULL_RANDOM_GAMES, games

from huerta.envs import alpujarras_v0
from huerta.envs.alpujarras import AlpujarrasState, new_game
from huerta.envs.alpujarras import components as C
from huerta.envs.alpujarras.actions import (
    CARD0,
    CHANNEL0,
    DELIVER0,
    DO_PLACE,
    N_ACTIONS,
    SPEND0,
    Phase,
)
from huerta.envs.alpujarras.game import DEFAULT_MAX_STEPS
from huerta.envs.alpujarras.observation_spec import SPEC as OBSERVATION_SPEC
from huerta.envs.alpujarras.scenario import scenario
from huerta.envs.core.errors import IllegalActionError

PLAYER_COUNTS = (1, 2, 3, 4)
SOLO_VARIANTS = [(dt, stars) for dt in (0, 3, 5) for stars in (0, 5)]


def recomputed_score(tokens: list[int], dirhems: int) -> int:
    """ALP-66 / ZARA-21 from the raw holdings, independent of the engine."""
    return dirhems + sum(t % 10 - 1 for t in tokens)


def check_invariants(state: AlpujarrasState) -> None:
    """TS-30: components conserved (ALP-02, ALP-70, ALP-71), caps never exceeded (ALP-26,
    ALP-62), at most 5 market actions (ALP-41), scores recomputed from scratch."""
    problems = state.check_consistency()
    assert not problems, problems
    n = state.num_players
    for p in range(n):
        assert max(state.fruit[p]) <= C.FRUIT_CAP and state.norias[p] <= C.NORIA_CAP
        assert len(state.tokens[p]) <= C.MAX_MARKET_ACTIONS
        total = (state.supply[p] + sum(state.farmers[p]) + sum(state.town_farmers[p])
                 + state.card_farmers[p])
        assert total == C.FARMERS_PER_PLAYER
    assert state.scores() == [recomputed_score(state.tokens[p], state.dirhems[p])
                              for p in range(n)]
    if state.solo:
        assert state.zara_score() == recomputed_score(state.zara_tokens, state.zara_dirhems)
        assert state.zara_supply + sum(state.zara_farmers) == C.FARMERS_PER_PLAYER
    awards_out = sum(1 for a in state.awards if a == C.AWARD_GONE)
    assert 0 <= awards_out <= C.NUM_TOWNS


def reference_legal(state: AlpujarrasState) -> dict[int, bool]:
    """An independent statement, straight from the rule text, of which MOVE_TO, DELIVER, CHANNEL
    and SPEND_NORIA ids are legal now (TS-53)."""
    out: dict[int, bool] = {}
    p = state.current_player
    track = state.track
    if state.phase == Phase.MOVE:
        here = state.pos[p]
        others = [i for i in range(state.num_pieces) if i != p]
        single = (C.STANDARD, C.END)
        specials = [s for s in range(here + 1, len(track))
                    if track[s].kind in (C.MARKET, C.HARVEST)]
        die_on_end = state.has_die and track[state.pos[state.die]].kind == C.END \
            if state.has_die and state.pos[state.die] >= 0 else False
        for s in range(C.MAX_SPACES):
            ok = here < s < len(track)
            if ok and track[s].kind in single:
                ok = all(state.pos[i] != s for i in others)  # ALP-17
            if ok and state.solo:
                if track[s].kind == C.END:
                    ok = die_on_end or not specials  # ZARA-16, ZARA-08
                else:
                    ok = not specials or s <= specials[0]  # ZARA-08, ZG-04
                    behind = die_on_end or s < state.pos[state.die]
                    ok = ok and (not behind or state.double_turns > 0)  # ZARA-07
            out[s] = ok
        return out
    if state.phase != Phase.ACTION:
        return out
    for w in range(C.NUM_TOWNS):
        for slot in range(C.MAX_TOKENS_PER_TOWN):
            ok = state.market_left and slot < len(state.towns[w]) and state.farmers[p][w] >= 1
            if ok:
                tok = state.towns[w][slot]
                ok = state.fruit[p][tok // 10] >= tok % 10
                if state.solo:
                    ok = ok and tok // 10 not in {t // 10 for t in state.tokens[p]}
            out[DELIVER0 + w * C.MAX_TOKENS_PER_TOWN + slot] = ok
    for ch in C.CHANNELS:
        touches = ch.requires < 0 or state.channels[ch.requires]
        out[CHANNEL0 + ch.cid] = state.pend_irrigate > 0 and not state.channels[ch.cid] and touches
    norias, supply = state.norias[p], state.supply[p]
    fruit = state.fruit[p]
    swap = any(fruit[a] >= 1 and fruit[b] < 5 for a in range(5) for b in range(5) if a != b)
    out[SPEND0] = norias >= 1 and swap
    out[SPEND0 + 1] = norias >= 2 and sum(state.farmers[p]) > 0
    for k in (3, 4, 5):
        out[SPEND0 + k - 1] = norias >= k and supply > 0
    return out


def play_game(state: AlpujarrasState, rng, policy, check_clones: bool, check_masked: bool):
    all_ids = np.arange(N_ACTIONS)
    while not state.is_terminal:
        mask = state.legal_mask().copy()
        legal = np.flatnonzero(mask)
        assert len(legal) > 0, state.render_text()  # a live agent always has a legal action
        for action_id, ok in reference_legal(state).items():
            assert mask[action_id] == ok, (state.describe(action_id), ok, state.render_text())
        if check_clones:
            for action in legal:
                clone = state.clone()
                clone.apply(int(action))
                assert not clone.check_consistency()
        if check_masked:
            before = state.to_dict()
            for action in all_ids[~mask]:
                with pytest.raises(IllegalActionError):
                    state.apply(int(action))
            assert state.to_dict() == before
        state.apply(policy(state, rng))
        check_invariants(state)
        assert state.steps < DEFAULT_MAX_STEPS, "a random game did not end"
    assert not state.legal_mask().any()
    return state


def uniform(state, rng) -> int:
    legal = np.flatnonzero(state.legal_mask())
    return int(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_random_games_keep_invariants_and_end(n):
    """TS-30, TS-53 (ALP-02, ALP-26, ALP-41, ALP-62, ALP-65, ALP-70, ALP-71): uniform and short-move
    random play; invariants after every step, the mask equals the reference, never empty, every
    unmasked action accepted on a clone, every masked one refused with the state unchanged, and
    every game ends."""
    count = games(40, FULL_RANDOM_GAMES)
    lengths = []
    for seed in range(count):
        state = new_game(n, seed=seed)
        rng = np.random.default_rng(seed)
        policy = uniform if seed % 2 else short_move_policy
        play_game(state, rng, policy, check_clones=seed < games(10, 100),
                  check_masked=seed < games(4, 40))
        lengths.append(state.steps)
    assert max(lengths) < DEFAULT_MAX_STEPS


@pytest.mark.parametrize(("double_turns", "stars"), SOLO_VARIANTS)
def test_solo_games_from_rich_starts(double_turns, stars):
    """TS-53 and ZARA-19 for every solo variant: games started with fruit, farmers and norias in
    hand get deep (markets, harvests, zakats, Zara's turns, both end sequences); invariants and
    the exact mask hold throughout and every game ends."""
    count = games(12, FULL_RANDOM_GAMES)
    outcomes = set()
    for seed in range(count):
        state = scenario(1, seed=seed, layout=None, fruit={0: [4] * 5}, farmers={0: [1] * 5},
                         norias={0: 3}, double_turns=double_turns,
                         zakat_star=[k < stars for k in range(5)])
        rng = np.random.default_rng(seed)
        play_game(state, rng, solo_duty_policy, check_clones=seed < games(3, 30),
                  check_masked=seed < games(1, 10))
        outcomes.add(state.lost)
        assert state.lost in ("zakat", "delivery", "final_zakat", "final_delivery",
                              "conditions", "score", "")
    if count >= 100:
        assert len(outcomes) >= 3, outcomes


@pytest.mark.parametrize("variant", SOLO_VARIANTS)
def test_solo_games_from_the_real_setup(variant):
    """ZARA-01, ZARA-02, ZARA-03, ZARA-04, ZARA-05, ZARA-06, ZARA-07, ZARA-08, ZARA-09, ZARA-10:
    seeded solo games from the rulebook setup end (usually lost at the first market, as a random
    player has no plan) with the invariants intact."""
    double_turns, stars = variant
    for seed in range(games(20, FULL_RANDOM_GAMES)):
        state = new_game(1, seed=seed, double_turns=double_turns, star_sides=stars)
        rng = np.random.default_rng(seed)
        play_game(state, rng, solo_duty_policy if seed % 2 else uniform,
                  check_clones=seed < games(3, 20), check_masked=False)
        assert state.is_terminal and state.rewards() in ([1.0], [-1.0])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_aec_masks_zero_for_waiting_agents(n):
    """ALP-14: through env(), the acting agent's mask is never empty and everybody else's is all
    zero; reported scores equal scores recomputed from the final state; observations stay in
    [0, 1]."""
    env = alpujarras_v0.env(num_players=n)
    for seed in range(games(5, 50)):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            assert obs["observation"].min() >= 0.0 and obs["observation"].max() <= 1.0
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].any()
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(short_move_policy(env.unwrapped.game, rng))
        state = env.unwrapped.game
        assert info["scores"] == [recomputed_score(state.tokens[p], state.dirhems[p])
                                  for p in range(n)]


def check_observations(state: AlpujarrasState, order: list[int]) -> None:
    """Every seat's observation (asked in `order`) equals the one computed from a cache-free copy
    and the declaration's plain build (`SPEC.reference`), value for value; the mask equals the
    fresh mask."""
    fresh = AlpujarrasState.from_dict(state.to_dict())
    for p in order:
        obs = state.observe(p)
        np.testing.assert_array_equal(obs, fresh.observe(p))
        np.testing.assert_array_equal(obs, OBSERVATION_SPEC.reference(state, p))
    np.testing.assert_array_equal(state.legal_mask(), fresh.legal_mask())


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_cached_observations_equal_a_fresh_computation(n):
    """The observation caches never go stale: after every step every seat's observation equals the
    one computed from a cache-free copy, and the mask equals the freshly computed mask. New games
    (whose first observation starts from a template) and built scenarios are both checked, seats
    are observed in varying orders, and some games are first observed mid-game."""
    for seed in range(games(6, 12)):
        rng = np.random.default_rng(seed)
        if n == 1:
            if seed % 2:
                state = scenario(1, seed=seed, layout=None, fruit={0: [4] * 5},
                                 farmers={0: [1] * 5}, norias={0: 3})
            else:
                dt, stars = SOLO_VARIANTS[(seed // 2) % len(SOLO_VARIANTS)]
                state = new_game(1, seed=seed, double_turns=dt, star_sides=stars)
            policy = solo_duty_policy
        else:
            state = new_game(n, seed=seed)
            policy = short_move_policy
        unobserved = int(rng.integers(4)) if seed % 3 == 2 else 0  # steps before the first look
        while not state.is_terminal:
            if unobserved:
                unobserved -= 1
            else:
                order = rng.permutation(n).tolist()
                check_observations(state, order)
            state.apply(policy(state, rng))
        check_observations(state, list(range(n)))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_fast_observation_equals_the_declared_reference(n):
    """The fast observation (one canonical vector per state, rewritten group by group where an
    action changed something, gathered per observer) equals the declaration's plain build,
    `SPEC.reference`, value for value, for every observer after every step, clones included
    (a clone copies the cached vector and plays on alone), the final position too; the solo
    game with its variants as well."""
    for seed in range(games(3, 12)):
        rng = np.random.default_rng(1000 + seed)
        if n == 1:
            dt, stars = SOLO_VARIANTS[seed % len(SOLO_VARIANTS)]
            state = new_game(1, seed=seed, double_turns=dt, star_sides=stars)
            policy = solo_duty_policy
        else:
            state = new_game(n, seed=seed)
            policy = short_move_policy
        while not state.is_terminal:
            observers = range(n) if rng.random() < 0.5 else [state.current_player]
            for p in observers:
                np.testing.assert_array_equal(state.observe(p),
                                              OBSERVATION_SPEC.reference(state, p))
            if rng.random() < 0.05:  # a clone copies the cached vector and plays on alone
                clone = state.clone()
                clone.apply(policy(clone, rng))
                for p in range(n):
                    np.testing.assert_array_equal(clone.observe(p),
                                                  OBSERVATION_SPEC.reference(clone, p))
            state.apply(policy(state, rng))
        for p in range(n):  # the final position too (no phase, nobody acting)
            np.testing.assert_array_equal(state.observe(p), OBSERVATION_SPEC.reference(state, p))


def test_observation_caches_of_clones_are_independent():
    """A clone keeps its own copy of the cached vector: playing on either side never changes
    what the other shows."""
    for n in PLAYER_COUNTS:
        state = new_game(n, seed=n)
        rng = np.random.default_rng(n)
        for _ in range(3):
            state.observe(0)
            state.apply(short_move_policy(state, rng))
        twin = state.clone()
        before = [twin.observe(p).copy() for p in range(n)]
        while not state.is_terminal:
            state.observe(state.current_player)
            state.apply(short_move_policy(state, rng))
        for p in range(n):
            np.testing.assert_array_equal(twin.observe(p), before[p])
        check_observations(twin, list(range(n)))


def test_market_and_harvest_get_visited_in_random_play():
    """The short-move policy really exercises deliveries, awards, goals and irrigation (so the
    property runs above are not vacuous)."""
    totals = dict(tokens=0, goals=0, channels=0, awards=0)
    for seed in range(20):
        state = new_game(3, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal:
            state.apply(short_move_policy(state, rng))
        totals["tokens"] += sum(len(t) for t in state.tokens)
        totals["goals"] += sum(state.card_farmers)
        totals["channels"] += sum(state.channels)
        totals["awards"] += sum(a != C.AWARD_GREEN for a in state.awards)
    assert all(v > 10 for v in totals.values()), totals
    assert CARD0 > DO_PLACE


def test_observe_writes_into_any_float_vector():
    """`observe(p, out)` fills float64 and strided vectors with the same values as a fresh
    float32 one, for every seat."""
    for n in PLAYER_COUNTS:
        state = new_game(n, seed=11)
        rng = np.random.default_rng(11)
        for _ in range(5):
            state.apply(short_move_policy(state, rng))
        for p in range(n):
            reference = state.observe(p)
            wide = np.full(reference.size, -1.0)
            state.observe(p, wide)
            np.testing.assert_array_equal(wide, reference)
            strided = np.full(2 * reference.size, -1.0, np.float32)[::2]
            state.observe(p, strided)
            np.testing.assert_array_equal(strided, reference)


def test_farmer_goal_predicates_match_their_counting_definitions():
    """ALP-55, ALP-59, ALP-60: the farmer-count goals equal their plain counting definitions for
    every farmer spread (up to 3 per farmland or town)."""
    from itertools import product

    from huerta.envs.alpujarras import goals

    state = new_game(2, seed=0)
    for spread in product(range(4), repeat=C.NUM_FARMLANDS):
        state.farmers[0] = list(spread)
        state.town_farmers[0] = list(spread)
        assert goals.two_farmers_two_farmlands(state, 0) == (sum(x >= 2 for x in spread) >= 2)
        assert goals.farmer_in_four_towns(state, 0) == (sum(x >= 1 for x in spread) >= 4)
        assert goals.two_farmers_two_towns(state, 0) == (sum(x >= 2 for x in spread) >= 2)


def test_new_game_templates_stay_untouched_by_play():
    """The observation's shared new-game rows (what a fresh cache shows) are never changed by
    the games that start from them."""
    from huerta.envs.alpujarras import observation

    before = {n: repr(rows) for n, rows in observation._NEW_GAME_ROWS.items()}
    templates = {n: t.copy() for n, t in observation._FRESH.items()}
    for n in PLAYER_COUNTS:
        for seed in range(3):
            state = new_game(n, seed=seed)
            rng = np.random.default_rng(seed)
            while not state.is_terminal:
                state.observe(state.current_player)
                state.apply(short_move_policy(state, rng))
    assert {n: repr(rows) for n, rows in observation._NEW_GAME_ROWS.items()} == before
    for n, template in templates.items():
        np.testing.assert_array_equal(observation._FRESH[n], template)
