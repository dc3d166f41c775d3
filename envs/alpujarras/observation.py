"""Alpujarras's observation written fast: the vector that `observation_spec.SPEC` declares (1941
values in [0, 1], from the observer's seat), equal value for value to `SPEC.reference`.

What the vector holds, and what each value means, is declared in observation_spec.py; this
module is the speed layer only. Every index it writes at is an offset of the declaration
(`SPEC.offset(block, field, copy)` or a field's offset in its block), and every scaled value is
the declared field's float32 factor times the raw value, clipped at 1 (from tables of exactly
those values), so the fast vector equals the declaration's plain build; the tests compare the two
after every step of random games.

Speed (below): each state keeps one canonical vector, written group by group (positions,
farmlands, towns, channels, each seat, the solo blocks) only where an action changed something,
and every observer's vector is a copy of it (observer 0) or one gather through a fixed index (the
others). A new game's vector starts from a per-seat-count template.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache, lru_cache
from types import SimpleNamespace
from typing import TYPE_CHECKING

import numpy as np

from . import components as C
from . import effects
from .actions import NUM_DECISION_PHASES, Phase
from .goals import GOAL_CHECKS, ZAKAT_FRUIT
from .groups import G_CHAN, G_FARM, G_POS, G_SEAT, G_TOWN, G_ZARA
from .observation_spec import DIRHEM_SCALE, MAX_SEATS, SPEC, STEP_SCALE, TOKEN_GRID, S

if TYPE_CHECKING:
    from .state import AlpujarrasState

__all__ = ["DIRHEM_SCALE", "MAX_SEATS", "OBS_LAYOUT", "OBS_SIZE", "SLICES", "SPEC", "STEP_SCALE",
           "TOKEN_GRID", "observe", "write_observation"]

OBS_LAYOUT = SPEC.layout
OBS_SIZE = SPEC.size
SLICES = SPEC.slices


# --- the declared layout and factors, by name -----------------------------------------------------

def _fields(block: str) -> dict[str, int]:
    """Where each field of `block` starts inside one copy."""
    b = SPEC.block(block)
    return {f.name: b.field_offset(f.name) for f in b.fields}


def _copies(block: str, field: str | None = None) -> tuple[int, ...]:
    """The vector index of `field` (or of the copy's start) in every copy of `block`."""
    return tuple(SPEC.offset(block, field, k) for k in range(SPEC.block(block).count))


_factor = SPEC.scalar_factor  # a single-scaled field's factor, for scalar writes


@cache
def _table_of(factor: float, size: int) -> tuple[float, ...]:
    inv = np.float32(factor)
    return tuple(float(min(np.float32(v) * inv, np.float32(1.0))) for v in range(size))


def _table(block: str, field: str, size: int = 64) -> tuple[float, ...]:
    """The declared encoding of every count 0 ... size-1 of a "value" field (the raw count times
    the float32 factor, clipped at 1)."""
    return _table_of(_factor(block, field), size)


def _scaled(value: int, factor: float) -> float:
    """A count beyond its table (large dirhem counts), encoded as the declaration does."""
    x = value * factor
    return x if x < 1.0 else 1.0


def _flags(block: str, *fields: str) -> None:
    """The writer sets these fields to 1.0 / 0.0 (or 1.0 for any positive count): the
    declaration must store them unscaled (scale 1) for that to be its encoding."""
    for name in fields:
        f = next(f for f in SPEC.block(block).fields if f.name == name)
        assert f.encoding != "value" or set(f.scales) == {1.0}, f"{block}.{name} is not a flag"


def _encode_copies(block: str, state, subjects) -> np.ndarray:
    """Copies of `block` encoded by the declaration itself, one per subject (for what is fixed
    for a game and cached: the track's segments, the channel and farmland facts)."""
    b = SPEC.block(block)
    out = np.zeros(b.width * len(subjects), dtype=np.float32)
    at = 0
    for subject in subjects:
        for f in b.fields:
            f.encode(f.read(state, subject), out[at:at + f.size])
            at += f.size
    return out


_PHASE0 = SPEC.offset("phase")
_META_PLAYERS = SPEC.offset("game_meta", "player_count")  # one-hot of num_players - 1
_META_SOLO = SPEC.offset("game_meta", "solo")
_META_FOUR = SPEC.offset("game_meta", "four_player_side")
_STEPS_AT = SPEC.offset("game_meta", "steps")
_PROGRESS_AT = SPEC.offset("game_meta", "progress")
_TRACK0 = SPEC.offset("track")
_SPACE_WIDTH = SPEC.block("track").width
_FACTS0 = SPEC.offset("channel_facts")
_OCC0 = SPEC.offset("occupancy")
_MATERIAL_START = _OCC0  # the material blocks, from occupancy to the end
_DIE0 = SPEC.offset("die")
_BAG0 = SPEC.offset("crop_bag")
_TURN0 = SPEC.offset("turn")
_TURN_END = SLICES["turn"].stop
_SOLO_SPAN = slice(SPEC.offset("zara"), SLICES["solo"].stop)  # zara, zakats, solo
assert [name for name, _, _ in OBS_LAYOUT][:4] == ["phase", "game_meta", "turn", "track"]
assert SLICES["farmland_facts"].stop == _OCC0  # the static blocks end where the material begin

_PF = _fields("pieces")
_DF = _fields("die")
_OF = _fields("occupancy")
_FF = _fields("farmlands")
_TF = _fields("towns")
_GF = _fields("goals")
_PL = _fields("players")
_ZF = _fields("zara")
_KF = _fields("zakats")
_SF = _fields("solo")
_F_HARVEST = _FF["observer_would_harvest"]
_G_MEETS = _GF["observer_meets_it"]
# a piece is a mule (pieces) or the die: the render writes both alike
assert all(_PF[name] == _DF[name] for name in ("present", "position", "spot", "on_end"))
assert _factor("pieces", "position") == _factor("die", "position")
assert _factor("pieces", "spot") == _factor("die", "spot")
_flags("pieces", "present", "on_end", "is_acting")
_flags("die", "present")
_flags("occupancy", "die")
_flags("farmlands", "observer_would_harvest", "zara_mule")
_flags("channels", "filled", "open")
_flags("goals", "observer_meets_it")
_flags("players", "present")
_flags("zakats", "star_side", "paid", "farmer", "payable_now")

# per copy: where it starts (the fields are added to it)
_PIECE_AT = _copies("pieces")
_FARM_AT = _copies("farmlands")
_TOWN_AT = _copies("towns")
_GOAL_AT = _copies("goals")
_ZAKAT_AT = _copies("zakats")
_ZARA0 = SPEC.offset("zara")
_SOLO0 = SPEC.offset("solo")
_MULE_AT = _copies("farmlands", "zara_mule")
_TOWN_TOKENS_AT = _copies("towns", "tokens")

# the tables of the declared encodings (count -> value), by field
_T_POS = _table("pieces", "position", S + 1)
_T_SPOT = _table("pieces", "spot")
_T_PROGRESS = _table("game_meta", "progress", S + 1)
_S_STEPS = _factor("game_meta", "steps")
_T_FARM_FARMERS = _table("farmlands", "farmers")
_T_ZARA_FARMERS = _table("farmlands", "zara_farmers")
_T_CROPS = _table("farmlands", "crops")
_T_EMPTY = _table("farmlands", "empty_fields")
_T_TOWN_FARMERS = _table("towns", "farmers")
_T_AWARD = _table("towns", "award_values")
_T_BAG = _table("crop_bag", "crops_left")
_T_REWARD = _table("goals", "reward")
_T_FRUIT = _table("players", "fruit")
_T_NORIAS = _table("players", "norias")
_T_DIRHEMS = _table("players", "dirhems", 256)
_S_DIRHEMS = _factor("players", "dirhems")
_T_SUPPLY = _table("players", "supply")
_T_SEAT_FARMERS = _table("players", "farmland_farmers")
_T_SEAT_TOWN = _table("players", "town_farmers")
_T_CARDS = _table("players", "card_farmers")
_T_MARKETS = _table("players", "market_actions")
_T_GOALS_DONE = _table("players", "goals_completed")
_T_SCORE = _table("players", "score", 256)
_S_SCORE = _factor("players", "score")
_T_ZARA_SUPPLY = _table("zara", "zara_supply")
_T_ZARA_DIRHEMS = _table("zara", "zara_dirhems", 256)
_S_ZARA_DIRHEMS = _factor("zara", "zara_dirhems")
_T_ZARA_SCORE = _table("zara", "zara_score", 256)
_S_ZARA_SCORE = _factor("zara", "zara_score")
_T_ZAKAT_FRUIT = _table("zakats", "fruits")
_T_ZAKAT_NORIAS = _table("zakats", "norias")
_T_ZAKAT_DIRHEMS = _table("zakats", "dirhems")
_T_DOUBLE_TURNS = _table("solo", "double_turns")
_N_DIRHEMS = len(_T_DIRHEMS)
assert len(_T_SCORE) == len(_T_ZARA_DIRHEMS) == len(_T_ZARA_SCORE) == _N_DIRHEMS
# the token grids (towns, players, Zara): one count per (fruit, value) cell, the same scale
_GRID = _table("towns", "tokens")
assert _GRID == _table("players", "tokens") == _table("zara", "zara_tokens")
_GRID_ONE, _GRID_TWO = _GRID[1], _GRID[2]  # a token shown once, and its second copy


# --- static parts: encoded by the declaration, cached -------------------------------------------

@lru_cache(maxsize=64)
def _segment_rows(segment: int, four_players: bool) -> np.ndarray:
    """The encoded track copies of one segment on one side (flat), for composing track blocks."""
    track = C.build_track((segment,), four_players)
    return _encode_copies("track", SimpleNamespace(track=track), range(len(track)))


# the channel and farmland facts (static, adjacent blocks), as declared
_FACTS = np.concatenate([_encode_copies("channel_facts", None, range(C.NUM_CHANNELS)),
                         _encode_copies("farmland_facts", None, range(C.NUM_FARMLANDS))])
assert _FACTS0 + len(_FACTS) == _OCC0

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

_W_HARVEST = OBS_SIZE  # + (q - 1) * NUM_FARMLANDS + f: seat q's would-harvest flags, q >= 1
_W_MEETS = _W_HARVEST + (MAX_SEATS - 1) * C.NUM_FARMLANDS  # + (q - 1) * 5 + card
W_SIZE = _W_MEETS + (MAX_SEATS - 1) * C.NUM_GOAL_CARDS


def _harvest_at(q: int, f: int) -> int:
    """Where seat q's would-harvest flag of farmland f lives in the canonical vector."""
    if q == 0:
        return _FARM_AT[f] + _F_HARVEST
    return _W_HARVEST + (q - 1) * C.NUM_FARMLANDS + f


def _meets_at(q: int, card: int) -> int:
    """Where seat q's goal-met flag of goal card `card` lives in the canonical vector."""
    if q == 0:
        return _GOAL_AT[card] + _G_MEETS
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

    # the seat-slot values: one per slot within a copy (occupancy, farmlands, towns, goals)
    for block, field in (("occupancy", "seat_slots"), ("farmlands", "farmers"),
                         ("towns", "farmers"), ("goals", "done_by")):
        for at in _copies(block, field):
            for k in range(MAX_SEATS):
                put(at + k, at + seat(k))
    # whole copies per seat slot (pieces, players)
    for block in ("pieces", "players"):
        width = SPEC.block(block).width
        for k in range(MAX_SEATS):
            for x in range(width):
                put(SPEC.offset(block, copy=k) + x, SPEC.offset(block, copy=seat(k)) + x)
    # the observer's own flags
    for f in range(C.NUM_FARMLANDS):
        put(_harvest_at(0, f), _harvest_at(p, f))
    for i in range(C.NUM_GOAL_CARDS):
        put(_meets_at(0, i), _meets_at(p, i))
    return src


# _GATHER[n][p]: observer p >= 1 of an n-seat game (observer 0 reads the canonical vector as it is)
_GATHER = [[_gather_index(n, p) if 1 <= p < n else None for p in range(MAX_SEATS)]
           for n in range(MAX_SEATS + 1)]


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


_ACTING_AT = _copies("pieces", "is_acting")
_OCC_AT = _copies("occupancy")
# per piece index of an n-seat game (mules 0 ... n-1, then the die): where its copy starts and
# its column in an occupancy copy
_PIECE_PLACES = {n: tuple([(_PIECE_AT[i], _OF["seat_slots"] + i) for i in range(n)]
                          + [(_DIE0, _OF["die"])]) for n in C.PLAYER_COUNTS}
_P_POSITION, _P_SPOT, _P_ON_END = _PF["position"], _PF["spot"], _PF["on_end"]


def _render_pos(state: AlpujarrasState, cache: _ObsCache) -> None:
    """occupancy, pieces and die, by difference: the acting flag when the acting mule changed,
    and only the pieces whose space or spot changed (usually one or two)."""
    mv = cache.mv
    n = state.num_players
    acting = state.current_player if not state.terminal else -1
    shown = cache.acting_shown
    if acting != shown:
        if shown >= 0:
            mv[_ACTING_AT[shown]] = 0.0
        if acting >= 0:
            mv[_ACTING_AT[acting]] = 1.0
        cache.acting_shown = acting
    pos = state.pos
    spot = state.spot
    pos_shown = cache.pos_shown
    spot_shown = cache.spot_shown
    if pos == pos_shown and spot == spot_shown:
        return
    mv[_PROGRESS_AT] = _T_PROGRESS[min(pos[:n]) + 1]  # the rearmost mule's space + 1
    is_end = state.track.is_end
    places = _PIECE_PLACES[n]
    for i in range(len(pos)):
        s = pos[i]
        at = spot[i]
        before = pos_shown[i]
        if s == before and at == spot_shown[i]:
            continue
        base, column = places[i]
        if before >= 0:
            mv[_OCC_AT[before] + column] = 0.0
        if s >= 0:
            mv[_OCC_AT[s] + column] = 1.0
        mv[base + _P_POSITION] = _T_POS[s + 1]
        mv[base + _P_SPOT] = _T_SPOT[at]
        mv[base + _P_ON_END] = 1.0 if is_end[s] else 0.0
        pos_shown[i] = s
        spot_shown[i] = at


_F_FARMERS, _F_ZARA, _F_CROPS = _FF["farmers"], _FF["zara_farmers"], _FF["crops"]
_F_EMPTY, _F_MULE = _FF["empty_fields"], _FF["zara_mule"]
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
            cache.mv[_MULE_AT[cache.farm_mule]] = 0.0
            cache.mv[_MULE_AT[mule]] = 1.0
            cache.farm_mule = mule
        if not dirty:
            return
    cache.farm_mule = mule
    mv = cache.mv
    ties = effects.ties_count(state)  # ALP-46, ZG-11
    for f in _FARMLAND_SETS[dirty]:
        col = [farmers[q][f] for q in range(n)]
        z = zara[f]
        base = _FARM_AT[f]
        at = base + _F_FARMERS
        for q in range(n):
            mv[at + q] = _T_FARM_FARMERS[col[q]]
        mv[base + _F_ZARA] = _T_ZARA_FARMERS[z]
        counts = [0, 0, 0, 0, 0]
        empty = 0
        for k in fields[f]:
            if k >= 0:
                counts[k] += 1
            else:
                empty += 1
        at = base + _F_CROPS
        for t in range(C.NUM_FRUITS):
            mv[at + t] = _T_CROPS[counts[t]]
        mv[base + _F_EMPTY] = _T_EMPTY[empty]
        for q in range(n):
            count = col[q]
            flag = 0.0
            if live and count:
                other = z if solo else max([col[r] for r in range(n) if r != q])
                if count > other or (ties and count == other):
                    flag = 1.0
            mv[_HARVEST_AT[q][f]] = flag
        mv[base + _F_MULE] = 1.0 if f == mule else 0.0


# per delivery token: its cell in a token grid (fruit x value 2-5)
_CELL = {t: (t // 10) * len(C.TOKEN_VALUE_RANGE) + t % 10 - C.TOKEN_VALUE_RANGE[0]
         for t in C.ALL_TOKENS}
_ZERO_GRID = _ZEROS[:TOKEN_GRID]
assert max(Counter(C.ALL_TOKENS).values()) <= 2 and 0.0 < _GRID_ONE < _GRID_TWO


def _render_grid(mv: memoryview, base: int, tokens: list[int]) -> None:
    """A token grid (fruit x value 2-5, a count per cell) at `base`: a token shows _GRID_ONE in
    its cell, the second copy of it _GRID_TWO (no token exists three times)."""
    mv[base:base + TOKEN_GRID] = _ZERO_GRID
    for t in tokens:
        at = base + _CELL[t]
        mv[at] = _GRID_TWO if mv[at] else _GRID_ONE


_W_FARMERS, _W_TOKENS = _TF["farmers"], _TF["tokens"]
_W_AWARD, _W_AWARD_VALUES = _TF["award"], _TF["award_values"]


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
        base = _TOWN_AT[w]
        at = base + _W_FARMERS
        for q in range(n):
            mv[at + q] = _T_TOWN_FARMERS[town_farmers[q][w]]
        _render_grid(mv, base + _W_TOKENS, tokens)
        at = base + _W_AWARD  # the award state's one-hot
        mv[at + C.AWARD_GREEN] = 1.0 if award == C.AWARD_GREEN else 0.0
        mv[at + C.AWARD_RED] = 1.0 if award == C.AWARD_RED else 0.0
        mv[at + C.AWARD_GONE] = 1.0 if award == C.AWARD_GONE else 0.0
        green, red = C.AWARDS[award_ids[w]]
        at = base + _W_AWARD_VALUES  # the green side's value, then the red side's
        mv[at] = _T_AWARD[green if award == C.AWARD_GREEN else 0]
        mv[at + 1] = _T_AWARD[red if award != C.AWARD_GONE else 0]


_FILLED_AT = _copies("channels", "filled")
_OPEN_AT = _copies("channels", "open")


def _render_chan(state: AlpujarrasState, mv: memoryview) -> None:
    """channels and the crop bag's composition."""
    channels = state.channels
    for c in range(C.NUM_CHANNELS):
        if channels[c]:
            mv[_FILLED_AT[c]] = 1.0
            mv[_OPEN_AT[c]] = 0.0
        else:
            mv[_FILLED_AT[c]] = 0.0
            req = _CHANNEL_REQUIRES[c]  # effects.channel_open, inlined
            mv[_OPEN_AT[c]] = 1.0 if req < 0 or channels[req] else 0.0
    bag = [0, 0, 0, 0, 0]
    for k in state.bag:
        bag[k] += 1
    for t in range(C.NUM_FRUITS):
        mv[_BAG0 + t] = _T_BAG[bag[t]]


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


_SEAT_AT = _copies("players")  # slot q of the canonical vector shows seat q
_DONE_BY_AT = _copies("goals", "done_by")
_Q_FRUIT, _Q_NORIAS, _Q_DIRHEMS = _PL["fruit"], _PL["norias"], _PL["dirhems"]
_Q_SUPPLY, _Q_FARMLAND_FARMERS = _PL["supply"], _PL["farmland_farmers"]
_Q_TOWN_FARMERS, _Q_CARDS, _Q_TOKENS = _PL["town_farmers"], _PL["card_farmers"], _PL["tokens"]
_Q_MARKETS, _Q_GOALS, _Q_SCORE = _PL["market_actions"], _PL["goals_completed"], _PL["score"]
_flags("goals", "done_by")
assert C.NUM_FRUITS == 5  # the fruit rows below are written unrolled


def _render_seat(state: AlpujarrasState, cache: _ObsCache, q: int) -> None:
    """Seat q's `players` row (slot q of the canonical vector) and, in the multiplayer game, its
    done_by slots and goal-met flags, by parts: the fruit and the farmland farmers when they
    differ from the copies shown, what only a delivery changes (tokens, town farmers, market
    actions) when the seat's token count moved on, what only a goal changes when its goal-card
    farmers did; the counters (norias, dirhems, supply, score) always."""
    mv = cache.mv
    base = _SEAT_AT[q]
    fruit = state.fruit[q]
    fruit_moved = fruit != cache.fruit_shown[q]
    if fruit_moved:
        cache.fruit_shown[q] = list(fruit)
        at = base + _Q_FRUIT
        mv[at] = _T_FRUIT[fruit[0]]
        mv[at + 1] = _T_FRUIT[fruit[1]]
        mv[at + 2] = _T_FRUIT[fruit[2]]
        mv[at + 3] = _T_FRUIT[fruit[3]]
        mv[at + 4] = _T_FRUIT[fruit[4]]
    farmers = state.farmers[q]
    farmers_moved = farmers != cache.farmers_shown[q]
    if farmers_moved:
        cache.farmers_shown[q] = list(farmers)
        mv[base + _Q_FARMLAND_FARMERS] = _T_SEAT_FARMERS[sum(farmers)]
    mv[base + _Q_NORIAS] = _T_NORIAS[state.norias[q]]
    dirhems = state.dirhems[q]
    mv[base + _Q_DIRHEMS] = (_T_DIRHEMS[dirhems] if dirhems < _N_DIRHEMS
                             else _scaled(dirhems, _S_DIRHEMS))
    mv[base + _Q_SUPPLY] = _T_SUPPLY[state.supply[q]]
    tokens = state.tokens[q]
    delivered = len(tokens) != cache.tokens_shown[q]
    if delivered:
        cache.tokens_shown[q] = len(tokens)
        cache.token_dirhems[q] = sum([t % 10 - 1 for t in tokens])
        mv[base + _Q_TOWN_FARMERS] = _T_SEAT_TOWN[sum(state.town_farmers[q])]
        _render_grid(mv, base + _Q_TOKENS, tokens)
        mv[base + _Q_MARKETS] = _T_MARKETS[state.markets_used[q]]
    score = dirhems + cache.token_dirhems[q]  # effects.score
    mv[base + _Q_SCORE] = _T_SCORE[score] if score < _N_DIRHEMS else _scaled(score, _S_SCORE)
    cards = state.card_farmers[q]
    carded = cards != cache.card_shown[q]
    if carded:
        cache.card_shown[q] = cards
        mv[base + _Q_CARDS] = _T_CARDS[cards]
        mv[base + _Q_GOALS] = _T_GOALS_DONE[sum(state.goals_done[q])]
    if state.solo or not (fruit_moved or farmers_moved or delivered or carded):
        return
    if carded:
        done = state.goals_done[q]
        for i in range(C.NUM_GOAL_CARDS):
            mv[_DONE_BY_AT[i] + q] = 1.0 if done[i] else 0.0
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


_K_STAR, _K_PAID, _K_FRUITS = _KF["star_side"], _KF["paid"], _KF["fruits"]
_K_NORIAS, _K_DIRHEMS, _K_FARMER = _KF["norias"], _KF["dirhems"], _KF["farmer"]
_K_PAYABLE = _KF["payable_now"]
_Z_SUPPLY, _Z_DIRHEMS = _ZARA0 + _ZF["zara_supply"], _ZARA0 + _ZF["zara_dirhems"]
_Z_SCORE, _Z_TOKENS = _ZARA0 + _ZF["zara_score"], _ZARA0 + _ZF["zara_tokens"]
_DOUBLE_TURNS_AT = _SOLO0 + _SF["double_turns"]
_KINDS_AT = _SOLO0 + _SF["delivered_kinds"]  # + fruit kind (multi-hot)


def _render_solo_static(state: AlpujarrasState, mv: memoryview) -> None:
    """The zakat cards' sides (fixed for a game)."""
    for i in range(C.NUM_ZAKAT_CARDS):
        base = _ZAKAT_AT[i]
        star = 1 if state.zakat_star[i] else 0
        side = C.ZAKAT_CARDS[i][star]  # goals.zakat_side
        wanted = ZAKAT_FRUIT[i, star]
        mv[base + _K_STAR] = float(star)
        at = base + _K_FRUITS
        for t in range(C.NUM_FRUITS):
            mv[at + t] = _T_ZAKAT_FRUIT[wanted[t]]
        mv[base + _K_NORIAS] = _T_ZAKAT_NORIAS[side.norias]
        mv[base + _K_DIRHEMS] = _T_ZAKAT_DIRHEMS[side.dirhems]
        mv[base + _K_FARMER] = 1.0 if side.farmer else 0.0


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
        mv[_Z_SUPPLY] = _T_ZARA_SUPPLY[state.zara_supply]
        zara_tokens = state.zara_tokens
        if len(zara_tokens) != cache.zara_shown:  # Zara's tokens only grow
            cache.zara_shown = len(zara_tokens)
            cache.zara_token_dirhems = sum([t % 10 - 1 for t in zara_tokens])
            _render_grid(mv, _Z_TOKENS, zara_tokens)
        dirhems = state.zara_dirhems
        score = dirhems + cache.zara_token_dirhems  # effects.zara_score
        mv[_Z_DIRHEMS] = (_T_ZARA_DIRHEMS[dirhems] if dirhems < _N_DIRHEMS
                          else _scaled(dirhems, _S_ZARA_DIRHEMS))
        mv[_Z_SCORE] = (_T_ZARA_SCORE[score] if score < _N_DIRHEMS
                        else _scaled(score, _S_ZARA_SCORE))
        mv[_DOUBLE_TURNS_AT] = _T_DOUBLE_TURNS[state.double_turns]
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
            base = _ZAKAT_AT[i]
            payable = 0.0
            if paid[i]:
                mv[base + _K_PAID] = 1.0
            else:
                mv[base + _K_PAID] = 0.0
                wanted, need_norias, need_dirhems, farmer = _ZAKAT_COSTS[i, 1 if stars[i] else 0]
                if (norias >= need_norias and dirhems >= need_dirhems
                        and (has_farmer or not farmer)
                        and fruit[0] >= wanted[0] and fruit[1] >= wanted[1]
                        and fruit[2] >= wanted[2] and fruit[3] >= wanted[3]
                        and fruit[4] >= wanted[4]):
                    payable = 1.0
            mv[base + _K_PAYABLE] = payable
    tokens = state.tokens[0]
    if len(tokens) != cache.solo_kinds_shown:  # the kinds delivered change with a delivery
        cache.solo_kinds_shown = len(tokens)
        kinds = {t // 10 for t in tokens}
        for t in range(C.NUM_FRUITS):
            mv[_KINDS_AT + t] = 1.0 if t in kinds else 0.0


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
    w[_FACTS0:_FACTS0 + len(_FACTS)] = _FACTS
    for k in range(n):
        w[SPEC.offset("pieces", "present", k)] = 1.0
        w[SPEC.offset("players", "present", k)] = 1.0
    if n <= 2:  # state.has_die
        w[SPEC.offset("die", "present")] = 1.0
    w[_META_PLAYERS + n - 1] = 1.0  # player count one-hot: 1, 2, 3, 4
    w[_META_SOLO] = float(n == 1)
    w[_META_FOUR] = float(C.four_player_side(n))
    return w


_BASES = {n: _base(n) for n in C.PLAYER_COUNTS}
_FRESH: dict[int, np.ndarray] = {}  # n -> a new game's canonical vector, less what varies
_FRESH_SOLO: dict[tuple, np.ndarray] = {}  # (double turns, star sides) -> a new solo block
_AWARDS_ALIKE = len(set(C.AWARDS)) == 1


def _fresh_template(state: AlpujarrasState) -> np.ndarray:
    """`_BASES[n]` plus the groups every new game of `state`'s n seats shows alike: empty
    farmlands (no mule), the award states, the channels and full bag, the seats' rows and goals
    met (none); the towns' tokens, the track, the goals shown, the pieces and the solo blocks are
    left to `_new_cache`. `state` is a new game (any one: these groups are alike in all)."""
    n = state.num_players
    cache = _ObsCache(_BASES[n].copy())
    cache.goal_plan = _goal_plan(tuple(state.goal_sides))
    _render_farm(state, cache)
    _render_town(state, cache)
    for at in _TOWN_TOKENS_AT:
        cache.mv[at:at + TOKEN_GRID] = _ZERO_GRID
    if state.solo:
        cache.mv[_MULE_AT[state.zara_farmland]] = 0.0
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


_GOAL_ONE_HOT_AT = _copies("goals", "goal")
_REWARD_AT = _copies("goals", "reward")


def _new_cache(state: AlpujarrasState) -> _ObsCache:
    """The canonical vector of `state`, every group written (a new game's from its template)."""
    n = state.num_players
    # a new game starts from the template (its award values too, where every town's are alike)
    fresh = state._fresh and state.steps == 0 and _AWARDS_ALIKE
    if fresh:
        template = _FRESH.get(n)
        if template is None:
            template = _FRESH[n] = _fresh_template(state)
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
            goal = C.card_goal(i, side)
            mv[_GOAL_ONE_HOT_AT[i] + goal] = 1.0
            mv[_REWARD_AT[i]] = _T_REWARD[C.GOAL_REWARDS[goal]]
    cache.goal_plan = _goal_plan(tuple(state.goal_sides))
    cache.pos_shown = [-2] * len(state.pos)
    cache.spot_shown = [-1] * len(state.pos)
    _render_pos(state, cache)
    if fresh:
        towns = state.towns
        awards = state.awards
        shown = cache.town_shown
        for w_ in range(C.NUM_TOWNS):
            base = _TOWN_TOKENS_AT[w_]
            tokens = towns[w_]
            for t in tokens:  # _render_grid on a zero grid
                at = base + _CELL[t]
                mv[at] = _GRID_TWO if mv[at] else _GRID_ONE
            shown[w_] = (tuple(tokens), awards[w_], [0] * n)  # as _render_town keys it
        if state.solo:
            mv[_MULE_AT[state.zara_farmland]] = 1.0
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
_TU = {name: _TURN0 + at for name, at in _fields("turn").items()}
_TU_PLACE_LEFT, _TU_PLACE_FARMLAND = _TU["place_left"], _TU["place_farmland"]
_TU_PLACE_TWO, _TU_MOVE_LEFT = _TU["place_two"], _TU["move_left"]
_TU_IRRIGATE_LEFT, _TU_NORIAS_LEFT = _TU["irrigate_left"], _TU["norias_left"]
_TU_FRUIT_LEFT, _TU_MARKET_OPEN = _TU["fruit_left"], _TU["market_open"]
_TU_HARVEST_OPEN, _TU_CARD_OPEN = _TU["harvest_open"], _TU["card_open"]
_TU_P2_FIRST_FARMLAND, _TU_P2_FIRST_FRUIT = _TU["p2_first_farmland"], _TU["p2_first_fruit"]
_TU_P2_SECOND, _TU_CHAIN, _TU_NORIA_SPEND = _TU["p2_second"], _TU["chain"], _TU["noria_spend"]
_TU_FARMLAND_CHOSEN, _TU_MOVE_SOURCE = _TU["farmland_chosen"], _TU["move_source"]
_TU_FORCED_FARMLAND, _TU_SWAP_RETURNED = _TU["forced_farmland"], _TU["swap_returned"]
_TU_CARD_PENDING = _TU["card_pending"]
_T_PLACE_LEFT = _table("turn", "place_left")
_T_NORIAS_LEFT = _table("turn", "norias_left")
_T_FRUIT_LEFT = _table("turn", "fruit_left")
_flags("turn", "place_two", "move_left", "irrigate_left", "market_open", "harvest_open",
       "card_open", "p2_second")
_P_ACTION = int(Phase.ACTION)


def _write_turn(state: AlpujarrasState, mv: memoryview) -> None:
    """The turn block, written value by value (it is mostly zero); the one-hots of the chain in
    progress only while one runs (observation_spec.turn_shown says when the block shows)."""
    if state.pend_place:
        mv[_TU_PLACE_LEFT] = _T_PLACE_LEFT[state.pend_place]
        if state.place_target >= 0:
            mv[_TU_PLACE_FARMLAND + state.place_target] = 1.0
        if state.place_p2:
            mv[_TU_PLACE_TWO] = 1.0
    if state.pend_move:
        mv[_TU_MOVE_LEFT] = 1.0
    if state.pend_irrigate:
        mv[_TU_IRRIGATE_LEFT] = 1.0
    if state.pend_norias:
        mv[_TU_NORIAS_LEFT] = _T_NORIAS_LEFT[state.pend_norias]
    if state.pend_fruit:
        mv[_TU_FRUIT_LEFT] = _T_FRUIT_LEFT[state.pend_fruit]
    if state.market_left:
        mv[_TU_MARKET_OPEN] = 1.0
    if state.harvest_left:
        mv[_TU_HARVEST_OPEN] = 1.0
    if state.card_left:
        mv[_TU_CARD_OPEN] = 1.0
    if state.p2_first_farmland >= 0:
        mv[_TU_P2_FIRST_FARMLAND + state.p2_first_farmland] = 1.0
    if state.p2_first_fruit >= 0:
        mv[_TU_P2_FIRST_FRUIT + state.p2_first_fruit] = 1.0
    chain = state.chain
    if not chain:
        return
    if state.p2_second:
        mv[_TU_P2_SECOND] = 1.0
    mv[_TU_CHAIN + chain - 1] = 1.0  # Chain.NONE has no place in the one-hot
    if state.spend_k >= 1:
        mv[_TU_NORIA_SPEND + state.spend_k - 1] = 1.0  # 1 ... 5 norias
    if state.sel_farmland >= 0:
        mv[_TU_FARMLAND_CHOSEN + state.sel_farmland] = 1.0
    if state.move_src >= 0:
        mv[_TU_MOVE_SOURCE + state.move_src] = 1.0
    if state.forced_dst >= 0:
        mv[_TU_FORCED_FARMLAND + state.forced_dst] = 1.0
    if state.swap_return >= 0:
        mv[_TU_SWAP_RETURNED + state.swap_return] = 1.0
    if state.pending_card >= 0:
        mv[_TU_CARD_PENDING + state.pending_card] = 1.0


_FLOAT32 = np.dtype(np.float32)
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
    x = steps * _S_STEPS
    mv[_STEPS_AT] = x if x < 1.0 else 1.0
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
