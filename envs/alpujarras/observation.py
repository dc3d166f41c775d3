"""Alpujarras's observation: one float32 vector of 1941 values in [0, 1], from the observer's seat.

Seat data is rotated so that slot 0 is the observer and slot 1 the next seat; absent seats are
zero. Everything on the table is public (G-28): positions, farmers, fields, channels, tokens,
awards, goals, every player's holdings and, in the solo game, Zara's state and the zakat cards.
The crop bag appears only as its composition (never its draw order) and future die rolls never
appear. `OBS_LAYOUT` lists the named blocks (name, offset, size); the `*_FIELDS` tables name the
values inside each repeated block; seeds/alpujarras.md documents both (generated from here).

Speed (the fast path at the end of this module): each state keeps one canonical vector, written
group by group (positions, farmlands, towns, channels, each seat, the solo blocks) only where an
action changed something, and every observer's vector is a copy of it (observer 0) or one gather
through a fixed index (the others). A new game's vector starts from a per-seat-count template.
`material_part` computes the same values from scratch; the tests compare the two after every step
of random games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
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

# --- the reference: every material block from scratch ------------------------------------------
#
# `material_part` computes an observation's static and material blocks from the state alone; the
# tests check the fast path below against it after every step of random games.

_PLAYER_WIDTH = _width(PLAYER_FIELDS)
_ZERO_GOAL = [0] * _width(GOAL_FIELDS)
_ZERO_SOLO = [0] * (SLICES["solo"].stop - SLICES["zara"].start)


def _seats(state: AlpujarrasState, player: int) -> list[int]:
    n = state.num_players
    return [(player + k) % n for k in range(n)]


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


# --- the fast path: one canonical vector per state ---------------------------------------------
#
# A state keeps one vector `w` (W_SIZE values): the observation from seat 0 with every seat's
# slots in absolute seat order (slot q shows seat q), followed by the observer-dependent hints of
# seats 1-3 (would-harvest flags, goals met). Observer 0's observation is w[:OBS_SIZE]; observer
# p's gathers the material blocks through a fixed index that rotates the seat slots and picks
# p's hints. `state.dirty` has one bit per group of state (rules.apply sets the groups an action
# can change); the cache rewrites only the groups marked, once for every observer, and clears the
# bits. Within a group, most renders compare copies of what they show with the state and rewrite
# only what differs. Values are written through a memoryview from tables of exactly the float32
# values the reference's scaling gives (fl32(v) * fl32(1 / scale)). What changes with every
# action and is the same for every observer (the phase, the step counter, the turn block) is
# written into the canonical vector once per state version.
#
# A new game (`state._fresh` until its first action) starts from a template of what every new
# game of its seat count shows alike; the cache then knows what it shows without rendering it.
# As with the mask, a state edited by hand must be `invalidate`d before it is observed again.

_OCC0 = SLICES["occupancy"].start
_PIECE_WIDTH = _width(PIECE_FIELDS)
_PIECES0 = SLICES["pieces"].start
_DIE0 = SLICES["die"].start
_FARM0 = SLICES["farmlands"].start
_FARM_WIDTH = _width(FARMLAND_FIELDS)
_TOWN0 = SLICES["towns"].start
_TOWN_WIDTH = _width(TOWN_FIELDS)
_CHAN0 = SLICES["channels"].start
_BAG0 = SLICES["crop_bag"].start
_GOALS0 = SLICES["goals"].start
_GOAL_WIDTH = _width(GOAL_FIELDS)
_PLAYERS0 = SLICES["players"].start
_ZARA0 = SLICES["zara"].start
_ZAKAT0 = SLICES["zakats"].start
_ZAKAT_WIDTH = _width(ZAKAT_FIELDS)
_SOLO0 = SLICES["solo"].start
_TRACK0 = SLICES["track"].start

_PF = _field_offsets(PIECE_FIELDS)
_FF = _field_offsets(FARMLAND_FIELDS)
_TF = _field_offsets(TOWN_FIELDS)
_GF = _field_offsets(GOAL_FIELDS)
_PL = _field_offsets(PLAYER_FIELDS)
_ZF = _field_offsets(ZARA_FIELDS)
_KF = _field_offsets(ZAKAT_FIELDS)
_SF = _field_offsets(SOLO_FIELDS)
_F_HARVEST = _FF["observer_would_harvest"]
_G_MEETS = _GF["observer_meets_it"]
# the offsets the render functions below write at
assert (_PF["position"], _PF["spot"], _PF["on_end"], _PF["is_acting"]) == (1, 2, 3, 4)
assert (_FF["zara_farmers"], _FF["crops"], _FF["empty_fields"], _F_HARVEST,
        _FF["zara_mule"], _FARM_WIDTH) == (4, 5, 10, 11, 12, 13)
assert (_TF["tokens"], _TF["award"], _TF["award_values"], _TOWN_WIDTH) == (4, 24, 27, 29)
assert (_GF["reward"], _GF["done_by"], _G_MEETS) == (C.NUM_GOALS, 11, 15)
assert (_PL["fruit"], _PL["norias"], _PL["dirhems"], _PL["supply"], _PL["farmland_farmers"],
        _PL["town_farmers"], _PL["card_farmers"], _PL["tokens"], _PL["market_actions"],
        _PL["goals_completed"], _PL["score"]) == (1, 6, 7, 8, 9, 10, 11, 12, 32, 33, 34)
assert (_ZF["zara_dirhems"], _ZF["zara_score"], _ZF["zara_tokens"]) == (1, 2, 3)
assert (_KF["paid"], _KF["fruits"], _KF["norias"], _KF["dirhems"], _KF["farmer"],
        _KF["payable_now"]) == (1, 2, 7, 8, 9, 10)
assert (_SF["double_turns"], _SF["delivered_kinds"]) == (0, 1)

_W_HARVEST = OBS_SIZE  # + (q - 1) * NUM_FARMLANDS + f: seat q's would-harvest flags, q >= 1
_W_MEETS = _W_HARVEST + (MAX_SEATS - 1) * C.NUM_FARMLANDS  # + (q - 1) * 5 + card
W_SIZE = _W_MEETS + (MAX_SEATS - 1) * C.NUM_GOAL_CARDS


def _harvest_at(q: int, f: int) -> int:
    """Where seat q's would-harvest flag of farmland f lives in the canonical vector."""
    if q == 0:
        return _FARM0 + f * _FARM_WIDTH + _F_HARVEST
    return _W_HARVEST + (q - 1) * C.NUM_FARMLANDS + f


