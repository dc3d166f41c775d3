"""huerta's games as OpenSpiel games: `import huerta.envs.openspiel` registers each game with
pyspiel as a Python game, so that `pyspiel.load_game("python_huerta_finca", {"players": 3})`
and every OpenSpiel algorithm and bot (MCTS, ISMCTS, CFR-family tools, NFSP, PSRO, the RL
environment) can use it. Needs the optional extra: `pip install "huerta[openspiel]"`.

- `python_huerta_finca`: Finca, `players` 2-4 (default 2), `cart_shortage`;
- `python_huerta_alpujarras`: Alpujarras, `players` 1 (the solo game against Zara) to 4
  (default 2); the solo game also takes `double_turns` and `star_sides` (-1: the rulebook's);
- `python_huerta_mi_tierra`: Mi Tierra, `players` 2-4 (default 2).

Every game also takes `rng_seed` (default -1: fresh entropy): the generator that deals each new
game. The declared facts, as OpenSpiel's game types state them:

- **Sequential, imperfect information.** Hidden are the order of shuffled tiles, cards and crop
  tokens and the dice to come (Mi Tierra: also market cards a player has not peeked at).
- **Sampled stochastic chance.** Each engine deals its game from one seed and resolves chance
  inside its moves from sequences fixed at the deal (a shuffled deck of 42 tiles has no listable
  outcome set; Mi Tierra's dice alone could be listed, and a game declares one chance mode), so
  no state is a chance node. A new state's deal is drawn the first time the state
  is used; `state.game_seed` names it, and `huerta`'s `new_game(players, seed=state.game_seed)`
  replays the same game move for move.
- **Returns** are huerta's `win_loss` rewards at the end: +1 to a sole winner and -1 to the
  others, 0 to the sharers of a shared victory (zero-sum with 2 players, general-sum otherwise).
  A game cut at the engine's step limit (`max_game_length`, never reached in practice) returns 0
  to everyone, as the PettingZoo env's truncation does.
- **Observation tensor**: the game's declared observation (`GameSpec.observation_spec`), one named
  piece per block, exactly what huerta's agents see. The information-state tensor is that same
  observation (every huerta observation carries what still matters of the past); the
  information-state *string* has perfect recall: a digest of every action and of every
  observation the player received.
- **Hidden information stays hidden.** `clone()` copies the game (OpenSpiel's contract), and no
  observer of a clone or of the original sees more than its own observation;
  `resample_from_infostate(player, sampler)` returns a state the player cannot tell apart (same
  observation and information state) with every hidden order resampled (the engine's
  `determinize`): what OpenSpiel's ISMCTS uses to search without peeking.

OpenSpiel's `state.serialize()` / `game.deserialize_state(text)` for Python games carry the
state as a pickle: deserialize only text you wrote yourself (loading pickled data can run code).
huerta's own records (`GameState.to_dict`, JSON) are the safe way to keep a game.
"""

from __future__ import annotations

import hashlib
import inspect
from typing import Any

import numpy as np
import pyspiel

from .core.engine import GameSpec, GameState
from .core.registry import game_specs
from .core.seeding import draw_seed

_PREFIX = "python_huerta_"
# an int option's parameter value meaning "not given": the rulebook's default
_NOT_GIVEN = -1


def short_name(game: str) -> str:
    """The OpenSpiel short name of huerta game `game` (`python_huerta_finca`)."""
    return f"{_PREFIX}{game}"


def _option_defaults(spec: GameSpec) -> dict[str, Any]:
    """Each option of the game with the parameter default OpenSpiel declares: the engine's own
    default where `new_game` names one, else -1 (an int option left to the rulebook)."""
    signature = inspect.signature(spec.new_game).parameters
    defaults: dict[str, Any] = {}
    for option, values in spec.options.items():
        default = signature[option].default if option in signature else None
        if default is None or default is inspect.Parameter.empty:
            default = _NOT_GIVEN if isinstance(values[0], int) else values[0]
        defaults[option] = default
    return defaults


def _default_players(spec: GameSpec) -> int:
    """The player count a game loads with when `players` is not given: the smallest table of two
    or more (a solo game is asked for by name, `players=1`)."""
    return min(n for n in spec.player_counts if n >= 2)


