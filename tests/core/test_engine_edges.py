"""Bad input below the environments, for every game and player count (the solo game included):
seeds given to a game's `new_game`, values given to an engine's `apply`, what opponent policies
return, and agent names given to the AEC env. Every refusal raises one of huerta's errors naming
the value and what is expected, and leaves the game as it was. The checks are those of
envs/core/validation.py, shared with the environments (tests/core/test_env_edges.py).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from action_values import BAD_ACTIONS, GOOD_ACTIONS
from contract_games import CASES, cases

import huerta.envs.core as core
from huerta.envs.core import errors
from huerta.envs.core.errors import HuertaError, IllegalActionError, InvalidConfigError
from huerta.envs.core.policies import policy_action
from huerta.envs.core.validation import MAX_SEED, UnknownAgentError, short_repr

# the games with opponent seats (the solo game has none: Zara is part of its rules)
OPPONENT_CASES = [c for c in CASES if c.n >= 2]


def _mentions(value) -> str:
    """The regex for `value`'s repr as the messages show it."""
    return re.escape(short_repr(value))


def _first_legal(mask) -> int:
    return int(np.flatnonzero(mask)[0])


def _first_illegal(mask) -> int:
    return int(np.flatnonzero(np.asarray(mask) == 0)[0])


# --- 1. seeds of new_game -------------------------------------------------------------------------
BAD_SEEDS = {
    "-1": -1,
    "True": True,
    "False": False,
    "2.5": 2.5,
    "3.0": 3.0,
    "'3'": "3",
    "2**63": 2**63,
    "2**70": 2**70,
    "np.int64(-2)": np.int64(-2),
    "np.uint64(2**63)": np.uint64(2**63),
    "np.float64(3.0)": np.float64(3.0),
    "nan": math.nan,
    "[1]": [1],
    "bytes": b"1",
}


@pytest.mark.parametrize(
    "case, name",
    [pytest.param(c, n, id=f"{c.id}-{n}") for c in CASES for n in BAD_SEEDS],
)
def test_new_game_refuses_a_seed_that_is_not_an_int_from_0_to_2_63(case, name):
    """A game's engine entry `new_game(num_players, seed=...)` (the one `GameSpec.new_game`
    holds) takes a non-negative int up to 2**63 - 1, a numpy Generator or None; a negative or
    larger int, a bool, a float, a string ... raises InvalidConfigError naming the value, never
    numpy's own error."""
    bad = BAD_SEEDS[name]
    with pytest.raises(
        InvalidConfigError,
        match=rf"^seed={_mentions(bad)}; expected a non-negative int, a numpy Generator or None "
        r"\(ints at most 2\*\*63 - 1\)$",
    ):
        case.new_game(seed=bad)


@pytest.mark.parametrize("case", cases())
def test_new_game_takes_ints_numpy_integers_and_generators_as_the_same_seed(case):
    """Seed 7 as an int, a numpy integer or np.random.default_rng(7) makes the same game, twice
    over; 0 and 2**63 - 1 are valid seeds and make different games."""
    games = [
        case.new_game(seed=seed).to_dict()
        for seed in (7, 7, np.int64(7), np.uint32(7), np.random.default_rng(7))
    ]
    assert all(g == games[0] for g in games)
    assert case.new_game(seed=0).to_dict() != case.new_game(seed=MAX_SEED).to_dict()


@pytest.mark.parametrize("case", cases())
def test_reset_seeds_share_the_bound(case):
    """The environments' reset(seed=...) goes through the same check: 2**63 - 1 is a seed,
    2**63 is refused naming it, and the game in progress is kept."""
    aec, gym = case.env(), case.gym_make(learner_seat=0).unwrapped
    for env in (aec, gym):
        env.reset(seed=MAX_SEED)
        before = env.game.to_dict()
        with pytest.raises(InvalidConfigError, match=r"^seed=9223372036854775808; expected a "):
            env.reset(seed=2**63)
        assert env.game.to_dict() == before


