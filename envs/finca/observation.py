"""Finca's observation: one float32 vector of 591 values in [0, 1], from the observer's seat.

Player blocks are rotated so that slot 0 is the observer, slot 1 the next player clockwise, and
so on; slots of absent players are zero. Everything in it is public (Finca has no private
information); face-down tiles are never encoded, only the public set of tiles not yet seen,
counted per kind of printed tile (copies of one tile are interchangeable).
`OBS_LAYOUT` lists the named blocks (name, offset, size); seeds/finca.md documents each value.

Speed: the board part (what only a delivery changes) is cached per `board_version`; the material
part (the vector without the per-decision values) per move and observer. Building it copies the
board part and writes, through a memoryview, each seat's farmers (a scaled row from a small table
by counts), the blade totals, supply and carts, and each seat's cached, scaled player row, which
is rescaled only where a raw value changed (a move mostly changes the fruit counts alone). A call
copies the material part and writes the phase, the step count and the delivery or Gust context.
`reference_material` builds the same part the plain way; the tests compare the two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import components as C
from .actions import NUM_DECISION_PHASES, DeliveryMode, Phase
from .rules import score

if TYPE_CHECKING:
    from .state import FincaState

MAX_SEATS = 4
PLAYER_BLOCK = 30
COMMUNITY_BLOCK = 23
STEP_SCALE = 2000.0

# Order matters for speed: the blocks rebuilt after every move (farmers, supply, players) are
# adjacent, so one conversion fills them.
_BLOCKS = (
    ("phase", NUM_DECISION_PHASES),
    ("game_meta", 6),
    ("bonus_stack", len(C.BONUS_VALUES_TOP_FIRST)),
    ("blade_fruit", C.NUM_BLADES * C.NUM_FRUITS),
    ("communities", C.NUM_COMMUNITIES * COMMUNITY_BLOCK),
    ("unseen_tiles", len(C.FRUIT_TILE_KINDS)),
    ("blade_farmers", C.NUM_BLADES * (MAX_SEATS + 1)),
    ("supply", C.NUM_FRUITS + 1),
    ("players", MAX_SEATS * PLAYER_BLOCK),
    ("delivery", 3 + 1 + C.NUM_FRUITS + C.NUM_COMMUNITIES + 1 + C.NUM_COMMUNITIES + C.NUM_FRUITS),
    ("move_ctx", C.NUM_BLADES),
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
    ("unused_action_tiles", 4, 1.0), ("fruit_tiles_by_value", 6, float(C.MAX_TILES_OF_ONE_VALUE)),
    ("printed_symbols", C.NUM_FRUITS, float(C.MAX_PRINTED_OF_ONE_FRUIT)),
    ("wild_symbols", 1, float(C.TOTAL_WILD_SYMBOLS)),
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
_MATERIAL_SCALE = np.concatenate([
    np.full(C.NUM_BLADES * (MAX_SEATS + 1), 1.0 / 12.0, dtype=np.float32),
    np.array([1.0 / 18.0] * C.NUM_FRUITS + [1.0 / 8.0], dtype=np.float32),
    np.tile(_PLAYER_SCALE, MAX_SEATS),
])
_ZEROS = [0] * (C.NUM_BLADES * MAX_SEATS)
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
_OFF_BONUS = SLICES["bonus_stack"].start
assert _OFF_SUPPLY == _OFF_FARMERS + C.NUM_BLADES * (MAX_SEATS + 1)
assert _OFF_PLAYERS == _OFF_SUPPLY + C.NUM_FRUITS + 1


def _tile_features(tile: C.FruitTile) -> list[float]:
    value = [0.0] * 6
    value[tile.value - 1] = 1.0
    return [1.0, *(n / 6.0 for n in tile.fixed), tile.wild / 6.0, *value]


def _finca_features(finca: C.FincaTile) -> list[float]:
    fruits = [1.0 if f in finca.fruits else 0.0 for f in range(C.NUM_FRUITS)]
    return [*fruits, 1.0 if finca.universal else 0.0]


_TILE_KIND = C.TILE_KIND
_KIND_COPIES = C.KIND_COPIES
_STANDARD_TILE_FEATURES = np.array([_tile_features(t) for t in C.FRUIT_TILES], dtype=np.float32)
_FINCA_FEATURES = np.array([_finca_features(f) for f in C.FINCA_TILES], dtype=np.float32)


def _board_part(state: FincaState) -> np.ndarray:
    """Everything that changes only when a delivery resolves (blade fruits, player count, wooden
    fincas, bonus stack, communities, unseen tiles), as a full-length vector; cached per
    `state.board_version`."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[_OFF_META + state.num_players - 2] = 1.0
    out[_OFF_META + 4] = state.wooden_reserve / 6.0
    for b, f in enumerate(state.blades):
        out[_OFF_BLADE_FRUIT + 6 * b + f] = 1.0
    for value in state.bonus_stack:
        out[_OFF_BONUS + (7 - value)] = 1.0
    block = out[_OFF_COMM:_OFF_COMM + C.NUM_COMMUNITIES * COMMUNITY_BLOCK].reshape(
        C.NUM_COMMUNITIES, COMMUNITY_BLOCK
    )
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
    unseen = [0] * len(C.FRUIT_TILE_KINDS)
    revealed = state.revealed
    for t in range(C.NUM_FRUIT_TILES):
        if not revealed[t]:
            unseen[_TILE_KIND[t]] += 1
    for kind, count in enumerate(unseen):
        if count:
            out[_OFF_UNSEEN + kind] = count / _KIND_COPIES[kind]
    return out


