"""Which agents the page may seat, and how they are built: safe by default.

The page takes two kinds of code and nothing else:

- registry codes that name no file: `random`, `heuristic`, `mcts[:BUDGET[:ROLLOUT]]`,
  `search[:BUDGET]` and `learned` (the shipped model), with every budget capped so that one
  decision thinks at most `MAX_DECISION_SECONDS` (`learned:search[:SAMPLES]`, rollouts of a
  shipped policy network, is capped too, and refused while every shipped model is a value);
- `run:ID`, the exported model (`best_policy.npz`) of a run the server itself lists under its
  runs folder (`RunsFolder.models`): numpy arrays and JSON, read with `allow_pickle=False`.

Why: `ppo:PATH` and `rllib:PATH` load pickle-based files (a Stable-Baselines3 zip, an RLlib
checkpoint), and unpickling runs whatever code the file holds; `learned:PATH` would open any
path a request names (a pipe, a device, a huge file). A request naming a path is refused with a
422 naming the field before any file is opened. The command line keeps those codes, where the
user names their own files.

Every agent built here reads the time through a clock that jumps past every deadline once its
game is stopped, so a stopped game's search ends at its next check.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from huerta.agents import make_agent
from huerta.agents.base import Agent
from huerta.agents.learned import LearnedAgent, learned_options, load_model
from huerta.agents.mcts import MCTSAgent
from huerta.agents.registry import check_agent_code, mcts_options, split_code
from huerta.agents.search import SearchAgent
from huerta.agents.value_weights import ValueWeights
from huerta.envs.core.errors import InvalidConfigError

from .errors import WebError
from .runs import RunsFolder

MAX_DECISION_SECONDS = 3.0  # the most one agent decision may think in the page
MCTS_MAX_ITERATIONS = 5_000  # an mcts:N seat's iterations (also cut at MAX_DECISION_SECONDS)
LEARNED_SEARCH_MAX_SAMPLES = 12  # learned:search:N (each sample plays games out)
RUN_CODE = "run"  # run:ID, a listed run's exported model
# registry codes the page offers: none of them names a file
OFFERED = ("random", "heuristic", "mcts", "search", "learned")
WEB_USAGE = {
    "random": "random",
    "heuristic": "heuristic",
    "mcts": f"mcts, mcts:ITERATIONS (at most {MCTS_MAX_ITERATIONS:,}), mcts:SECONDSs (at most "
    f"{MAX_DECISION_SECONDS:g}s), mcts:BUDGET:ROLLOUT with ROLLOUT random or heuristic",
    "search": "search, search:SIMULATIONS or search:SECONDSs (at most 1s)",
    "learned": "learned (the shipped model)",
    "run": "run:ID, the exported model (best_policy.npz) of a run listed under Results",
}
EXAMPLES = ("random", "heuristic", "learned", "search", "mcts:200", "mcts:1s")
REFUSED = {
    "ppo": "ppo:PATH loads a Stable-Baselines3 zip, a pickle-based format whose loading runs "
    "code: the page never loads one. Export the run (`huerta export RUN`) and seat it as run:ID, "
    "or play it from the command line (`huerta play`)",
    "rllib": "rllib:PATH loads an RLlib checkpoint, a pickle-based format whose loading runs "
    "code: the page never loads one. Play it from the command line (`huerta play`)",
    "human": "'human' is you: the other seats take agent codes (random, heuristic, search, "
    "learned, mcts:N, run:ID)",
}


@dataclass(frozen=True)
class SeatPlan:
    """A checked agent code of one seat: the code as given, and for `run:ID` the run's model
    file as checked (so the seat is built from the file that was checked, once)."""

    code: str
    model: Path | None = None


def check_web_agent(code: str, game: str, players: int, runs: RunsFolder) -> SeatPlan:
    """Check a seat's agent code for the page (see the module docstring); refusals raise
    `InvalidConfigError` saying why. No file is opened but a listed run's checked model."""
    text = code.strip()
    name, _, arg = text.partition(":")
    name = name.strip().lower()
    if name == RUN_CODE:
        run_id = arg.strip()
        if not run_id:
            raise InvalidConfigError(f"run:ID needs a run id: {WEB_USAGE['run']}")
        return SeatPlan(text, check_run_model(runs, run_id, game, players))
    name, arg_or_none = split_code(text)  # an unknown name lists the valid codes
    if name in REFUSED:
        raise InvalidConfigError(REFUSED[name])
    if name not in OFFERED:
        raise InvalidConfigError(f"{name} is not offered in the page; codes: "
                                 f"{', '.join((*OFFERED, RUN_CODE + ':ID'))}")
    if name == "learned":
        path, samples = learned_options(arg_or_none)
        if path is not None:
            raise InvalidConfigError(
                f"{text} names a file, and the page never opens a file a request names: "
                "seat the run's model as run:ID (its exported best_policy.npz), or play "
                "learned:PATH from the command line")
        if samples is not None and samples > LEARNED_SEARCH_MAX_SAMPLES:
            raise InvalidConfigError(f"learned:search:{samples} is over the page's "
                                     f"{LEARNED_SEARCH_MAX_SAMPLES} samples a decision")
    if name == "mcts":
        options = mcts_options(arg_or_none)
        if options.get("seconds", 0) > MAX_DECISION_SECONDS:
            raise InvalidConfigError(f"mcts:{arg_or_none} thinks over the page's "
                                     f"{MAX_DECISION_SECONDS:g} s a decision")
        if options.get("iterations", 0) > MCTS_MAX_ITERATIONS:
            raise InvalidConfigError(f"mcts:{arg_or_none} is over the page's "
                                     f"{MCTS_MAX_ITERATIONS:,} iterations a decision")
    check_agent_code(text, game, players)  # no file: every code left names none
    return SeatPlan(text)


