"""Alpujarras's observation: one float32 vector of 1941 values in [0, 1], from the observer's seat.

Seat data is rotated so that slot 0 is the observer and slot 1 the next seat; absent seats are
zero. Everything on the table is public (G-28): positions, farmers, fields, channels, tokens,
awards, goals, every player's holdings and, in the solo game, Zara's state and the zakat cards.
The crop bag appears only as its composition (never its draw order) and future die rolls never
appear. `OBS_LAYOUT` lists the named blocks (name, offset, size); the `*_FIELDS` tables name the
values inside each repeated block; seeds/alpujarras.md documents both (generated from here).

Speed: the static blocks (track, channel and farmland facts) are built once per layout; the
blocks that change only when pieces change are cached per `state.material_version` and observer;
only the phase, the step counter and the turn context are written on every call.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from . import components as C
from . import effects, turns
from .actions import NUM_DECISION_PHASES, Chain, Phase
from .goals import GOAL_CHECKS, ZAKAT_FRUIT, can_pay_zakat, goal_met, zakat_side
from .groups import G_CHAN, G_FARM, G_POS, G_SEAT, G_TOWN, G_ZARA

if TYPE_CHECKING:
    from .state import AlpujarrasState

MAX_SEATS = C.MAX_SEATS
S = C.MAX_SPACES
STEP_SCALE = 3000.0
DIRHEM_SCALE = 60.0

Fields = tuple[tuple[str, int, float], ...]

META_FIELDS: Fields = (
    ("player_count", 4, 1.0), ("solo", 1, 1.0), ("four_player_side", 1, 1.0),
    ("steps", 1, STEP_SCALE), ("progress", 1, float(S)),
)
TURN_FIELDS: Fields = (
    ("place_left", 1, 2.0), ("place_farmland", C.NUM_FARMLANDS, 1.0), ("place_two", 1, 1.0),
    ("move_left", 1, 1.0), ("irrigate_left", 1, 1.0), ("norias_left", 1, 2.0),
    ("fruit_left", 1, 2.0), ("market_open", 1, 1.0), ("harvest_open", 1, 1.0),
    ("card_open", 1, 1.0), ("p2_first_farmland", C.NUM_FARMLANDS, 1.0),
    ("p2_first_fruit", C.NUM_FRUITS, 1.0), ("p2_second", 1, 1.0),
    ("chain", len(Chain) - 1, 1.0), ("noria_spend", 5, 1.0),
    ("farmland_chosen", C.NUM_FARMLANDS, 1.0), ("move_source", C.NUM_FARMLANDS, 1.0),
    ("forced_farmland", C.NUM_FARMLANDS, 1.0), ("swap_returned", C.NUM_FRUITS, 1.0),
    ("card_pending", C.NUM_GOAL_CARDS, 1.0),
)
SPACE_FIELDS: Fields = (
    ("exists", 1, 1.0), ("standard", 1, 1.0), ("market", 1, 1.0), ("harvest", 1, 1.0),
    ("end", 1, 1.0), ("place", 1, 2.0), ("place_farmland", C.NUM_FARMLANDS, 1.0),
    ("place_two", 1, 1.0), ("move", 1, 1.0), ("irrigate", 1, 1.0), ("norias", 1, 2.0),
    ("fruit", 1, 2.0), ("dirhems", 1, 2.0), ("end_ratio", 1, 6.0),
)
CHANNEL_FACT_FIELDS: Fields = (
    ("t_shape", 1, 1.0), ("farmlands", C.NUM_FARMLANDS, 1.0),
    ("field_farmland", C.NUM_FARMLANDS, 1.0), ("dirhem", 1, 1.0),
)
FARMLAND_FACT_FIELDS: Fields = (
    ("primary", C.NUM_FRUITS, 1.0), ("printed_fields", C.NUM_FRUITS, 3.0),
)
OCCUPANCY_FIELDS: Fields = (("seat_slots", MAX_SEATS, 1.0), ("die", 1, 1.0))
PIECE_FIELDS: Fields = (
    ("present", 1, 1.0), ("position", 1, float(S)), ("spot", 1, 4.0), ("on_end", 1, 1.0),
    ("is_acting", 1, 1.0),
)
DIE_FIELDS: Fields = (
    ("present", 1, 1.0), ("position", 1, float(S)), ("spot", 1, 4.0), ("on_end", 1, 1.0),
)
FARMLAND_FIELDS: Fields = (
    ("farmers", MAX_SEATS, 15.0), ("zara_farmers", 1, 15.0), ("crops", C.NUM_FRUITS, 2.0),
    ("empty_fields", 1, 2.0), ("observer_would_harvest", 1, 1.0), ("zara_mule", 1, 1.0),
)
TOKEN_GRID = C.NUM_FRUITS * len(C.TOKEN_VALUE_RANGE)  # fruit x value 2..5
TOWN_FIELDS: Fields = (
    ("farmers", MAX_SEATS, 5.0), ("tokens", TOKEN_GRID, 2.0), ("award", 3, 1.0),
    ("award_values", 2, 5.0),
)
CHANNEL_FIELDS: Fields = (("filled", 1, 1.0), ("open", 1, 1.0))
GOAL_FIELDS: Fields = (
    ("goal", C.NUM_GOALS, 1.0), ("reward", 1, 5.0), ("done_by", MAX_SEATS, 1.0),
    ("observer_meets_it", 1, 1.0),
)
PLAYER_FIELDS: Fields = (
    ("present", 1, 1.0), ("fruit", C.NUM_FRUITS, 5.0), ("norias", 1, 5.0),
    ("dirhems", 1, DIRHEM_SCALE), ("supply", 1, 15.0), ("farmland_farmers", 1, 15.0),
    ("town_farmers", 1, 5.0), ("card_farmers", 1, 5.0), ("tokens", TOKEN_GRID, 2.0),
    ("market_actions", 1, 5.0), ("goals_completed", 1, 5.0), ("score", 1, DIRHEM_SCALE),
)
ZARA_FIELDS: Fields = (
    ("zara_supply", 1, 15.0), ("zara_dirhems", 1, DIRHEM_SCALE),
    ("zara_score", 1, DIRHEM_SCALE), ("zara_tokens", TOKEN_GRID, 2.0),
)
ZAKAT_FIELDS: Fields = (
    ("star_side", 1, 1.0), ("paid", 1, 1.0), ("fruits", C.NUM_FRUITS, 1.0), ("norias", 1, 2.0),
    ("dirhems", 1, 2.0), ("farmer", 1, 1.0), ("payable_now", 1, 1.0),
)
SOLO_FIELDS: Fields = (("double_turns", 1, 5.0), ("delivered_kinds", C.NUM_FRUITS, 1.0))


def _width(fields: Fields) -> int:
    return sum(n for _, n, _ in fields)


# (block name, repeats, fields): the layout in order. Per-call blocks first, then the static
# blocks, then the material blocks (adjacent, so one conversion fills them).
BLOCKS: tuple[tuple[str, int, Fields], ...] = (
    ("phase", 1, (("phase", NUM_DECISION_PHASES, 1.0),)),
    ("game_meta", 1, META_FIELDS),
    ("turn", 1, TURN_FIELDS),
    ("track", S, SPACE_FIELDS),
    ("channel_facts", C.NUM_CHANNELS, CHANNEL_FACT_FIELDS),
    ("farmland_facts", C.NUM_FARMLANDS, FARMLAND_FACT_FIELDS),
    ("occupancy", S, OCCUPANCY_FIELDS),
    ("pieces", MAX_SEATS, PIECE_FIELDS),
    ("die", 1, DIE_FIELDS),
    ("farmlands", C.NUM_FARMLANDS, FARMLAND_FIELDS),
    ("towns", C.NUM_TOWNS, TOWN_FIELDS),
    ("channels", C.NUM_CHANNELS, CHANNEL_FIELDS),
    ("crop_bag", 1, (("crops_left", C.NUM_FRUITS, float(C.CROPS_PER_KIND)),)),
    ("goals", C.NUM_GOAL_CARDS, GOAL_FIELDS),
    ("players", MAX_SEATS, PLAYER_FIELDS),
    ("zara", 1, ZARA_FIELDS),
    ("zakats", C.NUM_ZAKAT_CARDS, ZAKAT_FIELDS),
    ("solo", 1, SOLO_FIELDS),
)
BLOCK_FIELDS = {name: fields for name, _, fields in BLOCKS}
BLOCK_REPEATS = {name: repeats for name, repeats, _ in BLOCKS}


def _layout() -> tuple[tuple[str, int, int], ...]:
    out, offset = [], 0
    for name, repeats, fields in BLOCKS:
        size = repeats * _width(fields)
        out.append((name, offset, size))
        offset += size
    return tuple(out)


OBS_LAYOUT = _layout()
OBS_SIZE = OBS_LAYOUT[-1][1] + OBS_LAYOUT[-1][2]
SLICES = {name: slice(offset, offset + size) for name, offset, size in OBS_LAYOUT}

_OFF_PHASE = SLICES["phase"].start
_OFF_META = SLICES["game_meta"].start
_OFF_TURN = SLICES["turn"].start
_MATERIAL_START = SLICES["occupancy"].start
_STATIC_START = SLICES["track"].start


def _scale(names: tuple[str, ...]) -> np.ndarray:
    parts = []
    for name in names:
        for _ in range(BLOCK_REPEATS[name]):
            for _, n, s in BLOCK_FIELDS[name]:
                parts.append(np.full(n, 1.0 / s, dtype=np.float32))
    return np.concatenate(parts)


_MATERIAL_BLOCKS = tuple(name for name, _, _ in BLOCKS if SLICES[name].start >= _MATERIAL_START)
_MATERIAL_SCALE = _scale(_MATERIAL_BLOCKS)
TURN_SCALE = _scale(("turn",))
assert _MATERIAL_START + len(_MATERIAL_SCALE) == OBS_SIZE


def _one_hot(index: int, size: int) -> list[int]:
    out = [0] * size
    if index >= 0:
        out[index] = 1
    return out


def _token_grid(tokens: list[int]) -> list[int]:
    grid = [0] * TOKEN_GRID
    for t in tokens:
        grid[(t // 10) * 4 + t % 10 - 2] += 1
    return grid


# --- static blocks ----------------------------------------------------------------------------

_SPACE_WIDTH = _width(SPACE_FIELDS)
_SPACE_SCALE = _scale(("track",))[:_SPACE_WIDTH]


def _space_row(space: C.Space) -> list[float]:
    icons = space.icons
    kind = space.kind
    return [
        1, kind == C.STANDARD, kind == C.MARKET, kind == C.HARVEST, kind == C.END,
        icons.place, *_one_hot(icons.place_farmland, C.NUM_FARMLANDS), icons.p2, icons.move,
        icons.irrigate, icons.norias, icons.fruit, icons.dirhems, space.ratio,
    ]


@lru_cache(maxsize=64)
def _segment_rows(segment: int, four_players: bool) -> np.ndarray:
    """The scaled track rows of one segment on one side (flat), for composing track blocks."""
    track = C.build_track((segment,), four_players)
    values: list[float] = []
    for space in track:
        values += _space_row(space)
    rows = np.asarray(values, dtype=np.float32).reshape(len(track), _SPACE_WIDTH)
    return np.minimum(rows * _SPACE_SCALE, 1.0).reshape(-1)


def _facts() -> np.ndarray:
    values: list[float] = []
    for ch in C.CHANNELS:
        field = _one_hot(ch.field[0] if ch.field else -1, C.NUM_FARMLANDS)
        adjacent = [1 if f in ch.farmlands else 0 for f in range(C.NUM_FARMLANDS)]
        values += [ch.shape == "T", *adjacent, *field, ch.dirhem]
    for f in range(C.NUM_FARMLANDS):
        printed = [C.PRINTED_FIELDS[f].count(t) for t in range(C.NUM_FRUITS)]
        values += [*_one_hot(C.PRIMARY[f], C.NUM_FRUITS), *printed]
    scaled = np.asarray(values, dtype=np.float32) * _scale(("channel_facts", "farmland_facts"))
    return np.minimum(scaled, 1.0)


_FACTS = _facts()


@lru_cache(maxsize=1024)
def static_part(
    layout: tuple[int, ...], num_players: int, goal_sides: tuple[int, ...]
) -> np.ndarray:
    """The full-length vector holding only what is fixed for a game: the track, channel and
    farmland facts, the player-count fields and the goals shown (read-only, shared)."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    goal_width = _width(GOAL_FIELDS)
    for i, side in enumerate(goal_sides):
        if side >= 0:
            goal = C.card_goal(i, side)
            base = SLICES["goals"].start + i * goal_width
            out[base + goal] = 1.0
            out[base + C.NUM_GOALS] = C.GOAL_REWARDS[goal] / 5.0
    four = C.four_player_side(num_players)
    offset = _STATIC_START
    for seg in layout:
        rows = _segment_rows(seg, four)
        out[offset:offset + len(rows)] = rows
        offset += len(rows)
    start = SLICES["channel_facts"].start
    out[start:start + len(_FACTS)] = _FACTS
    for k in range(num_players):
        out[SLICES["pieces"].start + k * _width(PIECE_FIELDS)] = 1.0
    if num_players <= 2:
        out[SLICES["die"].start] = 1.0
    out[_OFF_META + num_players - 1] = 1.0
    out[_OFF_META + 4] = float(num_players == 1)
    out[_OFF_META + 5] = float(four)
    out.flags.writeable = False
    return out


