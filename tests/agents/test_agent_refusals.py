"""Every agent refuses what it cannot play with a named error (`InvalidObservationError`, a
`ValueError`) whose message names the input and the reason: no legal action, a finished game, a
mask or observation vector of another size than the game's, a missing key, a non-dict.

Every code of the registry is built here in each of its forms at every game, the solo game
included (`every_case`, `build`); test_agent_pickling.py uses the same cases.
"""

from __future__ import annotations

import functools
import io
import re

import numpy as np
import pytest

from huerta.agents import make_agent
from huerta.agents.random_agent import RandomAgent
from huerta.agents.registry import AGENT_FACTORIES
from huerta.envs.core.errors import HuertaError, InvalidConfigError, InvalidObservationError
from huerta.envs.core.policies import NO_LEGAL_ACTION, check_observation
from huerta.envs.core.registry import get_game
from huerta.envs.core.view import PlayerView

# (game, players): every game, and the Alpujarras solo game
TABLES = [("finca", 2), ("alpujarras", 2), ("alpujarras", 1), ("mi_tierra", 2)]
# every code of the registry with small budgets; "learned" is the shipped model of the game
# (an afterstate value, value constants solo), "learned:search:1" searches a policy network
# made here (`build`: the shipped models are values, which search on their own)
CODES = ["random", "heuristic", "mcts:5", "search:4", "learned", "learned:search:1", "ppo",
         "rllib", "human"]


def table_id(game: str, players: int) -> str:
    return "alpujarras-solo" if players == 1 else game


def every_case() -> list[tuple[str, str, int]]:
    """(code, game, players) of every code at every table where the code plays (learned:search
    over a 2-player policy network: not in the solo game)."""
    return [(code, game, players) for code in CODES for game, players in TABLES
            if not (code.startswith("learned:search") and players == 1)]


def case_ids(cases: list[tuple[str, str, int]]) -> list[str]:
    return [f"{code}-{table_id(game, players)}" for code, game, players in cases]


def test_the_cases_cover_every_code_of_the_registry():
    assert {code.partition(":")[0] for code in CODES} == set(AGENT_FACTORIES)
    assert any(code == "learned:search:1" for code, _, _ in every_case())


class Models:
    """A tiny MaskablePPO model file and a tiny RLlib module per game, made on first use
    (untrained: the tests need agents that load and play, not good ones)."""

    def __init__(self, folder) -> None:
        self.folder = folder
        self.ppo: dict[str, str] = {}
        self.rllib: dict[str, object] = {}

    def ppo_path(self, game: str) -> str:
        if game not in self.ppo:
            from huerta.training.config import TrainConfig
            from huerta.training.methods.ppo import make_vec_env, new_model

            out = self.folder / f"ppo_{game}"
            out.mkdir()
            config = TrainConfig(game=game, envs=1, net_arch=[16], out=str(out),
                                 progress=False).check()
            vec_env = make_vec_env(config, out / "pool")
            model = new_model(config, vec_env, None)
            model.save(str(out / "model.zip"))
            vec_env.close()
            self.ppo[game] = str(out / "model.zip")
        return self.ppo[game]

    def policy_path(self, game: str) -> str:
        """The tiny PPO model of `game` exported as a numpy policy file (`huerta export`)."""
        from huerta.training.methods.export import export_policy

        path = self.folder / f"ppo_{game}" / "policy.npz"
        if not path.is_file():
            export_policy(self.ppo_path(game), path)
        return str(path)

    def rllib_module(self, game: str) -> object:
        if game not in self.rllib:
            from huerta.training.rllib import env as rllib_env
            from huerta.training.rllib import module_spec

            env = rllib_env.make_env(game, 2)
            module = module_spec([16], env.observation_spaces["player_0"],
                                 env.action_spaces["player_0"]).build()
            self.rllib[game] = module
        return self.rllib[game]


def build(code: str, game: str, players: int, models: Models, seed: int = 1):
    """The agent of `code` for `game` as the registry makes it (ppo from a model file, rllib
    from a module in memory: an RLlib checkpoint needs a training run); a human answers from
    text given to it (`answer`); learned:search over an exported tiny PPO model (every
    shipped model is a value, which the registry's learned:search refuses)."""
    if code == "ppo":
        return make_agent(f"ppo:{models.ppo_path(game)}", game=game, seed=seed)
    if code.startswith("learned:search"):  # the registry searches only a shipped policy
        from huerta.agents.learned import LearnedAgent, learned_options

        samples = learned_options(code.partition(":")[2])[1]
        return LearnedAgent(seed=seed, game=game, path=models.policy_path(game),
                            samples=samples)
    if code == "rllib":
        from huerta.agents.rllib_agent import RLlibAgent

        return RLlibAgent(module=models.rllib_module(game), seed=seed, game=game)
    agent = make_agent(code, game=game, seed=seed)
    if code == "human":
        agent.stdout = io.StringIO()
        agent.stdin = io.StringIO()
    return agent


