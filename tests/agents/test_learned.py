"""The learned agent: exported policies equal the trained network, bad files are refused by
name, and the shipped reference agents load and play legal games of every game."""

from __future__ import annotations

import json

import numpy as np
import pytest
from shipped_values import shipped_value_alone

from huerta.agents import make_agent
from huerta.agents.afterstate import ValueNetwork, is_value_file
from huerta.agents.learned import MODELS, LearnedAgent, PolicyNetwork, load_model, shipped_model
from huerta.agents.registry import check_agent_code
from huerta.agents.value_weights import ValueWeights, is_weights_file
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_names, game_variants, get_game, own_player_counts
from huerta.training.evaluation.matches import play_game

# one shipped model per game (its smallest own player count, 2 for every game today: the model
# also sits at bigger tables) and one per variant (the solo game), from the registry
SHIPPED = [(game, own_player_counts(game)[0]) for game in game_names()] + list(
    game_variants().values())


def _is_policy(path) -> bool:
    return not is_value_file(path) and not is_weights_file(path)


def _observations(game: str, players: int, count: int, seed: int = 0):
    """Observations and masks of random play, `count` of them."""
    spec = get_game(game)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    state = spec.new_game(players, seed=seed)
    while len(obs) < count:
        if state.is_terminal:
            state = spec.new_game(players, seed=int(rng.integers(1 << 30)))
            continue
        mask = state.legal_mask()
        obs.append(state.observe(state.current_player))
        masks.append(mask.copy())
        state.apply(int(rng.choice(np.flatnonzero(mask))))
    return np.array(obs, dtype=np.float32), np.array(masks, dtype=bool)


def _model(game: str, shared_layers: int, tmp_path):
    """A fresh MaskablePPO learner of `game` (net_arch 64, 32) with its first layers shared or
    not, its action layer scaled up so that its choices are not near ties, saved as a zip."""
    import torch

    from huerta.training.config import TrainConfig
    from huerta.training.methods.ppo import make_vec_env, new_model

    config = TrainConfig(game=game, envs=1, net_arch=[64, 32], shared_layers=shared_layers,
                         out=str(tmp_path), progress=False).check()
    vec_env = make_vec_env(config, tmp_path / "pool")
    model = new_model(config, vec_env, None)
    with torch.no_grad():
        model.policy.action_net.weight.mul_(300.0)
    path = tmp_path / "model.zip"
    model.save(str(path))
    vec_env.close()
    return model, path


@pytest.fixture(scope="module")
def policies(tmp_path_factory):
    """`policy(game)`: an exported policy network of `game` (a fresh MaskablePPO learner, made
    on first use): what `huerta train --method ppo` and `huerta export` write."""
    from huerta.training.methods.export import export_policy

    made: dict[str, object] = {}

    def policy(game: str):
        if game not in made:
            folder = tmp_path_factory.mktemp(f"policy-{game}")
            _, zip_path = _model(game, 1, folder)
            made[game] = export_policy(zip_path, folder / "policy.npz")
        return made[game]
    return policy


@pytest.mark.parametrize("shared_layers", [0, 1, 2])
@pytest.mark.parametrize("game", game_names())
def test_an_exported_policy_computes_what_the_network_does(game, shared_layers, tmp_path):
    from huerta.training.methods.export import export_policy
    from huerta.training.selfplay import BatchedPolicy

    model, path = _model(game, shared_layers, tmp_path)
    obs, masks = _observations(game, 2, 60)
    torch_logits = BatchedPolicy(model).logits(obs)
    exact = PolicyNetwork(export_policy(path, tmp_path / "p32.npz", dtype="float32"))
    assert len(exact.weights) == 3 and exact.about["game"] == game
    np.testing.assert_allclose(exact.logits(obs), torch_logits, rtol=1e-4, atol=1e-4)
    greedy = BatchedPolicy(model).greedy(obs, masks)
    assert np.array_equal(exact.greedy(obs, masks), greedy)
    assert all(masks[i, a] for i, a in enumerate(greedy))
    half = export_policy(path, tmp_path / "p16.npz")  # the default: float16, about half the size
    assert half.stat().st_size < 0.6 * (tmp_path / "p32.npz").stat().st_size
    scale = np.abs(torch_logits).max()
    np.testing.assert_allclose(PolicyNetwork(half).logits(obs), torch_logits, atol=0.01 * scale)


def test_the_learned_agent_plays_what_ppo_plays(tmp_path):
    from huerta.training.methods.export import export_policy

    _, path = _model("mi_tierra", 1, tmp_path)
    export_policy(path, tmp_path / "policy.npz", dtype="float32")
    learned = make_agent(f"learned:{tmp_path / 'policy.npz'}", game="mi_tierra")
    ppo = make_agent(f"ppo:{path}", game="mi_tierra")
    obs, masks = _observations("mi_tierra", 2, 40, seed=3)
    for o, m in zip(obs, masks, strict=True):
        observation = {"observation": o, "action_mask": m.astype(np.int8)}
        assert learned.act(observation) == ppo.act(observation)


