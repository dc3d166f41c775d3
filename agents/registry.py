"""Agents made from short codes such as "random", "mcts:400", "ppo:runs/finca" or "rllib:runs/x".

`check_agent_code` validates a code and its argument without building the agent (no model is
loaded, no search run), so that a command can refuse a bad code before its first game;
`make_agent` checks the same way, then builds.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from huerta.envs.core.errors import InvalidConfigError

from .base import Agent
from .ppo import PPO_USAGE, check_ppo_file, ppo_model_path
from .random_agent import RandomAgent

MCTS_DEFAULT_ITERATIONS = 200
MCTS_MAX_ITERATIONS = 10_000_000
MCTS_MAX_SECONDS = 3600.0
MCTS_ROLLOUTS = ("random", "heuristic")

# what each code accepts after its colon, as shown in error messages
AGENT_USAGE: dict[str, str] = {
    "random": "random (takes no argument)",
    "heuristic": "heuristic (takes no argument)",
    "mcts": "mcts, mcts:ITERATIONS (e.g. mcts:400), mcts:SECONDSs (e.g. mcts:1.5s), "
    "mcts:BUDGET:ROLLOUT with ROLLOUT random or heuristic",
    "search": "search, search:SIMULATIONS (e.g. search:48; 1-100,000) or search:SECONDSs (e.g. "
    "search:0.5s; a time budget per decision above 0 up to 1 s)",
    "learned": "learned (the policy shipped for the game played), learned:search or "
    "learned:search:SAMPLES (that policy improved by rollouts of itself), or learned:PATH, PATH "
    "a policy file written by `huerta export` or a run folder holding best_policy.npz",
    "ppo": PPO_USAGE,
    "human": "human (takes no argument)",
    "rllib": "rllib:PATH, PATH a run folder of `huerta train --backend rllib` (its best_policy), "
    "a policy folder or an RLlib checkpoint (pickle-based: loading runs code the checkpoint "
    "holds, so load only checkpoints you trust)",
}


def split_code(code: str) -> tuple[str, str | None]:
    """(agent name, argument or None) of a code; an unknown name raises naming the valid ones."""
    name, _, arg = str(code).strip().partition(":")
    key = name.strip().lower()
    if key not in AGENT_FACTORIES:
        raise InvalidConfigError(
            f"unknown agent code {code!r}; valid codes: {', '.join(AGENT_FACTORIES)}"
        )
    return key, (arg.strip() or None)


def _no_argument(name: str, game: str | None, arg: str | None) -> None:
    if arg is not None:
        raise InvalidConfigError(
            f"agent code {name}:{arg} is not valid: {AGENT_USAGE[name]}"
        )


def _check_heuristic(game: str | None, arg: str | None) -> None:
    _no_argument("heuristic", game, arg)
    if game is not None:
        _check_game_has_heuristic(game)


def _check_game_has_heuristic(game: str) -> None:
    from .heuristics import HEURISTICS

    if game not in HEURISTICS:
        raise InvalidConfigError(
            f"no heuristic agent for game {game!r} yet; games with one: {', '.join(HEURISTICS)}"
        )


def mcts_options(arg: str | None) -> dict[str, Any]:
    """MCTSAgent keyword arguments from the part after `mcts:` (BUDGET[:ROLLOUT])."""
    if arg is None:
        return {"iterations": MCTS_DEFAULT_ITERATIONS, "rollout": "random"}
    parts = arg.split(":")
    if len(parts) > 2:
        raise InvalidConfigError(f"agent code mcts:{arg} is not valid: {AGENT_USAGE['mcts']}")
    budget = parts[0].strip()
    rollout = parts[1].strip().lower() if len(parts) == 2 else "random"
    options: dict[str, Any] = {"rollout": rollout}
    try:
        if not budget:
            options["iterations"] = MCTS_DEFAULT_ITERATIONS
        elif budget.lower().endswith("s"):
            seconds = float(budget[:-1])
            if not (math.isfinite(seconds) and 0 < seconds <= MCTS_MAX_SECONDS):
                raise ValueError
            options["seconds"] = seconds
        else:
            iterations = int(budget)
            if not 1 <= iterations <= MCTS_MAX_ITERATIONS:
                raise ValueError
            options["iterations"] = iterations
    except ValueError:
        raise InvalidConfigError(
            f"bad mcts budget {budget!r}: use iterations 1-{MCTS_MAX_ITERATIONS:,} (mcts:400) or "
            f"seconds above 0 up to {MCTS_MAX_SECONDS:g} (mcts:1.5s)"
        ) from None
    if rollout not in MCTS_ROLLOUTS:
        raise InvalidConfigError(
            f"bad mcts rollout {rollout!r}: valid values {', '.join(MCTS_ROLLOUTS)} "
            f"(e.g. mcts:400:heuristic)"
        )
    return options


SEARCH_MAX_SECONDS = 1.0
SEARCH_MAX_SIMULATIONS = 100_000


def search_options(arg: str | None) -> dict[str, Any]:
    """SearchAgent keyword arguments from the part after `search:` (SIMULATIONS or SECONDSs)."""
    if arg is None:
        return {}
    text = arg.strip().lower()
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not (math.isfinite(seconds) and 0 < seconds <= SEARCH_MAX_SECONDS):
                raise ValueError
            return {"seconds": seconds, "simulations": SEARCH_MAX_SIMULATIONS}
        simulations = int(text)
        if not 1 <= simulations <= SEARCH_MAX_SIMULATIONS:
            raise ValueError
        return {"simulations": simulations}
    except ValueError:
        raise InvalidConfigError(
            f"agent code search:{arg} is not valid: {AGENT_USAGE['search']}"
        ) from None


def _check_search(game: str | None, arg: str | None) -> None:
    search_options(arg)
    if game is not None:
        from .search import check_search_game

        check_search_game(game)


def _check_mcts(game: str | None, arg: str | None) -> None:
    options = mcts_options(arg)
    if options["rollout"] == "heuristic" and game is not None:
        _check_game_has_heuristic(game)


def _check_learned(game: str | None, arg: str | None, players: int | None = None) -> None:
    """`learned[:PATH]`: the file exists, reads as a policy, an afterstate value or learned
    value constants, and fits `game` (and a table of `players` seats when given: learned value
    constants play only the solo game)."""
    from .learned import learned_options, learned_policy_path, load_model
    from .value_weights import ValueWeights

    path, samples = learned_options(arg)  # a bad search:SAMPLES is refused, naming what it takes
    if game is None and path is None:
        return
    network = load_model(learned_policy_path(game or "", arg, players or 2))
    if isinstance(network, ValueWeights) and game is not None:
        network.check_game(game, players)
    elif game is not None:
        network.check_game(game)
    if samples is not None and path is None and game is not None:
        # the shipped models of every seat count: a variant's may hold a policy where the
        # game's does not (none does now: the solo game's is learned value constants)
        from huerta.envs.core.registry import get_game

        from .afterstate import is_value_file
        from .learned import shipped_model
        from .value_weights import is_weights_file

        counts = get_game(game).player_counts
        files = {shipped_model(game, n) for n in counts}
        searchable = [f for f in files
                      if f.is_file() and not is_value_file(f) and not is_weights_file(f)]
    else:
        searchable = [] if not hasattr(network, "greedy") else [network]
    if samples is not None and not searchable:
        raise InvalidConfigError(
            f"learned:{arg}: learned:search plays rollouts of a policy network; the learned "
            f"agent of {game} is an afterstate value (the solo game's: learned value "
            "constants), which searches on its own (play it as `learned`)")


def _check_ppo(game: str | None, arg: str | None) -> None:
    check_ppo_file(ppo_model_path(arg), game)


def _check_rllib(game: str | None, arg: str | None) -> None:
    """`rllib:PATH`: the path holds an RLlib policy (of `game`, when its huerta_policy.json says
    so) and Ray RLlib is installed; nothing is loaded."""
    from .rllib_agent import check_ray_installed, check_rllib_policy, rllib_policy_path

    check_rllib_policy(rllib_policy_path(arg), game)
    check_ray_installed()


def _heuristic(game: str, seed: int | None, arg: str | None) -> Agent:
    from .heuristics import make_heuristic

    return make_heuristic(game, seed=seed)


def _mcts(game: str, seed: int | None, arg: str | None) -> Agent:
    """mcts[:BUDGET[:ROLLOUT]] where BUDGET is iterations (400) or seconds (1.5s)."""
    from .mcts import MCTSAgent

    return MCTSAgent(seed=seed, game=game, **mcts_options(arg))


def _search(game: str, seed: int | None, arg: str | None) -> Agent:
    from .search import SearchAgent

    return SearchAgent(seed=seed, game=game, **search_options(arg))


def _learned(game: str, seed: int | None, arg: str | None) -> Agent:
    from .learned import LearnedAgent, learned_options

    path, samples = learned_options(arg)
    return LearnedAgent(seed=seed, game=game, path=path, samples=samples)


def _ppo(game: str, seed: int | None, arg: str | None) -> Agent:
    from .ppo import PPOAgent

    return PPOAgent(ppo_model_path(arg), seed=seed, game=game)


def _rllib(game: str, seed: int | None, arg: str | None) -> Agent:
    from .rllib_agent import RLlibAgent

    return RLlibAgent(arg, seed=seed, game=game)


def _human(game: str, seed: int | None, arg: str | None) -> Agent:
    from .human import HumanAgent

    return HumanAgent(seed=seed, game=game)


AGENT_FACTORIES: dict[str, Callable[..., Agent]] = {
    "random": lambda game, seed, arg: RandomAgent(seed=seed, game=game),
    "heuristic": _heuristic,
    "mcts": _mcts,
    "search": _search,
    "learned": _learned,
    "ppo": _ppo,
    "human": _human,
    "rllib": _rllib,  # last: the valid codes are listed in this order
}

AGENT_CHECKS: dict[str, Callable[[str | None, str | None], None]] = {
    "random": lambda game, arg: _no_argument("random", game, arg),
    "heuristic": _check_heuristic,
    "mcts": _check_mcts,
    "search": _check_search,
    "learned": _check_learned,
    "ppo": _check_ppo,
    "human": lambda game, arg: _no_argument("human", game, arg),
    "rllib": _check_rllib,
}


def agent_codes() -> list[str]:
    """Every known agent code."""
    return list(AGENT_FACTORIES)


# codes whose check also takes the table's seat count (a model may fit only some counts)
SEAT_CHECKS: dict[str, Callable[[str | None, str | None, int], None]] = {
    "learned": _check_learned,
}


def check_agent_code(code: str, game: str | None = None, players: int | None = None) -> str:
    """Validate `code` (its name and argument; for `game` and a table of `players` seats when
    given) without building the agent; return its name. Raises `InvalidConfigError` saying what
    the code accepts."""
    name, arg = split_code(code)
    if game is not None and players is not None and name in SEAT_CHECKS:
        SEAT_CHECKS[name](game, arg, players)
    else:
        AGENT_CHECKS[name](game, arg)
    return name


def make_agent(code: str, game: str = "finca", seed: int | None = None) -> Agent:
    """An agent from a short code; unknown codes name the valid ones, bad arguments say what
    the code accepts.

    Codes: `random`, `heuristic`, `mcts` / `mcts:400` / `mcts:1.5s` / `mcts:400:heuristic`
    (budget in iterations or seconds, rollout policy), `search` / `search:48` / `search:0.5s`
    (heuristic rollouts; simulations or seconds per decision), `learned` / `learned:PATH` (the
    shipped trained policy of the game, or an exported one), `ppo:PATH` (a trained MaskablePPO
    model), `rllib:PATH` (a policy trained on RLlib), `human` (asks on the terminal).
    """
    name, arg = split_code(code)
    AGENT_CHECKS[name](game, arg)
    return AGENT_FACTORIES[name](game, seed, arg)
