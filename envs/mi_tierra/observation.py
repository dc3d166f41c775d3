"""Mi Tierra's observation: one float32 vector in [0, 1] from the observer's seat.

Player slots are rotated so that slot 0 is the observer, then the following seats in seat order;
absent seats are zero. Everything is public (money, goods, farms, workers, development cards,
market cards in view, the event in force, which cards have left the pile) except the `knowledge`
block and the Clock Tower reordering context, which carry only the observer's own peeks.
`OBS_LAYOUT` lists the named blocks (name, offset, size); seeds/mi_tierra.md documents each value.

Speed: the public part is cached per `market_version`, each seat's row in two parts (per
`seat_versions[seat]` and `farm_versions[seat]`), and each observer's vector with the versions
it was built from, so that a later call rewrites only the parts whose versions moved; a call
then copies that vector and writes the few values of the current decision. Cached arrays are
never modified, so clones may share them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import components as C
from .actions import NUM_DECISIONS, NUM_STAGES, Decision, Stage

if TYPE_CHECKING:
    from .state import MiTierraState

MAX_SEATS = C.MAX_SEATS
MONEY_SCALE = 250.0
SCORE_SCALE = 500.0
GOODS_SCALE = 10.0
CARD_FEATURES = 31
SPACE_FEATURES = MAX_SEATS + 2  # occupant slot one-hot, pair, blocked
NUM_MARKET_SLOTS = 8  # Established 0-3, Closing 0-3
KNOWN_POSITIONS = C.CLOCK_PEEK

GAME_FIELDS = (
    ("player_count", 3, 1.0), ("round", 1, float(C.MAX_ROUNDS)), ("end_triggered", 1, 1.0),
    ("pile_ran_out", 1, 1.0), ("permanents_seen", 4, 1.0), ("event_in_force", 4, 1.0),
    ("pile_a_cards", 1, 23.0), ("pile_b_cards", 1, 26.0), ("top_position_exists", 4, 1.0),
    ("top_position_is_b", 4, 1.0), ("dev_deck_cards", 1, 15.0),
)
# The fields that change with money, goods and workers come first; the farm and development
# cards, which change more rarely, form the tail (FARM_FIELDS), cached on its own.
FAST_FIELDS = (
    ("present", 1, 1.0), ("is_acting", 1, 1.0), ("money", 1, MONEY_SCALE),
    ("score", 1, SCORE_SCALE), ("turn_position", MAX_SEATS, 1.0), ("money_stamp_rank", 1, 3.0),
    ("workers_owned", 1, 5.0), ("workers_in_hut", 1, 5.0), ("workers_on_farm", 1, 5.0),
    ("retired", 1, 1.0), ("on_lower_road", 1, 1.0), ("studies_used", 1, 1.0),
    ("goods", C.NUM_GOODS, GOODS_SCALE), ("cake", 1, 5.0), ("cloth", 1, 5.0),
    ("peeked_in_order", 1, 4.0), ("peeked_as_set", 1, 4.0), ("farm_workers", C.FARM_CELLS, 1.0),
)
FARM_FIELDS = (
    ("farm_tiles", C.FARM_CELLS * 6, 1.0), ("farm_animals", C.FARM_CELLS, 3.0),
    ("farm_animal_is_cow", C.FARM_CELLS, 1.0), ("development_cards", C.NUM_DEV_CARDS, 1.0),
)
PLAYER_FIELDS = FAST_FIELDS + FARM_FIELDS
CARD_FIELDS = (
    ("present", 1, 1.0), ("kind", 3, 1.0), ("outgoing", 1, 1.0), ("unit_price", C.NUM_GOODS, 20.0),
    ("limit", 1, 4.0), ("pack_contents", C.NUM_GOODS, 3.0), ("pack_payout", 1, 40.0),
)
CONTEXT_FIELDS = (
    ("die_face", 6, 1.0), ("pending_tile", 5, 1.0), ("market_space", 4, 1.0),
    ("sale_slot", NUM_MARKET_SLOTS, 1.0), ("sale_units", C.NUM_GOODS, 5.0),
    ("black_market_buys", 1, 3.0), ("reorder_placed", 1, 4.0), ("reorder_left", 1, 4.0),
    ("reorder_placed_private", 16, 1.0), ("reorder_left_private", 16, 1.0),
    ("dev_touched_slots", 4, 1.0), ("dev_cost", 1, 4.0), ("upkeep_due", 1, 4.0),
)
PLAYER_BLOCK = sum(n for _, n, _ in PLAYER_FIELDS)
GAME_BLOCK = sum(n for _, n, _ in GAME_FIELDS)
CONTEXT_BLOCK = sum(n for _, n, _ in CONTEXT_FIELDS)
assert sum(n for _, n, _ in CARD_FIELDS) == CARD_FEATURES

# Order matters for speed: the public part (game, board, markets, display, revealed) is one
# cached run; the player rows and the knowledge follow; the per-decision blocks close the vector.
_BLOCKS = (
    ("game", GAME_BLOCK),
    ("board", C.NUM_SPACES * SPACE_FEATURES + MAX_SEATS),
    ("markets", NUM_MARKET_SLOTS * CARD_FEATURES),
    ("display", len(C.DEV_SLOTS) * (1 + C.NUM_DEV_CARDS)),
    ("revealed", C.NUM_MARKET_CARDS),
    ("players", MAX_SEATS * PLAYER_BLOCK),
    ("knowledge", KNOWN_POSITIONS * C.NUM_MARKET_CARDS + C.NUM_MARKET_CARDS + 1),
    ("stage", NUM_STAGES),
    ("decision", NUM_DECISIONS),
    ("context", CONTEXT_BLOCK),
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


def _field_offsets(fields: tuple) -> dict[str, int]:
    out, offset = {}, 0
    for name, size, _ in fields:
        out[name] = offset
        offset += size
    return out


PLAYER_OFFSETS = _field_offsets(PLAYER_FIELDS)
GAME_OFFSETS = _field_offsets(GAME_FIELDS)
CONTEXT_OFFSETS = _field_offsets(CONTEXT_FIELDS)
CARD_OFFSETS = _field_offsets(CARD_FIELDS)

_OFF_GAME = SLICES["game"].start
_OFF_BOARD = SLICES["board"].start
_OFF_MARKETS = SLICES["markets"].start
_OFF_DISPLAY = SLICES["display"].start
_OFF_REVEALED = SLICES["revealed"].start
_OFF_PLAYERS = SLICES["players"].start
_OFF_KNOWLEDGE = SLICES["knowledge"].start
_OFF_STAGE = SLICES["stage"].start
_OFF_DECISION = SLICES["decision"].start
_OFF_CONTEXT = SLICES["context"].start
_KNOWLEDGE_SIZE = SLICES["knowledge"].stop - _OFF_KNOWLEDGE
# _updated copies the public blocks as two slices: game, then markets … revealed (up to players).
assert [name for name, _, _ in OBS_LAYOUT[:6]] == [
    "game", "board", "markets", "display", "revealed", "players",
]
_STAMP_RANK = PLAYER_OFFSETS["money_stamp_rank"]
_LOWER0 = C.ZONE_FIRST_SPACE[C.Z_LOWER_ROAD]
assert C.ZONES[C.Z_LOWER_ROAD].spaces == 4
_IS_ACTING = PLAYER_OFFSETS["is_acting"]
_EVENT_INDEX = {-1: 0, C.INFLATION: 1, C.STRIKE: 2, C.FRUIT_FLY: 3}
_FAST_SCALE = np.concatenate([np.full(n, 1.0 / s, dtype=np.float32) for _, n, s in FAST_FIELDS])
_FARM_SCALE = np.concatenate([np.full(n, 1.0 / s, dtype=np.float32) for _, n, s in FARM_FIELDS])
FAST_SIZE = len(_FAST_SCALE)
_TILE_HOT = tuple(tuple(1 if k == t else 0 for k in range(6)) for t in range(6))
_BOARD_SIZE = C.NUM_SPACES * SPACE_FEATURES + MAX_SEATS
_KIND_INDEX = {"simple": 0, "pack": 1, "generic": 2}


def _card_features(card: C.MarketCard) -> np.ndarray:
    row = np.zeros(CARD_FEATURES, dtype=np.float32)
    if card.kind == "event":
        return row
    o = CARD_OFFSETS
    row[o["present"]] = 1.0
    row[o["kind"] + _KIND_INDEX[card.kind]] = 1.0
    row[o["outgoing"]] = float(card.outgoing)
    for g in range(C.NUM_GOODS):
        row[o["unit_price"] + g] = C.card_unit_price(card, g, False) / 20.0
    if card.kind == "generic":
        row[o["limit"]] = 1.0  # no limit
    else:
        row[o["limit"]] = card.limit / 4.0
    if card.kind == "pack":
        for g, n in enumerate(card.contents):
            row[o["pack_contents"] + g] = n / 3.0
        row[o["pack_payout"]] = card.price / 40.0
    return np.minimum(row, 1.0)


CARD_FEATURE_TABLE = np.stack([_card_features(c) for c in C.MARKET_CARDS])


def _public_part(state: MiTierraState) -> np.ndarray:
    """Game facts, market slots, development display and revealed cards: observer-independent,
    cached per `state.market_version`."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    g = _OFF_GAME
    o = GAME_OFFSETS
    out[g + o["player_count"] + state.num_players - 2] = 1.0
    out[g + o["round"]] = min(state.round / C.MAX_ROUNDS, 1.0)
    out[g + o["end_triggered"]] = float(state.end_triggered)
    out[g + o["pile_ran_out"]] = float(state.pile_ran_out)
    out[g + o["permanents_seen"] + min(state.perms_seen, 3)] = 1.0
    out[g + o["event_in_force"] + _EVENT_INDEX[state.event_in_force()]] = 1.0
    pile = state.pile
    b_cards = sum(1 for c in pile if C.IS_DECK_B[c])
    out[g + o["pile_a_cards"]] = min((len(pile) - b_cards) / 23.0, 1.0)
    out[g + o["pile_b_cards"]] = b_cards / 26.0
    for k in range(min(KNOWN_POSITIONS, len(pile))):
        out[g + o["top_position_exists"] + k] = 1.0
        out[g + o["top_position_is_b"] + k] = float(C.IS_DECK_B[pile[-1 - k]])
    out[g + o["dev_deck_cards"]] = len(state.dev_deck) / 15.0
    for m, card in enumerate(state.est):
        if card >= 0:
            base = _OFF_MARKETS + m * CARD_FEATURES
            out[base:base + CARD_FEATURES] = CARD_FEATURE_TABLE[card]
    for m, card in enumerate(state.closing):
        if card >= 0:
            base = _OFF_MARKETS + (4 + m) * CARD_FEATURES
            out[base:base + CARD_FEATURES] = CARD_FEATURE_TABLE[card]
    for slot, dev in enumerate(state.display):
        if dev >= 0:
            base = _OFF_DISPLAY + slot * (1 + C.NUM_DEV_CARDS)
            out[base] = 1.0
            out[base + 1 + dev] = 1.0
    revealed = state.revealed
    for c in range(C.NUM_MARKET_CARDS):
        if revealed[c]:
            out[_OFF_REVEALED + c] = 1.0
    return out


