"""Finca's observation written fast: the vector that `observation_spec.SPEC` declares (591 values
in [0, 1], from the observer's seat), equal value for value to `SPEC.reference`.

What the vector holds, and what each value means, is declared in observation_spec.py; this
module is the speed layer only.

Speed: the board part (what only a delivery changes) is cached per `board_version`; the material
part (the vector without the per-decision values) per move and observer. Building it copies the
board part and writes, through a memoryview, each seat's farmers (a scaled row from a small table
by counts), the blade totals, supply and carts, and each seat's cached, scaled player row, which
is rescaled only where a raw value changed (a move mostly changes the fruit counts alone). A call
copies the material part and writes the phase, the step count and the delivery or Gust context.
tests/finca/test_properties.py compares the result with `SPEC.reference` after every move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import components as C
from .actions import NUM_DECISION_PHASES, DeliveryMode, Phase
from .observation_spec import MAX_SEATS, SPEC, STEP_SCALE
from .rules import Changes, score

if TYPE_CHECKING:
    from .state import FincaState

__all__ = ["MAX_SEATS", "OBS_LAYOUT", "OBS_SIZE", "SLICES", "SPEC", "STEP_SCALE", "observe"]

OBS_LAYOUT = SPEC.layout
OBS_SIZE = SPEC.size
SLICES = SPEC.slices
PLAYER_BLOCK = SPEC.block("players").width
COMMUNITY_BLOCK = SPEC.block("communities").width
# (name, size, scale) of the fields of one seat slot and one community (the tables' order)
PLAYER_FIELDS = tuple((f.name, f.size, f.scale) for f in SPEC.block("players").fields)
COMMUNITY_FIELDS = tuple((f.name, f.size, f.scale) for f in SPEC.block("communities").fields)

# The writes below use the declared layout: every index is SPEC.offset(block, field, copy), and
# every factor is the declared field's float32 1/scale, so the fast vector equals
# SPEC.reference value for value (tests/finca/test_properties.py checks it). The blocks rebuilt
# after every move (blade_farmers, supply, players) are adjacent, so one conversion fills them.
_PLAYER_SCALE = SPEC.factors("players")
_MATERIAL_SCALE = np.concatenate([
    SPEC.factors("blade_farmers"), SPEC.factors("supply"), np.tile(_PLAYER_SCALE, MAX_SEATS),
])
_ZEROS = [0] * (C.NUM_BLADES * MAX_SEATS)
_OFF_PHASE = SPEC.offset("phase")
_OFF_PLAYER_COUNT = SPEC.offset("game_meta", "players")
_OFF_STEPS = SPEC.offset("game_meta", "steps")
_OFF_RESERVE = SPEC.offset("game_meta", "wooden_reserve")
_OFF_INTRO_LEFT = SPEC.offset("game_meta", "intro_left")
_OFF_BLADE_FRUIT = SPEC.offset("blade_fruit")
_BLADE_WIDTH = SPEC.block("blade_fruit").width
_OFF_FARMERS = SPEC.offset("blade_farmers")
_OFF_SUPPLY = SPEC.offset("supply")
_OFF_COMM = SPEC.offset("communities")
_OFF_PLAYERS = SPEC.offset("players")
_OFF_UNSEEN = SPEC.offset("unseen_tiles")
_OFF_BONUS = SPEC.offset("bonus_stack")
_OFF_MOVE = SPEC.offset("move_ctx")
_DELIVERY = {name: SPEC.offset("delivery", name) for name in
             ("mode", "cap_left", "committed", "selected", "reduced", "pending", "pending_wild")}
_COMM = SPEC.block("communities")
_TOP = slice(0, _COMM.field_offset("hidden_beneath"))  # has_top ... top_value: the face-up tile
_HIDDEN = _COMM.field_offset("hidden_beneath")
_FINCA = slice(_COMM.field_offset("finca_fruits"), _COMM.field_offset("resolved"))
_RESOLVED = _COMM.field_offset("resolved")


_factor = SPEC.scalar_factor  # a single-scaled field's factor, for scalar writes


_S_STEPS = _factor("game_meta", "steps")
_S_RESERVE = _factor("game_meta", "wooden_reserve")
_S_INTRO = _factor("game_meta", "intro_left")
_S_HIDDEN = _factor("communities", "hidden_beneath")
_S_CAP = _factor("delivery", "cap_left")
_S_COMMITTED = _factor("delivery", "committed")
_UNSEEN_FACTORS = tuple(float(x) for x in SPEC.block("unseen_tiles").fields[0].factor)
_SYMBOL_FACTOR = np.float32(_factor("communities", "top_fixed"))  # top_fixed and top_wild
assert _OFF_SUPPLY == _OFF_FARMERS + C.NUM_BLADES * (MAX_SEATS + 1)
assert _OFF_PLAYERS == _OFF_SUPPLY + C.NUM_FRUITS + 1


def _tile_features(tile: C.FruitTile) -> np.ndarray:
    """has_top, top_fixed, top_wild and top_value of a community whose face-up tile is `tile`."""
    value = [0.0] * 6
    value[tile.value - 1] = 1.0
    symbols = np.array([*tile.fixed, tile.wild], dtype=np.float32) * _SYMBOL_FACTOR
    return np.array([1.0, *symbols, *value], dtype=np.float32)


def _finca_features(finca: C.FincaTile) -> list[float]:
    fruits = [1.0 if f in finca.fruits else 0.0 for f in range(C.NUM_FRUITS)]
    return [*fruits, 1.0 if finca.universal else 0.0]


_TILE_KIND = C.TILE_KIND
_STANDARD_TILE_FEATURES = np.array([_tile_features(t) for t in C.FRUIT_TILES], dtype=np.float32)
_FINCA_FEATURES = np.array([_finca_features(f) for f in C.FINCA_TILES], dtype=np.float32)


def _board_part(state: FincaState) -> np.ndarray:
    """Everything that changes only when a delivery resolves (blade fruits, player count, wooden
    fincas, bonus stack, communities, unseen tiles), as a full-length vector; cached per
    `state.board_version`."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[_OFF_PLAYER_COUNT + state.num_players - 2] = 1.0
    out[_OFF_RESERVE] = state.wooden_reserve * _S_RESERVE
    for b, f in enumerate(state.blades):
        out[_OFF_BLADE_FRUIT + _BLADE_WIDTH * b + f] = 1.0
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
                row[_TOP] = _STANDARD_TILE_FEATURES[top]
            else:
                row[_TOP] = _tile_features(catalogue[top])
            row[_HIDDEN] = (len(stack) - 1) * _S_HIDDEN
        finca = state.finca_tile[c]
        if finca >= 0:
            row[_FINCA] = _FINCA_FEATURES[finca]
        else:
            row[_RESOLVED] = 1.0
    unseen = [0] * len(C.FRUIT_TILE_KINDS)
    revealed = state.revealed
    for t in range(C.NUM_FRUIT_TILES):
        if not revealed[t]:
            unseen[_TILE_KIND[t]] += 1
    for kind, count in enumerate(unseen):
        if count:
            out[_OFF_UNSEEN + kind] = count * _UNSEEN_FACTORS[kind]
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
    o[_OFF_INTRO_LEFT] = state.intro_left * _S_INTRO
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


