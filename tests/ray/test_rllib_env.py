"""The RLlib environments, module, league and agent checks, without a cluster.

Every game and player count (and the solo game) through RLlib's own PettingZoo wrapper:
the observation dict RLlib's masking modules read, one acting agent per step, the game's
rewards; the league table's seats; the masked module never choosing a masked action.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from game_cases import every_count, name_counts

from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_choices, get_game

GAMES = every_count()  # every game at each of its own counts, and alpujarras-solo (1)


@pytest.fixture(scope="module")
def rllib_env():
    try:
        from huerta.training.rllib import env as rllib_env
    except ImportError as exc:
        pytest.fail(f"the Ray tests need Ray RLlib: pip install 'huerta[ray]' ({exc})")
    return rllib_env


def _play(env, rng, limit=20_000):
    """Random legal play to the end; checks every step; returns (steps, summed rewards, infos)."""
    obs, infos = env.reset(seed=int(rng.integers(1000)))
    totals: dict[str, float] = {}
    for steps in range(1, limit):
        assert len(obs) == 1, "one agent acts at a time"
        (agent, o), = obs.items()
        assert set(o) == {"observations", "action_mask"}
        assert o["action_mask"].dtype == np.float32 and o["observations"].dtype == np.float32
        assert env.observation_spaces[agent].contains(o)
        legal = np.flatnonzero(o["action_mask"])
        assert len(legal) > 0
        obs, rewards, terminateds, truncateds, infos = env.step({agent: int(rng.choice(legal))})
        for a, r in rewards.items():
            totals[a] = totals.get(a, 0.0) + r
        if terminateds["__all__"] or truncateds["__all__"]:
            return steps, totals, infos
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "players"), GAMES, ids=[f"{g}-{n}" for g, n in GAMES])
def test_every_game_plays_through_rllibs_pettingzoo_wrapper(rllib_env, game, players):
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.tune.registry import ENV_CREATOR, _global_registry

    names = rllib_env.register()
    creator = _global_registry.get(ENV_CREATOR, names[game])
    env = creator({"num_players": players} if game != "alpujarras-solo" else {})
    assert isinstance(env, PettingZooEnv) and isinstance(env, MultiAgentEnv)
    spec = get_game(game.replace("-solo", ""))
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    space = env.observation_spaces["player_0"]
    assert space["observations"].shape == (spec.observation_size,)
    assert space["action_mask"].shape == (spec.num_actions,)
    aec = env.env.unwrapped
    rng = np.random.default_rng(players)
    for _ in range(2):
        steps, totals, infos = _play(env, rng)
        assert steps == aec.game.steps
        assert sorted(totals) == env.possible_agents  # every seat hears the end
        if aec.game.is_terminal:
            expected = aec.game.rewards("win_loss")
            assert [totals[f"player_{s}"] for s in range(players)] == expected
            assert infos["player_0"]["scores"] == aec.game.scores()


def test_the_mask_is_the_games_own(rllib_env):
    env = rllib_env.make_env("finca", 2)
    obs, _ = env.reset(seed=5)
    game = env.env.unwrapped.game
    (agent, o), = obs.items()
    assert agent == f"player_{game.current_player}"
    np.testing.assert_array_equal(o["action_mask"], game.legal_mask().astype(np.float32))
    np.testing.assert_array_equal(o["observations"], game.observe(game.current_player))


# every name at its largest count: the most opponent seats
@pytest.mark.parametrize(("game", "players"), [(name, max(name_counts(name)[1]))
                                               for name in game_choices()])
def test_the_league_table_shows_only_the_learner_and_snapshot_seats(rllib_env, game, players):
    shaping = 0.02
    env = rllib_env.make_env(game, players, league={"shaping": shaping})
    league = env.env.env
    assert env.possible_agents == ["learner", *(f"opponent_{k}" for k in range(1, players))]
    rng = np.random.default_rng(1)
    kinds_seen = set()
    for _ in range(6):
        steps, totals, infos = _play(env, rng)
        kinds = league.seat_kinds
        kinds_seen.update(kinds)
        exposed = {league.name_of(s) for s, k in enumerate(kinds) if k in ("learner", "snapshot")}
        assert set(totals) == exposed  # heuristic and random seats never reach RLlib
        assert infos["learner"]["opponents"] == [
            kinds[(league.learner_seat + k) % players] for k in range(1, players)]
        inner = league.env
        # the learner's rewards add up to its terminal reward plus the shaping of the final
        # potential (potential-based: telescoping from the first observation)
        if inner.game.is_terminal:
            final = inner.game.rewards("win_loss")[league.learner_seat]
            assert infos["learner"]["is_winner"] == (league.learner_seat in inner.game.winners())
            assert totals["learner"] == pytest.approx(
                final + shaping * inner.game.shaping_potential(league.learner_seat)
                - league.start_potential, abs=1e-9)
        # the record holds every seat's moves: RLlib's steps plus the scripted seats'
        assert len(inner.record.actions) == inner.game.steps >= steps
    if players > 1:
        assert {"snapshot", "random"} <= kinds_seen


def test_league_weights_and_names_are_checked(rllib_env):
    with pytest.raises(InvalidConfigError, match="unknown kind 'snap'"):
        rllib_env.make_env("finca", 2, league={"weights": {"snap": 1.0}})
    with pytest.raises(InvalidConfigError, match="must be >= 0"):
        rllib_env.make_env("finca", 2, league={"weights": {"random": -1}})
    with pytest.raises(InvalidConfigError, match="unknown key"):
        rllib_env.env_from_config("finca", {"players": 2})
    env = rllib_env.make_env("finca", 2, league={"weights": {"snapshot": 0, "heuristic": 0}})
    env.reset(seed=0)
    assert env.env.env.seat_kinds.count("random") == 1
    with pytest.raises(InvalidConfigError, match="unknown agent 'player_0'"):
        env.env.env.seat_of("player_0")


def test_the_masked_module_never_picks_a_masked_action(rllib_env):
    import torch
    from ray.rllib.core.columns import Columns

    from huerta.training.rllib import module_spec

    env = rllib_env.make_env("alpujarras", 2)
    space, actions = env.observation_spaces["player_0"], env.action_spaces["player_0"]
    module = module_spec([16], space, actions).build()
    rng = np.random.default_rng(0)
    obs = torch.as_tensor(rng.random((64, space["observations"].shape[0]), dtype=np.float32))
    mask = torch.as_tensor((rng.random((64, actions.n)) < 0.1).astype(np.float32))
    mask[:, 7] = 1.0  # at least one legal action per row
    batch = {Columns.OBS: {"observations": obs, "action_mask": mask}}
    for forward in (module.forward_inference, module.forward_exploration, module.forward_train):
        logits = forward(dict(batch))[Columns.ACTION_DIST_INPUTS]
        best = logits.argmax(dim=1)
        assert bool(mask[torch.arange(64), best].all())
        assert float(logits.detach()[mask == 0].max()) < -1e30
    assert batch[Columns.OBS]["action_mask"] is mask  # the batch is not changed
    values = module.compute_values(dict(batch))
    assert values.shape == (64,)
    with pytest.raises(ValueError, match="needs a Dict observation space"):
        module_spec([16], space["observations"], actions).build()


def test_the_league_mapping_and_the_snapshot_rule():
    from huerta.training.rllib import LeagueMapping, RLlibTrainConfig, should_snapshot

    class Episode:
        def __init__(self, i):
            self.id_ = f"episode-{i}"

    mapping = LeagueMapping(["snapshot_000000000", "snapshot_000000100"])
    assert mapping("learner", Episode(1)) == "main"
    chosen = {mapping("opponent_1", Episode(i)) for i in range(50)}
    assert chosen == {"snapshot_000000000", "snapshot_000000100"}
    assert mapping("opponent_1", Episode(3)) == mapping("opponent_1", Episode(3))
    config = RLlibTrainConfig(snapshot_every=1000, snapshot_win_rate=0.7,
                              snapshot_min_episodes=20).check()
    assert should_snapshot(config, 1000, 0, None, 0) == "schedule"
    assert should_snapshot(config, 500, 0, 0.8, 25) == "win rate"
    assert should_snapshot(config, 500, 0, 0.8, 10) is None  # too few games since the last
    assert should_snapshot(config, 500, 0, 0.6, 25) is None
    config.snapshot_win_rate = None
    assert should_snapshot(config, 500, 0, 1.0, 99) is None


def test_rllib_settings_are_checked_naming_the_field():
    from huerta.training.rllib import RLlibTrainConfig

    with pytest.raises(InvalidConfigError, match=r"snapshot_win_rate=1\.5"):
        RLlibTrainConfig(snapshot_win_rate=1.5).check()
    with pytest.raises(InvalidConfigError, match="env_runners=-1"):
        RLlibTrainConfig(env_runners=-1).check()
    # the SB3 path's meaning: `envs` games at once, here shared out over the env runners
    config = RLlibTrainConfig(n_steps=64, envs=5, env_runners=3).check()
    assert (config.envs_per_runner, config.train_batch_size) == (2, 64 * 3 * 2)
    assert RLlibTrainConfig(env_runners=2).check().train_batch_size == 64 * 64


def test_rllib_agent_codes_are_refused_clearly_before_loading(tmp_path):
    from huerta.agents.registry import check_agent_code

    with pytest.raises(InvalidConfigError, match="needs a policy path"):
        check_agent_code("rllib", "finca")
    with pytest.raises(InvalidConfigError, match="no trained policy at"):
        check_agent_code(f"rllib:{tmp_path / 'nowhere'}", "finca")
    with pytest.raises(InvalidConfigError, match="holds no RLlib policy"):
        check_agent_code(f"rllib:{tmp_path}", "finca")
    (tmp_path / "file.zip").write_bytes(b"x")
    with pytest.raises(InvalidConfigError, match="is a file"):
        check_agent_code(f"rllib:{tmp_path / 'file.zip'}", "finca")
    policy = tmp_path / "run" / "best_policy"
    policy.mkdir(parents=True)
    (policy / "class_and_ctor_args.pkl").write_bytes(b"")
    (policy / "huerta_policy.json").write_text(json.dumps(
        {"game": "finca", "observation_size": 591, "num_actions": 34}))
    assert check_agent_code(f"rllib:{tmp_path / 'run'}", "finca") == "rllib"
    with pytest.raises(InvalidConfigError, match="a policy of another game"):
        check_agent_code(f"rllib:{tmp_path / 'run'}", "mi_tierra")
    (policy / "huerta_policy.json").write_text("{")
    with pytest.raises(InvalidConfigError, match="is damaged"):
        check_agent_code(f"rllib:{tmp_path / 'run'}", "finca")


@pytest.mark.parametrize("argv, message", [
    (["tournament", "finca", "--ray-address", "127.0.0.1:1"], "--ray-address needs --backend ray"),
    (["tournament", "finca", "--agents", "human,random", "--backend", "ray"],
     "a human agent cannot play on a Ray cluster"),
    (["train", "finca", "--env-runners", "2"], "--env-runners need --backend rllib"),
    (["train", "alpujarras-solo", "--backend", "rllib", "--players", "2"], "contradicts it"),
])
def test_the_cli_refuses_ray_flags_in_one_line(argv, message, capsys):
    from huerta.training.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1, err


def test_huerta_imports_ray_only_when_asked():
    import subprocess
    import sys

    code = ("import sys, huerta.envs, huerta.agents, huerta.training.cli, "
            "huerta.training.evaluation.tournament, huerta.training.evaluation.ray_tournament, "
            "huerta.agents.rllib_agent; from huerta.agents.registry import check_agent_code; "
            "print('ray' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