# --- material blocks, one group at a time -----------------------------------------------------
#
# `state.gv` holds one version per group of state (rules.apply bumps the groups an action can
# change); each observer's cached vector remembers the versions it was built from and rewrites
# only the groups that moved on. Goals depend on every seat's holdings and the farmlands, the
# solo blocks on the player's holdings, the farmlands and Zara; versions only grow, so the sum
# of the versions a derived group depends on changes exactly when one of them does.


_FARM = SLICES["farmlands"]
_TOWN = SLICES["towns"]
_CHAN = slice(SLICES["channels"].start, SLICES["crop_bag"].stop)
_GOALS = SLICES["goals"]
_SOLO = slice(SLICES["zara"].start, SLICES["solo"].stop)
_PLAYER_WIDTH = _width(PLAYER_FIELDS)
_PLAYERS0 = SLICES["players"].start


def _scale_of(part: slice) -> np.ndarray:
    return _MATERIAL_SCALE[part.start - _MATERIAL_START:part.stop - _MATERIAL_START].copy()


_FARM_SCALE = _scale_of(_FARM)
_TOWN_SCALE = _scale_of(_TOWN)
_CHAN_SCALE = _scale_of(_CHAN)
_SOLO_SCALE = _scale_of(_SOLO)
_PLAYER_SCALE = _scale_of(slice(_PLAYERS0, _PLAYERS0 + _PLAYER_WIDTH))
_ZERO_GOAL = [0] * _width(GOAL_FIELDS)
_ZERO_SOLO = [0] * (_SOLO.stop - _SOLO.start)


