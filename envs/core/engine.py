"""The engine protocol every game implements: a mutable state with a mask, transitions and scores.

Search agents and tests drive a game through this interface alone; the PettingZoo and Gymnasium
environments are thin layers over it.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .rewards import terminal_rewards, winners_from_keys


class GameState(abc.ABC):
    """A game in progress. Subclasses hold plain Python data and mutate it in `apply`.

    `apply` raises `IllegalActionError` (a `ValueError`) naming the action and the reason and leaves
    the state untouched: for a masked id, and for a value that is not an integer id (a bool, a
    float, a string; numpy integers are taken, see `validation.check_action`). `steps` counts the
    agent decisions taken so far (sub-decisions included).
    """

    # no __dict__: a misspelt field assignment on a slotted state raises instead of being
    # silently dropped by clones and records
    __slots__ = ()

    num_players: int
    current_player: int
    steps: int

    @property
    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """True once the game has ended by its rules."""

    @abc.abstractmethod
    def legal_mask(self) -> np.ndarray:
        """A bool vector over all action ids, True exactly for the legal ones (none once over)."""

    def action_mask(self) -> np.ndarray:
        """The legal actions as a fresh int8 vector (what the AEC env returns as
        `action_mask`); games with a cheaper way to make it override this."""
        return self.legal_mask().astype(np.int8)

    @abc.abstractmethod
    def apply(self, action: int) -> None:
        """Carry out `action` for the current player; raise `IllegalActionError` if it is masked."""

    @abc.abstractmethod
    def scores(self) -> list[int]:
        """Every seat's score as the rules count it now (final once the game is over)."""

    @abc.abstractmethod
    def ranking_keys(self) -> list[tuple]:
        """Per-seat tuples (score, tiebreaks...) whose order decides the ranking; equal = shared."""

    @abc.abstractmethod
    def clone(self) -> GameState:
        """An independent copy (for search); cheaper than to_dict/from_dict."""

    @abc.abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict that `from_dict` turns back into an equal state."""

    @abc.abstractmethod
    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The float32 observation vector from `player`'s seat, written into `out` if given."""

    @abc.abstractmethod
    def describe(self, action: int) -> str:
        """A short human-readable meaning of `action` in the current phase."""

    @abc.abstractmethod
    def render_text(self) -> str:
        """The whole public state as text (the `ansi` render)."""

    @abc.abstractmethod
    def determinize(self, player: int, rng: np.random.Generator) -> GameState:
        """A copy consistent with everything `player` has seen, hidden parts resampled."""

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """Outcomes and probabilities of a pending chance event; empty when none is pending.

        Games that resolve chance inside `apply` (from sequences fixed at reset) always return
        an empty list; games with an explicit-chance mode list the outcomes while a roll waits,
        and `apply_chance` resolves it."""
        return []

    def apply_chance(self, outcome: Any) -> None:
        """Resolve the pending chance event with `outcome` (one listed by `chance_outcomes`)."""
        from .errors import IllegalActionError

        raise IllegalActionError(outcome, f"{type(self).__name__} has no pending chance event")

    def render(self, mode: str) -> str | np.ndarray | None:
        """The `render_mode` output: text ("ansi"), a printed board ("human") or a picture
        ("rgb_array", for games whose states have `render_rgb`)."""
        if mode == "rgb_array":
            return self.render_rgb()
        if mode == "human":
            print(self.render_text())
            return None
        return self.render_text()

    def legal_actions(self) -> list[int]:
        """The legal action ids in increasing order."""
        return np.flatnonzero(self.legal_mask()).tolist()

    def winners(self) -> list[int]:
        """Seats that share the best ranking key (one seat unless the victory is shared)."""
        return winners_from_keys(self.ranking_keys())

    def rewards(self, mode: str = "win_loss") -> list[float]:
        """Terminal rewards for every seat (see `huerta.envs.core.rewards`)."""
        return terminal_rewards(self.scores(), self.ranking_keys(), mode)

    def shaping_potential(self, seat: int) -> float:
        """How well `seat` stands, in score points, for potential-based reward shaping: its score
        minus the best other score. Games whose win needs more than points (the Alpujarras solo
        game) add their progress toward it."""
        scores = self.scores()
        others = [v for other, v in enumerate(scores) if other != seat]
        return float(scores[seat] - (max(others) if others else 0))


