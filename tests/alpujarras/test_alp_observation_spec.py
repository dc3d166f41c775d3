"""Alpujarras's declared observation (envs/alpujarras/observation_spec.py): it decodes real vectors
back to the state's own numbers, observer first, for every player count and the solo game."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from alp_helpers import short_move_policy, solo_duty_policy

from huerta.envs.alpujarras import components as C
from huerta.envs.core.registry import get_game


def _played(n: int, seed: int, steps: int):
    game = get_game("alpujarras")
    state = game.new_game(n, seed=seed)
    rng = np.random.default_rng(seed)
    policy = solo_duty_policy if n == 1 else short_move_policy
    while state.steps < steps and not state.is_terminal:
        state.apply(policy(state, rng))
    return game, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_alpujarras_decode_reads_back_the_state(players):
    game, state = _played(players, seed=3, steps=80)
    assert game.observation_spec.layout == tuple(game.observation_layout)
    for observer in range(players):
        decoded = game.decode_observation(state.observe(observer))
        seats = [(observer + k) % players for k in range(players)]
        for k, slot in enumerate(decoded["players"]):
            if k >= players:
                assert slot["present"] == 0 and slot["fruit"] == [0.0] * C.NUM_FRUITS
                assert decoded["pieces"][k]["present"] == 0
                continue
            q = seats[k]
            assert slot["present"] == 1
            assert slot["fruit"] == [float(x) for x in state.fruit[q]]
            assert slot["norias"] == state.norias[q]
            assert slot["supply"] == state.supply[q]
            assert slot["score"] == min(state.scores()[q], 60)
            piece = decoded["pieces"][k]
            assert piece["position"] == state.pos[q] + 1
            assert piece["is_acting"] == float(q == state.current_player)
        for f, farmland in enumerate(decoded["farmlands"]):
            assert farmland["farmers"][:players] == [float(state.farmers[q][f]) for q in seats]
        for w, town in enumerate(decoded["towns"]):
            assert sum(town["tokens"]) == len(state.towns[w])
            assert town["award"] == state.awards[w]
        for i, card in enumerate(decoded["goals"]):
            assert card["goal"] == C.card_goal(i, state.goal_sides[i])
            assert card["done_by"] == [k for k, q in enumerate(seats) if state.goals_done[q][i]]
        assert decoded["crop_bag"]["crops_left"] == [float(state.bag.count(t))
                                                     for t in range(C.NUM_FRUITS)]
        assert decoded["channels"][0]["filled"] == float(state.channels[0])
        assert decoded["phase"]["phase"] == int(state.phase)
        assert decoded["game_meta"]["player_count"] == players - 1
        assert decoded["game_meta"]["steps"] == state.steps
        assert decoded["die"]["present"] == (1.0 if players == 2 else 0.0)
        assert decoded["zara"]["zara_supply"] == 0.0  # zero in the multiplayer game


def test_alpujarras_solo_decode_reads_back_zara_and_the_zakats():
    game, state = _played(1, seed=5, steps=40)
    decoded = game.decode_observation(state.observe(0))
    assert decoded["game_meta"]["player_count"] == 0 and decoded["game_meta"]["solo"] == 1
    assert decoded["zara"]["zara_supply"] == state.zara_supply
    assert decoded["zara"]["zara_dirhems"] == state.zara_dirhems
    assert decoded["zara"]["zara_score"] == state.zara_score()
    assert decoded["solo"]["double_turns"] == state.double_turns
    assert decoded["solo"]["delivered_kinds"] == sorted({t // 10 for t in state.tokens[0]})
    for i, card in enumerate(decoded["zakats"]):
        assert card["star_side"] == float(state.zakat_star[i])
        assert card["paid"] == float(state.zakat_paid[i])
    assert [f["zara_farmers"] for f in decoded["farmlands"]] == [
        float(x) for x in state.zara_farmers]
    assert [f["zara_mule"] for f in decoded["farmlands"]].index(1.0) == state.zara_farmland
    assert all(card["goal"] is None for card in decoded["goals"])  # no goals in the solo game
    assert decoded["players"][1]["present"] == 0
    assert decoded["die"]["present"] == 1  # Zara's track piece


def test_the_declared_observation_pickles_by_its_game():
    spec = get_game("alpujarras").observation_spec
    assert pickle.loads(pickle.dumps(spec)) is spec
