"""Finca's own record and hidden-information checks: what the seed shuffles, the state's own
consistency check on load, and that face-down tiles never leak. Determinism, record save and
replay, state round trips, corrupt records and the golden playthroughs are tested for every game
and player count in tests/core/test_records_contract.py."""

from __future__ import annotations

import numpy as np
import pytest

from huerta.envs.core.errors import CorruptRecordError
from huerta.envs.finca import FincaState, new_game


def test_different_seeds_give_different_games():
    """FIN-03, FIN-04, FIN-05: blades, stacks and finca tiles are shuffled per seed."""
    a, b = new_game(2, seed=1), new_game(2, seed=2)
    assert (a.blades, a.stacks, a.finca_tile) != (b.blades, b.stacks, b.finca_tile)


def test_corrupt_state_says_where():
    """A loaded state whose fruit do not add up names the fruit and the supply."""
    data = new_game(2, seed=0).to_dict()
    data["supply"][2] = 17
    with pytest.raises(CorruptRecordError, match="olive: supply"):
        FincaState.from_dict(data)


def test_no_leak_of_face_down_tiles():
    """T-50: two states that differ only in the order of face-down tiles (and which tiles are
    boxed) give every player identical observations."""
    rng = np.random.default_rng(0)
    for seed in range(20):
        state = new_game(3, seed=seed)
        for _ in range(int(rng.integers(0, 150))):
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        other = state.determinize(0, np.random.default_rng(seed + 100))
        hidden = lambda s: ([st[:-1] for st in s.stacks], sorted(s.boxed))  # noqa: E731
        assert [st[-1:] for st in other.stacks] == [st[-1:] for st in state.stacks]
        if any(len(st) > 1 for st in state.stacks):
            assert hidden(other) != hidden(state) or len(state.boxed) == 0
        for p in range(3):
            np.testing.assert_array_equal(state.observe(p), other.observe(p))
        np.testing.assert_array_equal(state.legal_mask(), other.legal_mask())
        assert state.render_text() == other.render_text()