@dataclass(frozen=True)
class GameVariant:
    """A name that stands for a game at a fixed player count (`alpujarras-solo`: alpujarras with
    1 player), with its own Gymnasium id, the dotted `module:Class` of that env and, where the
    seats play against a scripted opponent, its name."""

    players: int
    gym_id: str
    gym_entry_point: str
    options: tuple[str, ...] = ()  # the game's options that only this variant takes
    label: str = ""  # how menus describe it after its name ("against Zara")
    # the scripted opponent the seats play against ("Zara"): who wins when no seat does
    opponent: str = ""


@dataclass(frozen=True)
class GameSpec:
    """Declared facts of one game and how to make its states; one per game, in its package.

    A spec holds the engine's facts only, as OpenSpiel's game type and info do: the game's
    names, player counts, action and observation sizes, how to make and restore its states, its
    options and render modes, its Gymnasium ids and PettingZoo entry module, and its rules
    document with the clause ids it holds. What the other layers keep per game they find in
    their own layer by the game's name: the heuristic and the search agent's settings in
    `huerta.agents.heuristics.<game>`, the web page's board in `huerta.web.boards.<game>`,
    training's defaults in `huerta.training.games`.
    """

    name: str
    player_counts: tuple[int, ...]
    num_actions: int
    observation_size: int
    new_game: Callable[..., GameState]
    state_from_dict: Callable[[dict[str, Any]], GameState]
    default_max_steps: int
    options: dict[str, Any] = field(default_factory=dict)
    observation_layout: Sequence[tuple[str, int, int]] = ()
    # the declared observation (huerta.envs.core.observation_spec.ObservationSpec): its blocks
    # and fields, the plain reference builder and `decode`; None while a game has none yet
    observation_spec: Any = None
    # "human" prints the text board; "rgb_array" needs states with render_rgb()
    render_modes: tuple[str, ...] = ("human", "ansi")
    title: str = ""  # the game's name in prose and page titles ("Mi Tierra"); default: name
    gym_id: str = ""  # the single-agent Gymnasium id ("huerta/MiTierra-v0"), all player counts
    env_module: str = ""  # the PettingZoo entry module ("huerta.envs.mi_tierra_v0")
    variants: Mapping[str, GameVariant] = field(default_factory=dict)  # name -> variant
    spec_document: str = ""  # the rules as we implement them, from the repository root
    clause_prefixes: tuple[str, ...] = ()  # the spec's rule clause ids ("ALP-01", "ZARA-03")
    clause_minimum: int = 1  # clause ids the spec holds at least (a lost section fails a test)
    # the spec's scenario test ids ("T-05"): each defined there once and named by a test
    scenario_prefixes: tuple[str, ...] = ()

    def decode_observation(self, obs: Any) -> dict[str, Any]:
        """An observation vector back to named raw values, block by block (for debugging and
        notebooks); a game whose observation is not declared yet says so."""
        if self.observation_spec is None:
            raise NotImplementedError(f"{self.name}'s observation is not declared as an "
                                      "ObservationSpec yet")
        return self.observation_spec.decode(obs)

    @property
    def display_name(self) -> str:
        """`title`, or the name when the spec gives none."""
        return self.title or self.name

    def check_players(self, num_players: int) -> int:
        """Return `num_players` if this game supports it, else raise naming the valid counts."""
        from .errors import InvalidConfigError

        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise InvalidConfigError(
                f"{self.name}: num_players must be an int; got {num_players!r}; "
                f"valid values: {', '.join(map(str, self.player_counts))}"
            )
        if int(num_players) not in self.player_counts:
            raise InvalidConfigError(
                f"{self.name}: num_players={num_players} is not supported; "
                f"valid values: {', '.join(map(str, self.player_counts))}"
            )
        return int(num_players)