def _board_block(state: MiTierraState, player: int) -> np.ndarray:
    """Occupants of the 37 spaces as observer-relative slots, pairs, blocked spaces, Black
    Market workers (the `board` block alone)."""
    out = np.zeros(_BOARD_SIZE, dtype=np.float32)
    n = state.num_players
    owner = state.space_owner
    pair = state.space_pair
    for i in range(C.NUM_SPACES):
        q = owner[i]
        if q >= 0:
            base = i * SPACE_FEATURES
            out[base + (q - player) % n] = 1.0
            if pair[i]:
                out[base + MAX_SEATS] = 1.0
    if n == 2:
        for i in C.BLOCKED_2P:
            out[i * SPACE_FEATURES + MAX_SEATS + 1] = 1.0
    bm_base = C.NUM_SPACES * SPACE_FEATURES
    for q in state.bm_workers:
        out[bm_base + (q - player) % n] += 0.2
    return out


def _fast_row(state: MiTierraState, q: int) -> np.ndarray:
    """Seat q's FAST_FIELDS without is_acting and the money-stamp rank (they depend on other
    seats), scaled; cached per `seat_versions[q]`."""
    turn = [0, 0, 0, 0]
    turn[state.order.index(q)] = 1
    owner = state.space_owner
    lower = q in (owner[_LOWER0], owner[_LOWER0 + 1], owner[_LOWER0 + 2], owner[_LOWER0 + 3])
    goods = state.goods[q]
    money = state.money[q]
    cake = state.cake[q]
    cloth = state.cloth[q]
    workers = state.farm_workers[q]
    score = money + C.CAKE_VALUE * cake + C.CLOTH_VALUE * cloth + sum(goods) // C.EXCHANGE_RATE
    row = np.array([
        1, 0, money, score, *turn, 0, state.owned[q], state.hut[q], sum(workers),
        state.retired[q], lower, state.studies_used[q], *goods, cake, cloth,
        len(state.known[q]), len(state.known_set[q]), *workers,
    ], dtype=np.float32)
    row *= _FAST_SCALE
    np.minimum(row, 1.0, out=row)
    return row


