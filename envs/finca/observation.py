"""Finca's observation: one float32 vector of 599 values in [0, 1], from the observer's seat.

Player blocks are rotated so that slot 0 is the observer, slot 1 the next player clockwise, and
so on; slots of absent players are zero. Everything in it is public (Finca has no private
information); face-down tiles are never encoded, only the public set of tiles not yet seen.
`OBS_LAYOUT` lists the named blocks (name, offset, size); seeds/finca.md documents each value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import components as C
from .actions import NUM_DECISION_PHASES, DeliveryMode, Phase

if TYPE_CHECKING:
    from .state import FincaState

MAX_SEATS = 4
PLAYER_BLOCK = 30
COMMUNITY_BLOCK = 23
STEP_SCALE = 2000.0

_BLOCKS = (
    ("phase", NUM_DECISION_PHASES),
    ("game_meta", 6),
    ("blade_fruit", C.NUM_BLADES * C.NUM_FRUITS),
    ("blade_farmers", C.NUM_BLADES * (MAX_SEATS + 1)),
    ("supply", C.NUM_FRUITS + 1 + len(C.BONUS_VALUES_TOP_FIRST)),
    ("communities", C.NUM_COMMUNITIES * COMMUNITY_BLOCK),
    ("players", MAX_SEATS * PLAYER_BLOCK),
    ("delivery", 3 + 1 + C.NUM_FRUITS + C.NUM_COMMUNITIES + 1 + C.NUM_COMMUNITIES + C.NUM_FRUITS),
    ("move_ctx", C.NUM_BLADES),
    ("unseen_tiles", C.NUM_FRUIT_TILES),
)


def _layout() -> tuple[tuple[str, int, int], ...]:
    out, offset = [], 0
    for name, size in _BLOCKS:
        out.append((name, offset, size))
        offset += size
    return tuple(out)


OBS_LAYOUT = _layout()
OBS_SIZE = OBS_LAYOUT[-1][1] + OBS_LAYOUT[-1][2]
SLICES = {name: slice(offset, offset + size) for name, offset, size in OBS_LAYOUT}

# Field names inside one player block, in order (the documentation table is generated from these).
PLAYER_FIELDS = (
    ("present", 1, 1.0), ("fruits", C.NUM_FRUITS, 18.0), ("carts", 1, 8.0),
    ("unused_action_tiles", 4, 1.0), ("fruit_tiles_by_value", 6, 7.0),
    ("printed_symbols", C.NUM_FRUITS, 21.0), ("wild_symbols", 1, 21.0),
    ("fruit_tile_points", 1, 60.0), ("finca_tiles", 1, 10.0), ("bonus_points", 1, 22.0),
    ("score", 1, 100.0), ("is_acting", 1, 1.0),
)
COMMUNITY_FIELDS = (
    ("has_top", 1, 1.0), ("top_fixed", C.NUM_FRUITS, 6.0), ("top_wild", 1, 6.0),
    ("top_value", 6, 1.0), ("hidden_beneath", 1, 3.0), ("finca_fruits", C.NUM_FRUITS, 1.0),
    ("finca_universal", 1, 1.0), ("resolved", 1, 1.0),
)
assert sum(n for _, n, _ in PLAYER_FIELDS) == PLAYER_BLOCK
assert sum(n for _, n, _ in COMMUNITY_FIELDS) == COMMUNITY_BLOCK

_PLAYER_SCALE = np.concatenate(
    [np.full(n, 1.0 / s, dtype=np.float32) for _, n, s in PLAYER_FIELDS]
)
_OFF_PHASE = SLICES["phase"].start
_OFF_META = SLICES["game_meta"].start
_OFF_BLADE_FRUIT = SLICES["blade_fruit"].start
_OFF_FARMERS = SLICES["blade_farmers"].start
_OFF_SUPPLY = SLICES["supply"].start
_OFF_COMM = SLICES["communities"].start
_OFF_PLAYERS = SLICES["players"].start
_OFF_DELIVERY = SLICES["delivery"].start
_OFF_MOVE = SLICES["move_ctx"].start
_OFF_UNSEEN = SLICES["unseen_tiles"].start


def _tile_features(tile: C.FruitTile) -> list[float]:
    value = [0.0] * 6
    value[tile.value - 1] = 1.0
    return [1.0, *(n / 6.0 for n in tile.fixed), tile.wild / 6.0, *value]


def _finca_features(finca: C.FincaTile) -> list[float]:
    fruits = [1.0 if f in finca.fruits else 0.0 for f in range(C.NUM_FRUITS)]
    return [*fruits, 1.0 if finca.universal else 0.0]


_STANDARD_TILE_FEATURES = np.array([_tile_features(t) for t in C.FRUIT_TILES], dtype=np.float32)
_FINCA_FEATURES = np.array([_finca_features(f) for f in C.FINCA_TILES], dtype=np.float32)


def _board_block(state: FincaState) -> np.ndarray:
    """Communities and unseen tiles: they change only when a delivery resolves, so callers cache
    the result per `state.board_version`."""
    block = np.zeros((C.NUM_COMMUNITIES, COMMUNITY_BLOCK), dtype=np.float32)
    catalogue = state.catalogue
    for c, stack in enumerate(state.stacks):
        row = block[c]
        if stack:
            top = stack[-1]
            if catalogue is C.FRUIT_TILES:
                row[0:14] = _STANDARD_TILE_FEATURES[top]
            else:
                row[0:14] = _tile_features(catalogue[top])
            row[14] = (len(stack) - 1) / 3.0
        finca = state.finca_tile[c]
        if finca >= 0:
            row[15:22] = _FINCA_FEATURES[finca]
        else:
            row[22] = 1.0
    unseen = np.zeros(C.NUM_FRUIT_TILES, dtype=np.float32)
    revealed = state.revealed
    for t in range(C.NUM_FRUIT_TILES):
        if not revealed[t]:
            unseen[t] = 1.0
    return np.concatenate([block.ravel(), unseen])


def write_observation(state: FincaState, player: int, out: np.ndarray) -> None:
    """Fill `out` (float32, OBS_SIZE) with `player`'s view of `state`."""
    from .rules import score

    out[:] = 0.0
    n = state.num_players
    phase = state.phase
    if phase < NUM_DECISION_PHASES:
        out[_OFF_PHASE + phase] = 1.0
    out[_OFF_META + n - 2] = 1.0
    out[_OFF_META + 3] = min(state.steps / STEP_SCALE, 1.0)
    out[_OFF_META + 4] = state.wooden_reserve / 6.0
    out[_OFF_META + 5] = state.intro_left / 12.0

    blades = state.blades
    idx = [_OFF_BLADE_FRUIT + 6 * b + blades[b] for b in range(C.NUM_BLADES)]
    out[idx] = 1.0

    seats = [(player + k) % n for k in range(n)]
    farmers = np.array([state.farmers[q] for q in seats], dtype=np.float32)
    fblock = out[_OFF_FARMERS:_OFF_FARMERS + C.NUM_BLADES * 5].reshape(C.NUM_BLADES, 5)
    fblock[:, :n] = farmers.T * (1.0 / 12.0)
    fblock[:, 4] = np.array(state.blade_total, dtype=np.float32) * (1.0 / 12.0)

    sup = _OFF_SUPPLY
    out[sup:sup + 6] = np.array(state.supply, dtype=np.float32) * (1.0 / 18.0)
    out[sup + 6] = state.centre_carts / 8.0
    for value in state.bonus_stack:
        out[sup + 7 + (7 - value)] = 1.0

    board = getattr(state, "_board_cache", None)
    if board is None or board[0] != state.board_version:
        board = (state.board_version, _board_block(state))
        state._board_cache = board
    out[_OFF_COMM:_OFF_COMM + C.NUM_COMMUNITIES * COMMUNITY_BLOCK] = board[1][:230]
    out[_OFF_UNSEEN:_OFF_UNSEEN + C.NUM_FRUIT_TILES] = board[1][230:]

    current = state.current_player if not state.terminal else -1
    raw = [
        [
            1, *state.fruits[q], state.carts[q], *state.unused[q], *state.value_counts[q],
            *state.printed[q], state.wild_symbols[q], state.tile_points[q],
            len(state.fincas_won[q]), sum(state.bonuses[q]), score(state, q), q == current,
        ]
        for q in seats
    ]
    pblock = np.array(raw, dtype=np.float32) * _PLAYER_SCALE
    np.clip(pblock, 0.0, 1.0, out=pblock)
    out[_OFF_PLAYERS:_OFF_PLAYERS + n * PLAYER_BLOCK] = pblock.ravel()

    if state.mode != DeliveryMode.NONE:
        d = _OFF_DELIVERY
        out[d + state.mode] = 1.0
        out[d + 3] = state.cap_left / 10.0
        for f in range(C.NUM_FRUITS):
            out[d + 4 + f] = state.committed[f] / 10.0
        for c, _, omit in state.selected:
            out[d + 10 + c] = 1.0
            if omit >= 0:
                out[d + 20] = 1.0
        if state.pending >= 0:
            out[d + 21 + state.pending] = 1.0
        if state.pending_wild >= 0:
            out[d + 31 + state.pending_wild] = 1.0
    if phase == Phase.GUST_TARGET:
        out[_OFF_MOVE + state.gust_source] = 1.0
    np.clip(out, 0.0, 1.0, out=out)
