"""The search rung of the ladder: the heuristic, improved by looking ahead with it.

At the first decision of each of its turns the agent compares its legal actions by simulation.
Each simulation samples a full state consistent with what the player knows
(`view.determinize`), plays the candidate action, lets the game's heuristic finish this turn and
play every seat for `horizon` more turns of this player, and scores the position it reaches:
a finished game by its result, an unfinished one by the heuristic's own position value for each
seat, turned into a win chance by a logistic of this player's margin over the best other seat
(in a solo game, by the heuristic module's `solo_value`, the log of the chance of winning).
Candidates are compared on the same sampled states (paired simulations, which cancel most of the
luck) by sequential halving (Karnin et al., 2013): every round plays each surviving candidate on
a fresh set of states and keeps the better half, until one is left or the time is spent. The
heuristic's own choice is the default, kept unless another action does measurably better.

Why this design: the heuristics plan one turn at a time and never ask what the other seats do
next; random playouts (plain MCTS) are too weak to judge a position of these games, and the
heuristic is the best cheap model of an opponent we have. Rollouts of the heuristic itself (a
"rollout algorithm" in Bertsekas' sense) improve on the policy they simulate, and a cut-off
after a few turns, scored by its value function, keeps each simulation to milliseconds. The rest
of a turn, once its first action is chosen, is played by the heuristic as the simulations did.

Both the default policy and the value of a cut-off position can be replaced (`base`,
`leaf_value`): the learned search (`huerta.agents.learned_search`) keeps this search and its
heuristic rollouts, and takes the learned afterstate agent's turn as the default and its
learned win chance as the score where a simulation stops.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from huerta.envs.core.engine import GameState
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.view import PlayerView

from .base import Agent
from .heuristics import HEURISTICS, heuristic_module, make_heuristic, search_settings_of
from .heuristics.protocol import HeuristicAgent, PositionValue, SearchSettings, SoloValue
from .mcts import resolve_chance

MAX_SECONDS = 0.9  # the cap on one decision; the last simulation may run a little over

# (state, seat) -> the chance that `seat` wins from an open position of a multiplayer game
LeafValue = Callable[[GameState, int], float]


def search_settings(game: str) -> SearchSettings:
    """The search agent's settings for `game`, declared beside its heuristic (the package's
    `SEARCH`: the margin that makes a 73% win chance, and the default simulations, horizon and
    width). A game without them, or no game of that name, is refused naming the games that
    have them."""
    settings = search_settings_of(game) if game in HEURISTICS else None
    if settings is None:
        games = [name for name in HEURISTICS if search_settings_of(name) is not None]
        raise InvalidConfigError(
            f"no search agent for game {game!r}; games with one: {', '.join(games)}"
        )
    return settings


def check_search_game(game: str) -> None:
    """Refuse a game the search agent has no settings for (see `search_settings`)."""
    search_settings(game)


class SearchAgent(Agent):
    """Sequential halving over this turn's first actions, judged by truncated heuristic
    rollouts on determinized states (see the module docstring).

    Options: `seconds` (the time budget of one decision, default `MAX_SECONDS`), `simulations`
    (per decision), `horizon` (turns of this player simulated after the current one; 0 plays to
    the end of the game) and `width` (candidates compared), each by default the game's
    `SEARCH` (declared beside its heuristic); `min_samples` (simulations per candidate in a
    round, default 1).
    `base` is the default policy (the game's heuristic where None): an agent that plans whole
    turns and values its first actions (`HeuristicAgent`); its choice is the default and its
    best-valued other actions the candidates. `leaf_value` scores an open multiplayer position
    where a simulation stops (the logistic of the heuristic's margin where None).
    The budget is read from `clock` (`time.perf_counter`; a test may substitute its own).
    """

    name = "search"
    needs_view = True
    reads_observation = False

    def __init__(
        self,
        seed: int | None = None,
        game: str = "finca",
        simulations: int | None = None,
        seconds: float = MAX_SECONDS,
        horizon: int | None = None,
        min_samples: int = 1,
        margin: float = 1.0,
        width: int | None = None,
        base: HeuristicAgent | None = None,
        leaf_value: LeafValue | None = None,
    ) -> None:
        super().__init__(seed)
        settings = search_settings(game)
        simulations = settings.simulations if simulations is None else simulations
        horizon = settings.horizon if horizon is None else horizon
        width = settings.width if width is None else width
        if not (math.isfinite(seconds) and seconds > 0):
            raise InvalidConfigError(f"search seconds must be above 0, got {seconds}")
        if horizon < 0:
            raise InvalidConfigError(f"search horizon must be 0 or more, got {horizon}")
        self.game = game
        if simulations < 1:
            raise InvalidConfigError(f"search simulations must be at least 1, got {simulations}")
        self.simulations = int(simulations)
        self.seconds = float(seconds)
        self.horizon = int(horizon)
        self.min_samples = max(1, int(min_samples))
        self.margin = float(margin)
        if width < 2:
            raise InvalidConfigError(f"search width must be at least 2, got {width}")
        self.width = int(width)
        heuristic = heuristic_module(game)
        self.value: PositionValue = heuristic.position_value
        self.solo_value: SoloValue | None = heuristic.solo_value
        self.scale = settings.margin_scale
        self.base = base if base is not None else cast(HeuristicAgent,
                                                         make_heuristic(game, seed=seed))
        self.leaf_value = leaf_value
        self.last_step = -2  # the game step of this agent's previous decision
        self.last_stats: dict[str, Any] = {}
        self.clock: Callable[[], float] = time.perf_counter

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.base.reset(seed)
        self.last_step = -2

    # --- deciding ----------------------------------------------------------------------------
    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        if view is None:
            raise ValueError("the search agent needs the game view (needs_view=True)")
        start = self.clock()
        mid_turn = self.last_step == view.steps - 1
        self.last_step = view.steps
        before = self.base.first_values
        default = self.base.decide(observation, view)  # also keeps the heuristic's turn plan
        if view.num_players == 1:  # solo: every decision is ours; a turn is a fresh plan
            mid_turn = self.base.first_values is before
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        if mid_turn or len(legal) == 1:
            return default
        choice = self._search(view, self._candidates(legal, default), default, start)
        if choice != default:
            self.base.plan = []  # the heuristic re-plans the rest of the turn from here
        return choice

    def _candidates(self, legal: list[int], default: int) -> list[int]:
        """The default and the `width - 1` other actions the heuristic valued most in the
        decision it just made (every legal action where it gave no values)."""
        values = self.base.first_values
        others = [a for a in legal if a != default]
        if values:
            others.sort(key=lambda a: values.get(a, -math.inf), reverse=True)
        return [default, *others[: self.width - 1]]

    def _search(self, view: PlayerView, legal: list[int], default: int, start: float) -> int:
        """Sequential halving down to the default and one challenger, then a last round for
        the two; `simulations` spread evenly over the rounds, `seconds` a hard cap."""
        deadline = start + self.seconds
        me = view.player
        alive = [default, *(a for a in legal if a != default)]
        results: dict[int, list[float]] = {a: [] for a in legal}  # by sample, in order
        rounds = max(1, math.ceil(math.log2(len(alive) / 2))) + 1
        played = rounds_done = 0
        began = self.clock()
        while True:
            per = max(self.min_samples, self.simulations // (len(alive) * rounds))
            out_of_time = False
            for _ in range(per):
                if self.clock() >= deadline:  # the heuristic's own choice took it all
                    out_of_time = True
                    break
                state = view.determinize(self.rng)
                seed = int(self.rng.integers(2**31))
                for action in alive:  # every candidate on the same sample: paired results
                    results[action].append(self._simulate(state.clone(), me, action, seed))
                    played += 1
                    now = self.clock()
                    if now + (now - began) / played >= deadline:  # the next one would overrun
                        out_of_time = True
                        break
                if out_of_time:
                    break
            rounds_done += 1
            if out_of_time or len(alive) <= 2:
                break
            challengers = sorted(alive[1:], key=lambda a: float(np.mean(results[a])),
                                 reverse=True)
            alive = [default, *challengers[: max(1, len(alive) // 2 - 1)]]
        self.last_stats = {"rounds": rounds_done, "simulations": played,
                           "candidates": len(legal)}
        return self._pick({a: results[a] for a in alive}, default)

    def _pick(self, results: dict[int, list[float]], default: int) -> int:
        """The candidate with the best mean, if it beats the default by more than `margin`
        standard errors of the paired differences (on the samples both played); else the
        default."""
        base = results[default]
        best, best_gain = default, 0.0
        for action, values in results.items():
            n = min(len(values), len(base))
            if action == default or n < 2:
                continue
            diffs = np.subtract(values[:n], base[:n])
            gain = float(diffs.mean())
            error = float(diffs.std(ddof=1)) / math.sqrt(n)
            if gain > self.margin * error and gain > best_gain:
                best, best_gain = action, gain
        return best

    # --- one simulation ----------------------------------------------------------------------
    def _simulate(self, state: GameState, me: int, action: int, seed: int) -> float:
        """This player's win chance after `action` and `horizon` more turns of heuristic play."""
        state.apply(action)
        players = [make_heuristic(self.game, seed=seed + seat) for seat in range(state.num_players)]
        turns = 0
        previous = me
        while not state.is_terminal:
            resolve_chance(state, self.rng)
            if state.is_terminal:
                break
            seat = state.current_player
            if seat == me and previous != me:
                turns += 1
                if self.horizon and turns > self.horizon:
                    break
            previous = seat
            mask = state.legal_mask()
            obs = {"observation": None, "action_mask": mask}
            state.apply(players[seat].decide(obs, PlayerView(state, seat)))
        return self._win_chance(state, me)

    def _win_chance(self, state: GameState, me: int) -> float:
        if state.num_players == 1:  # the solo game: beat Zara
            if state.is_terminal:
                return 1.0 if state.winners() else 0.0
            if self.solo_value is None:
                raise InvalidConfigError(
                    f"no search agent for the solo game of {self.game!r}: its heuristic has no "
                    "solo_value")
            return math.exp(min(0.0, self.solo_value(state)))  # its value is a log-chance
        if state.is_terminal:
            keys = state.ranking_keys()
            best_other = max(k for p, k in enumerate(keys) if p != me)
            return 1.0 if keys[me] > best_other else (0.5 if keys[me] == best_other else 0.0)
        if self.leaf_value is not None:
            return self.leaf_value(state, me)
        values = [self.value(state, p) for p in range(state.num_players)]
        margin = values[me] - max(v for p, v in enumerate(values) if p != me)
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, margin / self.scale))))

