"""Bad input at the edges of both environment APIs, for every game and player count (the solo game
included): actions of the wrong type, calls out of order, and option, seed and reset-option values
outside the valid ones. Every refusal raises one of huerta's errors naming the value passed and
what is expected, and leaves the environment as it was. The checks live in one module
(envs/core/validation.py) used by the AEC env and the Gymnasium view alike.
"""

from __future__ import annotations

import math
import re

import gymnasium
import numpy as np
import pytest
from action_values import BAD_ACTIONS, GOOD_ACTIONS
from contract_games import CASES, GAMES, cases

import huerta.envs  # noqa: F401  (registers the Gymnasium ids)
from huerta.envs import alpujarras_v0
from huerta.envs.core.errors import (
    CallOrderError,
    HuertaError,
    IllegalActionError,
    InvalidConfigError,
)
from huerta.envs.core.validation import short_repr

# one case per game and count, with the solo game; the 2-player case of each game, and the solo
# game, where the check does not depend on the count
EDGE_CASES = [c for c in CASES if c.n in (1, 2)]


def _case_params(selection, values):
    return [
        pytest.param(c, name, id=f"{c.id}-{name}") for c in selection for name in values
    ]


def _first_legal(mask) -> int:
    return int(np.flatnonzero(mask)[0])


def _aec_snapshot(env):
    e = env.unwrapped
    return (
        e.game.to_dict(),
        list(e.record.actions),
        e.agent_selection,
        list(e.agents),
        dict(e._cumulative_rewards),
        dict(e.terminations),
        dict(e.truncations),
    )


def _gym_snapshot(env):
    e = env.unwrapped
    return (e.game.to_dict(), e.learner_seat, e._ended_illegally, e.action_masks().tolist())


def _mentions(value) -> str:
    """The regex for `value`'s repr as the messages show it."""
    return re.escape(short_repr(value))


# --- 1. actions -----------------------------------------------------------------------------------
@pytest.mark.parametrize("case, kind", _case_params(CASES, BAD_ACTIONS))
def test_aec_refuses_an_action_that_is_not_an_integer_id(case, kind):
    """A str, bytes, float (inf and nan included), bool, Fraction, Decimal, complex, list, tuple,
    an array of another shape or dtype, or None for the live agent raises IllegalActionError
    naming the value, its type and the integer ids expected; nothing changes, even where a
    coercion (int("5"), int(2.9), int(True)) would have given a legal id."""
    env = case.env()
    env.reset(seed=3)
    legal = _first_legal(env.last()[0]["action_mask"])
    bad = BAD_ACTIONS[kind](legal)
    before = _aec_snapshot(env)
    last = case.spec.num_actions - 1
    with pytest.raises(IllegalActionError) as raised:
        env.step(bad)
    message = str(raised.value)
    assert re.search(_mentions(bad), message), message
    assert f"integer ids 0-{last}" in message and "0-d integer array" in message
    assert raised.value.action is bad
    assert _aec_snapshot(env) == before
    env.step(legal)  # the env plays on
    assert env.unwrapped.record.actions == [legal]


@pytest.mark.parametrize("case, kind", _case_params(CASES, GOOD_ACTIONS))
def test_aec_plays_an_int_a_numpy_integer_or_a_0d_integer_array(case, kind):
    """A numpy integer scalar or a 0-d integer array plays exactly as the same Python int; the
    record holds a plain int."""
    env, twin = case.env(), case.env()
    env.reset(seed=4)
    twin.reset(seed=4)
    legal = _first_legal(env.last()[0]["action_mask"])
    env.step(GOOD_ACTIONS[kind](legal))
    twin.step(legal)
    assert env.unwrapped.game.to_dict() == twin.unwrapped.game.to_dict()
    assert env.unwrapped.record.actions == [legal]
    assert type(env.unwrapped.record.actions[0]) is int


@pytest.mark.parametrize("penalty", [None, -1.0], ids=["raise", "penalty"])
@pytest.mark.parametrize("case, kind", _case_params(CASES, BAD_ACTIONS))
def test_gymnasium_view_refuses_an_action_that_is_not_an_integer_id(case, kind, penalty):
    """The single-agent view refuses the same values with the same IllegalActionError (never
    int()'s TypeError), also with illegal_action_penalty: a wrong type is a bug, not a move, so
    the episode is not ended and no penalty is paid; nothing changes and the episode plays on."""
    env = case.gym_make(learner_seat=0, illegal_action_penalty=penalty)
    env.reset(seed=5)
    legal = _first_legal(env.unwrapped.action_masks())
    bad = BAD_ACTIONS[kind](legal)
    before = _gym_snapshot(env)
    with pytest.raises(IllegalActionError, match=r"integer ids 0-\d+ \(a Python int") as raised:
        env.step(bad)
    assert re.search(_mentions(bad), str(raised.value))
    assert not isinstance(raised.value, TypeError)
    assert _gym_snapshot(env) == before
    env.step(legal)