def _meets_at(q: int, card: int) -> int:
    """Where seat q's goal-met flag of goal card `card` lives in the canonical vector."""
    if q == 0:
        return _GOALS0 + card * _GOAL_WIDTH + _G_MEETS
    return _W_MEETS + (q - 1) * C.NUM_GOAL_CARDS + card


_HARVEST_AT = tuple(tuple(_harvest_at(q, f) for f in range(C.NUM_FARMLANDS))
                    for q in range(MAX_SEATS))
_MEETS_AT = tuple(tuple(_meets_at(q, i) for i in range(C.NUM_GOAL_CARDS))
                  for q in range(MAX_SEATS))


def _gather_index(n: int, p: int) -> np.ndarray:
    """For observer p of an n-seat game: the canonical-vector position of every value of the
    material blocks (observation positions _MATERIAL_START onwards)."""
    src = np.arange(_MATERIAL_START, OBS_SIZE)

    def seat(k: int) -> int:  # the absolute seat observer p sees in slot k
        return (p + k) % n if k < n else k

    def put(obs_at: int, w_at: int) -> None:
        src[obs_at - _MATERIAL_START] = w_at

    for s in range(S):
        for k in range(MAX_SEATS):
            put(_OCC0 + s * 5 + k, _OCC0 + s * 5 + seat(k))
    for k in range(MAX_SEATS):
        for x in range(_PIECE_WIDTH):
            put(_PIECES0 + k * _PIECE_WIDTH + x, _PIECES0 + seat(k) * _PIECE_WIDTH + x)
    for f in range(C.NUM_FARMLANDS):
        base = _FARM0 + f * _FARM_WIDTH
        for k in range(MAX_SEATS):
            put(base + _FF["farmers"] + k, base + _FF["farmers"] + seat(k))
        put(base + _F_HARVEST, _harvest_at(p, f))
    for w in range(C.NUM_TOWNS):
        base = _TOWN0 + w * _TOWN_WIDTH
        for k in range(MAX_SEATS):
            put(base + _TF["farmers"] + k, base + _TF["farmers"] + seat(k))
    for i in range(C.NUM_GOAL_CARDS):
        base = _GOALS0 + i * _GOAL_WIDTH
        for k in range(MAX_SEATS):
            put(base + _GF["done_by"] + k, base + _GF["done_by"] + seat(k))
        put(base + _G_MEETS, _meets_at(p, i))
    for k in range(MAX_SEATS):
        for x in range(_PLAYER_WIDTH):
            put(_PLAYERS0 + k * _PLAYER_WIDTH + x, _PLAYERS0 + seat(k) * _PLAYER_WIDTH + x)
    return src


# _GATHER[n][p]: observer p >= 1 of an n-seat game (observer 0 reads the canonical vector as it is)
_GATHER = [[_gather_index(n, p) if 1 <= p < n else None for p in range(MAX_SEATS)]
           for n in range(MAX_SEATS + 1)]


def _table(scale: float, size: int = 64) -> list[float]:
    """The reference's scaled and clipped value of every count 0 … size-1."""
    inv = np.float32(1.0 / scale)
    return [float(min(np.float32(v) * inv, np.float32(1.0))) for v in range(size)]


def _scaled(table: list[float], value: int) -> float:
    """table[value], or the same computation beyond the table (large dirhem counts)."""
    if value < len(table):
        return table[value]
    return float(min(np.float32(value) * np.float32(1.0 / DIRHEM_SCALE), np.float32(1.0)))


_T2 = _table(2.0)
_T3 = _table(float(C.CROPS_PER_KIND))
_T4 = _table(4.0)
_T5 = _table(5.0)
_T15 = _table(15.0)
_T_POS = _table(float(S), S + 1)
_T60 = _table(DIRHEM_SCALE, 256)
_N60 = len(_T60)
_ZEROS = memoryview(np.zeros(W_SIZE, dtype=np.float32))
_CHANNEL_REQUIRES = tuple(ch.requires for ch in C.CHANNELS)


