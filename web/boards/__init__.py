"""Every game's board as JSON for the page, from one seat's view or whole.

Which module draws which game is found by the game's name: `huerta.web.boards.<game>` (a game
without such a module has no board on the page); the page's JavaScript that draws that JSON is
the file of the same name in web/static (the board module `huerta.web.boards.finca`:
static/finca.js), which the page imports by the name /api/meta gives
(`board_scripts()`), so a new game's board is its two files and no line here. Each board
module has `state_json(state, viewer)` (viewer: the seat whose view it is, or None for
everything, which only replays use), `action_target(state, action)` (where on the drawn board an
action is clicked, or None) and `public_describe(state, action, viewer)` (a move as that seat may
read it), plus `PALETTE`, the colours of the game's Pillow picture, which the page draws with.
Besides what its own script draws, a board's JSON may hold `extra_scores`, [name, score] rows
that the page's scores table adds after the seats' (a scripted opponent's: Alpujarras' Zara).
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

from huerta.envs.core.engine import GameState
from huerta.envs.core.errors import InvalidConfigError
from huerta.envs.core.registry import game_names


def _board_modules() -> dict[str, ModuleType]:
    """game -> its board module (`huerta.web.boards.<game>`), for every registered game that
    has one."""
    return {
        game: importlib.import_module(f"{__name__}.{game}") for game in game_names()
        if importlib.util.find_spec(f"{__name__}.{game}") is not None
    }


BOARDS: dict[str, ModuleType] = _board_modules()


def board_module(game: str) -> ModuleType:
    """The board module of `game` (a registered game name); a game without one raises naming
    the games that have one."""
    if game not in BOARDS:
        raise InvalidConfigError(
            f"no board for game {game!r} on the web page; games with one: {', '.join(BOARDS)}"
        )
    return BOARDS[game]


def board_script(game: str) -> str:
    """The file name, under web/static, of the page's module that draws `game`'s board JSON:
    its board module's own name (`huerta.web.boards.mi_tierra`: `mi_tierra.js`)."""
    return board_module(game).__name__.rpartition(".")[2] + ".js"


def board_scripts() -> dict[str, str]:
    """Every game with a board -> `board_script(game)`, for the page to import."""
    return {name: board_script(name) for name in BOARDS}


def state_json(game: str, state: GameState, viewer: int | None) -> dict[str, Any]:
    """The board of `state` as JSON from `viewer`'s seat (None: everything)."""
    return board_module(game).state_json(state, viewer)


def action_targets(game: str, state: GameState) -> dict[str, list[int]]:
    """Board target -> the action ids clicked there, in the current decision, legal or not (a
    click on a target whose actions are all illegal is sent to the server, which says why)."""
    module = board_module(game)
    targets: dict[str, list[int]] = {}
    for action in range(len(state.legal_mask())):
        target = module.action_target(state, action)
        if target is not None:
            targets.setdefault(target, []).append(action)
    return targets


def palettes() -> dict[str, dict[str, Any]]:
    """Every game's colours, as its Pillow picture uses them."""
    return {name: module.PALETTE for name, module in BOARDS.items()}