def game_type(spec: GameSpec, players: int | None = None) -> pyspiel.GameType:
    """The OpenSpiel game type of `spec` (with `players`, the utility of that table)."""
    parameters = {"players": _default_players(spec), "rng_seed": -1, **_option_defaults(spec)}
    zero_sum = players == 2
    return pyspiel.GameType(
        short_name=short_name(spec.name),
        long_name=f"Python huerta {spec.display_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.player_counts),
        min_num_players=min(spec.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class HuertaGame(pyspiel.Game):
    """One huerta game at one player count, as an OpenSpiel game."""

    spec: GameSpec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", _default_players(self.spec)))
        self.spec.check_players(players)
        self.players = players
        self.options = self._engine_options(params)
        seed = int(params.get("rng_seed", -1))
        self._deals = np.random.default_rng(None if seed < 0 else seed)
        # a game seed made once, so that a bad option fails at load time, not at the first move
        self.spec.new_game(players, seed=0, **self.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if players == 2 else None,
            max_game_length=self.spec.default_max_steps,
        )
        super().__init__(game_type(self.spec, players), info, params)

    def _engine_options(self, params: dict[str, Any]) -> dict[str, Any]:
        """The options `new_game` takes, from the parameters: an int option at -1 is left out."""
        options = {}
        for option, default in _option_defaults(self.spec).items():
            value = params.get(option, default)
            if not (isinstance(value, int) and value == _NOT_GIVEN):
                options[option] = value
        return options

    def new_initial_state(self) -> HuertaState:
        """A new game; its deal is drawn from the game's generator when the state is first used."""
        return HuertaState(self)

    def draw_game_seed(self) -> int:
        """The seed of the next new game's deal."""
        return draw_seed(self._deals)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> HuertaObserver:
        """The observer OpenSpiel asks for: the default one, or with `perfect_recall` the
        information state (see the module's docstring)."""
        return HuertaObserver(self.spec, iig_obs_type, params)


class HuertaState(pyspiel.State):
    """A huerta game in progress, seen by OpenSpiel. `engine` is the huerta `GameState` behind it
    (hidden information included: for analysis and tests, not for bots)."""

    def __init__(self, game: HuertaGame) -> None:
        super().__init__(game)
        # the deal is drawn on first use: OpenSpiel's clone makes a fresh state and copies these
        # attributes over it, and that fresh state must not spend a deal of the generator
        self.game_seed: int | None = None
        self._engine: GameState | None = None
        self._recall: list[bytes] = []  # per player: the digest of everything it has received

    @property
    def engine(self) -> GameState:
        """The huerta state; the first access deals the game."""
        if self._engine is None:
            game: HuertaGame = self.get_game()
            self.game_seed = game.draw_game_seed()
            self._engine = game.spec.new_game(game.players, seed=self.game_seed, **game.options)
            self._recall = [self._digest(b"", p) for p in range(game.players)]
        return self._engine

    def _digest(self, before: bytes, player: int, action: int = -1) -> bytes:
        """`player`'s information after `before`: the action taken and its new observation."""
        received = self._engine.observe(player) if not self._engine.is_terminal else b""
        data = before + action.to_bytes(4, "little", signed=True) + bytes(received)
        return hashlib.blake2b(data, digest_size=16).digest()

    def _cut(self) -> bool:
        """True when the game has reached the engine's step limit without ending."""
        return self.engine.steps >= self.get_game().max_game_length()

    def current_player(self) -> int:
        """The seat to act, or TERMINAL once the game has ended or been cut."""
        if self.engine.is_terminal or self._cut():
            return pyspiel.PlayerId.TERMINAL
        return int(self.engine.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action ids of the seat to act, ascending (OpenSpiel asks only for it)."""
        return self.engine.legal_actions()

    def _apply_action(self, action: int) -> None:
        """Play `action` for the seat to act; every seat's information takes in the move."""
        engine = self.engine
        engine.apply(int(action))
        self._recall = [self._digest(before, p, int(action))
                        for p, before in enumerate(self._recall)]

    def _action_to_string(self, player: int, action: int) -> str:
        """The action in the game's words, where it is legal now; its id otherwise."""
        if player == self.current_player() and self.engine.legal_mask()[action]:
            return f"{action}: {self.engine.describe(int(action))}"
        return f"action {action}"

    def is_terminal(self) -> bool:
        """True once the game has ended by its rules or reached the step limit."""
        return self.engine.is_terminal or self._cut()

    def returns(self) -> list[float]:
        """huerta's win_loss rewards at the end; 0 before it and for a game cut at the limit."""
        if not self.engine.is_terminal:
            return [0.0] * self.engine.num_players
        return [float(r) for r in self.engine.rewards("win_loss")]

    def information_state_digest(self, player: int) -> str:
        """The digest of every action and observation `player` has received (hex)."""
        self.engine  # noqa: B018 (deals the game if this is its first use)
        return self._recall[player].hex()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HuertaState:
        """A state `player_id` cannot tell from this one, every hidden order resampled (the
        engine's `determinize`), drawn with OpenSpiel's sampler (a callable giving [0, 1))."""
        sample: HuertaState = self.clone()
        rng = np.random.default_rng(int(probability_sampler() * 2**53))
        sample._engine = self.engine.determinize(player_id, rng)
        return sample

    def __str__(self) -> str:
        """The whole public table, as huerta's text render writes it."""
        return self.engine.render_text()


class HuertaObserver:
    """OpenSpiel's PyObserver for a huerta game: the declared observation as one named piece per
    block; with `perfect_recall` the string is the information-state digest."""

    def __init__(
        self, spec: GameSpec, iig_obs_type: pyspiel.IIGObservationType | None,
        params: dict[str, Any] | None,
    ) -> None:
        if params:
            raise ValueError(f"huerta observers take no parameters; got {params}")
        self.spec = spec
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(spec.observation_size, np.float32)
        self.dict = {name: self.tensor[start:start + size]
                     for name, start, size in spec.observation_layout}

    def set_from(self, state: HuertaState, player: int) -> None:
        """Write `player`'s observation of `state` into `tensor` (and so into `dict`)."""
        state.engine.observe(player, out=self.tensor)

    def string_from(self, state: HuertaState, player: int) -> str:
        """`player`'s observation as text (its non-zero values by block), or with perfect
        recall its information-state digest."""
        if self.perfect_recall:
            return f"p{player} {state.information_state_digest(player)}"
        values = state.engine.observe(player)
        pieces = [f"p{player}"]
        for name, start, size in self.spec.observation_layout:
            block = values[start:start + size]
            nonzero = np.flatnonzero(block)
            pieces.append(f"{name}:" + ",".join(f"{i}={block[i]:.4g}" for i in nonzero))
        return " ".join(pieces)


def _game_class(spec: GameSpec) -> type[HuertaGame]:
    """The `HuertaGame` subclass of one huerta game (OpenSpiel creates it from parameters)."""
    return type(f"Huerta{spec.name.title().replace('_', '')}Game", (HuertaGame,), {"spec": spec})


def register() -> list[str]:
    """Register every huerta game with pyspiel (once); returns their short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for spec in game_specs():
        name = short_name(spec.name)
        if name not in registered:
            pyspiel.register_game(game_type(spec), _game_class(spec))
        names.append(name)
    return names


GAMES = register()
