"""The learned search: the search agent (`huerta.agents.search`) driven by a learned afterstate
value (`huerta.agents.afterstate`) instead of the hand-written one.

The search agent compares a turn's first actions by truncated rollouts of the heuristic on
determinized states, starts from the heuristic's choice and scores the positions where its
simulations stop by the logistic of the heuristic's margin. The learned search keeps the
rollouts and the sequential halving, and takes from the value network what it knows better
than the hand-written value:

- `base="afterstate"`: the default action and the candidates are the afterstate agent's (its
  best turn, and the first actions ranked by the best turn that begins with each), where the
  search's are the heuristic's;
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
from typing import Any

from huerta.envs.core.errors import InvalidConfigError

from .afterstate import AfterstateAgent, ValueNetwork
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
        judge = self.afterstate.judge
        super().__init__(seed=seed, game=game, simulations=config.simulations,
                         seconds=config.seconds, horizon=config.horizon, width=config.width,
                         base=self.afterstate if config.base == "afterstate" else None,
                         leaf_value=judge.win_chance if config.leaves == "value" else None)
        self.network = network
