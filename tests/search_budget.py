"""The time-budget check shared by the search agents' tests: a fake clock that moves only while
a simulation (or other costed work) runs, so "no simulation starts after the deadline" is
checked exactly on any machine, however slow."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from huerta.agents.heuristics import make_heuristic
from huerta.training.evaluation.matches import play_game


def assert_no_simulation_after_the_budget(game: str, agent: Any, seconds: float, cost: float,
                                          monkeypatch: pytest.MonkeyPatch,
                                          costed: tuple[tuple[Any, str], ...] = ()) -> None:
    """Play `agent` (a search agent asked for far more simulations than `seconds` allow) against
    the heuristic with a fake clock: each simulation, and each `(object, method)` in `costed`,
    moves the clock by `cost`. Every simulation must begin within `seconds` of its decision,
    and no decision may run more than `seconds / cost` of them (the budget ended the search)."""
    now = [0.0]
    agent.clock = lambda: now[0]
    decisions: list[float] = []
    starts: list[float] = []
    act, simulate = agent.act, agent._simulate

    def timed_act(observation, view=None):
        decisions.append(now[0])
        return act(observation, view)

    def timed_simulate(*args):
        starts.append(now[0])
        now[0] += cost
        return simulate(*args)

    def costing(method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args, **kwargs):
            now[0] += cost
            return method(*args, **kwargs)
        return timed

    monkeypatch.setattr(agent, "act", timed_act)
    monkeypatch.setattr(agent, "_simulate", timed_simulate)
    for owner, name in costed:
        monkeypatch.setattr(owner, name, costing(getattr(owner, name)))
    play_game(game, [agent, make_heuristic(game, seed=2)], seed=5, max_steps=120)
    assert starts, "the search never ran"
    per_decision: dict[float, int] = {}
    for start in starts:
        began = max(d for d in decisions if d <= start)
        assert start - began < seconds, f"a simulation began {start - began:.3f} s into a decision"
        per_decision[began] = per_decision.get(began, 0) + 1
    # the budget, not the simulations asked for, ended every search
    assert max(per_decision.values()) <= math.ceil(seconds / cost)