class _ObsCache:
    """The canonical vector of one state and what it shows (see above)."""

    __slots__ = (
        "acting_shown", "card_shown", "farm_fields", "farm_live", "farm_mule", "farm_rows",
        "farm_zara", "farmers_shown", "front", "fruit_shown", "goal_plan", "head_version", "mv",
        "phase_at", "pos_shown", "solo_kinds_shown", "spot_shown", "token_dirhems", "tokens_shown",
        "town_shown", "towns_seen", "turn_shown", "view", "w", "zakat_key", "zara_shown",
        "zara_token_dirhems",
    )

    def __init__(self, w: np.ndarray) -> None:
        self.w = w
        self.mv = memoryview(w)
        self.view = w[:OBS_SIZE]  # observer 0's observation
        self.front = w[:_MATERIAL_START]  # what every observer shares before the material
        # per piece: the space and spot shown (-2: nothing yet); the acting mule shown (-1: none)
        self.pos_shown: list[int] = []
        self.spot_shown: list[int] = []
        self.acting_shown = -1
        # the farmlands shown: copies of the farmer rows, fields and Zara's farmers, the mule,
        # whether the game was live (None: nothing shown yet)
        self.farm_rows: list | None = None
        self.farm_fields: list = []
        self.farm_zara: list = []
        self.farm_mule = -1
        self.farm_live = True
        self.tokens_shown = [-1] * MAX_SEATS  # per seat: its delivery tokens shown (a count)
        self.town_shown: list = [None] * C.NUM_TOWNS  # per town: (tokens, award, farmers) shown
        self.token_dirhems = [0] * MAX_SEATS  # per seat: its tokens' dirhem sides
        self.card_shown = [-1] * MAX_SEATS  # per seat: its goal-card farmers shown
        self.goal_plan: tuple = ((), (), ())  # _goal_plan of the goals shown
        self.fruit_shown: list = [None] * MAX_SEATS  # per seat: a copy of its fruit shown
        self.farmers_shown: list = [None] * MAX_SEATS  # per seat: a copy of its farmers shown
        self.zara_shown = -1  # Zara's delivery tokens shown (a count)
        self.zara_token_dirhems = 0  # their dirhem sides
        self.zakat_key: tuple = ()  # what the zakats' paid and payable flags were written from
        self.towns_seen: tuple | None = None  # copies of the towns, awards and town farmers shown
        self.solo_kinds_shown = -1  # the player's tokens when the kinds delivered were written
        self.head_version = -1  # state.version when phase, meta and turn were written
        self.phase_at = -1  # where the phase one-hot shows a 1
        self.turn_shown = False  # whether the turn block holds anything

    def copy(self) -> _ObsCache:
        new = _ObsCache.__new__(_ObsCache)
        new.w = w = self.w.copy()
        new.mv = memoryview(w)
        new.view = w[:OBS_SIZE]
        new.front = w[:_MATERIAL_START]
        new.pos_shown = list(self.pos_shown)
        new.spot_shown = list(self.spot_shown)
        new.acting_shown = self.acting_shown
        # the inner lists of what is shown are replaced by the renders, never changed in place:
        # copying the outer lists suffices
        if self.farm_rows is not None:
            new.farm_rows = list(self.farm_rows)
            new.farm_fields = list(self.farm_fields)
            new.farm_zara = self.farm_zara
        else:
            new.farm_rows = None
            new.farm_fields = []
            new.farm_zara = []
        new.farm_mule = self.farm_mule
        new.farm_live = self.farm_live
        new.tokens_shown = list(self.tokens_shown)
        new.town_shown = list(self.town_shown)
        new.token_dirhems = list(self.token_dirhems)
        new.card_shown = list(self.card_shown)
        new.goal_plan = self.goal_plan
        new.fruit_shown = list(self.fruit_shown)
        new.farmers_shown = list(self.farmers_shown)
        new.zara_shown = self.zara_shown
        new.zara_token_dirhems = self.zara_token_dirhems
        new.zakat_key = self.zakat_key
        new.towns_seen = self.towns_seen  # replaced, never changed in place
        new.solo_kinds_shown = self.solo_kinds_shown
        new.head_version = self.head_version
        new.phase_at = self.phase_at
        new.turn_shown = self.turn_shown
        return new


_PROGRESS_AT = _OFF_META + 7
_PROGRESS = [rear / S for rear in range(S + 1)]  # the rearmost mule's space + 1, over S


def _render_pos(state: AlpujarrasState, cache: _ObsCache) -> None:
    """occupancy, pieces and die, by difference: the acting flag when the acting mule changed,
    and only the pieces whose space or spot changed (usually one or two)."""
    mv = cache.mv
    n = state.num_players
    acting = state.current_player if not state.terminal else -1
    shown = cache.acting_shown
    if acting != shown:
        if shown >= 0:
            mv[_PIECES0 + shown * _PIECE_WIDTH + 4] = 0.0
        if acting >= 0:
            mv[_PIECES0 + acting * _PIECE_WIDTH + 4] = 1.0
        cache.acting_shown = acting
    pos = state.pos
    spot = state.spot
    pos_shown = cache.pos_shown
    spot_shown = cache.spot_shown
    if pos == pos_shown and spot == spot_shown:
        return
    mv[_PROGRESS_AT] = _PROGRESS[min(pos[:n]) + 1]  # game_meta.progress: the rearmost mule
    is_end = state.track.is_end
    for i in range(len(pos)):
        s = pos[i]
        at = spot[i]
        before = pos_shown[i]
        if s == before and at == spot_shown[i]:
            continue
        if i < n:
            k = i
            base = _PIECES0 + i * _PIECE_WIDTH
        else:
            k = 4
            base = _DIE0
        if before >= 0:
            mv[_OCC0 + before * 5 + k] = 0.0
        if s >= 0:
            mv[_OCC0 + s * 5 + k] = 1.0
        mv[base + 1] = _T_POS[s + 1]
        mv[base + 2] = _T4[at]
        mv[base + 3] = 1.0 if is_end[s] else 0.0
        pos_shown[i] = s
        spot_shown[i] = at


_ALL_FARMLANDS = (1 << C.NUM_FARMLANDS) - 1
# per bit set of farmlands: the farmlands in it
_FARMLAND_SETS = tuple(tuple(f for f in range(C.NUM_FARMLANDS) if bits >> f & 1)
                       for bits in range(_ALL_FARMLANDS + 1))