def check_run_model(runs: RunsFolder, run_id: str, game: str, players: int) -> Path:
    """The checked model file of run `run_id`; refuses a run that the folder does not list,
    whose model is not a safe regular file, or whose model does not read as a huerta model of
    `game` (at `players` seats)."""
    try:
        path = runs.model(run_id)
    except WebError as exc:
        raise InvalidConfigError(exc.reason) from None
    model = load_model(path)  # numpy with allow_pickle=False: refuses pickled objects
    if isinstance(model, ValueWeights):
        model.check_game(game, players)
    else:
        model.check_game(game)
    return path


def stoppable_clock(stopped: Callable[[], bool]) -> Callable[[], float]:
    """`time.perf_counter`, until `stopped()`: then infinity, past every deadline."""

    def clock() -> float:
        return math.inf if stopped() else time.perf_counter()

    return clock


def make_web_agent(plan: SeatPlan, game: str, seed: int, stopped: Callable[[], bool]) -> Agent:
    """The agent of a checked seat, its searches capped at `MAX_DECISION_SECONDS` and
    interrupted once `stopped()`."""
    if plan.model is not None:  # read once already, by check_run_model (load_model caches it)
        agent: Agent = LearnedAgent(seed=seed, game=game, path=str(plan.model))
    else:
        agent = make_agent(plan.code, game=game, seed=seed)
    bound_thinking(agent, stoppable_clock(stopped))
    return agent


def bound_thinking(agent: Agent, clock: Callable[[], float]) -> None:
    """Give a searching agent `clock` (search and MCTS read their budgets from it), and cap an
    MCTS agent's decision at `MAX_DECISION_SECONDS` whatever its iteration budget. The other
    agents think one turn ahead at most (the heuristic, the learned models)."""
    if isinstance(agent, SearchAgent | MCTSAgent):
        agent.clock = clock
    if isinstance(agent, MCTSAgent):
        agent.max_seconds = min(agent.max_seconds or math.inf, MAX_DECISION_SECONDS)
