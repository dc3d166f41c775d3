"""Finca's own environment checks; the contract every game keeps (PettingZoo and Gymnasium APIs,
pickling, configuration and illegal-action errors, rewards, truncation, rendering, the env
checkers) is tested for Finca with 2, 3 and 4 players in tests/core/test_env_contract.py."""

from __future__ import annotations

import pytest

from huerta.envs import finca_v0
from huerta.envs.core.errors import IllegalActionError, InvalidConfigError
from huerta.envs.finca.actions import CONFIRM


def test_bad_cart_shortage_names_the_valid_values():
    """The cart_shortage option is checked when the game is set up, naming its two values."""
    env = finca_v0.env(cart_shortage="sideways")
    with pytest.raises(InvalidConfigError, match="reset_then_take, take_then_reset"):
        env.reset(seed=0)


def test_confirm_during_the_main_phase_is_refused_by_name():
    """After the introduction (10 farmer placements), CONFIRM with no delivery under way raises
    naming CONFIRM and changes nothing."""
    env = finca_v0.env(num_players=2)
    env.reset(seed=3)
    for _ in range(10):  # the introduction
        env.step(0)
    before = env.unwrapped.game.to_dict()
    assert CONFIRM == 33
    with pytest.raises(IllegalActionError, match=r"illegal action 33 \(CONFIRM"):
        env.step(CONFIRM)
    assert env.unwrapped.game.to_dict() == before
    assert len(env.unwrapped.record.actions) == 10
