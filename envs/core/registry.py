"""The games huerta knows, by name; a game that lands later adds one line here.

Every place that lists games (the Gymnasium ids, the command line, the agents' tables, the web
page, the docs site, the spec and contract tests) iterates `game_names()` and reads the facts it
needs from each game's `GameSpec`, so a new game is its own package plus its line in
`GAME_MODULES`.

Besides the games, commands take *variants*: a name that stands for a game at a fixed player
count, declared by the game's spec (`GameSpec.variants`). There is one, `alpujarras-solo`, the
Alpujarras solo game against Zara (`alpujarras` with 1 player); every `huerta` command takes it
as its game name.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from .engine import GameSpec
from .errors import InvalidConfigError

# name -> module that defines SPEC
GAME_MODULES = {
    "finca": "huerta.envs.finca.game",
    "alpujarras": "huerta.envs.alpujarras.game",
    "mi_tierra": "huerta.envs.mi_tierra.game",
}

# the ids' entry points: the envs of huerta.envs.core.single_agent and .vector_env, made where agent
# codes ("random", "heuristic") can be resolved (huerta.agents imports the engine, never the
# reverse); `gymnasium.make_vec(id, vectorization_mode="vector_entry_point")` makes the second
SINGLE_AGENT_ENTRY_POINT = "huerta.agents.gym_env:make_single_agent_env"
VECTOR_ENTRY_POINT = "huerta.agents.gym_env:make_vector_env"


def game_variants() -> dict[str, tuple[str, int]]:
    """Every variant name -> (game, player count), in the games' order."""
    return {
        variant: (game, v.players)
        for game in GAME_MODULES
        for variant, v in get_game(game).variants.items()
    }


def load_attribute(path: str) -> Any:
    """The object a `"package.module:attribute"` path names (a spec's `heuristic`, a variant's
    `gym_entry_point`), imported on demand; a path without `:` names a module."""
    module, _, attribute = path.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


def game_names() -> list[str]:
    """Every registered game name."""
    return list(GAME_MODULES)


def game_choices() -> list[str]:
    """Every name a command takes: each game followed by its variants (alpujarras-solo)."""
    names: list[str] = []
    for game in GAME_MODULES:
        names.append(game)
        names.extend(get_game(game).variants)
    return names


def game_specs() -> list[GameSpec]:
    """Every registered game's `GameSpec`, in the registry's order."""
    return [get_game(name) for name in GAME_MODULES]


def gym_ids() -> dict[str, tuple[str, dict[str, Any]]]:
    """Every Gymnasium id huerta registers -> (entry point, kwargs): each game's single-agent id
    (all its player counts), then its variants' ids (a variant's env fixes its player count)."""
    ids: dict[str, tuple[str, dict[str, Any]]] = {}
    for spec in game_specs():
        if spec.gym_id:
            ids[spec.gym_id] = (SINGLE_AGENT_ENTRY_POINT, {"game": spec.name})
        for variant in spec.variants.values():
            ids[variant.gym_id] = (
                variant.gym_entry_point, {"game": spec.name, "num_players": variant.players}
            )
    return ids


def pettingzoo_ids() -> dict[str, tuple[str, dict[str, Any]]]:
    """Every id huerta registers with PettingZoo's AEC registry -> (entry point, kwargs): the
    same ids as Gymnasium's (`huerta/Finca-v0`), each making the game's PettingZoo env, so that
    `pettingzoo.make("aec", "huerta/Finca-v0", num_players=3)` works; a variant's id fixes its
    player count (`huerta/AlpujarrasSolo-v0`)."""
    ids: dict[str, tuple[str, dict[str, Any]]] = {}
    for spec in game_specs():
        if not (spec.gym_id and spec.env_module):
            continue
        entry_point = f"{spec.env_module}:env"
        ids[spec.gym_id] = (entry_point, {})
        for variant in spec.variants.values():
            ids[variant.gym_id] = (
                VariantEnv(variant.gym_id, entry_point, variant.players, spec.gym_id), {}
            )
    return ids


@dataclass(frozen=True)
class VariantEnv:
    """The PettingZoo maker of a variant's id: the game's env at the variant's player count
    (`huerta/AlpujarrasSolo-v0`: 1), any other `num_players` refused naming the game's own id."""

    env_id: str
    entry_point: str
    players: int
    game_id: str

    def __call__(self, num_players: int | None = None, **kwargs: Any) -> Any:
        """The env, with the game's options in `kwargs`."""
        if num_players is not None and num_players != self.players:
            raise InvalidConfigError(
                f"{self.env_id}: num_players={num_players!r}; this is the {self.players}-player "
                f"game: valid values: {self.players} (use {self.game_id} for other counts)"
            )
        return load_attribute(self.entry_point)(num_players=self.players, **kwargs)


def get_game(name: str) -> GameSpec:
    """The `GameSpec` of game `name`; an unknown name raises naming the valid ones."""
    key = str(name).lower().replace("-", "_")
    if key not in GAME_MODULES:
        raise InvalidConfigError(f"unknown game {name!r}; valid games: {', '.join(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[key]).SPEC


def resolve_game(name: str, players: int | None = None) -> tuple[GameSpec, int | None]:
    """A game or variant name, and the player count asked for (None: not given), as (spec,
    player count): a variant fixes the count (`alpujarras-solo` -> alpujarras, 1) and refuses
    any other; a game keeps `players`, checked against its counts when given. An unknown name
    raises naming every valid one, variants included."""
    key = str(name).lower().replace("_", "-")
    variants = game_variants()
    if key in variants:
        game, count = variants[key]
        if players is not None and players != count:
            raise InvalidConfigError(
                f"{key} is the {count}-player game; --players {players} contradicts it "
                f"(for {players} players use {game})"
            )
        return get_game(game), count
    if str(name).lower().replace("-", "_") not in GAME_MODULES:
        raise InvalidConfigError(
            f"unknown game {name!r}; valid games: {', '.join(game_choices())}"
        )
    spec = get_game(name)
    if players is not None:
        spec.check_players(players)
    return spec, players


def game_label(game: str, players: int) -> str:
    """The name a game at a player count goes by: its variant's (`alpujarras-solo` for
    alpujarras with 1 player), else the game's."""
    for variant, (g, count) in game_variants().items():
        if g == game and count == players:
            return variant
    return game


def own_player_counts(game: str) -> tuple[int, ...]:
    """The player counts a game's own name stands for in listings: its counts less those of its
    variants (alpujarras: 2, 3, 4; its 1-player game is alpujarras-solo)."""
    taken = {count for g, count in game_variants().values() if g == game}
    return tuple(n for n in get_game(game).player_counts if n not in taken)