def _farm_row(state: MiTierraState, q: int) -> np.ndarray:
    """Seat q's FARM_FIELDS, scaled; cached per `farm_versions[q]`."""
    kinds = state.barn_kind[q]
    hot = _TILE_HOT
    row = np.array([
        *(x for t in state.tiles[q] for x in hot[t]), *state.barn_count[q],
        *(k == C.COW for k in kinds), *state.devs[q],
    ], dtype=np.float32)
    row *= _FARM_SCALE
    return row


def _knowledge(state: MiTierraState, player: int, out: np.ndarray) -> None:
    """The observer's own Clock Tower knowledge: the cards it knows at pile positions 0-3 (top
    first), the cards it knows only as a set, and how deep that set lies."""
    base = _OFF_KNOWLEDGE
    for k, card in enumerate(state.known[player]):
        out[base + k * C.NUM_MARKET_CARDS + card] = 1.0
    set_base = base + KNOWN_POSITIONS * C.NUM_MARKET_CARDS
    for card in state.known_set[player]:
        out[set_base + card] = 1.0
    out[set_base + C.NUM_MARKET_CARDS] = state.known_depth[player] / 4.0


def _seat_rows(state: MiTierraState, q: int) -> tuple[np.ndarray, np.ndarray]:
    """Seat q's fast and farm rows, from their per-seat caches."""
    fast = state._row_cache[q]
    version = state.seat_versions[q]
    if fast is None or fast[0] != version:
        fast = (version, _fast_row(state, q))
        state._row_cache[q] = fast
    farm = state._farm_cache[q]
    version = state.farm_versions[q]
    if farm is None or farm[0] != version:
        farm = (version, _farm_row(state, q))
        state._farm_cache[q] = farm
    return fast[1], farm[1]