def _put(arr: np.ndarray, part: slice, values: list, scale: np.ndarray, clip: bool = False) -> None:
    """Write scaled values into arr[part]; `clip` for groups whose counts can exceed the divisor
    (dirhems and scores); every other divisor is the count's maximum."""
    block = arr[part]
    block[:] = values
    block *= scale
    if clip:
        np.minimum(block, 1.0, out=block)


def _seats(state: AlpujarrasState, player: int) -> list[int]:
    n = state.num_players
    return [(player + k) % n for k in range(n)]


_OCC0 = SLICES["occupancy"].start


_PIECE_WIDTH = _width(PIECE_FIELDS)
_PIECES0 = SLICES["pieces"].start
_DIE0 = SLICES["die"].start
_INV_S = np.float32(1.0 / S)  # exactly the divisor np.full(…, 1.0 / S) stores
_INV_4 = np.float32(0.25)


def _write_pos(state: AlpujarrasState, player: int, arr: np.ndarray, last: list) -> None:
    """The position group, by difference: only the pieces whose (space, spot, acting) changed
    since `last` get their occupancy and piece entries rewritten (usually one or two)."""
    n = state.num_players
    pos = state.pos
    spot = state.spot
    track = state.track
    acting = state.current_player if not state.terminal else -1
    for i in range(len(pos)):
        s = pos[i]
        now = (s, spot[i], i == acting)
        before = last[i]
        if before == now:
            continue
        if i < n:
            k = (i - player) % n
            base = _PIECES0 + k * _PIECE_WIDTH
            arr[base + 4] = 1.0 if i == acting else 0.0
        else:
            k = 4
            base = _DIE0
        if before is not None and before[0] >= 0:
            arr[_OCC0 + before[0] * 5 + k] = 0.0
        if s >= 0:
            arr[_OCC0 + s * 5 + k] = 1.0
        arr[base + 1] = _INV_S * (s + 1)  # float32 arithmetic, as the reference's scaling
        arr[base + 2] = _INV_4 * spot[i]
        arr[base + 3] = 1.0 if s >= 0 and track[s].kind == C.END else 0.0
        last[i] = now


