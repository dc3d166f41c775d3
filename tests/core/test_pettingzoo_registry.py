"""PettingZoo's registry (`pettingzoo.make("aec", id)`): importing huerta.envs registers every
game under its id (the Gymnasium ids), each id makes the game's AEC env at every player count
(a variant's id at its own count), and the env is the one the module import makes."""

from __future__ import annotations

import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test

import huerta.envs  # noqa: F401  (registers the ids)
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_specs, load_attribute, pettingzoo_ids

TABLES = [(spec.gym_id, spec, n) for spec in game_specs() for n in spec.player_counts
          if n not in {v.players for v in spec.variants.values()}]
VARIANTS = [(v.gym_id, spec, v.players) for spec in game_specs() for v in spec.variants.values()]


def play(env, seed: int) -> list:
    """A random game in `env` from `seed`: every observation vector and reward, in order."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        seen.append((agent, obs["observation"].tobytes(), reward))
        action = None if terminated or truncated else int(
            rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return seen


def test_every_game_and_variant_has_an_aec_id():
    ids = {spec.gym_id for spec in game_specs()}
    ids |= {v.gym_id for spec in game_specs() for v in spec.variants.values()}
    assert set(pettingzoo_ids()) == ids
    assert ids <= set(pettingzoo.aec_registry)
    assert "huerta/MiTierra-v0" in ids and "huerta/AlpujarrasSolo-v0" in ids


@pytest.mark.parametrize("env_id, spec, players", TABLES + VARIANTS)
def test_make_gives_the_module_env(env_id, spec, players):
    """The registry's env passes PettingZoo's api_test and plays the same game, seed for seed, as
    the module import's env."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # no deprecated creation API
        env = (pettingzoo.make("aec", env_id) if (env_id, spec, players) in VARIANTS
               else pettingzoo.make("aec", env_id, num_players=players))
    assert len(env.possible_agents) == players
    module_env = load_attribute(f"{spec.env_module}:env")(num_players=players)
    assert play(env, seed=players) == play(module_env, seed=players)
    api_test(pettingzoo.make("aec", env_id, num_players=players), num_cycles=20)


def test_a_variant_id_refuses_another_player_count():
    with pytest.raises(InvalidConfigError, match=r"Solo-v0.*num_players=2.*Alpujarras-v0"):
        pettingzoo.make("aec", "huerta/AlpujarrasSolo-v0", num_players=2)
    solo = pettingzoo.make("aec", "huerta/AlpujarrasSolo-v0", double_turns=5)
    solo.reset(seed=0)
    assert solo.agents == ["player_0"]