def _render_farm(state: AlpujarrasState, cache: _ObsCache) -> None:
    """farmlands with every seat's would-harvest flags, by difference: the farmer rows, fields,
    Zara's farmers and mule shown are kept as copies, and only the farmlands where they differ
    (all of them once the game ends) get rewritten."""
    n = state.num_players
    farmers = state.farmers
    zara = state.zara_farmers
    fields = state.fields
    solo = state.solo
    live = not state.terminal
    mule = state.zara_farmland if solo else -1
    rows = cache.farm_rows
    if rows is not None and live != cache.farm_live and not live:
        # the game is over: no harvest is coming, every would-harvest flag goes to 0
        cache.farm_live = False
        mv = cache.mv
        for q in range(n):
            for at in _HARVEST_AT[q]:
                mv[at] = 0.0
    if rows is None or live != cache.farm_live:
        dirty = _ALL_FARMLANDS
        cache.farm_rows = [list(row) for row in farmers]
        cache.farm_fields = [list(crops) for crops in fields]
        cache.farm_zara = list(zara)
        cache.farm_live = live
    else:
        dirty = 0
        for q in range(n):
            row = farmers[q]
            old = rows[q]
            if row != old:
                for f in range(C.NUM_FARMLANDS):
                    if row[f] != old[f]:
                        dirty |= 1 << f
                rows[q] = list(row)
        shown = cache.farm_fields
        if fields != shown:
            for f in range(C.NUM_FARMLANDS):
                if fields[f] != shown[f]:
                    dirty |= 1 << f
                    shown[f] = list(fields[f])
        if zara != cache.farm_zara:
            old = cache.farm_zara
            for f in range(C.NUM_FARMLANDS):
                if zara[f] != old[f]:
                    dirty |= 1 << f
            cache.farm_zara = list(zara)
        if mule != cache.farm_mule:  # Zara's mule moved (solo): only its flags change
            cache.mv[_FARM0 + cache.farm_mule * _FARM_WIDTH + 12] = 0.0
            cache.mv[_FARM0 + mule * _FARM_WIDTH + 12] = 1.0
            cache.farm_mule = mule
        if not dirty:
            return
    cache.farm_mule = mule
    mv = cache.mv
    ties = effects.ties_count(state)  # ALP-46, ZG-11
    for f in _FARMLAND_SETS[dirty]:
        col = [farmers[q][f] for q in range(n)]
        z = zara[f]
        base = _FARM0 + f * _FARM_WIDTH
        for q in range(n):
            mv[base + q] = _T15[col[q]]
        mv[base + 4] = _T15[z]
        counts = [0, 0, 0, 0, 0]
        empty = 0
        for k in fields[f]:
            if k >= 0:
                counts[k] += 1
            else:
                empty += 1
        for t in range(C.NUM_FRUITS):
            mv[base + 5 + t] = _T2[counts[t]]
        mv[base + 10] = _T2[empty]
        for q in range(n):
            count = col[q]
            flag = 0.0
            if live and count:
                other = z if solo else max([col[r] for r in range(n) if r != q])
                if count > other or (ties and count == other):
                    flag = 1.0
            mv[_HARVEST_AT[q][f]] = flag
        mv[base + 12] = 1.0 if f == mule else 0.0