def pos_values(state: AlpujarrasState, player: int) -> list[float]:
    """occupancy, pieces and die."""
    n = state.num_players
    seats = _seats(state, player)
    values = [0] * (S * 5)
    pos = state.pos
    for k, q in enumerate(seats):
        if pos[q] >= 0:
            values[pos[q] * 5 + k] = 1
    if state.has_die and pos[n] >= 0:
        values[pos[n] * 5 + 4] = 1
    acting = state.current_player if not state.terminal else -1
    for k in range(MAX_SEATS):
        if k < n:
            q = seats[k]
            values += [1, pos[q] + 1, state.spot[q], turns.on_end(state, q), q == acting]
        else:
            values += [0, 0, 0, 0, 0]
    if state.has_die:
        values += [1, pos[n] + 1, state.spot[n], turns.on_end(state, n)]
    else:
        values += [0, 0, 0, 0]
    return values


def farm_values(state: AlpujarrasState, player: int) -> list[float]:
    """farmlands."""
    n = state.num_players
    seats = _seats(state, player)
    pad = [0] * (MAX_SEATS - n)
    qualifies = effects.harvest_farmlands(state, player) if not state.terminal else [0] * 5
    values: list[float] = []
    for f in range(C.NUM_FARMLANDS):
        crops = [0] * C.NUM_FRUITS
        empty = 0
        for k in state.fields[f]:
            if k >= 0:
                crops[k] += 1
            else:
                empty += 1
        mule = state.solo and state.zara_farmland == f
        values += [state.farmers[q][f] for q in seats]
        values += pad
        values += [state.zara_farmers[f], *crops, empty, qualifies[f], mule]
    return values