def answer(agent, mask: np.ndarray) -> None:
    """Give a human agent its next answer: the first legal action's id."""
    if agent.name == "human":
        agent.stdin = io.StringIO(f"{int(np.flatnonzero(mask)[0])}\n")


def observation(state, seat: int) -> dict[str, np.ndarray]:
    return {"observation": state.observe(seat), "action_mask": state.legal_mask().astype(np.int8)}


@functools.cache
def finished_game(game: str, players: int, seed: int = 0):
    """A game played to its end by random moves."""
    spec = get_game(game)
    rng = np.random.default_rng(seed)
    state = spec.new_game(players, seed=seed)
    while not state.is_terminal:
        assert state.steps < 20 * spec.default_max_steps, "random play did not end the game"
        state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
    return state


CASES = every_case()
IDS = case_ids(CASES)


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> Models:
    return Models(tmp_path_factory.mktemp("models"))


def _live(game: str, players: int):
    """A game a few random moves in, its acting seat, observation and view."""
    state = get_game(game).new_game(players, seed=4)
    rng = np.random.default_rng(4)
    for _ in range(3):
        state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
    seat = state.current_player
    return state, seat, observation(state, seat), PlayerView(state, seat)


def _refused(agent, obs, view, *pieces: str) -> str:
    """The message of `agent`'s refusal of `obs` (an `InvalidObservationError`, which is a
    `ValueError` and a `HuertaError`), checked to name each of `pieces`."""
    with pytest.raises(InvalidObservationError) as info:
        agent.act(obs, view)
    assert isinstance(info.value, ValueError) and isinstance(info.value, HuertaError)
    message = str(info.value)
    for piece in pieces:
        assert piece in message, (piece, message)
    return message


def _view_if_needed(agent, view):
    """The view only for agents that ask for one (what the environments do)."""
    return view if agent.needs_view else None


@pytest.mark.parametrize("code, game, players", CASES, ids=IDS)
def test_an_empty_mask_is_refused_naming_the_reason(code, game, players, models):
    agent = build(code, game, players, models)
    state, seat, obs, view = _live(game, players)
    empty = {**obs, "action_mask": np.zeros_like(obs["action_mask"])}
    _refused(agent, empty, _view_if_needed(agent, view), NO_LEGAL_ACTION)
    _refused(agent, {**empty, "action_mask": empty["action_mask"].astype(bool)}, None,
             NO_LEGAL_ACTION)
    answer(agent, obs["action_mask"])
    assert obs["action_mask"][agent.act(obs, _view_if_needed(agent, view))]  # still plays


@pytest.mark.parametrize("code, game, players", CASES, ids=IDS)
def test_a_finished_game_is_refused(code, game, players, models):
    agent = build(code, game, players, models)
    state = finished_game(game, players)
    obs = observation(state, 0)
    assert not obs["action_mask"].any()
    _refused(agent, obs, PlayerView(state, 0), "finished game", "over")
    _refused(agent, obs, None, NO_LEGAL_ACTION)  # no view: the mask says it
    # the view says the game is over even where a stale mask still offers actions
    stale = {**obs, "action_mask": observation(*_live(game, players)[:2])["action_mask"]}
    _refused(agent, stale, PlayerView(state, 0), "finished game")


@pytest.mark.parametrize("code, game, players", CASES, ids=IDS)
def test_a_mask_of_another_size_is_refused_naming_both_sizes(code, game, players, models):
    agent = build(code, game, players, models)
    state, seat, obs, view = _live(game, players)
    n = len(obs["action_mask"])
    assert n == get_game(game).num_actions
    for wrong in (np.ones(n + 1, np.int8), obs["action_mask"][:-1],
                  np.ones(n + 7, np.int8), obs["action_mask"][None]):
        _refused(agent, {**obs, "action_mask": wrong}, view, "'action_mask'",
                 f"shape {wrong.shape}", f"({n},)")
    if agent.game is not None or agent.sizes is not None:  # it knows its game without a view
        message = _refused(agent, {**obs, "action_mask": np.ones(n + 1, np.int8)}, None,
                           f"({n + 1},)", f"{n} actions")
        assert re.search(rf"expected \({n},\)", message)


