"""Mi Tierra's declared observation (envs/mi_tierra/observation_spec.py): the registered game
carries it, its layout is the vector's, and `decode` reads a vector back into the state's own
numbers, observer first (the core mechanism: tests/core/test_observation_spec.py)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from mt_helpers import RICH

from huerta.envs.core.registry import get_game
from huerta.envs.mi_tierra import components as C
from huerta.envs.mi_tierra.observation import OBS_LAYOUT, OBS_SIZE
from huerta.envs.mi_tierra.observation_spec import SPEC, money_stamp_rank, score
from huerta.envs.mi_tierra.scenario import scenario


def _played(players: int, steps: int, seed: int):
    state = get_game("mi_tierra").new_game(players, seed=seed)
    rng = np.random.default_rng(seed)
    while state.steps < steps and not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[-1] if rng.random() < 0.5 else legal[rng.integers(len(legal))])
    return state


def test_the_registered_game_carries_the_declaration():
    game = get_game("mi_tierra")
    assert game.observation_spec is SPEC
    assert SPEC.layout == tuple(game.observation_layout) == OBS_LAYOUT
    assert SPEC.size == OBS_SIZE == game.observation_size
    assert pickle.loads(pickle.dumps(SPEC)) is SPEC


@pytest.mark.parametrize("players", [2, 3, 4])
def test_decode_reads_back_the_state(players):
    """The decoded vector states every seat's holdings, workers and farm (observer first), the
    board, the markets, the display, the revealed cards and the stage and decision."""
    game = get_game("mi_tierra")
    state = _played(players, 100, seed=players + 10)
    assert not state.is_terminal
    for observer in range(players):
        decoded = game.decode_observation(state.observe(observer))
        assert decoded["game"]["player_count"] == players - 2
        assert decoded["game"]["round"] == state.round
        assert decoded["game"]["dev_deck_cards"] == len(state.dev_deck)
        for k, slot in enumerate(decoded["players"]):
            if k >= players:
                assert slot["present"] == 0 and slot["turn_position"] is None
                continue
            seat = (observer + k) % players
            assert slot["present"] == 1
            assert slot["money"] == min(state.money[seat], 250)
            assert slot["score"] == min(score(state, seat), 500)
            assert slot["goods"] == [float(min(g, 10)) for g in state.goods[seat]]
            assert slot["workers_owned"] == state.owned[seat]
            assert slot["workers_in_hut"] == state.hut[seat]
            assert slot["turn_position"] == state.order.index(seat)
            assert slot["money_stamp_rank"] == money_stamp_rank(state, seat)
            assert slot["farm_tiles"] == [len(C.TILE_NAMES) * c + t
                                          for c, t in enumerate(state.tiles[seat])]
            assert slot["farm_animals"] == [float(n) for n in state.barn_count[seat]]
            assert slot["development_cards"] == [float(d) for d in state.devs[seat]]
            assert slot["is_acting"] == float(seat == state.current_player)
        for i, space in enumerate(decoded["board"]):
            owner = state.space_owner[i]
            assert space["occupant"] == ((owner - observer) % players if owner >= 0 else None)
        bm = decoded["black_market"]["workers"]
        assert bm[:players] == [float(state.bm_workers.count((observer + k) % players))
                                for k in range(players)]
        shown = [d for d in decoded["display"]]
        assert [s["card"] if s["present"] else -1 for s in shown] == list(state.display)
        assert decoded["revealed"]["revealed"] == [c for c, r in enumerate(state.revealed) if r]
        assert decoded["stage"]["stage"] == state.stage
        assert decoded["decision"]["decision"] == state.decision


def test_decode_reads_the_markets_and_the_knowledge():
    """Market slots decode to their cards' kinds and prices; the observer's Clock Tower
    knowledge decodes to the cards it peeked, in pile order, and nobody else's."""
    state = scenario(3, seed=1, explicit_chance=False, **RICH)
    rng = np.random.default_rng(1)
    peeked = False
    for _ in range(600):
        if state.is_terminal:
            break
        for observer in range(3):
            decoded = SPEC.decode(state.observe(observer))
            cards = [*state.est, *[-1] * (4 - len(state.est)), *state.closing]
            for slot, card in zip(decoded["markets"], cards, strict=True):
                if card < 0:
                    assert slot["present"] == 0
                    continue
                market = C.MARKET_CARDS[card]
                assert slot["kind"] == {"simple": 0, "pack": 1, "generic": 2}[market.kind]
                assert slot["unit_price"] == [float(C.card_unit_price(market, g, False))
                                              for g in range(C.NUM_GOODS)]
            known = decoded["knowledge"]["in_order"]
            assert known == [k * C.NUM_MARKET_CARDS + card
                             for k, card in enumerate(state.known[observer])]
            peeked |= bool(known)
        legal = state.legal_actions()
        state.apply(legal[-1] if rng.random() < 0.7 else legal[rng.integers(len(legal))])
    assert peeked
