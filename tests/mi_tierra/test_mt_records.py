"""Mi Tierra's own record and hidden-information checks: a record whose options cannot set the
game up, the state's own consistency checks on load, and that the pile order, the removed cards,
the development deck and the dice to come never leak while a peeker sees what it peeked.
Determinism, record save and replay, state round trips (the same dice after a clone or a JSON
round trip), corrupt records and the golden playthroughs are tested for every game and player
count in tests/core/test_records_contract.py."""

from __future__ import annotations

import numpy as np
import pytest

from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.core.records import GameRecord, replay
from huerta.envs.core.transcript import random_record
from huerta.envs.mi_tierra import MiTierraState, new_game
from huerta.envs.mi_tierra.actions import PASS, Decision, Stage, choice
from huerta.envs.mi_tierra.observation import SLICES
from huerta.envs.mi_tierra.scenario import CardPicker, scenario, space


def random_midgame(n, seed, steps):
    state = new_game(n, seed=seed)
    rng = np.random.default_rng(seed)
    while state.steps < steps and not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    return state


def test_record_options_that_cannot_set_the_game_up_say_so():
    """Mi Tierra takes no game options: a record carrying one cannot set its game up."""
    data = random_record("mi_tierra", 2, seed=3).to_dict()
    data["options"] = {"colour": "red"}
    with pytest.raises(CorruptRecordError, match="cannot set the game up"):
        replay(GameRecord.from_dict(data))


def test_corrupt_state_says_where():
    """A loaded state with negative money, a market card twice or a field of the wrong type is
    refused naming what is wrong."""
    data = new_game(2, seed=0).to_dict()
    data["money"][1] = -3
    with pytest.raises(CorruptRecordError, match="player 1: negative money"):
        MiTierraState.from_dict(data)
    data = new_game(2, seed=0).to_dict()
    data["pile"].append(data["pile"][0])
    with pytest.raises(CorruptRecordError, match="market cards"):
        MiTierraState.from_dict(data)
    data = new_game(2, seed=0).to_dict()
    data["round"] = "one"
    with pytest.raises(CorruptRecordError, match="field 'round'"):
        MiTierraState.from_dict(data)


# --- hidden information --------------------------------------------------------------------------

def test_no_leak_of_the_pile_order_or_the_removed_cards():
    """T-76, MIT-02, G-68: two states that differ only in what a player cannot know (the order of
    unpeeked pile cards, which A cards were removed, the development deck order, future dice)
    give that player identical observations, masks and renders."""
    for seed in range(30):
        state = random_midgame(2 + seed % 3, seed, int(np.random.default_rng(seed).integers(0,
                                                                                             300)))
        for p in range(state.num_players):
            other = state.determinize(p, np.random.default_rng(seed + 100))
            assert not other.check_consistency()
            np.testing.assert_array_equal(state.observe(p), other.observe(p))
            np.testing.assert_array_equal(state.legal_mask(), other.legal_mask())
            assert state.render_text() == other.render_text()
            assert other.known[p] == state.known[p]
            assert sorted(other.known_set[p]) == sorted(state.known_set[p])
            for k, card in enumerate(state.known[p]):
                assert other.pile[-1 - k] == card


def test_determinize_resamples_the_unknown():
    """determinize changes hidden things for a player who peeked nothing."""
    state = random_midgame(3, 1, 30)
    assert not state.known[0] and not state.known_set[0]
    piles = {tuple(state.determinize(0, np.random.default_rng(s)).pile) for s in range(10)}
    removed = {tuple(sorted(state.determinize(0, np.random.default_rng(s)).removed))
               for s in range(10)}
    assert len(piles) > 1 and len(removed) > 1


def _peek_state():
    """P1 (seat 0) alone in the Clock Tower, reordering the top four cards."""
    codes = ["A05", "A07", "A09", "A10", "A11", "A12"]
    s = scenario(2, board={space("clock_tower", 0): 0, space("bakery", 0): 1}, pile=codes,
                 est=["A01", "A03"], goods={1: {"milk": 1, "egg": 2}}, money=[10, 10],
                 start=Stage.CLOCK_TOWER)  # seat 1's baker stops the run after the reorder
    pick = CardPicker()
    return s, [pick(c) for c in codes]


def knowledge_cards(obs):
    block = obs[SLICES["knowledge"]]
    positions = block[: 4 * 56].reshape(4, 56)
    return [int(np.flatnonzero(row)[0]) if row.any() else -1 for row in positions]


def test_the_peeker_sees_exactly_what_it_peeked_and_nobody_else_does():
    """T-35, T-76, MIT-45, MIT-46, G-35: the peeker's observation shows the top cards it saw (and,
    while reordering, its choices); the other player's observation shows none of it, and does
    not change when the peeked cards are shuffled."""
    s, ids = _peek_state()
    assert s.decision == Decision.CLOCK_ORDER
    assert knowledge_cards(s.observe(0)) == ids[:4]
    assert knowledge_cards(s.observe(1)) == [-1, -1, -1, -1]
    before_p1 = s.observe(1)
    s.apply(choice(2))
    assert not np.array_equal(s.observe(0)[SLICES["context"]], before_p1[SLICES["context"]])
    alt = s.clone()
    alt.pile[-1], alt.pile[-2] = alt.pile[-2], alt.pile[-1]
    alt.known[0] = [alt.pile[-1 - k] for k in range(4)]
    alt.reorder_left = [c for c in alt.known[0] if c not in alt.reorder_done]
    alt.invalidate()
    s.invalidate()
    np.testing.assert_array_equal(s.observe(1), alt.observe(1))
    assert not np.array_equal(s.observe(0), alt.observe(0))
    s.apply(PASS)
    assert knowledge_cards(s.observe(0)) == [ids[2], ids[0], ids[1], ids[3]]
    assert knowledge_cards(s.observe(1)) == [-1, -1, -1, -1]


def test_removed_cards_never_appear_in_any_observation():
    """MIT-02: the 7 removed A cards are never flagged revealed nor known by anyone."""
    for seed in range(10):
        state = new_game(3, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal:
            for p in range(3):
                obs = state.observe(p)
                revealed = obs[SLICES["revealed"]]
                knowledge = obs[SLICES["knowledge"]][: 5 * 56].reshape(5, 56)
                for c in state.removed:
                    assert revealed[c] == 0.0 and not knowledge[:, c].any()
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])


def test_determinize_during_another_players_reordering_stays_consistent():
    """G-35: the opponent of a reordering peeker gets a state in which the peeker's pending
    choices follow the cards now at the same pile positions, and the game plays on soundly."""
    s, ids = _peek_state()
    s.apply(choice(1))  # the peeker has put one card back already
    for seed in range(5):
        other = s.determinize(1, np.random.default_rng(seed))
        assert not other.check_consistency()
        np.testing.assert_array_equal(other.observe(1), s.observe(1))
        rng = np.random.default_rng(seed)
        while not other.is_terminal:
            if other.chance_pending:  # scenarios roll their dice explicitly
                other.apply_chance(int(rng.integers(1, 7)))
                continue
            legal = other.legal_actions()
            other.apply(legal[rng.integers(len(legal))])
            assert not other.check_consistency()