def test_game_seeds_and_record_seeds_share_one_bound():
    """A seed new_game takes can be written to a game record: the bound is records' own."""
    from huerta.envs.core import records

    assert MAX_SEED == records.MAX_SEED == 2**63 - 1


# --- 2. what an engine's apply takes --------------------------------------------------------------
def _engine_params(values):
    return [
        pytest.param(c, name, id=f"{c.id}-{name}") for c in CASES for name in values
    ]


@pytest.mark.parametrize("case, kind", _engine_params(BAD_ACTIONS))
def test_engine_apply_refuses_a_value_that_is_not_an_integer_id(case, kind):
    """state.apply("0"), apply(0.9), apply(True), apply(inf) ... raise IllegalActionError naming
    the value, its type and the valid ids, and change nothing: no coercion plays a legal id."""
    state = case.midgame(seed=3, rng=np.random.default_rng(3))
    legal = _first_legal(state.legal_mask())
    bad = BAD_ACTIONS[kind](legal)
    before = state.to_dict()
    kind_name = type(bad).__name__ if not isinstance(bad, np.ndarray) else "ndarray"
    with pytest.raises(
        IllegalActionError,
        match=rf"^illegal action {_mentions(bad)} \({re.escape(kind_name)}.*?\): actions are "
        rf"integer ids 0-{case.spec.num_actions - 1} \(a Python int, a numpy integer or a 0-d "
        r"integer array\)$",
    ):
        state.apply(bad)
    assert state.to_dict() == before
    state.apply(legal)  # and the game goes on
    assert state.steps == before["steps"] + 1


@pytest.mark.parametrize("case, kind", _engine_params(GOOD_ACTIONS))
def test_engine_apply_takes_numpy_integers_as_the_same_action(case, kind):
    """A numpy integer or a 0-d integer array plays exactly as the Python int."""
    a, b = (case.midgame(seed=3, rng=np.random.default_rng(3)) for _ in range(2))
    legal = _first_legal(a.legal_mask())
    a.apply(legal)
    b.apply(GOOD_ACTIONS[kind](legal))
    assert a.to_dict() == b.to_dict()


# --- 3. what opponents return ---------------------------------------------------------------------
# values an opponent may wrongly return, from the mask it was given
BAD_RETURNS = {
    "True": lambda mask: True,
    "float": lambda mask: _first_legal(mask) + 0.5,
    "str": lambda mask: str(_first_legal(mask)),
    "None": lambda mask: None,
    "out-of-range": lambda mask: len(mask),
    "negative": lambda mask: -1,
    "masked": _first_illegal,
}

# what the message says after "returned by the policy playing seat <s> (<name>); "
_REASONS = {
    "True": r"actions are integer ids",
    "float": r"actions are integer ids",
    "str": r"actions are integer ids",
    "None": r"actions are integer ids",
    "out-of-range": r"valid action ids are 0-",
    "negative": r"valid action ids are 0-",
    "masked": r".+",  # the game's own reason
}


def _sabotaged_view(case, kind, penalty=None):
    """The Gymnasium view (learner in seat 0) whose every opponent is a callable returning the
    bad value; it keeps the game as it was when the opponent was asked."""
    seen = {}

    def saboteur(obs):
        seen["game"] = env.game.to_dict()
        seen["seat"] = env.game.current_player
        seen["value"] = BAD_RETURNS[kind](obs["action_mask"])
        return seen["value"]

    env = case.gym_make(
        opponents=saboteur, learner_seat=0, illegal_action_penalty=penalty
    ).unwrapped
    return env, seen


def _play_until_an_opponent_moves(env):
    env.reset(seed=0)  # an opponent may move first
    for _ in range(100):
        env.step(_first_legal(env.action_masks()))


