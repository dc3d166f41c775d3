"""The games and player counts the shared contract suites run over (not a test module).

`CASES` holds one `Case` per game and supported player count, with the readable test id
`<game>-<players>` (e.g. `finca-2`); `GAMES` holds each game's facts once, for every game of the
registry (`game_names()`). The facts that the contract pins (the player counts, the action count,
the Gymnasium ids, the words of the text board) are written by hand in each game's own test
folder, `tests/<game>/<game>_contract.py` (`CONTRACT`), rather than read from the game's `SPEC`,
so a change to the spec shows up as a failure; a registered game without that file fails here.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from huerta.envs.core.registry import game_names, get_game

TESTS = Path(__file__).resolve().parents[1]


def _helper(folder: str, name: str):
    """A per-game helper module of tests/<folder> under its usual name (the one the per-game tests
    import it by), so that tests/core also runs when that folder was not collected."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, TESTS / folder / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def uniform_policy(state, rng: np.random.Generator) -> int:
    """A uniformly random legal action (the same draw as `rng.choice` over the action mask)."""
    return int(rng.choice(np.flatnonzero(state.legal_mask())))


@dataclass(frozen=True)
class Game:
    name: str
    module: Any  # the PettingZoo entry module (`<game>_v0`)
    gym_id: str
    variant_gym_ids: dict[int, str]  # players -> the Gymnasium id of a variant (the solo game)
    player_counts: tuple[int, ...]
    num_actions: int
    options: tuple[str, ...]  # the game's own options, in the order error messages name them
    board_words: tuple[str, ...]  # words the ansi board always shows
    observation_size: int | None = None  # pinned where a test pinned it; else the package's
    policy: Any = uniform_policy  # (state, rng) -> action, for the random games of the suites
    # policy decisions before a mid-game check (pickle, clone, illegal actions): the game is
    # still on for every player count and the seeds the suites use
    midgame_steps: int = 40
    record_options: dict[int, dict] = field(default_factory=dict)  # players -> game options
    # which legal action (index into the mask's legal ids) the truncation test plays
    truncation_picks: tuple[int, ...] = (0, -1)

    @property
    def spec(self):
        return get_game(self.name)

    def env(self, n: int, **kw):
        return self.module.env(num_players=n, **kw)

    def expected_observation_size(self) -> int:
        """The pinned size, or the game package's own OBS_SIZE constant."""
        if self.observation_size is not None:
            return self.observation_size
        return importlib.import_module(f"huerta.envs.{self.name}").OBS_SIZE


def _policy(path: str, folder: str):
    """The policy `helper_module:function` of a contract, from tests/<folder>."""
    module, _, name = path.partition(":")
    return getattr(_helper(folder, module), name)


def _game(name: str) -> Game:
    """Game `name`'s contract facts, from tests/<name>/<name>_contract.py."""
    if not (TESTS / name / f"{name}_contract.py").is_file():
        raise FileNotFoundError(
            f"the registered game {name!r} has no tests/{name}/{name}_contract.py (CONTRACT: its "
            "facts for the contract suites)"
        )
    facts = dict(_helper(name, f"{name}_contract").CONTRACT)
    if "policy" in facts:
        facts["policy"] = _policy(facts["policy"], name)
    return Game(
        name=name, module=importlib.import_module(get_game(name).env_module),
        variant_gym_ids=facts.pop("variant_gym_ids", {}), **facts,
    )


GAMES = {name: _game(name) for name in game_names()}


@dataclass(frozen=True)
class Case:
    game: Game
    n: int

    @property
    def id(self) -> str:
        return f"{self.game.name}-{self.n}"

    @property
    def spec(self):
        return self.game.spec

    def env(self, **kw):
        return self.game.env(self.n, **kw)

    def gym_make(self, **kw):
        """The single-agent env; the solo game is its own Gymnasium id."""
        import gymnasium

        import huerta.envs  # noqa: F401  (registers the Gymnasium ids)

        if self.n in self.game.variant_gym_ids:
            return gymnasium.make(self.game.variant_gym_ids[self.n], **kw)
        return gymnasium.make(self.game.gym_id, num_players=self.n, **kw)

    def new_game(self, seed: int, **options):
        return self.spec.new_game(self.n, seed=seed, **options)

    def policy(self, state, rng) -> int:
        return self.game.policy(state, rng)

    def midgame(self, seed: int, rng: np.random.Generator):
        """A state after the game's `midgame_steps` policy decisions (fewer if it ends first)."""
        state = self.new_game(seed)
        for _ in range(self.game.midgame_steps):
            if state.is_terminal:
                break
            state.apply(self.policy(state, rng))
        return state


CASES = [Case(g, n) for g in GAMES.values() for n in g.player_counts]
# the 2-player game of each game: checks of one game's plumbing that do not vary with the count
TWO_PLAYER = [c for c in CASES if c.n == 2]


def cases(selection=None):
    """`CASES` (or `selection`) as pytest params with the `<game>-<players>` ids."""
    return [pytest.param(c, id=c.id) for c in (CASES if selection is None else selection)]


def game_params():
    """One pytest param per game, with the game's name as id."""
    return [pytest.param(g, id=g.name) for g in GAMES.values()]