# per delivery token: its cell in a token grid (fruit x value 2-5)
_CELL = {t: (t // 10) * len(C.TOKEN_VALUE_RANGE) + t % 10 - C.TOKEN_VALUE_RANGE[0]
         for t in C.ALL_TOKENS}
_ZERO_GRID = _ZEROS[:TOKEN_GRID]
assert _T2[1] == 0.5 and _T2[2] == 1.0 and max(Counter(C.ALL_TOKENS).values()) <= 2


def _render_grid(mv: memoryview, base: int, tokens: list[int]) -> None:
    """A token grid (fruit x value 2-5, counts / 2) at `base`: a token shows 0.5 in its cell,
    the second copy of it 1.0 (no token exists three times)."""
    mv[base:base + TOKEN_GRID] = _ZERO_GRID
    for t in tokens:
        at = base + _CELL[t]
        mv[at] = 1.0 if mv[at] else 0.5


def _render_town(state: AlpujarrasState, cache: _ObsCache) -> None:
    """towns, by difference: only the towns whose tokens, award or farmers changed get
    rewritten."""
    n = state.num_players
    town_farmers = state.town_farmers
    towns = state.towns
    awards = state.awards
    seen = cache.towns_seen
    if seen is not None and seen[0] == towns and seen[1] == awards and seen[2] == town_farmers:
        return  # nothing moved (Zara's turns mark the towns whatever she does)
    cache.towns_seen = ([list(tokens) for tokens in towns], list(awards),
                        [list(row) for row in town_farmers])
    mv = cache.mv
    shown = cache.town_shown
    award_ids = state.award_ids
    for w in range(C.NUM_TOWNS):
        tokens = towns[w]
        award = awards[w]
        key = (tuple(tokens), award, [town_farmers[q][w] for q in range(n)])
        if shown[w] == key:
            continue
        shown[w] = key
        base = _TOWN0 + w * _TOWN_WIDTH
        for q in range(n):
            mv[base + q] = _T5[town_farmers[q][w]]
        _render_grid(mv, base + 4, tokens)
        mv[base + 24] = 1.0 if award == 0 else 0.0
        mv[base + 25] = 1.0 if award == 1 else 0.0
        mv[base + 26] = 1.0 if award == 2 else 0.0
        green, red = C.AWARDS[award_ids[w]]
        mv[base + 27] = _T5[green if award == C.AWARD_GREEN else 0]
        mv[base + 28] = _T5[red if award != C.AWARD_GONE else 0]


def _render_chan(state: AlpujarrasState, mv: memoryview) -> None:
    """channels and the crop bag's composition."""
    channels = state.channels
    for c in range(C.NUM_CHANNELS):
        if channels[c]:
            mv[_CHAN0 + 2 * c] = 1.0
            mv[_CHAN0 + 2 * c + 1] = 0.0
        else:
            mv[_CHAN0 + 2 * c] = 0.0
            req = _CHANNEL_REQUIRES[c]
            mv[_CHAN0 + 2 * c + 1] = 1.0 if req < 0 or channels[req] else 0.0
    bag = [0, 0, 0, 0, 0]
    for k in state.bag:
        bag[k] += 1
    for t in range(C.NUM_FRUITS):
        mv[_BAG0 + t] = _T3[bag[t]]


# What each goal requirement reads of a seat (goals.py): its fruit, its farmland farmers, or
# what only a delivery changes (tokens, town farmers: a delivery always adds a token). A goal's
# flag is checked again only when what it reads moved on.
_FRUIT, _FARMERS, _DELIVERY = 0, 1, 2
_GOAL_READS = (_FRUIT, _FRUIT, _DELIVERY, _DELIVERY, _FARMERS, _FARMERS, _DELIVERY, _DELIVERY,
               _DELIVERY, _DELIVERY)
assert [GOAL_CHECKS[g].__name__ for g in range(C.NUM_GOALS)] == [
    "five_identical_fruit", "five_different_fruit", "three_identical_tokens",
    "three_different_tokens", "two_farmers_two_farmlands", "three_farmers_one_farmland",
    "token_sequence", "all_twos_or_threes", "farmer_in_four_towns", "two_farmers_two_towns"]


def _render_seat(state: AlpujarrasState, cache: _ObsCache, q: int) -> None:
    """Seat q's `players` row (slot q of the canonical vector) and, in the multiplayer game, its
    done_by slots and goal-met flags, by parts: the fruit and the farmland farmers when they
    differ from the copies shown, what only a delivery changes (tokens, town farmers, market
    actions) when the seat's token count moved on, what only a goal changes when its goal-card
    farmers did; the counters (norias, dirhems, supply, score) always."""
    mv = cache.mv
    base = _PLAYERS0 + q * _PLAYER_WIDTH
    fruit = state.fruit[q]
    fruit_moved = fruit != cache.fruit_shown[q]
    if fruit_moved:
        cache.fruit_shown[q] = list(fruit)
        mv[base + 1] = _T5[fruit[0]]
        mv[base + 2] = _T5[fruit[1]]
        mv[base + 3] = _T5[fruit[2]]
        mv[base + 4] = _T5[fruit[3]]
        mv[base + 5] = _T5[fruit[4]]
    farmers = state.farmers[q]
    farmers_moved = farmers != cache.farmers_shown[q]
    if farmers_moved:
        cache.farmers_shown[q] = list(farmers)
        mv[base + 9] = _T15[sum(farmers)]
    mv[base + 6] = _T5[state.norias[q]]
    dirhems = state.dirhems[q]
    mv[base + 7] = _T60[dirhems] if dirhems < _N60 else _scaled(_T60, dirhems)
    mv[base + 8] = _T15[state.supply[q]]
    tokens = state.tokens[q]
    delivered = len(tokens) != cache.tokens_shown[q]
    if delivered:
        cache.tokens_shown[q] = len(tokens)
        cache.token_dirhems[q] = sum([t % 10 - 1 for t in tokens])
        mv[base + 10] = _T5[sum(state.town_farmers[q])]
        _render_grid(mv, base + 12, tokens)
        mv[base + 32] = _T5[state.markets_used[q]]
    score = dirhems + cache.token_dirhems[q]
    mv[base + 34] = _T60[score] if score < _N60 else _scaled(_T60, score)
    cards = state.card_farmers[q]
    carded = cards != cache.card_shown[q]
    if carded:
        cache.card_shown[q] = cards
        mv[base + 11] = _T5[cards]
        mv[base + 33] = _T5[sum(state.goals_done[q])]
    if state.solo or not (fruit_moved or farmers_moved or delivered or carded):
        return
    if carded:
        done = state.goals_done[q]
        for i in range(C.NUM_GOAL_CARDS):
            mv[_GOALS0 + i * _GOAL_WIDTH + 11 + q] = 1.0 if done[i] else 0.0
    at = _MEETS_AT[q]
    by_reads = cache.goal_plan
    if fruit_moved:
        for i, check in by_reads[_FRUIT]:
            mv[at[i]] = 1.0 if check(state, q) else 0.0
    if farmers_moved:
        for i, check in by_reads[_FARMERS]:
            mv[at[i]] = 1.0 if check(state, q) else 0.0
    if delivered:
        for i, check in by_reads[_DELIVERY]:
            mv[at[i]] = 1.0 if check(state, q) else 0.0


@lru_cache(maxsize=64)
def _goal_plan(sides: tuple[int, ...]) -> tuple[tuple[tuple[int, Callable], ...], ...]:
    """Per input (_FRUIT, _FARMERS, _DELIVERY): the (card, requirement check) pairs of the goals
    shown that read it (a multiplayer game shows a goal on every card)."""
    plan: list[list] = [[], [], []]
    for i, side in enumerate(sides):
        if side >= 0:
            goal = 2 * i + side
            plan[_GOAL_READS[goal]].append((i, GOAL_CHECKS[goal]))
    return tuple(tuple(part) for part in plan)


def _render_solo_static(state: AlpujarrasState, mv: memoryview) -> None:
    """The zakat cards' sides (fixed for a game)."""
    for i in range(C.NUM_ZAKAT_CARDS):
        base = _ZAKAT0 + i * _ZAKAT_WIDTH
        star = 1 if state.zakat_star[i] else 0
        side = C.ZAKAT_CARDS[i][star]
        wanted = ZAKAT_FRUIT[i, star]
        mv[base] = float(star)
        for t in range(C.NUM_FRUITS):
            mv[base + 2 + t] = 1.0 if wanted[t] else 0.0
        mv[base + 7] = _T2[side.norias]
        mv[base + 8] = _T2[side.dirhems]
        mv[base + 9] = 1.0 if side.farmer else 0.0


# per (zakat card, star side): (fruit wanted per kind, norias, dirhems, a farmer) (ZARA-09)
_ZAKAT_COSTS = {
    (i, star): (ZAKAT_FRUIT[i, star], side.norias, side.dirhems, side.farmer)
    for i, sides in enumerate(C.ZAKAT_CARDS) for star, side in enumerate(sides)
}


def _render_solo(state: AlpujarrasState, cache: _ObsCache, zara_moved: bool) -> None:
    """What changes in zara, zakats and solo: Zara's holdings and the double turns when
    `zara_moved` (G_ZARA); the zakats paid and what can be paid (can_pay_zakat, inlined) when
    they or the player's fruit, norias, dirhems or farmers moved; the kinds delivered with a
    delivery."""
    mv = cache.mv
    if zara_moved:
        mv[_ZARA0] = _T15[state.zara_supply]
        zara_tokens = state.zara_tokens
        if len(zara_tokens) != cache.zara_shown:  # Zara's tokens only grow
            cache.zara_shown = len(zara_tokens)
            cache.zara_token_dirhems = sum([t % 10 - 1 for t in zara_tokens])
            _render_grid(mv, _ZARA0 + 3, zara_tokens)
        dirhems = state.zara_dirhems
        score = dirhems + cache.zara_token_dirhems  # effects.zara_score
        mv[_ZARA0 + 1] = _T60[dirhems] if dirhems < _N60 else _scaled(_T60, dirhems)
        mv[_ZARA0 + 2] = _T60[score] if score < _N60 else _scaled(_T60, score)
        mv[_SOLO0] = _T5[state.double_turns]
    paid = state.zakat_paid
    fruit = state.fruit[0]
    norias = state.norias[0]
    dirhems = state.dirhems[0]
    has_farmer = any(state.farmers[0])
    key = (norias, dirhems, has_farmer, *fruit, *paid)
    if key != cache.zakat_key:
        cache.zakat_key = key
        stars = state.zakat_star
        for i in range(C.NUM_ZAKAT_CARDS):
            base = _ZAKAT0 + i * _ZAKAT_WIDTH
            payable = 0.0
            if paid[i]:
                mv[base + 1] = 1.0
            else:
                mv[base + 1] = 0.0
                wanted, need_norias, need_dirhems, farmer = _ZAKAT_COSTS[i, 1 if stars[i] else 0]
                if (norias >= need_norias and dirhems >= need_dirhems
                        and (has_farmer or not farmer)
                        and fruit[0] >= wanted[0] and fruit[1] >= wanted[1]
                        and fruit[2] >= wanted[2] and fruit[3] >= wanted[3]
                        and fruit[4] >= wanted[4]):
                    payable = 1.0
            mv[base + 10] = payable
    tokens = state.tokens[0]
    if len(tokens) != cache.solo_kinds_shown:  # the kinds delivered change with a delivery
        cache.solo_kinds_shown = len(tokens)
        kinds = {t // 10 for t in tokens}
        for t in range(C.NUM_FRUITS):
            mv[_SOLO0 + 1 + t] = 1.0 if t in kinds else 0.0


def _track_block(track: C.Track, layout: list[int], four: bool) -> np.ndarray:
    """The scaled track block of a layout (read-only), kept on the shared `Track` object."""
    block = track.__dict__.get("obs_block")
    if block is None:
        parts = [_segment_rows(seg, four) for seg in layout]
        block = np.zeros(S * _SPACE_WIDTH, dtype=np.float32)
        rows = np.concatenate(parts)
        block[:len(rows)] = rows
        block.flags.writeable = False
        track.obs_block = block
    return block


def _base(n: int) -> np.ndarray:
    """The canonical vector's parts fixed by the seat count: facts, player count, presence."""
    w = np.zeros(W_SIZE, dtype=np.float32)
    start = SLICES["channel_facts"].start
    w[start:start + len(_FACTS)] = _FACTS
    for k in range(n):
        w[_PIECES0 + k * _PIECE_WIDTH] = 1.0
        w[_PLAYERS0 + k * _PLAYER_WIDTH] = 1.0
    if n <= 2:
        w[_DIE0] = 1.0
    w[_OFF_META + n - 1] = 1.0
    w[_OFF_META + 4] = float(n == 1)
    w[_OFF_META + 5] = float(C.four_player_side(n))
    return w


_BASES = {n: _base(n) for n in C.PLAYER_COUNTS}
_FRESH: dict[int, np.ndarray] = {}  # n -> a new game's canonical vector, less what varies
_FRESH_SOLO: dict[tuple, np.ndarray] = {}  # (double turns, star sides) -> a new solo block
_SOLO_SPAN = slice(_ZARA0, SLICES["solo"].stop)
_AWARDS_ALIKE = len(set(C.AWARDS)) == 1


def _fresh_template(n: int) -> np.ndarray:
    """`_BASES[n]` plus the groups every new game shows alike: empty farmlands (no mule), the
    award states, the channels and full bag, the seats' rows and goals met (none); the towns'
    tokens, the track, the goals shown, the pieces and the solo blocks are left to `_new_cache`."""
    from .game import new_game

    state = new_game(n, seed=0)
    cache = _ObsCache(_BASES[n].copy())
    cache.goal_plan = _goal_plan(tuple(state.goal_sides))
    _render_farm(state, cache)
    _render_town(state, cache)
    for w in range(C.NUM_TOWNS):
        cache.mv[_TOWN0 + w * _TOWN_WIDTH + 4:_TOWN0 + w * _TOWN_WIDTH + 4 + TOKEN_GRID] = \
            _ZERO_GRID
    if state.solo:
        cache.mv[_FARM0 + state.zara_farmland * _FARM_WIDTH + 12] = 0.0
    _render_chan(state, cache.mv)
    for q in range(n):
        _render_seat(state, cache, q)
    cache.w.flags.writeable = False
    return cache.w


def _fresh_solo(state: AlpujarrasState) -> np.ndarray:
    """The zara, zakats and solo blocks of a new solo game with these options (cached)."""
    key = (state.double_turns, tuple(state.zakat_star))
    block = _FRESH_SOLO.get(key)
    if block is None:
        cache = _ObsCache(np.zeros(W_SIZE, dtype=np.float32))
        _render_solo_static(state, cache.mv)
        _render_solo(state, cache, True)
        block = _FRESH_SOLO[key] = cache.w[_SOLO_SPAN].copy()
    return block


# per seat count: a new game's fruit and farmer rows, fields and Zara's farmers (see new_game)
_NEW_GAME_ROWS = {
    n: (tuple([0] * C.NUM_FRUITS for _ in range(n)), tuple([0] * C.NUM_FARMLANDS for _ in range(n)),
        tuple([-1] * C.EMPTY_FIELDS for _ in range(C.NUM_FARMLANDS)), [0] * C.NUM_FARMLANDS)
    for n in C.PLAYER_COUNTS
}


def _new_cache(state: AlpujarrasState) -> _ObsCache:
    """The canonical vector of `state`, every group written (a new game's from its template)."""
    n = state.num_players
    # a new game starts from the template (its award values too, where every town's are alike)
    fresh = state._fresh and state.steps == 0 and _AWARDS_ALIKE
    if fresh:
        template = _FRESH.get(n)
        if template is None:
            template = _FRESH[n] = _fresh_template(n)
        cache = _ObsCache(template.copy())
    else:
        cache = _ObsCache(_BASES[n].copy())
    w = cache.w
    mv = cache.mv
    track = state.track
    block = _track_block(track, state.layout, C.four_player_side(n))
    w[_TRACK0:_TRACK0 + len(block)] = block
    for i, side in enumerate(state.goal_sides):
        if side >= 0:
            goal = 2 * i + side  # C.card_goal
            mv[_GOALS0 + i * _GOAL_WIDTH + goal] = 1.0
            # as static_part writes it: the float64 quotient cast to float32
            mv[_GOALS0 + i * _GOAL_WIDTH + C.NUM_GOALS] = C.GOAL_REWARDS[goal] / 5.0
    cache.goal_plan = _goal_plan(tuple(state.goal_sides))
    cache.pos_shown = [-2] * len(state.pos)
    cache.spot_shown = [-1] * len(state.pos)
    _render_pos(state, cache)
    if fresh:
        towns = state.towns
        awards = state.awards
        shown = cache.town_shown
        for w_ in range(C.NUM_TOWNS):
            base = _TOWN0 + w_ * _TOWN_WIDTH + 4
            tokens = towns[w_]
            for t in tokens:
                at = base + _CELL[t]
                mv[at] = 1.0 if mv[at] else 0.5
            shown[w_] = (tuple(tokens), awards[w_], [0] * n)  # as _render_town keys it
        if state.solo:
            mv[_FARM0 + state.zara_farmland * _FARM_WIDTH + 12] = 1.0
            w[_SOLO_SPAN] = _fresh_solo(state)
            cache.zara_shown = 0
            cache.solo_kinds_shown = 0
            # Zara's turns mark the towns on every turn: know what they show from the start
            cache.towns_seen = ([list(tokens) for tokens in towns], list(awards),
                                [list(row) for row in state.town_farmers])
        # the template shows a new game's seats: nothing held, no token, no goal met; and its
        # farmlands (alike but the mule). The copies of what is shown share the inner lists of
        # _NEW_GAME_ROWS: the renders replace inner lists, never change them.
        no_fruit, no_farmers, empty_fields, no_zara = _NEW_GAME_ROWS[n]
        cache.fruit_shown = list(no_fruit)
        cache.farmers_shown = list(no_farmers)
        cache.tokens_shown = [0] * n
        cache.token_dirhems = [0] * n
        cache.card_shown = [0] * n
        cache.farm_rows = list(no_farmers)
        cache.farm_fields = list(empty_fields)
        cache.farm_zara = no_zara
        cache.farm_mule = state.zara_farmland if state.solo else -1
        cache.farm_live = True
    else:
        _render_town(state, cache)
        _render_farm(state, cache)
        _render_chan(state, mv)
        for q in range(n):
            _render_seat(state, cache, q)
        if state.solo:
            _render_solo_static(state, mv)
            _render_solo(state, cache, True)
    state.dirty = 0
    return cache


def _refresh(state: AlpujarrasState, cache: _ObsCache, dirty: int) -> None:
    """Rewrite the groups marked in `dirty` (state.dirty), then clear the marks."""
    if dirty & G_POS:
        _render_pos(state, cache)
    if dirty & G_FARM:
        _render_farm(state, cache)
    if dirty & G_TOWN:
        _render_town(state, cache)
    if dirty & G_CHAN:
        _render_chan(state, cache.mv)
    for q in range(state.num_players):
        if dirty & G_SEAT[q]:
            _render_seat(state, cache, q)
    if state.solo and dirty & _SOLO_GROUPS:
        # Zara's holdings, the zakats paid and the double turns move with G_ZARA; what can be
        # paid and the kinds delivered with the player's holdings
        _render_solo(state, cache, bool(dirty & G_ZARA))
    state.dirty = 0


_SOLO_GROUPS = G_ZARA | G_SEAT[0]
_PHASE0 = _OFF_PHASE
_STEPS_AT = _OFF_META + 6
_T = {name: _OFF_TURN + off for name, off in _field_offsets(TURN_FIELDS).items()}
_T_PLACE_LEFT = _T["place_left"]
_T_PLACE_FARMLAND = _T["place_farmland"]
_T_PLACE_TWO = _T["place_two"]
_T_MOVE_LEFT = _T["move_left"]
_T_IRRIGATE_LEFT = _T["irrigate_left"]
_T_NORIAS_LEFT = _T["norias_left"]
_T_FRUIT_LEFT = _T["fruit_left"]
_T_MARKET_OPEN = _T["market_open"]
_T_HARVEST_OPEN = _T["harvest_open"]
_T_CARD_OPEN = _T["card_open"]
_T_P2_FIRST_FARMLAND = _T["p2_first_farmland"]
_T_P2_FIRST_FRUIT = _T["p2_first_fruit"]
_T_P2_SECOND = _T["p2_second"]
_T_CHAIN = _T["chain"]
_T_NORIA_SPEND = _T["noria_spend"]
_T_FARMLAND_CHOSEN = _T["farmland_chosen"]
_T_MOVE_SOURCE = _T["move_source"]
_T_FORCED_FARMLAND = _T["forced_farmland"]
_T_SWAP_RETURNED = _T["swap_returned"]
_T_CARD_PENDING = _T["card_pending"]
_P_ACTION = int(Phase.ACTION)


def _write_turn(state: AlpujarrasState, mv: memoryview) -> None:
    """The turn block, written value by value (it is mostly zero)."""
    if state.pend_place:
        mv[_T_PLACE_LEFT] = state.pend_place / 2.0
        if state.place_target >= 0:
            mv[_T_PLACE_FARMLAND + state.place_target] = 1.0
        if state.place_p2:
            mv[_T_PLACE_TWO] = 1.0
    if state.pend_move:
        mv[_T_MOVE_LEFT] = 1.0
    if state.pend_irrigate:
        mv[_T_IRRIGATE_LEFT] = 1.0
    if state.pend_norias:
        mv[_T_NORIAS_LEFT] = min(state.pend_norias / 2.0, 1.0)
    if state.pend_fruit:
        mv[_T_FRUIT_LEFT] = min(state.pend_fruit / 2.0, 1.0)
    if state.market_left:
        mv[_T_MARKET_OPEN] = 1.0
    if state.harvest_left:
        mv[_T_HARVEST_OPEN] = 1.0
    if state.card_left:
        mv[_T_CARD_OPEN] = 1.0
    if state.p2_first_farmland >= 0:
        mv[_T_P2_FIRST_FARMLAND + state.p2_first_farmland] = 1.0
    if state.p2_first_fruit >= 0:
        mv[_T_P2_FIRST_FRUIT + state.p2_first_fruit] = 1.0
    chain = state.chain
    if not chain:
        return
    if state.p2_second:
        mv[_T_P2_SECOND] = 1.0
    mv[_T_CHAIN + chain - 1] = 1.0
    if state.spend_k >= 1:
        mv[_T_NORIA_SPEND + state.spend_k - 1] = 1.0
    if state.sel_farmland >= 0:
        mv[_T_FARMLAND_CHOSEN + state.sel_farmland] = 1.0
    if state.move_src >= 0:
        mv[_T_MOVE_SOURCE + state.move_src] = 1.0
    if state.forced_dst >= 0:
        mv[_T_FORCED_FARMLAND + state.forced_dst] = 1.0
    if state.swap_return >= 0:
        mv[_T_SWAP_RETURNED + state.swap_return] = 1.0
    if state.pending_card >= 0:
        mv[_T_CARD_PENDING + state.pending_card] = 1.0


_FLOAT32 = np.dtype(np.float32)
_TURN0 = _OFF_TURN
_TURN_END = SLICES["turn"].stop
_ZERO_TURN = _ZEROS[:_TURN_END - _TURN0]


def _write_head(state: AlpujarrasState, cache: _ObsCache) -> None:
    """What changes with every action and no observer sees differently: the phase, the step
    counter and progress, the turn block (into the canonical vector)."""
    mv = cache.mv
    if cache.phase_at >= 0:
        mv[cache.phase_at] = 0.0
    phase = state.phase
    if phase < NUM_DECISION_PHASES:
        cache.phase_at = _PHASE0 + phase
        mv[_PHASE0 + phase] = 1.0
    else:
        cache.phase_at = -1
    steps = state.steps
    mv[_STEPS_AT] = steps / STEP_SCALE if steps < STEP_SCALE else 1.0
    if cache.turn_shown:
        mv[_TURN0:_TURN_END] = _ZERO_TURN
        cache.turn_shown = False
    if phase == _P_ACTION or state.chain:
        _write_turn(state, mv)
        cache.turn_shown = True
    cache.head_version = state.version


def observe(state: AlpujarrasState, player: int, out: np.ndarray | None = None) -> np.ndarray:
    """`player`'s view of `state` written into `out` (float32, OBS_SIZE; a new array if None);
    `AlpujarrasState.observe`."""
    if out is None:
        out = np.empty(OBS_SIZE, dtype=np.float32)  # (every value is written below)
    cache = state._obs_cache
    if cache is None:
        cache = state._obs_cache = _new_cache(state)
    elif state.dirty:
        if state.dirty == G_POS:  # a move or a turn handed on: the commonest change, direct
            _render_pos(state, cache)
            state.dirty = 0
        else:
            _refresh(state, cache, state.dirty)
    if cache.head_version != state.version:
        _write_head(state, cache)
    if player == 0:
        out[:] = cache.view
    else:
        out[:_MATERIAL_START] = cache.front
        index = _GATHER[state.num_players][player]
        if out.dtype is _FLOAT32:
            # mode="wrap": the indices are all valid, and numpy skips its checked, buffered path
            cache.w.take(index, out=out[_MATERIAL_START:], mode="wrap")
        else:
            out[_MATERIAL_START:] = cache.w[index]
    return out


def write_observation(state: AlpujarrasState, player: int, out: np.ndarray) -> None:
    """Fill `out` (float32, OBS_SIZE) with `player`'s view of `state`."""
    observe(state, player, out)