@pytest.mark.parametrize("game, players", SHIPPED)
def test_the_shipped_models_load_and_say_how_they_were_trained(game, players):
    path = shipped_model(game, players)
    assert path.is_file(), f"no shipped model at {path}"
    assert path.stat().st_size < 3_000_000  # small enough to keep in the repository
    network = load_model(path)
    network.check_game(game)
    assert network.about["players"] == players
    trained = network.about["trained"]
    assert trained["command"].startswith("huerta train ") and "--seed" in trained["command"]
    assert trained["wall_seconds"] > 0
    if isinstance(network, ValueNetwork):  # an afterstate run: games, not steps
        assert trained["method"] == "afterstate"
        assert trained["value_games"] >= trained["best_games"] > 0
    elif isinstance(network, ValueWeights):  # a cem run: generations of constants
        assert trained["method"] == "cem"
        # learned: a generation after the heuristic's own constants (generation 0)
        assert trained["generations"] >= trained["best_generation"] >= 1
        assert network.about["weights"] != {}
    else:
        assert trained["steps"] > 0 and trained["best_steps"] > 0


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_shipped_agents_play_legal_games_at_every_count(game, players):
    spec = get_game(game)
    if players not in spec.player_counts:
        return
    # one learned seat, which loads the model of the table's count (but solo, a searching
    # agent: one seat keeps the test short), the others random
    agents = [make_agent("learned", game=game, seed=0),
              *(make_agent("random", game=game, seed=9 + seat) for seat in range(1, players))]
    _, state = play_game(game, agents, seed=5)  # an illegal action would raise here
    assert state.is_terminal
    assert agents[0].network is not None
    assert agents[0].network.path == shipped_model(game, players)


def test_the_shipped_finca_value_is_trained_not_noise(tmp_path):
    """The shipped Finca value, played alone (its learned search settings left out, so the game
    is the same on any machine), wins at least 8 of 10 fixed games against random: the file
    holds a trained value (the shipped agent wins all of 200, docs/results/training.md)."""
    from huerta.training.evaluation.matches import play_batch

    value = shipped_value_alone("finca", tmp_path)
    summary = play_batch("finca", 2, [f"learned:{value}", "random"], games=10, seed=11)
    assert summary.wins[0] >= 8


def test_bad_policy_files_are_refused_by_name(tmp_path, policies):
    text = tmp_path / "notes.npz"
    text.write_text("not a policy")
    with pytest.raises(InvalidConfigError, match=r"notes\.npz is not a policy file"):
        make_agent(f"learned:{text}", game="finca")
    half = tmp_path / "half.npz"
    np.savez(half, weight_0=np.zeros((591, 34), np.float32), bias_0=np.zeros(34, np.float32),
             about=np.array(json.dumps({"game": "finca", "players": 2})))
    with pytest.raises(InvalidConfigError, match="lacks observation_size, num_actions"):
        PolicyNetwork(half)
    wrong = tmp_path / "wrong.npz"
    about = {"game": "finca", "players": 2, "observation_size": 591, "num_actions": 34,
             "activation": "tanh"}
    np.savez(wrong, weight_0=np.zeros((591, 8), np.float32), bias_0=np.zeros(8, np.float32),
             about=np.array(json.dumps(about)))
    with pytest.raises(InvalidConfigError, match="8 logits for 34 actions"):
        PolicyNetwork(wrong)
    with pytest.raises(InvalidConfigError, match="no policy file at"):
        check_agent_code(f"learned:{tmp_path / 'none.npz'}", "finca")
    with pytest.raises(InvalidConfigError, match=r"policy of mi_tierra.*not of finca"):
        check_agent_code(f"learned:{policies('mi_tierra')}", "finca")
    with pytest.raises(InvalidConfigError, match=r"afterstate value of mi_tierra.*not of finca"):
        check_agent_code(f"learned:{shipped_model('mi_tierra', 2)}", "finca")
    assert check_agent_code("learned", "finca") == "learned"


def test_a_run_folder_plays_its_exported_policy(tmp_path, policies):
    with pytest.raises(InvalidConfigError, match=r"best_policy\.npz.*huerta export"):
        make_agent(f"learned:{tmp_path}", game="finca")
    (tmp_path / "best_policy.npz").write_bytes(policies("mi_tierra").read_bytes())
    agent = make_agent(f"learned:{tmp_path}", game="mi_tierra")
    assert isinstance(agent, LearnedAgent)
    obs, masks = _observations("mi_tierra", 2, 5)
    action = agent.act({"observation": obs[0], "action_mask": masks[0].astype(np.int8)})
    assert masks[0][action]
    assert {p.stem for p in MODELS.glob("*.npz")} >= {"finca", "alpujarras", "mi_tierra",
                                                      "alpujarras-solo"}