def _material_part(state: FincaState, player: int) -> np.ndarray:
    """The observation without the per-decision parts (phase, step count, delivery, Gust
    source): it changes only when pieces move, so it is cached per `state.material_version`.
    A copy of the board part, then, through a memoryview: each seat's farmers (a row from a
    table by counts), the blade totals, supply and centre carts (scalar writes), each seat's
    player row (cached, scaled, per `seat_versions`) and the is-acting flag."""
    board = state._board_cache
    if board is None or board[0] != state.board_version:
        board = (state.board_version, _board_part(state))
        state._board_cache = board
    out = board[1].copy()
    o = memoryview(out)
    n = state.num_players
    o[_OFF_META + 5] = state.intro_left / 12.0
    farmers = state.farmers
    row_cache = state._row_cache
    versions = state.seat_versions
    current = state.current_player if not state.terminal else -1
    for k in range(n):
        q = (player + k) % n
        at = _FARMER_AT[k]
        o[at:at + C.NUM_BLADES] = _FARMER_ROWS[tuple(farmers[q])]
        cached = row_cache[q]
        if cached is None or cached[0] != versions[q]:
            cached = row_cache[q] = _player_entry(state, q, cached)
        at = _PLAYER_AT[k]
        o[at:at + PLAYER_BLOCK - 1] = cached[2]
        if q == current:
            o[at + PLAYER_BLOCK - 1] = 1.0
    at = _TOTALS_AT
    for v in state.blade_total:
        x = v * _S_FARMERS
        o[at] = x if x < 1.0 else 1.0
        at += 1
    for v in state.supply:
        x = v * _S_SUPPLY
        o[at] = x if x < 1.0 else 1.0
        at += 1
    x = state.centre_carts * _S_CARTS
    o[at] = x if x < 1.0 else 1.0
    return out


def _scaled_row(values: tuple, scale: np.ndarray) -> memoryview:
    """`values` times their float32 factors, clipped at 1, as a memoryview of a new array."""
    row = np.array(values, dtype=np.float32)
    row *= scale
    np.minimum(row, 1.0, out=row)
    return memoryview(row)


def _player_entry(state: FincaState, q: int, old: tuple | None) -> tuple:
    """Seat q's cache entry (version, raw row, scaled row): the raw values of its block without
    the is-acting flag (`_player_row`) and, as a memoryview, the same scaled and clipped. From an
    older entry only the values that differ are rescaled, into a copy (entries are shared with
    clones, so they never change once made); a move mostly changes the fruit counts alone."""
    raw = _player_row(state, q)
    if old is None:
        return (state.seat_versions[q], raw, _scaled_row(raw, _ROW_SCALE))
    seen = old[1]
    if raw == seen:
        return (state.seat_versions[q], seen, old[2])
    view = memoryview(bytearray(old[2])).cast("f")
    for start, stop in _ROW_SEGMENTS:
        if raw[start:stop] != seen[start:stop]:
            for i in range(start, stop):
                v = raw[i]
                if v != seen[i]:
                    x = v * _ROW_SCALES[i]  # one rounding to float32, as numpy's product
                    view[i] = x if x < 1.0 else 1.0
    return (state.seat_versions[q], raw, view)


class _FarmerRows(dict):
    """A seat's farmers on the twelve blades, scaled and clipped, by the tuple of counts (few
    distinct ones occur: a player has a handful of farmers)."""

    def __missing__(self, counts: tuple) -> memoryview:
        if len(self) > 100_000:  # bounded memory
            self.clear()
        view = self[counts] = _scaled_row(counts, _MATERIAL_SCALE[:C.NUM_BLADES])
        return view


