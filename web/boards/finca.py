"""Finca's board as JSON for the page: what the Pillow picture draws, as data the page's SVG
board (static/finca.js) draws again.

Finca has no private information, but the fruit tiles under each community's top tile and the two
boxed tiles are face down: a player sees only each stack's height. They are sent only when
`viewer` is None (a replay, where the record's seed fixes every tile anyway).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from huerta.envs.finca import components as C
from huerta.envs.finca import picture
from huerta.envs.finca.actions import (
    BLADE0,
    COMM0,
    DELIVER,
    FRUIT0,
    PLAY_DOUBLE,
    PLAY_ONELESS,
    DeliveryMode,
    Phase,
)

if TYPE_CHECKING:
    from huerta.envs.finca.state import FincaState

PALETTE = {
    "background": "#f4efe4",
    "ink": picture.INK,
    "fruit": list(picture.FRUIT_COLOURS),
    "player": list(picture.PLAYER_COLOURS),
}


def _tile(state: FincaState, tile_id: int) -> dict[str, Any]:
    tile = state.catalogue[tile_id]
    return {"fixed": list(tile.fixed), "wild": tile.wild, "value": tile.value,
            "label": tile.label()}


def _finca_tile(finca: int) -> dict[str, Any]:
    tile = C.FINCA_TILES[finca]
    return {"fruits": list(tile.fruits), "universal": bool(tile.universal)}


def _title(state: FincaState) -> str:
    """The picture's title line."""
    if state.terminal:
        winners = ", ".join(f"player_{w}" for w in state.winners())
        return (f"Finca, {state.num_players} players: game over after {state.turns} turns. "
                f"Winner: {winners}")
    return (f"Finca, {state.num_players} players, turn {state.turns}: player_"
            f"{state.current_player} to act ({Phase(state.phase).name.lower()})")


def state_json(state: FincaState, viewer: int | None) -> dict[str, Any]:
    """The board as JSON from `viewer`'s seat (None: everything, the face-down tiles included)."""
    n = state.num_players
    selected = {c for c, _, _ in state.selected}
    communities = []
    for c in range(C.NUM_COMMUNITIES):
        stack = state.stacks[c]
        finca = state.finca_tile[c]
        entry: dict[str, Any] = {
            "top": _tile(state, stack[-1]) if stack else None,
            "beneath": max(len(stack) - 1, 0),
            "finca": _finca_tile(finca) if finca >= 0 else None,
            "wooden": bool(state.wooden[c]),
            "selected": c in selected or c == state.pending,
        }
        if viewer is None:  # face down: only a replay shows them (top of the stack first)
            entry["beneath_tiles"] = [_tile(state, t)["label"] for t in reversed(stack[:-1])]
        communities.append(entry)
    scores = state.scores()
    acting = -1 if state.terminal else state.current_player
    players = []
    for p in range(n):
        players.append({
            "fruits": list(state.fruits[p]),
            "carts": state.carts[p],
            "bonuses": list(state.bonuses[p]),
            "tiles": sorted(state.catalogue[t].value for t in state.displays[p]),
            "fincas": [_finca_tile(f) for f in state.fincas_won[p]],
            "unused_tiles": [k for k in range(4) if state.unused[p][k]],
            "score": scores[p],
            "acting": p == acting,
        })
    data: dict[str, Any] = {
        "game": "finca",
        "title": _title(state),
        "num_players": n,
        "current_player": acting,
        "terminal": bool(state.terminal),
        "phase": Phase(state.phase).name.lower(),
        "blades": list(state.blades),
        "farmers": [list(state.farmers[p]) for p in range(n)],
        "line_blades": list(C.LINE_BLADES),
        "centre_carts": state.centre_carts,
        "carts_in_play": state.carts_in_play,
        "communities": communities,
        "wooden_reserve": state.wooden_reserve,
        "bonus_stack": list(reversed(state.bonus_stack)),
        "supply": list(state.supply),
        "players": players,
        "delivery": None if state.mode == DeliveryMode.NONE or state.terminal else {
            "mode": DeliveryMode(state.mode).name.lower(), "cap_left": state.cap_left},
        "fruit_names": list(C.FRUITS),
        "action_tile_names": list(picture.ACTION_TILE_NAMES),
        "short_action_tile_names": list(picture.SHORT_ACTION_TILE_NAMES),
    }
    if viewer is None:  # face down during play: (label, what) pairs for the replay's notes
        hidden = [[f"Under C{c}, top first", ", ".join(entry["beneath_tiles"])]
                  for c, entry in enumerate(communities) if entry["beneath_tiles"]]
        hidden.append(["Boxed, never played", ", ".join(
            _tile(state, t)["label"] for t in state.boxed) or "none"])
        data["hidden"] = hidden
    return data


def action_target(state: FincaState, action: int) -> str | None:
    """Where on the board `action` is clicked: a blade, a community, a fruit of the acting
    player's, the carts (a delivery) or an action tile; None for the list only (CONFIRM)."""
    if BLADE0 <= action < COMM0:
        return f"blade:{action - BLADE0}"
    if COMM0 <= action < FRUIT0:
        return f"comm:{action - COMM0}"
    if FRUIT0 <= action < DELIVER:
        return f"fruit:{action - FRUIT0}"
    if action == DELIVER:
        return "deliver"
    if PLAY_DOUBLE <= action <= PLAY_ONELESS:
        return f"tile:{action - PLAY_DOUBLE}"
    return None  # CONFIRM


def public_describe(state: FincaState, action: int, viewer: int | None) -> str:
    """Every Finca move is public: its description."""
    return state.describe(action)