@pytest.mark.parametrize("code, game, players", CASES, ids=IDS)
def test_an_observation_of_another_size_is_refused(code, game, players, models):
    agent = build(code, game, players, models)
    state, seat, obs, view = _live(game, players)
    size = get_game(game).observation_size
    assert agent.game == game or agent.sizes == (size, get_game(game).num_actions) \
        or code in ("random", "human")
    if agent.game is None:  # random and human, as the registry makes them: give them the game
        agent = RandomAgent(seed=1, game=game) if code == "random" else type(agent)(game=game)
    for wrong in (obs["observation"][:-1], np.zeros(size + 3, np.float32),
                  obs["observation"][None]):
        _refused(agent, {**obs, "observation": wrong}, _view_if_needed(agent, view),
                 "'observation'", f"shape {wrong.shape}", f"({size},)", f"{size} values")


@pytest.mark.parametrize("code, game, players", CASES, ids=IDS)
def test_missing_keys_and_non_dicts_are_refused_by_name(code, game, players, models):
    agent = build(code, game, players, models)
    state, seat, obs, view = _live(game, players)
    view = _view_if_needed(agent, view)
    _refused(agent, {"observation": obs["observation"]}, view, "without the key 'action_mask'",
             "['observation']")
    _refused(agent, {}, view, "'action_mask'")
    for not_a_dict in (obs["observation"], obs["action_mask"].tolist(), None, "finca"):
        _refused(agent, not_a_dict, view, "an observation is a dict")
    mask_only = {"action_mask": obs["action_mask"]}
    if agent.reads_observation:  # it chooses from the vector
        _refused(agent, mask_only, view, "without the key 'observation'")
        _refused(agent, {**obs, "observation": None}, view, "'observation' of NoneType")
    else:  # it plays from the view (or at random): the vector may be left out
        answer(agent, obs["action_mask"])
        assert obs["action_mask"][agent.act(mask_only, view)]
    _refused(agent, {**obs, "action_mask": None}, view, "'action_mask' of NoneType")
    _refused(agent, {**obs, "action_mask": np.array(["1"] * len(obs["action_mask"]))}, view,
             "dtype <U1")


def test_the_readers_of_the_observation_are_the_model_agents(models):
    readers = {code for code, game, players in CASES
               if build(code, game, players, models).reads_observation}
    assert readers == {"learned", "learned:search:1", "ppo", "rllib"}


def test_random_knows_the_game_from_its_argument_or_the_view():
    """The registry's random agent knows its game and refuses a mask of another size; one
    built without a game refuses it where a view tells the size, and never played an id past
    the game's actions."""
    state, seat, obs, view = _live("finca", 2)
    long = {**obs, "action_mask": np.ones(40, np.int8)}
    _refused(RandomAgent(seed=0, game="finca"), long, None, "(34,): finca has 34 actions")
    _refused(make_agent("random", game="finca"), long, None, "(34,): finca has 34 actions")
    _refused(RandomAgent(seed=0), long, view, "(34,): the game in view has 34")
    assert RandomAgent(seed=0).act(long) < 40  # no game, no view: any mask is one
    with pytest.raises(InvalidConfigError, match="unknown game"):
        RandomAgent(game="chess")


def test_the_check_returns_numpy_arrays_and_costs_no_copy():
    """Lists are read as arrays (a list mask played past `astype` before); arrays pass as they
    are, in the same dict."""
    state, seat, obs, view = _live("mi_tierra", 2)
    assert check_observation(obs, "mi_tierra") is obs
    listed = {"observation": obs["observation"].tolist(),
              "action_mask": obs["action_mask"].tolist()}
    checked = check_observation(listed, "mi_tierra", view)
    assert isinstance(checked["action_mask"], np.ndarray)
    assert np.array_equal(checked["observation"], obs["observation"])
    assert "observation" not in check_observation({"action_mask": obs["action_mask"]},
                                                  reads_observation=False)
    with pytest.raises(InvalidObservationError, match="must be an array"):
        check_observation({**obs, "observation": [[1.0], [1.0, 2.0]]}, "mi_tierra")
    with pytest.raises(InvalidObservationError, match=r"the ppo agent cannot play an "
                                                      r"'action_mask' of shape \(3,\); "
                                                      r"expected \(5,\): its model has 5"):
        check_observation({"observation": np.zeros(2), "action_mask": np.ones(3)},
                          sizes=(2, 5), agent="the ppo agent")


def test_rllib_and_ppo_play_lists_and_check_before_their_model(models, monkeypatch):
    """The model agents check in `act`, before the model is asked (a module that is never
    reached cannot fail on an empty mask)."""
    state, seat, obs, view = _live("finca", 2)
    for code in ("ppo", "rllib"):
        agent = build(code, "finca", 2, models)
        listed = {"observation": obs["observation"].tolist(),
                  "action_mask": obs["action_mask"].tolist()}
        assert obs["action_mask"][agent.act(listed)]
        monkeypatch.setattr(agent, "decide", lambda *_: pytest.fail("the model was asked"))
        _refused(agent, {**obs, "action_mask": np.zeros(34, np.int8)}, None, NO_LEGAL_ACTION)