def town_values(state: AlpujarrasState, player: int) -> list[float]:
    """towns."""
    n = state.num_players
    seats = _seats(state, player)
    pad = [0] * (MAX_SEATS - n)
    values: list[float] = []
    for w in range(C.NUM_TOWNS):
        award = state.awards[w]
        green, red = C.AWARDS[state.award_ids[w]]
        values += [state.town_farmers[q][w] for q in seats]
        values += pad
        values += _token_grid(state.towns[w])
        values += _one_hot(award, 3)
        values += [green if award == C.AWARD_GREEN else 0, red if award != C.AWARD_GONE else 0]
    return values


def chan_values(state: AlpujarrasState) -> list[float]:
    """channels and the crop bag's composition."""
    values: list[float] = []
    for c in range(C.NUM_CHANNELS):
        values += [state.channels[c], effects.channel_open(state, c)]
    bag = [0] * C.NUM_FRUITS
    for k in state.bag:
        bag[k] += 1
    return values + bag


def goal_values(state: AlpujarrasState, player: int) -> list[float]:
    """goals (zero in the solo game)."""
    n = state.num_players
    seats = _seats(state, player)
    pad = [0] * (MAX_SEATS - n)
    values: list[float] = []
    for i in range(C.NUM_GOAL_CARDS):
        side = state.goal_sides[i]
        if side < 0:
            values += _ZERO_GOAL
            continue
        goal = C.card_goal(i, side)
        values += _one_hot(goal, C.NUM_GOALS)
        values.append(C.GOAL_REWARDS[goal])
        values += [state.goals_done[q][i] for q in seats]
        values += pad
        values.append(goal_met(state, player, goal))
    return values


_GOAL_WIDTH = _width(GOAL_FIELDS)
_GOAL_DYNAMIC = np.array([
    _GOALS.start + i * _GOAL_WIDTH + C.NUM_GOALS + 1 + k
    for i in range(C.NUM_GOAL_CARDS) for k in range(MAX_SEATS + 1)
])


def goal_dynamic_values(state: AlpujarrasState, player: int) -> list[int]:
    """The goal fields that change in play (done_by, observer_meets_it), card by card; the goal
    shown and its reward are static (`static_part`)."""
    n = state.num_players
    seats = _seats(state, player)
    pad = [0] * (MAX_SEATS - n)
    values: list[int] = []
    for i in range(C.NUM_GOAL_CARDS):
        values += [state.goals_done[q][i] for q in seats]
        values += pad
        values.append(GOAL_CHECKS[2 * i + state.goal_sides[i]](state, player))
    return values