def test_a_retrained_policy_is_a_new_leaderboard_version(tmp_path, policies):
    from huerta.training.agent_specs import agent_identity

    path = tmp_path / "policy.npz"
    path.write_bytes(policies("mi_tierra").read_bytes())
    before = agent_identity(f"learned:{path}", "mi_tierra")
    assert before.version == agent_identity(f"learned:{path}", "mi_tierra").version
    network = PolicyNetwork(path)
    arrays = {f"weight_{i}": w for i, w in enumerate(network.weights)}
    arrays |= {f"bias_{i}": b + 1.0 for i, b in enumerate(network.biases)}
    np.savez(path, about=np.array(json.dumps(network.about)), **arrays)
    assert agent_identity(f"learned:{path}", "mi_tierra").version != before.version
    assert agent_identity("learned", "finca").code == "learned"


def test_learned_search_codes_are_read_and_checked():
    from huerta.agents.learned import learned_options
    from huerta.agents.policy_rollouts import DEFAULT_SAMPLES

    assert learned_options(None) == (None, None)
    assert learned_options("search") == (None, DEFAULT_SAMPLES)
    assert learned_options("search:3") == (None, 3)
    assert learned_options("runs/finca") == ("runs/finca", None)
    for bad in ("search:0", "search:x", "search:1001"):
        with pytest.raises(InvalidConfigError, match=r"learned:search:SAMPLES takes 1 to 1000"):
            check_agent_code(f"learned:{bad}", "finca")
    assert check_agent_code("learned:search:2") == "learned"
    with pytest.raises(InvalidConfigError, match="is an afterstate value"):
        check_agent_code("learned:search", "mi_tierra")  # the shipped model is a value


def _midgame_view(game: str, players: int, steps: int, seed: int):
    from huerta.envs.core.view import PlayerView

    spec = get_game(game)
    state = spec.new_game(players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):  # random moves, stopping short of the end
        after = state.clone()
        after.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
        if after.is_terminal:
            break
        state = after
    seat = state.current_player
    obs = {"observation": state.observe(seat), "action_mask": state.legal_mask().astype(np.int8)}
    return state, obs, PlayerView(state, seat)


@pytest.mark.parametrize("game", game_names())
def test_learned_search_picks_a_legal_likely_action_reproducibly(game, policies):
    from huerta.agents.learned import load_policy

    state, obs, view = _midgame_view(game, 2, steps=12, seed=4)
    before = state.clone()
    # built directly: the registry's learned:search searches only a shipped policy, and every
    # shipped model is a value
    agent = LearnedAgent(seed=1, game=game, path=str(policies(game)), samples=2)
    choice = agent.act(obs, view)
    assert obs["action_mask"][choice]
    logits = load_policy(policies(game)).logits(obs["observation"])
    legal = np.flatnonzero(obs["action_mask"])
    assert choice in legal[np.argsort(-logits[legal], kind="stable")][:4]  # a candidate
    again = LearnedAgent(seed=1, game=game, path=str(policies(game)), samples=2)
    assert again.act(obs, view) == choice  # the same seed, the same rollouts
    assert state.observe(state.current_player).tolist() == \
        before.observe(before.current_player).tolist()  # the rollouts ran on copies


def test_learned_search_plays_a_whole_game_legally(policies):
    game = "mi_tierra"
    agents = [LearnedAgent(seed=0, game=game, path=str(policies(game)), samples=1),
              make_agent("random", game=game, seed=1)]
    _, state = play_game(game, agents, seed=2)
    assert state.is_terminal


@pytest.mark.parametrize("game, players", [g for g in SHIPPED
                                           if not _is_policy(shipped_model(*g))])
def test_learned_search_over_a_shipped_value_is_refused_by_name(game, players):
    state, obs, view = _midgame_view(game, players, steps=12, seed=4)
    others = {shipped_model(game, n) for n in get_game(game).player_counts} - {
        shipped_model(game, players)}
    if any(_is_policy(f) for f in others):  # a variant's policy searches
        assert check_agent_code("learned:search", game) == "learned"
    else:  # no shipped policy of the game at all: refused before a game starts
        with pytest.raises(InvalidConfigError, match="is an afterstate value"):
            check_agent_code("learned:search", game)
    agent = LearnedAgent(seed=1, game=game, samples=2)  # built directly: refused at its move
    with pytest.raises(InvalidConfigError,
                       match=r"is an afterstate value|with learned constants"):
        agent.act(obs, view)