def _player_row(state: FincaState, q: int) -> tuple:
    """Seat q's block without the final is-acting flag, unscaled (see PLAYER_FIELDS)."""
    return (
        1, *state.fruits[q], state.carts[q], *state.unused[q], *state.value_counts[q],
        *state.printed[q], state.wild_symbols[q], state.tile_points[q],
        len(state.fincas_won[q]), sum(state.bonuses[q]), score(state, q),
    )


def note_changes(state: FincaState, changes: Changes) -> None:
    """Turn an action's report (rules.Changes) into this module's cache keys: the material
    part is rebuilt when anything on the table changed, a seat's row when its holdings did, and
    the board part when tiles left the communities."""
    if changes.table:
        state.material_version += 1
        versions = state.seat_versions
        for q in changes.holdings:
            versions[q] += 1
        if changes.communities:
            state.board_version += 1


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
    out[_OFF_STEPS] = min(state.steps * _S_STEPS, 1.0)
    if state.mode != DeliveryMode.NONE:
        d = _DELIVERY
        out[d["mode"] + state.mode] = 1.0
        out[d["cap_left"]] = state.cap_left * _S_CAP
        committed = state.committed
        at = d["committed"]
        for f in range(C.NUM_FRUITS):
            if committed[f]:
                out[at + f] = committed[f] * _S_COMMITTED
        for c, _, omit in state.selected:
            out[d["selected"] + c] = 1.0
            if omit >= 0:
                out[d["reduced"]] = 1.0
        if state.pending >= 0:
            out[d["pending"] + state.pending] = 1.0
        if state.pending_wild >= 0:
            out[d["pending_wild"] + state.pending_wild] = 1.0
    elif phase == Phase.GUST_TARGET:
        out[_OFF_MOVE + state.gust_source] = 1.0
    return out
