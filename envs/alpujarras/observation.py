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
from .goals import can_pay_zakat, goal_met, zakat_side

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
_TURN_SCALE = _scale(("turn",))
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

def _space_row(space: C.Space | None) -> list[float]:
    if space is None:
        return [0.0] * _width(SPACE_FIELDS)
    icons = space.icons
    kind = space.kind
    return [
        1, kind == C.STANDARD, kind == C.MARKET, kind == C.HARVEST, kind == C.END,
        icons.place, *_one_hot(icons.place_farmland, C.NUM_FARMLANDS), icons.p2, icons.move,
        icons.irrigate, icons.norias, icons.fruit, icons.dirhems, space.ratio,
    ]


@lru_cache(maxsize=256)
def static_part(layout: tuple[int, ...], num_players: int) -> np.ndarray:
    """The full-length vector holding only the static blocks of a game (read-only, shared)."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    track = C.build_track(layout, C.four_player_side(num_players))
    values: list[float] = []
    for s in range(S):
        values += _space_row(track[s] if s < len(track) else None)
    for ch in C.CHANNELS:
        field = _one_hot(ch.field[0] if ch.field else -1, C.NUM_FARMLANDS)
        adjacent = [1 if f in ch.farmlands else 0 for f in range(C.NUM_FARMLANDS)]
        values += [ch.shape == "T", *adjacent, *field, ch.dirhem]
    for f in range(C.NUM_FARMLANDS):
        printed = [C.PRINTED_FIELDS[f].count(t) for t in range(C.NUM_FRUITS)]
        values += [*_one_hot(C.PRIMARY[f], C.NUM_FRUITS), *printed]
    scale = _scale(("track", "channel_facts", "farmland_facts"))
    end = _STATIC_START + len(values)
    out[_STATIC_START:end] = np.asarray(values, dtype=np.float32) * scale
    np.minimum(out, 1.0, out=out)
    out.flags.writeable = False
    return out


# --- material blocks --------------------------------------------------------------------------

def material_values(state: AlpujarrasState, player: int) -> list[float]:
    """The unscaled values of every material block, in layout order, from `player`'s seat."""
    n = state.num_players
    seats = [(player + k) % n for k in range(n)]
    slot_of = {q: k for k, q in enumerate(seats)}
    values: list[float] = []
    # occupancy
    occ = [[0] * 5 for _ in range(S)]
    for q in range(n):
        s = state.pos[q]
        if s >= 0:
            occ[s][slot_of[q]] = 1
    if state.has_die and state.pos[state.die] >= 0:
        occ[state.pos[state.die]][4] = 1
    for row in occ:
        values += row
    # pieces
    acting = state.current_player if not state.terminal else -1
    for k in range(MAX_SEATS):
        if k < n:
            q = seats[k]
            values += [1, state.pos[q] + 1, state.spot[q], turns.on_end(state, q), q == acting]
        else:
            values += [0, 0, 0, 0, 0]
    if state.has_die:
        d = state.die
        values += [1, state.pos[d] + 1, state.spot[d], turns.on_end(state, d)]
    else:
        values += [0, 0, 0, 0]
    # farmlands
    qualifies = effects.harvest_farmlands(state, player) if not state.terminal else [0] * 5
    for f in range(C.NUM_FARMLANDS):
        farmers = [state.farmers[q][f] for q in seats] + [0] * (MAX_SEATS - n)
        crops = [0] * C.NUM_FRUITS
        empty = 0
        for k in state.fields[f]:
            if k >= 0:
                crops[k] += 1
            else:
                empty += 1
        mule = state.solo and state.zara_farmland == f
        values += [*farmers, state.zara_farmers[f], *crops, empty, qualifies[f], mule]
    # towns
    for w in range(C.NUM_TOWNS):
        farmers = [state.town_farmers[q][w] for q in seats] + [0] * (MAX_SEATS - n)
        award = state.awards[w]
        green, red = C.AWARDS[state.award_ids[w]]
        in_play = award != C.AWARD_GONE
        values += [*farmers, *_token_grid(state.towns[w]), *_one_hot(award, 3),
                   green if award == C.AWARD_GREEN else 0, red if in_play else 0]
    # channels
    for c in range(C.NUM_CHANNELS):
        values += [state.channels[c], effects.channel_open(state, c)]
    # crop bag (composition only)
    bag = [0] * C.NUM_FRUITS
    for k in state.bag:
        bag[k] += 1
    values += bag
    # goals
    for i in range(C.NUM_GOAL_CARDS):
        side = state.goal_sides[i]
        if side < 0:
            values += [0] * _width(GOAL_FIELDS)
            continue
        goal = C.card_goal(i, side)
        done = [int(state.goals_done[q][i]) for q in seats] + [0] * (MAX_SEATS - n)
        values += [*_one_hot(goal, C.NUM_GOALS), C.GOAL_REWARDS[goal], *done,
                   goal_met(state, player, goal)]
    # players
    for k in range(MAX_SEATS):
        if k >= n:
            values += [0] * _width(PLAYER_FIELDS)
            continue
        q = seats[k]
        values += [
            1, *state.fruit[q], state.norias[q], state.dirhems[q], state.supply[q],
            sum(state.farmers[q]), sum(state.town_farmers[q]), state.card_farmers[q],
            *_token_grid(state.tokens[q]), state.markets_used[q], sum(state.goals_done[q]),
            effects.score(state, q),
        ]
    # Zara, zakats, solo
    if state.solo:
        values += [state.zara_supply, state.zara_dirhems, effects.zara_score(state),
                   *_token_grid(state.zara_tokens)]
        for i in range(C.NUM_ZAKAT_CARDS):
            side = zakat_side(state, i)
            wanted = [side.fruits.count(t) for t in range(C.NUM_FRUITS)]
            payable = not state.zakat_paid[i] and can_pay_zakat(state, i)
            values += [state.zakat_star[i], state.zakat_paid[i], *wanted, side.norias,
                       side.dirhems, side.farmer, payable]
        kinds = {t // 10 for t in state.tokens[0]}
        values += [state.double_turns, *(t in kinds for t in range(C.NUM_FRUITS))]
    else:
        values += [0] * (len(_MATERIAL_SCALE) - len(values))
    return values


def material_part(state: AlpujarrasState, player: int) -> np.ndarray:
    """Static blocks plus the material blocks from `player`'s seat (full length)."""
    out = static_part(tuple(state.layout), state.num_players).copy()
    block = out[_MATERIAL_START:]
    block[:] = material_values(state, player)
    block *= _MATERIAL_SCALE
    np.minimum(block, 1.0, out=block)
    return out


def turn_values(state: AlpujarrasState) -> list[float]:
    """The unscaled turn-context block: what is left to resolve on the visit and the sub-decision
    chain in progress."""
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


def write_observation(state: AlpujarrasState, player: int, out: np.ndarray) -> None:
    """Fill `out` (float32, OBS_SIZE) with `player`'s view of `state`."""
    key = (state.material_version, player)
    cache = state._obs_cache
    if cache is None or cache[0] != key:
        cache = (key, material_part(state, player))
        state._obs_cache = cache
    out[:] = cache[1]
    phase = state.phase
    if phase < NUM_DECISION_PHASES:
        out[_OFF_PHASE + phase] = 1.0
    n = state.num_players
    out[_OFF_META + n - 1] = 1.0
    out[_OFF_META + 4] = float(state.solo)
    out[_OFF_META + 5] = float(n == 4)
    out[_OFF_META + 6] = min(state.steps / STEP_SCALE, 1.0)
    rear = min(state.pos[q] for q in range(n)) + 1
    out[_OFF_META + 7] = rear / S
    if phase == Phase.ACTION or state.chain:
        turn = np.asarray(turn_values(state), dtype=np.float32) * _TURN_SCALE
        np.minimum(turn, 1.0, out=turn)
        out[_OFF_TURN:_OFF_TURN + len(turn)] = turn