@pytest.mark.parametrize("case, kind", _case_params(EDGE_CASES, GOOD_ACTIONS))
def test_gymnasium_view_plays_an_int_a_numpy_integer_or_a_0d_integer_array(case, kind):
    """The single-agent view plays a numpy integer or a 0-d integer array as the same int."""
    env, twin = case.gym_make(learner_seat=0), case.gym_make(learner_seat=0)
    env.reset(seed=6)
    twin.reset(seed=6)
    legal = _first_legal(env.unwrapped.action_masks())
    obs, reward, *_ = env.step(GOOD_ACTIONS[kind](legal))
    obs_twin, reward_twin, *_ = twin.step(legal)
    np.testing.assert_array_equal(obs, obs_twin)
    assert reward == reward_twin
    assert env.unwrapped.game.to_dict() == twin.unwrapped.game.to_dict()


@pytest.mark.parametrize("case", cases(EDGE_CASES))
def test_penalty_mode_still_penalises_a_well_typed_masked_action(case):
    """With illegal_action_penalty a masked id (here as a numpy integer) keeps ending the episode
    with the penalty, as before; only values of the wrong type raise."""
    env = case.gym_make(learner_seat=0, illegal_action_penalty=-2.0)
    env.reset(seed=0)
    masked = int(np.flatnonzero(env.unwrapped.action_masks() == 0)[0])
    _, reward, terminated, truncated, info = env.step(np.int64(masked))
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert info["illegal_action"].startswith(f"illegal action {masked} ")


# --- 2. call order --------------------------------------------------------------------------------
AEC_CALLS = {
    "last": lambda env: env.last(),
    "agent_iter": lambda env: next(iter(env.agent_iter())),
    "step": lambda env: env.step(0),
    "step(None)": lambda env: env.step(None),
    "observe": lambda env: env.observe("player_0"),
    "render": lambda env: env.render(),
}


@pytest.mark.parametrize("case, call", _case_params(EDGE_CASES, AEC_CALLS))
def test_aec_calls_before_reset_say_to_call_reset(case, call):
    """last(), agent_iter(), step(), observe() and render() before reset() raise CallOrderError
    (a RuntimeError) naming the call and saying to call reset() first."""
    env = case.env(render_mode="ansi")
    name = call.split("(")[0]
    with pytest.raises(
        CallOrderError, match=rf"{name}\(\) called before reset\(\); call reset"
    ) as raised:
        AEC_CALLS[call](env)
    assert isinstance(raised.value, RuntimeError) and isinstance(raised.value, HuertaError)
    env.reset(seed=0)  # and the env still starts normally
    assert env.last()[0]["action_mask"].any()


def _truncate_everyone(env):
    """Reset with max_steps=1 and play one legal action: every agent is then truncated."""
    env.reset(seed=0)
    env.step(_first_legal(env.last()[0]["action_mask"]))
    assert all(env.truncations.values())


@pytest.mark.parametrize("case", cases(EDGE_CASES))
def test_aec_done_agents_take_none_and_calls_after_the_end_say_to_reset(case):
    """A done agent takes step(None) (PettingZoo's rule); any other value for it raises naming
    the value and changes nothing. Once every agent is done, step() and last() raise
    CallOrderError saying to call reset(); agent_iter() yields nothing; reset() starts anew."""
    env = case.env(max_steps=1)
    _truncate_everyone(env)
    before = _aec_snapshot(env)
    with pytest.raises(IllegalActionError, match=r"illegal action 0 \(int\): player_\d is done"):
        env.step(0)
    assert _aec_snapshot(env) == before
    for agent in env.agent_iter():
        assert env.last()[3]
        env.step(None)
    assert env.agents == []
    for call in ("step", "last"):
        with pytest.raises(CallOrderError, match=rf"{call}\(\) called after every agent is done"):
            env.step(None) if call == "step" else env.last()
        with pytest.raises(CallOrderError, match=r"call reset\(\) to start a new game"):
            env.step(0) if call == "step" else env.last(observe=False)
    assert list(env.agent_iter()) == []
    env.reset(seed=1)
    assert env.agents == env.possible_agents and not any(env.truncations.values())


