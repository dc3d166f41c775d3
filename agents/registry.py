"""Agents made from short codes such as "random" (more codes arrive with more agents)."""

from __future__ import annotations

from collections.abc import Callable

from huerta.envs.core.errors import InvalidConfigError

from .base import Agent
from .random_agent import RandomAgent


def _heuristic(game: str, seed: int | None, arg: str | None) -> Agent:
    from .heuristics import make_heuristic

    return make_heuristic(game, seed=seed)


def _mcts(game: str, seed: int | None, arg: str | None) -> Agent:
    """mcts[:BUDGET[:ROLLOUT]] where BUDGET is iterations (400) or seconds (1.5s)."""
    from .mcts import MCTSAgent

    budget, _, rollout = (arg or "200").partition(":")
    kwargs: dict = {"rollout": rollout or "random", "game": game}
    try:
        if budget.endswith("s"):
            kwargs["seconds"] = float(budget[:-1])
        else:
            kwargs["iterations"] = int(budget)
    except ValueError:
        raise InvalidConfigError(
            f"bad mcts budget {budget!r}: use iterations (mcts:400) or seconds (mcts:1.5s)"
        ) from None
    return MCTSAgent(seed=seed, **kwargs)


def _ppo(game: str, seed: int | None, arg: str | None) -> Agent:
    from .ppo import PPOAgent

    if not arg:
        raise InvalidConfigError("the ppo agent needs a model path: ppo:PATH/TO/model.zip")
    return PPOAgent(arg, seed=seed)


def _human(game: str, seed: int | None, arg: str | None) -> Agent:
    from .human import HumanAgent

    return HumanAgent(seed=seed)


AGENT_FACTORIES: dict[str, Callable[..., Agent]] = {
    "random": lambda game, seed, arg: RandomAgent(seed=seed),
    "heuristic": _heuristic,
    "mcts": _mcts,
    "ppo": _ppo,
    "human": _human,
}


def agent_codes() -> list[str]:
    """Every known agent code."""
    return list(AGENT_FACTORIES)


def make_agent(code: str, game: str = "finca", seed: int | None = None) -> Agent:
    """An agent from a short code; unknown codes name the valid ones.

    Codes: `random`, `heuristic`, `mcts` / `mcts:400` / `mcts:1.5s` / `mcts:400:heuristic`
    (budget in iterations or seconds, rollout policy), `ppo:PATH` (a trained MaskablePPO
    model), `human` (asks on the terminal).
    """
    name, _, arg = str(code).partition(":")
    key = name.strip().lower()
    if key not in AGENT_FACTORIES:
        raise InvalidConfigError(
            f"unknown agent code {code!r}; valid codes: {', '.join(AGENT_FACTORIES)}"
        )
    return AGENT_FACTORIES[key](game, seed, arg or None)
