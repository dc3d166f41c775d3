"""Every agent pickles and deep-copies at any point of a game, and a copy plays on exactly as
the original would (the same actions from the same state); so do the Gymnasium environments
that hold agents as opponents. The learned agents of Finca and Alpujarras held the heuristic's
module (`cannot pickle 'module' object`) once they had moved."""

from __future__ import annotations

import copy
import pickle
import sys
import types

import gymnasium
import numpy as np
import pytest
from test_agent_refusals import CASES, IDS, Models, answer, build, observation

import huerta.envs  # noqa: F401  (registers the Gymnasium ids)
from huerta.agents.human import HumanAgent
from huerta.envs.core.registry import get_game
from huerta.envs.core.view import PlayerView

DECISIONS = 4  # the agent's own decisions played (a turn planner's plan is copied mid-turn)


def standing_clock() -> float:
    """A clock that never moves (a module function, so agents holding it still pickle)."""
    return 0.0


@pytest.fixture(autouse=True)
def searches_bound_by_simulations_only(monkeypatch):
    """The search agents (and the learned search that `learned` plays in Finca and Alpujarras)
    stop at 0.9 s a decision as well as at their simulations: on a loaded machine the original
    and a copy could run different numbers of simulations and choose differently. With the
    clock standing still, a copy that chooses otherwise differs in state, not in speed."""
    monkeypatch.setattr("huerta.agents.search.time",
                        types.SimpleNamespace(perf_counter=standing_clock))


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> Models:
    return Models(tmp_path_factory.mktemp("models"))


def _twins(agent) -> list:
    """A pickled-and-loaded copy and a deep copy of `agent`."""
    return [pickle.loads(pickle.dumps(agent)), copy.deepcopy(agent)]


@pytest.mark.parametrize("code, game, players", CASES, ids=IDS)
def test_copies_made_at_any_point_play_as_the_original(code, game, players, models):
    """Seat 0 is the agent (the others play at random); before each of its first decisions it
    is pickled and deep-copied, and the copies made before its first decision and those made
    just now choose what the original chooses, decision after decision."""
    agent = build(code, game, players, models, seed=5)
    first = _twins(agent)  # before any move
    state = get_game(game).new_game(players, seed=2)
    rng = np.random.default_rng(2)
    decisions = 0
    while decisions < DECISIONS and not state.is_terminal:
        if state.current_player != 0:
            state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
            continue
        obs = observation(state, 0)
        view = PlayerView(state, 0) if agent.needs_view else None
        lineup = [*first, *_twins(agent), agent]  # the original acts last
        actions = []
        for player in lineup:
            answer(player, obs["action_mask"])
            actions.append(player.act(obs, view))
        assert actions == [actions[-1]] * len(lineup), f"decision {decisions}: {actions}"
        state.apply(actions[-1])
        decisions += 1
    assert decisions == DECISIONS or state.is_terminal  # a solo game may be lost that soon
    for twin in _twins(agent):  # after its moves, as it stands (or after the game)
        assert type(twin) is type(agent) and vars(twin).keys() == vars(agent).keys()


ENV_CASES = [(gym_id, code)
             for gym_id in ("huerta/Finca-v0", "huerta/Alpujarras-v0", "huerta/MiTierra-v0")
             for code in ("learned", "heuristic", "random", "mcts:5", "search:4")]
ENV_CASES.append(("huerta/AlpujarrasSolo-v0", None))  # Zara is the game's, not an agent


@pytest.mark.parametrize("gym_id, code", ENV_CASES)
def test_an_environment_with_agent_opponents_pickles_and_copies_mid_game(gym_id, code):
    """gymnasium.make(..., opponents=code) after a few steps (the opponents have moved):
    pickled and deep copies step on exactly as the original does."""
    options = {} if code is None else {"opponents": code, "learner_seat": 0}
    env = gymnasium.make(gym_id, **options)
    env.reset(seed=3)

    def first_legal(e) -> int:
        return int(np.flatnonzero(e.unwrapped.action_masks())[0])

    for _ in range(3):
        env.step(first_legal(env))
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for _ in range(3):
        action = first_legal(env)
        results = [e.step(action) for e in (*copies, env)]
        obs, reward, terminated, truncated, _ = results[-1]
        for other in results[:-1]:
            assert np.array_equal(other[0], obs)
            assert other[1:4] == (reward, terminated, truncated)
        if terminated or truncated:
            break
    env.close()


def test_a_human_given_the_terminal_pickles_as_one_asking_the_terminal():
    """The process's own streams do not pickle; a copy holds None, which means them."""
    agent = HumanAgent(seed=1, stdin=sys.stdin, stdout=sys.__stdout__)
    for twin in _twins(agent):
        assert twin.stdin is None and twin.stdout is None
    assert agent.stdin is sys.stdin  # the original keeps its own