@pytest.mark.parametrize("case", cases(EDGE_CASES))
def test_gymnasium_view_calls_out_of_order_say_to_reset(case):
    """The single-agent view's step() and render() before reset(), and step() once the episode
    is over, raise CallOrderError saying to call reset() first (through gymnasium.make, its
    order-enforcing wrapper says so first)."""
    probe = case.gym_make(learner_seat=0).unwrapped
    probe.reset(seed=0)  # opponents may move first: truncate right after the learner's move
    raw = case.gym_make(
        learner_seat=0, max_steps=probe.game.steps + 1, render_mode="ansi"
    ).unwrapped
    with pytest.raises(CallOrderError, match=r"step\(\) called before reset\(\); call reset"):
        raw.step(0)
    with pytest.raises(CallOrderError, match=r"render\(\) called before reset\(\); call reset"):
        raw.render()
    wrapped = case.gym_make(learner_seat=0)
    with pytest.raises(Exception, match=r"before calling env.reset\(\)"):
        wrapped.step(0)
    raw.reset(seed=0)
    _, _, terminated, truncated, _ = raw.step(_first_legal(raw.action_masks()))
    assert truncated and not terminated
    before = _gym_snapshot(raw)
    with pytest.raises(CallOrderError, match=r"step\(\) called after the episode ended; call"):
        raw.step(0)
    assert _gym_snapshot(raw) == before
    raw.reset(seed=0)  # the probe's deal: the learner is to move before max_steps
    assert raw.action_masks().any()


# --- 3. options -----------------------------------------------------------------------------------
def _both(case, **kw):
    """Make the AEC env and the Gymnasium view (the learner in seat 0) with the same options."""
    return case.env(**kw), case.gym_make(learner_seat=0, **kw)


BAD_MAX_STEPS = [0, -1, 2.5, "10", True, False, math.inf, math.nan, 10.0, [10]]


@pytest.mark.parametrize(
    "case, bad",
    [pytest.param(c, b, id=f"{c.id}-{b!r}") for c in EDGE_CASES for b in BAD_MAX_STEPS],
)
def test_max_steps_must_be_a_positive_int_in_both_apis(case, bad):
    """max_steps 0, negative, 2.5, "10", True, inf, nan ... is refused by the AEC env and the
    Gymnasium view alike, naming the value and what is expected."""
    message = rf"max_steps={_mentions(bad)}; max_steps must be at least 1 and an int"
    with pytest.raises(InvalidConfigError, match=message):
        case.env(max_steps=bad)
    with pytest.raises(InvalidConfigError, match=message):
        case.gym_make(max_steps=bad)


@pytest.mark.parametrize("case", cases(EDGE_CASES))
def test_max_steps_accepts_ints_and_none(case):
    """A positive int (a numpy integer too) is kept as a plain int; None is the game's default."""
    for env in _both(case, max_steps=np.int64(7)):
        assert env.unwrapped.max_steps == 7 and type(env.unwrapped.max_steps) is int
    for env in _both(case, max_steps=None):
        assert env.unwrapped.max_steps == case.spec.default_max_steps


BAD_SEEDS = [-1, 1.5, "3", True, math.inf, [1], np.int64(-2), np.float64(3.0)]


@pytest.mark.parametrize(
    "case, bad",
    [pytest.param(c, b, id=f"{c.id}-{b!r}") for c in EDGE_CASES for b in BAD_SEEDS],
)
def test_reset_seeds_must_be_non_negative_ints(case, bad):
    """reset(seed=...) takes a non-negative int or None; anything else raises InvalidConfigError
    naming the value, in both APIs, and leaves the game in progress as it was."""
    message = rf"seed={_mentions(bad)}; expected a non-negative int or None"
    aec, gym = _both(case)
    aec.reset(seed=0)
    gym.reset(seed=0)
    aec_before, gym_before = _aec_snapshot(aec), _gym_snapshot(gym)
    with pytest.raises(InvalidConfigError, match=message):
        aec.reset(seed=bad)
    with pytest.raises(InvalidConfigError, match=message):
        gym.reset(seed=bad)
    assert _aec_snapshot(aec) == aec_before and _gym_snapshot(gym) == gym_before


@pytest.mark.parametrize("case", cases(EDGE_CASES))
def test_a_numpy_integer_seed_is_the_same_seed(case):
    """np.int64(7) seeds exactly as 7 (Gymnasium alone would refuse it)."""
    for make in (case.env, lambda: case.gym_make(learner_seat=0)):
        a, b = make(), make()
        a.reset(seed=np.int64(7))
        b.reset(seed=7)
        assert a.unwrapped.game.to_dict() == b.unwrapped.game.to_dict()