def player_row(state: AlpujarrasState, q: int) -> list[float]:
    """One seat's `players` row (unscaled)."""
    return [
        1, *state.fruit[q], state.norias[q], state.dirhems[q], state.supply[q],
        sum(state.farmers[q]), sum(state.town_farmers[q]), state.card_farmers[q],
        *_token_grid(state.tokens[q]), state.markets_used[q], sum(state.goals_done[q]),
        effects.score(state, q),
    ]


def solo_values(state: AlpujarrasState) -> list[float]:
    """zara, zakats and solo (zero in the multiplayer game)."""
    if not state.solo:
        return _ZERO_SOLO
    values = [state.zara_supply, state.zara_dirhems, effects.zara_score(state),
              *_token_grid(state.zara_tokens)]
    for i in range(C.NUM_ZAKAT_CARDS):
        side = zakat_side(state, i)
        wanted = ZAKAT_FRUIT[i, 1 if state.zakat_star[i] else 0]
        payable = not state.zakat_paid[i] and can_pay_zakat(state, i)
        values += [state.zakat_star[i], state.zakat_paid[i], *wanted, side.norias,
                   side.dirhems, side.farmer, payable]
    kinds = {t // 10 for t in state.tokens[0]}
    values += [state.double_turns, *(t in kinds for t in range(C.NUM_FRUITS))]
    return values


def material_values(state: AlpujarrasState, player: int) -> list[float]:
    """The unscaled values of every material block, in layout order, from `player`'s seat
    (the reference the cached vectors are checked against)."""
    values = pos_values(state, player) + farm_values(state, player)
    values += town_values(state, player) + chan_values(state) + goal_values(state, player)
    n = state.num_players
    for k in range(MAX_SEATS):
        values += player_row(state, (player + k) % n) if k < n else [0] * _PLAYER_WIDTH
    return values + solo_values(state)


def _refresh(
    state: AlpujarrasState, player: int, arr: np.ndarray, seen: list[int], last: list
) -> None:
    """Rewrite the groups of `arr` whose versions moved on since `seen`."""
    gv = state.gv
    if seen[0] != gv[G_POS]:
        _write_pos(state, player, arr, last)
        seen[0] = gv[G_POS]
    if seen[1] != gv[G_FARM]:
        _put(arr, _FARM, farm_values(state, player), _FARM_SCALE)
        seen[1] = gv[G_FARM]
    if seen[2] != gv[G_TOWN]:
        _put(arr, _TOWN, town_values(state, player), _TOWN_SCALE)
        seen[2] = gv[G_TOWN]
    if seen[3] != gv[G_CHAN]:
        _put(arr, _CHAN, chan_values(state), _CHAN_SCALE)
        seen[3] = gv[G_CHAN]
    n = state.num_players
    for k in range(n):
        q = player + k
        if q >= n:
            q -= n
        version = gv[G_SEAT + q]
        if seen[5 + q] != version:
            start = _PLAYERS0 + k * _PLAYER_WIDTH
            _put(arr, slice(start, start + _PLAYER_WIDTH), player_row(state, q), _PLAYER_SCALE,
                 clip=True)
            seen[5 + q] = version
    if not state.solo:
        # what the observer meets moves with their holdings and the farmlands; who completed
        # what only grows with the farmers on the cards
        key = (gv[G_SEAT + player] + gv[G_FARM]) * 64 + sum(state.card_farmers)
        if seen[4] != key:
            arr[_GOAL_DYNAMIC] = goal_dynamic_values(state, player)
            seen[4] = key
    if state.solo:
        key = gv[G_ZARA] + gv[G_SEAT] + gv[G_FARM]
        if seen[9] != key:
            _put(arr, _SOLO, solo_values(state), _SOLO_SCALE, clip=True)
            seen[9] = key


def _static_of(state: AlpujarrasState) -> np.ndarray:
    return static_part(tuple(state.layout), state.num_players, tuple(state.goal_sides))


def material_part(state: AlpujarrasState, player: int) -> np.ndarray:
    """Static blocks plus the material blocks from `player`'s seat, computed from scratch."""
    out = _static_of(state).copy()
    block = out[_MATERIAL_START:]
    block[:] = material_values(state, player)
    block *= _MATERIAL_SCALE
    np.minimum(block, 1.0, out=block)
    return out


def turn_values(state: AlpujarrasState) -> list[float]:
    """The unscaled turn-context block: what is left to resolve on the visit and the sub-decision
    chain in progress (the reference `_write_turn` is tested against)."""
    chain = state.chain
    return [
        state.pend_place, *_one_hot(state.place_target if state.pend_place else -1, 5),
        state.place_p2 and state.pend_place > 0, state.pend_move, state.pend_irrigate,
        state.pend_norias, state.pend_fruit, state.market_left, state.harvest_left,
        state.card_left, *_one_hot(state.p2_first_farmland, 5),
        *_one_hot(state.p2_first_fruit, 5), state.p2_second,
        *_one_hot(chain - 1, len(Chain) - 1), *_one_hot(state.spend_k - 1, 5),
        *_one_hot(state.sel_farmland, 5), *_one_hot(state.move_src, 5),
        *_one_hot(state.forced_dst if chain else -1, 5), *_one_hot(state.swap_return, 5),
        *_one_hot(state.pending_card, 5),
    ]


def _field_offsets(fields: Fields) -> dict[str, int]:
    out, offset = {}, 0
    for name, size, _ in fields:
        out[name] = offset
        offset += size
    return out


_T = {name: _OFF_TURN + off for name, off in _field_offsets(TURN_FIELDS).items()}


def _write_turn(state: AlpujarrasState, out: np.ndarray) -> None:
    """The turn block, written value by value (it is mostly zero)."""
    if state.pend_place:
        out[_T["place_left"]] = state.pend_place / 2.0
        if state.place_target >= 0:
            out[_T["place_farmland"] + state.place_target] = 1.0
        if state.place_p2:
            out[_T["place_two"]] = 1.0
    if state.pend_move:
        out[_T["move_left"]] = 1.0
    if state.pend_irrigate:
        out[_T["irrigate_left"]] = 1.0
    if state.pend_norias:
        out[_T["norias_left"]] = min(state.pend_norias / 2.0, 1.0)
    if state.pend_fruit:
        out[_T["fruit_left"]] = min(state.pend_fruit / 2.0, 1.0)
    if state.market_left:
        out[_T["market_open"]] = 1.0
    if state.harvest_left:
        out[_T["harvest_open"]] = 1.0
    if state.card_left:
        out[_T["card_open"]] = 1.0
    if state.p2_first_farmland >= 0:
        out[_T["p2_first_farmland"] + state.p2_first_farmland] = 1.0
    if state.p2_first_fruit >= 0:
        out[_T["p2_first_fruit"] + state.p2_first_fruit] = 1.0
    chain = state.chain
    if not chain:
        return
    if state.p2_second:
        out[_T["p2_second"]] = 1.0
    out[_T["chain"] + chain - 1] = 1.0
    for name, value in (("noria_spend", state.spend_k - 1), ("farmland_chosen", state.sel_farmland),
                        ("move_source", state.move_src), ("forced_farmland", state.forced_dst),
                        ("swap_returned", state.swap_return), ("card_pending", state.pending_card)):
        if value >= 0:
            out[_T[name] + value] = 1.0


def write_observation(state: AlpujarrasState, player: int, out: np.ndarray) -> None:
    """Fill `out` (float32, OBS_SIZE) with `player`'s view of `state`."""
    caches = state._obs_cache
    if caches is None:
        caches = state._obs_cache = {}
    entry = caches.get(player)
    if entry is None:
        arr = _static_of(state).copy()
        entry = caches[player] = (arr, [-1] * (G_SEAT + MAX_SEATS + 1), [None] * len(state.pos))
    arr, seen, last = entry
    _refresh(state, player, arr, seen, last)
    out[:] = arr
    phase = state.phase
    if phase < NUM_DECISION_PHASES:
        out[_OFF_PHASE + phase] = 1.0
    out[_OFF_META + 6] = min(state.steps / STEP_SCALE, 1.0)
    pos = state.pos
    rear = min(pos[:state.num_players]) + 1
    out[_OFF_META + 7] = rear / S
    if phase == Phase.ACTION or state.chain:
        _write_turn(state, out)
