"""Mi Tierra's own environment checks: a worker on an empty farm cell is refused by name, the
explicit-chance mode is no env option, PASS is action 0. The contract every game keeps (PettingZoo
and Gymnasium APIs, pickling, configuration and illegal-action errors, rewards, truncation,
rendering, the env checkers) is tested for 2, 3 and 4 players in tests/core/test_env_contract.py."""

from __future__ import annotations

import gymnasium
import pytest

import huerta.envs  # noqa: F401  (registers the Gymnasium ids)
from huerta.envs import mi_tierra_v0
from huerta.envs.core.errors import IllegalActionError, InvalidConfigError
from huerta.envs.mi_tierra.actions import PASS, cell


def test_explicit_chance_is_not_an_env_option():
    """explicit_chance is a mode of the game state (scenarios roll their dice explicitly), never
    an option of the Gymnasium or PettingZoo env."""
    with pytest.raises(InvalidConfigError, match="unknown option"):
        gymnasium.make("huerta/MiTierra-v0", explicit_chance=True)
    with pytest.raises(InvalidConfigError, match="unknown option"):
        mi_tierra_v0.env(explicit_chance=True)


def test_worker_on_an_empty_farm_cell_is_refused_by_name():
    """At the start, placing a worker on farm cell 0 (no crop field yet) raises naming CELL_0 and
    the reason, and changes nothing (the record stays empty)."""
    env = mi_tierra_v0.env(num_players=2)
    env.reset(seed=3)
    before = env.unwrapped.game.to_dict()
    assert cell(0) == 21
    with pytest.raises(IllegalActionError, match=r"CELL_0: .*farm cell 0 holds no crop field"):
        env.step(cell(0))
    assert env.unwrapped.game.to_dict() == before
    assert env.unwrapped.record.actions == []


def test_pass_is_id_zero():
    assert PASS == 0
