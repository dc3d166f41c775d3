"""The games and player counts the shared contract suites run over (not a test module).

`CASES` holds one `Case` per game and supported player count, with the readable test id
`<game>-<players>` (e.g. `finca-2`); `GAMES` holds each game's facts once. The facts that the
contract pins (the player counts, the action count, the words of the text board) are written here
by hand rather than read from the game's `SPEC`, so a change to the spec shows up as a failure.
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

from huerta.envs import alpujarras_v0, finca_v0, mi_tierra_v0
from huerta.envs.core.registry import get_game

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


def alpujarras_policy(state, rng: np.random.Generator) -> int:
    """Alpujarras' short-move policy: uniform play runs the mule to the end track within a few
    moves (a solo game then lasts about four decisions), this one visits many spaces."""
    return _helper("alpujarras", "alp_helpers").short_move_policy(state, rng)


@dataclass(frozen=True)
class Game:
    name: str
    module: Any  # the PettingZoo entry module (`<game>_v0`)
    gym_id: str
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


GAMES = {
    "finca": Game(
        name="finca", module=finca_v0, gym_id="huerta/Finca-v0", player_counts=(2, 3, 4),
        num_actions=34, observation_size=591, options=("cart_shortage",),
        board_words=("Windmill", "Communities"),
        midgame_steps=40,
    ),
    "alpujarras": Game(
        name="alpujarras", module=alpujarras_v0, gym_id="huerta/Alpujarras-v0",
        player_counts=(1, 2, 3, 4), num_actions=111, options=("double_turns", "star_sides"),
        board_words=("Track", "Farmlands", "Towns"), policy=alpujarras_policy,
        midgame_steps=6,
        truncation_picks=(0,),  # the mask's last id runs the mule to the end within 15 decisions
        record_options={1: {"double_turns": 5}},  # the solo variants travel in the record
    ),
    "mi_tierra": Game(
        name="mi_tierra", module=mi_tierra_v0, gym_id="huerta/MiTierra-v0",
        player_counts=(2, 3, 4), num_actions=64, options=(),
        board_words=("Established", "Development display", "market pile"),
        midgame_steps=60,
    ),
}


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

        if self.game.name == "alpujarras" and self.n == 1:
            return gymnasium.make("huerta/AlpujarrasSolo-v0", **kw)
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