def _write_stamp_ranks(state: MiTierraState, player: int, out: np.ndarray) -> None:
    n = state.num_players
    stamps = state.stamp
    for k in range(n):
        sq = stamps[(player + k) % n]
        later = 0
        for r in range(n):
            if stamps[r] > sq:  # markers above this seat's (G-08)
                later += 1
        out[_OFF_PLAYERS + k * PLAYER_BLOCK + _STAMP_RANK] = later / 3.0


def _public(state: MiTierraState) -> np.ndarray:
    public = state._public_cache
    if public is None or public[0] != state.market_version:
        public = (state.market_version, _public_part(state))
        state._public_cache = public
    return public[1]


def _material(state: MiTierraState, player: int) -> np.ndarray:
    """Everything but the per-decision blocks, for `player`, built from scratch."""
    out = _public(state).copy()
    out[_OFF_BOARD:_OFF_BOARD + _BOARD_SIZE] = _board_block(state, player)
    n = state.num_players
    for k in range(n):
        fast, farm = _seat_rows(state, (player + k) % n)
        base = _OFF_PLAYERS + k * PLAYER_BLOCK
        out[base:base + FAST_SIZE] = fast
        out[base + FAST_SIZE:base + PLAYER_BLOCK] = farm
    _write_stamp_ranks(state, player, out)
    _knowledge(state, player, out)
    return out