@pytest.mark.parametrize("case", cases(EDGE_CASES))
def test_learner_seat_is_none_or_a_seat(case):
    """learner_seat is None or an int seat 0..n-1 (a numpy integer too); a bool, a float, a
    string or a seat outside the table is refused naming the valid values."""
    seats = "0" if case.n == 1 else f"0-{case.n - 1}"
    for bad in (-1, case.n, True, 0.0, "0", [0]):
        with pytest.raises(
            InvalidConfigError,
            match=rf"learner_seat={_mentions(bad)}; valid values: None .* or {seats}$",
        ):
            case.gym_make(learner_seat=bad)
    env = case.gym_make(learner_seat=np.int64(case.n - 1))
    env.reset(seed=0)
    assert env.unwrapped.learner_seat == case.n - 1


BAD_NUMBERS = [math.inf, -math.inf, math.nan, "1", True, [1.0], 1j]


@pytest.mark.parametrize("option", ["illegal_action_penalty", "shaping"])
@pytest.mark.parametrize(
    "case, bad",
    [pytest.param(c, b, id=f"{c.id}-{b!r}") for c in EDGE_CASES for b in BAD_NUMBERS],
)
def test_penalty_and_shaping_must_be_finite_numbers(case, bad, option):
    """illegal_action_penalty (or None) and shaping must be finite numbers; inf, nan, strings,
    bools and lists are refused naming the value."""
    expected = "a finite number or None" if option == "illegal_action_penalty" else (
        "a finite number$"
    )
    message = rf"{option}={_mentions(bad)}; expected {expected}"
    with pytest.raises(InvalidConfigError, match=message):
        case.gym_make(**{option: bad})


@pytest.mark.parametrize("case", cases(EDGE_CASES))
def test_penalty_and_shaping_accept_finite_numbers(case):
    """Ints, floats and numpy numbers are kept as floats."""
    env = case.gym_make(illegal_action_penalty=np.float32(-0.5), shaping=1).unwrapped
    assert env.illegal_action_penalty == -0.5 and type(env.illegal_action_penalty) is float
    assert env.shaping == 1.0 and type(env.shaping) is float
    with pytest.raises(InvalidConfigError, match="shaping=None; expected a finite number"):
        case.gym_make(shaping=None)


@pytest.mark.parametrize("bad", [2, 3, 4, 0, -1, True, "1", 1.0, None])
def test_the_solo_view_has_one_player(bad):
    """huerta/AlpujarrasSolo-v0 refuses any num_players but 1, naming the value and the id for
    more players; 1 (a numpy integer too) is the solo game."""
    with pytest.raises(
        InvalidConfigError,
        match=rf"AlpujarrasSolo-v0: num_players={_mentions(bad)}; .*valid values: 1 "
        r"\(use huerta/Alpujarras-v0",
    ):
        gymnasium.make("huerta/AlpujarrasSolo-v0", num_players=bad)
    for good in (1, np.int64(1)):
        env = gymnasium.make("huerta/AlpujarrasSolo-v0", num_players=good)
        env.reset(seed=0)
        assert env.unwrapped.num_players == 1 and env.unwrapped.game.solo


# game options with a value outside the valid ones: (case id, options, message); checked when the
# game is set up, naming the valid values
BAD_GAME_OPTIONS = [
    ("finca-2", {"cart_shortage": "sideways"}, "valid values: reset_then_take, take_then_reset"),
    ("finca-2", {"cart_shortage": None}, "valid values: reset_then_take, take_then_reset"),
    ("finca-2", {"cart_shortage": ["reset_then_take"]}, "valid values: reset_then_take"),
    ("alpujarras-1", {"double_turns": 9}, r"double_turns=9; valid values: 0, 1, 2, 3, 4, 5"),
    ("alpujarras-1", {"double_turns": True}, r"double_turns=True; valid values: 0, 1, 2, 3"),
    ("alpujarras-1", {"double_turns": 2.5}, r"double_turns=2.5; valid values: 0, 1, 2, 3"),
    ("alpujarras-1", {"star_sides": "2"}, r"star_sides='2'; valid values: 0, 1, 2, 3, 4, 5"),
    ("alpujarras-2", {"double_turns": 2}, "options of the solo game only"),
]
_BY_ID = {c.id: c for c in CASES}


@pytest.mark.parametrize(
    "case_id, options, message",
    [pytest.param(c, o, m, id=f"{c}-{o!r}") for c, o, m in BAD_GAME_OPTIONS],
)
def test_game_option_values_are_refused_naming_the_valid_ones(case_id, options, message):
    """A game option with a value outside the valid ones is refused, by the AEC env and the
    Gymnasium view alike, when the game is set up (reset), naming the valid values."""
    case = _BY_ID[case_id]
    for env in _both(case, **options):
        with pytest.raises(InvalidConfigError, match=message):
            env.reset(seed=0)