@pytest.mark.parametrize("penalty", [None, -1.0], ids=["raise", "penalty"])
@pytest.mark.parametrize(
    "case, kind",
    [pytest.param(c, k, id=f"{c.id}-{k}") for c in OPPONENT_CASES for k in BAD_RETURNS],
)
def test_an_opponent_returning_a_bad_action_is_named_and_changes_nothing(case, kind, penalty):
    """An opponent callable that returns a bool, a float, a string, None, an id out of range or
    a masked id raises IllegalActionError naming the seat, the policy and the value (even with
    illegal_action_penalty, which is for the learner's moves); its move is not played."""
    env, seen = _sabotaged_view(case, kind, penalty)
    with pytest.raises(IllegalActionError) as raised:
        _play_until_an_opponent_moves(env)
    bad, seat = seen["value"], seen["seat"]
    assert seat != 0
    assert re.match(
        rf"illegal action {_mentions(bad)}(?: \(.*?\))?: returned by the policy playing seat "
        rf"{seat} \(saboteur\); {_REASONS[kind]}",
        str(raised.value),
    ), str(raised.value)
    assert raised.value.action is bad or raised.value.action == bad
    assert env.game.to_dict() == seen["game"]


@pytest.mark.parametrize("case", cases(OPPONENT_CASES))
def test_an_agent_opponent_is_named_by_its_name(case):
    """An agent object (with `act`) returning a string is named by its `name`."""

    class Stubborn:
        name = "stubborn"

        def act(self, observation, view=None):
            return "3"

    env = case.gym_make(opponents=Stubborn(), learner_seat=0).unwrapped
    with pytest.raises(
        IllegalActionError,
        match=r"^illegal action '3' \(str\): returned by the policy playing seat [1-3] "
        r"\(stubborn\); actions are integer ids",
    ):
        _play_until_an_opponent_moves(env)


@pytest.mark.parametrize("case", cases(OPPONENT_CASES))
def test_policy_action_returns_a_plain_int(case):
    """An opponent's numpy integer or 0-d integer array comes back as the same Python int (what
    records and the engine get)."""
    state = case.new_game(seed=5)
    mask = state.legal_mask().astype(np.int8)
    legal = _first_legal(mask)
    obs = {"observation": state.observe(state.current_player), "action_mask": mask}
    for value in (legal, np.int64(legal), np.uint8(legal), np.array(legal)):
        action = policy_action(_Returns(value), state, state.current_player, obs)
        assert action == legal and type(action) is int


class _Returns:
    name = "fixed"

    def __init__(self, value):
        self.value = value

    def act(self, observation, view=None):
        return self.value


# --- 4. agent names -------------------------------------------------------------------------------
@pytest.mark.parametrize("case", cases())
def test_an_unknown_agent_name_is_refused_naming_the_valid_agents(case):
    """observe(), observation_space() and action_space() with a name that is not one of the
    env's agents raise UnknownAgentError (a KeyError, as the bare lookup did) naming it and
    the valid agents; the game is unchanged."""
    env = case.env()
    env.reset(seed=0)
    before = (env.game.to_dict(), env.agent_selection, list(env.agents))
    valid = ", ".join(f"player_{i}" for i in range(case.n))
    for bad in (f"player_{case.n}", "player_-1", "Player_0", 0, None, ("player_0",), ["player_0"]):
        for call in (env.observe, env.observation_space, env.action_space):
            with pytest.raises(UnknownAgentError) as raised:
                call(bad)
            assert str(raised.value) == f"unknown agent {short_repr(bad)}; valid agents: {valid}"
            assert isinstance(raised.value, KeyError) and isinstance(raised.value, HuertaError)
    assert (env.game.to_dict(), env.agent_selection, list(env.agents)) == before
    assert env.observe("player_0")["observation"].shape == (case.spec.observation_size,)


def test_the_core_package_exports_every_error():
    """envs.core re-exports each error class it defines, CallOrderError included."""
    for name in ("CallOrderError", "CorruptRecordError", "HuertaError", "IllegalActionError",
                 "InvalidConfigError"):
        assert getattr(core, name) is getattr(errors, name) and name in core.__all__
    assert core.UnknownAgentError is UnknownAgentError and "UnknownAgentError" in core.__all__