def _updated(state: MiTierraState, player: int, entry: tuple) -> np.ndarray:
    """`player`'s cached material brought up to date: only the public blocks, the board, the seat
    rows and the knowledge whose versions moved are rewritten (into a copy: cached arrays never
    change)."""
    market_version, board_version, seat_versions, farm_versions, old = entry
    out = old.copy()
    if market_version != state.market_version:
        public = _public(state)
        out[_OFF_GAME:_OFF_BOARD] = public[_OFF_GAME:_OFF_BOARD]
        out[_OFF_MARKETS:_OFF_PLAYERS] = public[_OFF_MARKETS:_OFF_PLAYERS]
    if board_version != state.board_version:
        out[_OFF_BOARD:_OFF_BOARD + _BOARD_SIZE] = _board_block(state, player)
    n = state.num_players
    seats_moved = False
    for k in range(n):
        q = (player + k) % n
        fast_moved = seat_versions[q] != state.seat_versions[q]
        farm_moved = farm_versions[q] != state.farm_versions[q]
        if fast_moved or farm_moved:
            fast, farm = _seat_rows(state, q)
            base = _OFF_PLAYERS + k * PLAYER_BLOCK
            if fast_moved:
                out[base:base + FAST_SIZE] = fast
                seats_moved = True
            if farm_moved:
                out[base + FAST_SIZE:base + PLAYER_BLOCK] = farm
    if seats_moved:
        _write_stamp_ranks(state, player, out)
    if seat_versions[player] != state.seat_versions[player]:
        out[_OFF_KNOWLEDGE:_OFF_KNOWLEDGE + _KNOWLEDGE_SIZE] = 0.0
        _knowledge(state, player, out)
    return out


def write_observation(state: MiTierraState, player: int, out: np.ndarray) -> None:
    """Fill `out` (float32, OBS_SIZE) with `player`'s view of `state`."""
    entry = state._obs_cache[player]
    market_version = state.market_version
    if entry is None:
        material = _material(state, player)
    elif (entry[0] == market_version and entry[1] == state.board_version
          and entry[2] == state.seat_versions and entry[3] == state.farm_versions):
        material = entry[4]
    else:
        material = _updated(state, player, entry)
    if entry is None or material is not entry[4]:
        state._obs_cache[player] = (market_version, state.board_version,
                                    list(state.seat_versions), list(state.farm_versions),
                                    material)
    out[:] = material
    if state.terminal:
        return
    current = state.current_player
    if current >= 0:
        k = (current - player) % state.num_players
        out[_OFF_PLAYERS + k * PLAYER_BLOCK + _IS_ACTING] = 1.0
    out[_OFF_STAGE + state.stage] = 1.0
    out[_OFF_DECISION + state.decision] = 1.0
    _context(state, player, out)


def _context(state: MiTierraState, player: int, out: np.ndarray) -> None:
    o = CONTEXT_OFFSETS
    base = _OFF_CONTEXT
    d = state.decision
    if state.die_face:
        out[base + o["die_face"] + state.die_face - 1] = 1.0
    if state.pending_tile > 0:
        out[base + o["pending_tile"] + state.pending_tile - 1] = 1.0
    if d in (Decision.MARKET_TURN, Decision.MARKET_SALE):
        out[base + o["market_space"] + state.qpos] = 1.0
    if d == Decision.MARKET_SALE:
        out[base + o["sale_slot"] + state.sale_slot] = 1.0
        for g, units in enumerate(state.sale_units):
            if units:
                out[base + o["sale_units"] + g] = min(units / 5.0, 1.0)
    if d == Decision.BLACK_MARKET:
        out[base + o["black_market_buys"]] = state.bm_buys / 3.0
    if d == Decision.CLOCK_ORDER:
        out[base + o["reorder_placed"]] = len(state.reorder_done) / 4.0
        out[base + o["reorder_left"]] = len(state.reorder_left) / 4.0
        if player == state.current_player:  # private: only the reordering player sees it
            known = state.known[player]
            for k, card in enumerate(state.reorder_done):
                out[base + o["reorder_placed_private"] + 4 * k + known.index(card)] = 1.0
            for k, card in enumerate(state.reorder_left):
                out[base + o["reorder_left_private"] + 4 * k + known.index(card)] = 1.0
    if d == Decision.DEVELOPMENT:
        spot = state.queue[state.qpos] - C.ZONE_FIRST_SPACE[C.Z_DEV]
        for s in C.DEV_SPOT_TOUCHES[spot]:
            out[base + o["dev_touched_slots"] + s] = 1.0
        out[base + o["dev_cost"]] = state.dev_cost / 4.0
    if d == Decision.UPKEEP:
        due = max(0, state.owned[state.current_player] - C.FREE_WORKERS) * C.UPKEEP_PER_EXTRA
        out[base + o["upkeep_due"]] = due / 4.0


assert Stage.GAME_OVER == NUM_STAGES - 1