_FARMER_ROWS = _FarmerRows()
_ROW_SCALE = _PLAYER_SCALE[:PLAYER_BLOCK - 1]
_ROW_SCALES = tuple(float(x) for x in _ROW_SCALE)
# the raw row in runs compared at once: present and the fruits (what a move changes), the rest
_ROW_SEGMENTS = ((0, 1 + C.NUM_FRUITS), (1 + C.NUM_FRUITS, PLAYER_BLOCK - 1))
_FARMER_AT = tuple(_OFF_FARMERS + k * C.NUM_BLADES for k in range(MAX_SEATS))
_TOTALS_AT = _OFF_FARMERS + MAX_SEATS * C.NUM_BLADES
_PLAYER_AT = tuple(_OFF_PLAYERS + k * PLAYER_BLOCK for k in range(MAX_SEATS))
_S_FARMERS = float(_MATERIAL_SCALE[0])
_S_SUPPLY = float(_MATERIAL_SCALE[_OFF_SUPPLY - _OFF_FARMERS])
_S_CARTS = float(_MATERIAL_SCALE[_OFF_SUPPLY - _OFF_FARMERS + C.NUM_FRUITS])
assert _TOTALS_AT + C.NUM_BLADES == _OFF_SUPPLY


def reference_material(state: FincaState, player: int) -> np.ndarray:
    """The material part (the observation without the per-decision values) built from scratch
    the plain way, with no cache: one list of every value, scaled and clipped at once (for
    the tests, which check `_material_part` against it)."""
    out = _board_part(state)
    n = state.num_players
    out[_OFF_META + 5] = state.intro_left / 12.0
    seats = [(player + k) % n for k in range(n)]
    farmers = state.farmers
    # blade_farmers (slot-major, then totals), supply and players are adjacent: one conversion
    flat: list[int] = []
    for q in seats:
        flat += farmers[q]
    if n < MAX_SEATS:
        flat += _ZEROS[: C.NUM_BLADES * (MAX_SEATS - n)]
    flat += state.blade_total
    flat += state.supply
    flat.append(state.centre_carts)
    current = state.current_player if not state.terminal else -1
    for q in seats:
        flat += _player_row(state, q)
        flat.append(q == current)
    block = out[_OFF_FARMERS:_OFF_FARMERS + len(flat)]
    block[:] = flat
    block *= _MATERIAL_SCALE[: len(flat)]
    np.minimum(block, 1.0, out=block)
    return out


def _player_row(state: FincaState, q: int) -> tuple:
    """Seat q's block without the final is-acting flag, unscaled (see PLAYER_FIELDS)."""
    return (
        1, *state.fruits[q], state.carts[q], *state.unused[q], *state.value_counts[q],
        *state.printed[q], state.wild_symbols[q], state.tile_points[q],
        len(state.fincas_won[q]), sum(state.bonuses[q]), score(state, q),
    )


def write_observation(state: FincaState, player: int, out: np.ndarray) -> None:
    """Fill `out` (float32, OBS_SIZE) with `player`'s view of `state`."""
    observe(state, player, out)


def observe(state: FincaState, player: int, out: np.ndarray | None = None) -> np.ndarray:
    """`player`'s view of `state`: a copy of the cached material part (or written into `out`,
    float32 OBS_SIZE, when given) with the per-decision values; returns it."""
    key = (state.material_version, state.board_version, player)
    cache = state._obs_cache
    if cache is None or cache[0] != key:
        cache = (key, _material_part(state, player))
        state._obs_cache = cache
    if out is None:
        out = cache[1].copy()
    else:
        out[:] = cache[1]
    phase = state.phase
    if phase < NUM_DECISION_PHASES:
        out[_OFF_PHASE + phase] = 1.0
    out[_OFF_META + 3] = min(state.steps / STEP_SCALE, 1.0)
    if state.mode != DeliveryMode.NONE:
        d = _OFF_DELIVERY
        out[d + state.mode] = 1.0
        out[d + 3] = state.cap_left / 10.0
        committed = state.committed
        for f in range(C.NUM_FRUITS):
            if committed[f]:
                out[d + 4 + f] = committed[f] / 10.0
        for c, _, omit in state.selected:
            out[d + 10 + c] = 1.0
            if omit >= 0:
                out[d + 20] = 1.0
        if state.pending >= 0:
            out[d + 21 + state.pending] = 1.0
        if state.pending_wild >= 0:
            out[d + 31 + state.pending_wild] = 1.0
    elif phase == Phase.GUST_TARGET:
        out[_OFF_MOVE + state.gust_source] = 1.0
    return out
