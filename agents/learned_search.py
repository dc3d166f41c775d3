"""The learned search: the search agent (`huerta.agents.search`) driven by a learned afterstate
value (`huerta.agents.afterstate`) instead of the hand-written one.

The search agent compares a turn's first actions by truncated rollouts of the heuristic on
determinized states, starts from the heuristic's choice and scores the positions where its
simulations stop by the logistic of the heuristic's margin. The learned search keeps the
rollouts and the sequential halving, and takes from the value network what it knows better
than the hand-written value:

- `base="afterstate"`: the default action is the afterstate agent's (the first action of the
  turn the network rates best), where the search's is the heuristic's; the other candidates
  are still the heuristic's best-valued first actions (`AfterstateDefault`);
- `leaves="value"`: a simulation that stops in an open position is scored by the network's win
  chance for this seat (`Judge.win_chance`), where the search's is the logistic of the
  heuristic's margin. A finished game is scored by its result either way.

A value file plays this way when its `about` holds `search`, the settings of the search it
plays with (`SearchConfig`: `simulations`, `horizon`, `width`, `base`, `leaves`, and optionally
`seconds`); `learned` (`huerta.agents.learned`) reads them. Each setting is the search
agent's, so the budget of one decision is the search agent's `MAX_SECONDS` unless the file
says less.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, cast

import numpy as np

from huerta.envs.core.engine import GameState
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.view import PlayerView

from .afterstate import AfterstateAgent, ValueNetwork
from .heuristics.protocol import HeuristicAgent
from .search import MAX_SECONDS, SearchAgent, search_settings

BASES = ("afterstate", "heuristic")
LEAVES = ("value", "margin")


@dataclass(frozen=True)
class SearchConfig:
    """How a value file's learned search plays (its `about["search"]`): the search agent's
    simulations, horizon, width and seconds per decision, the default policy (`base`) and the
    score of a cut-off simulation (`leaves`); see the module docstring."""

    simulations: int
    horizon: int
    width: int
    base: str = "afterstate"
    leaves: str = "value"
    seconds: float = MAX_SECONDS

    @classmethod
    def of(cls, game: str, about: dict[str, Any]) -> SearchConfig | None:
        """The settings in a value file's `about` (None: the file plays the afterstate agent,
        no search); a setting left out is the game's search agent's (`search_settings`).
        Unknown keys or values are refused, naming what is accepted."""
        given = about.get("search")
        if given is None:
            return None
        if not isinstance(given, dict):
            raise InvalidConfigError(f"the value file's about['search'] must be a mapping, not "
                                     f"{given!r}")
        known = {"simulations", "horizon", "width", "base", "leaves", "seconds"}
        unknown = sorted(set(given) - known)
        if unknown:
            raise InvalidConfigError(f"unknown learned search settings {', '.join(unknown)}; "
                                     f"known: {', '.join(sorted(known))}")
        settings = search_settings(game)
        config = cls(simulations=int(given.get("simulations", settings.simulations)),
                     horizon=int(given.get("horizon", settings.horizon)),
                     width=int(given.get("width", settings.width)),
                     base=str(given.get("base", "afterstate")),
                     leaves=str(given.get("leaves", "value")),
                     seconds=float(given.get("seconds", MAX_SECONDS)))
        if config.base not in BASES or config.leaves not in LEAVES:
            raise InvalidConfigError(
                f"learned search base {config.base!r} / leaves {config.leaves!r}: base is one "
                f"of {', '.join(BASES)}, leaves one of {', '.join(LEAVES)}")
        if not 0 < config.seconds <= MAX_SECONDS:
            raise InvalidConfigError(f"learned search seconds must be above 0 and at most "
                                     f"{MAX_SECONDS} (the search agent's cap), got "
                                     f"{config.seconds}")
        return config

    def to_about(self) -> dict[str, Any]:
        """The settings as a value file's `about["search"]`."""
        return asdict(self)


class AfterstateDefault:
    """The learned search's default policy (a `HeuristicAgent`, as the search agent drives
    one): it plays the afterstate agent's turns, and ranks the other first actions by the
    heuristic's values of its own plan at the same decision (`first_values`).

    Why the heuristic's ranking: the afterstate agent's turn search is the heuristic
    package's (`afterstate_turn`), which returns the best turn only; asking it for a value per
    first action would change the heuristic packages, whose code is part of the version of
    every rung that plays them (`huerta.agents.versions`). The heuristic's plan costs a tenth
    of the afterstate agent's (5 ms against 50 ms a Finca decision), and the search judges the
    candidates by its own simulations anyway."""

    def __init__(self, afterstate: AfterstateAgent, heuristic: HeuristicAgent) -> None:
        self.afterstate = afterstate
        self.heuristic = heuristic

    @property
    def first_values(self) -> dict[int, float]:
        return self.heuristic.first_values

    @property
    def plan(self) -> list[int]:
        return self.afterstate.plan

    @plan.setter
    def plan(self, actions: list[int]) -> None:
        """Set the afterstate agent's plan (the search empties it to make it plan afresh)."""
        self.afterstate.plan = actions

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        """The afterstate agent's action; the heuristic decides too, for its values only."""
        self.heuristic.decide(observation, view)
        return self.afterstate.decide(observation, view)

    def reset(self, seed: int | None = None) -> None:
        self.afterstate.reset(seed)
        self.heuristic.reset(seed)


class LearnedSearchAgent(SearchAgent):
    """The search agent with the afterstate agent of `network` as its default policy and the
    network's win chance as the score of a cut-off simulation (module docstring; `config`
    chooses either or both)."""

    name = "learned_search"
    title = "the learned search"

    def __init__(self, seed: int | None = None, network: ValueNetwork | None = None,
                 game: str | None = None, config: SearchConfig | None = None) -> None:
        if network is None:
            raise InvalidConfigError("the learned search needs a value network")
        game = game or network.game
        config = config or SearchConfig.of(game, {"search": {}})
        assert config is not None
        self.config = config
        self.afterstate = AfterstateAgent(seed=seed, network=network, game=game)
        super().__init__(seed=seed, game=game, simulations=config.simulations,
                         seconds=config.seconds, horizon=config.horizon, width=config.width)
        if config.base == "afterstate":  # the search's own default is the heuristic it made
            self.base = cast(HeuristicAgent, AfterstateDefault(self.afterstate, self.base))
        self.leaf_value = self.afterstate.judge.win_chance if config.leaves == "value" else None
        self.network = network

    def decide(self, observation: dict[str, np.ndarray], view: PlayerView | None = None) -> int:
        """The search's choice, except in a stalled position (the heuristic module's `stalled`:
        Finca's locked windmill), where the default is played unsearched: the simulations model
        the other seats as heuristics, which break a lock at once, so the search would leave it
        to them (it did: Double move over the Gust of wind), and at a table of learned searchers
        no one would ever break it."""
        stalled = self.afterstate.judge.stalled
        # the lock is public: any state consistent with the view tells (no draw of `rng`)
        if (view is not None and stalled is not None
                and stalled(view.determinize(np.random.default_rng(0)))):
            self.last_step = view.steps
            return self.base.decide(observation, view)
        return super().decide(observation, view)

    def _win_chance(self, state: GameState, me: int) -> float:
        """The search's score of a simulation's last position, with an open multiplayer
        position scored by the network's win chance where `leaves="value"` (a finished game, or
        the solo game, as the search agent scores it)."""
        if self.leaf_value is None or state.is_terminal or state.num_players == 1:
            return super()._win_chance(state, me)
        return self.leaf_value(state, me)
