"""The afterstate agent (agents/afterstate.py): the heuristic's search judged by a value network;
with an untrained network it follows the heuristic's margin, it plays legal games of every game
and player count, replays with its seed, and its files are checked and refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from huerta.agents import make_agent
from huerta.agents.afterstate import (
    HEURISTIC_TERMS,
    KIND,
    AfterstateAgent,
    Judge,
    ValueNetwork,
    heuristic_terms,
    is_value_file,
    margin_scale,
)
from huerta.agents.heuristics import heuristic_module
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import get_game
from huerta.training.evaluation.matches import play_game


def network(game: str, players: int = 2, seed: int = 0, zero: bool = False) -> ValueNetwork:
    """A small random value network of `game` (its last layer zero: the heuristic's margin)."""
    rng = np.random.default_rng(seed)
    width = get_game(game).observation_size + HEURISTIC_TERMS
    layers = [(rng.normal(0, 0.05, (width, 8)), rng.normal(0, 0.05, 8)),
              (rng.normal(0, 0.5, (8, 1)) * (0 if zero else 1), np.zeros(1))]
    about = {"kind": KIND, "game": game, "players": players,
             "observation_size": get_game(game).observation_size}
    return ValueNetwork(layers, about)


def _mid_game(game: str, players: int, seed: int, moves: int):
    state = get_game(game).new_game(players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        legal = np.flatnonzero(state.legal_mask())
        state.apply(int(legal[rng.integers(len(legal))]))
    return state


@pytest.mark.parametrize("game", ["finca", "alpujarras", "mi_tierra"])
def test_an_untrained_value_ranks_positions_by_the_heuristics_margin(game):
    module = heuristic_module(game)
    scale = margin_scale(game)
    states = [_mid_game(game, 2, seed, 30 + seed) for seed in range(6)]
    states = [s for s in states if not s.is_terminal]
    judge = Judge(network(game, zero=True), game, np.random.default_rng(0))
    judge.me = 0
    values = judge(states)
    margins = []
    for s in states:
        mine, other = (module.position_value(s, p) for p in (0, 1))
        margins.append((mine - other) / scale)
    np.testing.assert_allclose(values, margins, atol=1e-5)  # the tie-break is a millionth


def test_finished_games_are_judged_by_their_result():
    _, state = play_game("finca", [make_agent("random", game="finca", seed=s) for s in (0, 1)], 3)
    judge = Judge(network("finca"), "finca", np.random.default_rng(0))
    winners = state.winners()
    for seat in (0, 1):
        judge.me = seat
        value = judge([state])[0]
        if seat not in winners:
            assert value < -1e5
        elif len(winners) == 1:
            assert value > 1e5


def test_finished_solo_games_are_judged_on_the_scale_of_unfinished_ones():
    """A solo turn is rated by the mean over Zara's futures, finished or not, so a finished game
    is rated by its calibrated prior (the heuristic's graded loss), not by a result of 1e6."""
    module = heuristic_module("alpujarras")
    value = network("alpujarras", players=1, zero=True)
    value.about.update(prior_scale=0.02, prior_shift=-0.5)
    judge = Judge(value, "alpujarras", np.random.default_rng(0))
    finished = []
    for seed in range(12):
        _, state = play_game("alpujarras", [make_agent("random", game="alpujarras", seed=seed)],
                             seed)
        finished.append(state)
    unfinished = [_mid_game("alpujarras", 1, seed, 20) for seed in range(3)]
    values = judge(finished + unfinished)
    for state, v in zip(finished + unfinished, values, strict=True):
        prior, _ = heuristic_terms(module, state, 0, margin_scale("alpujarras"))
        assert v == pytest.approx(0.02 * prior - 0.5, abs=1e-5)
    assert all(abs(v) < 100 for v in values)  # one scale: no result of +-1e6
    assert len({round(v, 3) for v in values[:12]}) > 1  # losses graded, not all alike


@pytest.mark.parametrize("game, players", [("finca", 2), ("finca", 3), ("alpujarras", 2),
                                           ("alpujarras", 4), ("alpujarras", 1),
                                           ("mi_tierra", 2), ("mi_tierra", 4)])
def test_the_agent_plays_legal_games_and_replays_with_its_seed(game, players):
    value = network(game, players)

    def agents():
        return [AfterstateAgent(seed=10 + s, network=value) for s in range(players)]

    record, state = play_game(game, agents(), seed=5)  # play_game checks every action's legality
    assert state.is_terminal
    again, _ = play_game(game, agents(), seed=5)
    assert again.actions == record.actions


def test_the_solo_prior_is_the_heuristics_win_chance_as_a_logit():
    module = heuristic_module("alpujarras")
    priors = []
    for moves in (0, 10, 30):
        state = _mid_game("alpujarras", 1, 2, moves)
        log_p = module.solo_value(state)
        prior, terms = heuristic_terms(module, state, 0, 4.0)
        assert np.isclose(prior, log_p - np.log(-np.expm1(log_p)))  # log p - log(1 - p)
        assert len(terms) == HEURISTIC_TERMS
        priors.append((log_p, prior))
    # log chances far below any fixed clip (-300 to -10 over a game) stay apart, in order
    assert min(log_p for log_p, _ in priors) < -20
    assert sorted(priors) == sorted(priors, key=lambda pair: pair[1])
    assert len({prior for _, prior in priors}) == len({log_p for log_p, _ in priors})


def test_value_files_round_trip_and_bad_ones_are_refused(tmp_path):
    value = network("finca")
    path = tmp_path / "v.npz"
    value.save(path)
    assert is_value_file(path)
    back = ValueNetwork.load(path)
    x = np.random.default_rng(1).random((3, back.weights[0].shape[0])).astype(np.float32)
    np.testing.assert_allclose(back.logits(x, np.zeros(3)), value.logits(x, np.zeros(3)),
                               atol=0.02)
    with pytest.raises(InvalidConfigError, match="not of mi_tierra"):
        back.check_game("mi_tierra")
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    assert not is_value_file(tmp_path / "bad.npz")
    with pytest.raises(InvalidConfigError, match=r"bad\.npz is not an afterstate value file"):
        ValueNetwork.load(tmp_path / "bad.npz")
    wrong = [(np.zeros((5, 2)), np.zeros(2))]
    with pytest.raises(InvalidConfigError, match=r"layer 0 has weights \(5, 2\)"):
        ValueNetwork(wrong, value.about)
    with pytest.raises(InvalidConfigError, match="no afterstate agent for game 'chess'; games "
                                                 "with one: finca, alpujarras, mi_tierra"):
        margin_scale("chess")


def test_learned_plays_a_value_file_and_refuses_search_over_it(tmp_path):
    path = tmp_path / "v.npz"
    network("finca").save(path)
    agents = [make_agent(f"learned:{path}", game="finca", seed=0),
              make_agent("heuristic", game="finca", seed=1)]
    _, state = play_game("finca", agents, seed=2)
    assert state.is_terminal
    with pytest.raises(InvalidConfigError, match="is an afterstate value"):
        from huerta.agents.learned import LearnedAgent

        LearnedAgent(seed=0, game="finca", path=str(path), samples=2)


@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_alpujarras_turns_are_judged_on_the_positions_they_reach(seed):
    """The turn the agent plays is the one whose judged position is best, and that position is
    where its actions lead: the search goes on from the states it yields before END_TURN, so
    each turn must be ended (and judged) as it is found."""
    import hashlib

    from huerta.agents.heuristics import alpujarras as A
    from huerta.envs.alpujarras.actions import END_TURN

    state = _mid_game("alpujarras", 2, seed, 8)
    assert not state.is_terminal
    me = state.current_player

    def value(s) -> float:  # a different, arbitrary value for every position
        key = s.observe(0).tobytes() + bytes([s.steps % 256, s.current_player])
        return int.from_bytes(hashlib.sha256(key).digest()[:6], "big")

    best = [-1.0]

    def judge(states):
        values = np.array([value(s) for s in states], dtype=float)
        best[0] = max(best[0], values.max())
        return values

    plan = A.afterstate_turn(state.clone(), me, judge, np.random.default_rng(0))
    replay = state.clone()
    for a in plan:
        replay.apply(a)
    assert plan[-1] == END_TURN  # the whole turn is planned (no hidden draw on the way)
    assert value(replay) == best[0]


def test_mi_tierra_decisions_are_judged_on_the_positions_their_lines_reach():
    """Mi Tierra's afterstate agent chooses one decision at a time, as its heuristic does: a
    placement by the position it leaves, any other decision by the end of the line it starts
    (a market turn through its sale), the best the judge rates; a single-unit decision (a sale's
    next unit, the Black Market, a re-roll, upkeep) is the heuristic's, the judge not asked."""
    import hashlib

    from huerta.agents.heuristics import mi_tierra as M
    from huerta.agents.heuristics.mi_tierra.turns import CONTINUED, UNIT_DECISIONS
    from huerta.envs.mi_tierra.actions import Decision

    def value(s) -> float:  # a different, arbitrary value for every position
        key = s.observe(0).tobytes() + bytes([s.steps % 256, s.current_player])
        return int.from_bytes(hashlib.sha256(key).digest()[:6], "big")

    judged: list[list] = []

    def judge(states):
        judged.append(states)
        return np.array([value(s) for s in states], dtype=float)

    seen = set()
    for seed in range(3):
        state = get_game("mi_tierra").new_game(2, seed=seed)
        players = [M.MiTierraHeuristic(seed=seed + s) for s in range(2)]
        while not state.is_terminal:
            me, legal = state.current_player, state.legal_list()
            if len(legal) > 1:
                judged.clear()
                plan = M.afterstate_turn(state.clone(), me, judge, np.random.default_rng(0))
                assert plan and plan[0] in legal
                if state.decision in UNIT_DECISIONS:
                    heuristic = M.MiTierraHeuristic(seed=0).choose(state.clone(), me, legal)
                    assert plan == heuristic and not judged
                else:
                    (positions,) = judged
                    assert len(positions) == len(legal)  # every legal action's line judged
                    replay = state.clone()
                    for action in plan:
                        replay.apply(action)
                    assert value(replay) == max(value(s) for s in positions)
                    if state.decision == Decision.PLACE:
                        assert len(plan) == 1
                    else:  # the line goes on until the player's own decisions end
                        assert (replay.is_terminal or replay.current_player != me
                                or replay.decision not in CONTINUED)
                seen.add(state.decision)
            state.apply(policy_choice(players[me], state))
    assert {Decision.PLACE, Decision.MARKET_TURN, Decision.MARKET_SALE} <= seen


def policy_choice(agent, state) -> int:
    """What `agent` plays at `state` (its view of it)."""
    from huerta.envs.core.view import PlayerView

    seat = state.current_player
    return agent.decide({"observation": None, "action_mask": state.legal_mask()},
                        PlayerView(state, seat))