@pytest.mark.parametrize("game", [pytest.param(g, id=g.name) for g in GAMES.values()])
def test_unknown_game_options_are_refused_by_both_apis(game):
    """An option the game does not have (Mi Tierra's engine-only explicit_chance included) is
    refused when the env is made, naming the valid options."""
    own = ", ".join(game.options) or "(none)"
    for bad in ({"colour": "red"}, {"explicit_chance": True}, {"seed": 3}):
        if set(bad) <= set(game.options):
            continue
        name = re.escape(repr(sorted(bad)))
        with pytest.raises(
            InvalidConfigError,
            match=rf"unknown option\(s\) {name}; valid options: reward, max_steps, render_mode, "
            + re.escape(own),
        ):
            game.module.env(**bad)
        with pytest.raises(
            InvalidConfigError,
            match=rf"unknown option\(s\) {name}; valid game options: " + re.escape(own),
        ):
            gymnasium.make(game.gym_id, **bad)


def test_numpy_option_values_are_kept_as_plain_values():
    """A numpy value of a game option is stored (and recorded) as the plain Python value."""
    env = alpujarras_v0.env(num_players=1, double_turns=np.int64(5))
    env.reset(seed=0)
    assert env.unwrapped.game.double_turns == 5
    assert type(env.unwrapped.record.options["double_turns"]) is int
    solo = gymnasium.make("huerta/AlpujarrasSolo-v0", star_sides=np.int8(2))
    solo.reset(seed=0)
    assert type(solo.unwrapped.game_options["star_sides"]) is int


BAD_RESET_OPTIONS = [{"x": 1}, {"seed": 1}, {"learner_seat": 0}, [1], "fast", 3]


@pytest.mark.parametrize(
    "case, bad",
    [pytest.param(c, b, id=f"{c.id}-{b!r}") for c in EDGE_CASES for b in BAD_RESET_OPTIONS],
)
def test_reset_options_other_than_none_or_empty_are_refused(case, bad):
    """No reset option is defined: None and {} are accepted, a key or a value other than a dict
    is refused naming it, in both APIs, with the game in progress unchanged."""
    aec, gym = _both(case)
    aec.reset(seed=0, options={})
    gym.reset(seed=0, options={})
    aec.reset(seed=0, options=None)
    gym.reset(seed=0, options=None)
    aec_before, gym_before = _aec_snapshot(aec), _gym_snapshot(gym)
    shown = (
        re.escape(", ".join(repr(k) for k in sorted(bad)))
        if isinstance(bad, dict) else _mentions(bad)
    )
    for env in (aec, gym):
        with pytest.raises(InvalidConfigError, match=rf"reset\(options=.*{shown}"):
            env.reset(seed=0, options=bad)
    assert _aec_snapshot(aec) == aec_before and _gym_snapshot(gym) == gym_before


def test_the_aec_env_ignores_pettingzoos_api_test_probe():
    """PettingZoo's api_test calls reset(options={"options": 1}) to see that the keyword exists;
    the AEC env ignores that key (only that one), so the test keeps passing."""
    env = GAMES["finca"].env(2)
    env.reset(seed=0, options={"options": 1})
    with pytest.raises(InvalidConfigError, match=r"unknown key\(s\) 'other'"):
        env.reset(seed=0, options={"options": 1, "other": 2})


def test_gym_view_refuses_to_play_for_an_opponent_whose_policy_failed():
    """An opponent policy that raises leaves its seat to move; the next step() must not play the
    learner's action for that seat: it raises CallOrderError until reset()."""
    import gymnasium

    calls = {"n": 0}

    def flaky(obs):
        calls["n"] += 1
        raise RuntimeError("opponent crashed")

    env = gymnasium.make("huerta/Finca-v0", num_players=2, opponents=flaky, learner_seat=0)
    env.reset(seed=0)
    game = env.unwrapped.game
    action = int(np.flatnonzero(env.unwrapped.action_masks())[0])
    while game.current_player == 0 and not game.is_terminal:
        try:
            env.step(action)
        except RuntimeError:
            break
        action = int(np.flatnonzero(env.unwrapped.action_masks())[0])
    assert calls["n"] == 1 and game.current_player == 1
    steps = game.steps
    with pytest.raises(CallOrderError, match="seat 1"):
        env.step(action)
    assert game.steps == steps
    env.reset(seed=1)  # a fresh game plays again
    assert env.unwrapped.game.current_player == 0 and env.unwrapped.action_masks().any()
